/*
 * What both fuzz targets check of the plans the plugin would build: for a
 * few team sizes, fitting the machine and oversubscribed, every value of
 * the plan lies within its bound (omp-ext/src/base/bounds.h), the contract the
 * algorithms rely on.  A violation aborts, so libFuzzer reports the input.
 */
#ifndef OMPEXT_FUZZ_PLAN_BOUNDS_H
#define OMPEXT_FUZZ_PLAN_BOUNDS_H

#include "plan.h"
#include "unit/plan_bounds.h"

/* Aborts with what and where when cond is false. */
#define FUZZ_REQUIRE(cond, ...)                                                \
  do {                                                                         \
    if (!(cond))                                                               \
      fuzz_fail(__FILE__, __LINE__, __VA_ARGS__);                              \
  } while (0)

_Noreturn void fuzz_fail(const char *file, int line, const char *fmt, ...);

/* Builds and checks the plans of planner for the team sizes, each fitting
   and oversubscribed; the OMPEXT_VERBOSE line of each is formatted too. */
void fuzz_check_plans(const ompext_planner_t *planner);

#endif /* OMPEXT_FUZZ_PLAN_BOUNDS_H */
