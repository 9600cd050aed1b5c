/*
 * The plan checks of the fuzz targets (see plan_bounds.h): the contract
 * tests/unit/plan_bounds.c states, the one check_plan checks for the
 * built-in parameter sets.  The
 * team sizes cover a few threads, each side of the fan-in bound and a
 * larger team.  None is 1: the runtime prepares a team context in its fork
 * barrier, which a team of one thread never reaches (and such a team needs
 * no reduction level).
 */
#include "plan_bounds.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int team_sizes[] = {2, 3, 5, 8, 17, 33, 64, 66, 130};

void fuzz_fail(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s:%d: ", file, line);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort();
}

static void check_plan(const ompext_plan_t *p, int n, int oversubscribed) {
  FUZZ_REQUIRE(p->nproc == n && p->oversubscribed == oversubscribed,
               "n=%d: plan for %d threads", n, p->nproc);
  char why[160];
  FUZZ_REQUIRE(plan_bounds_check(p, why, sizeof(why)) == 0, "n=%d%s: %s", n,
               oversubscribed ? " oversubscribed" : "", why);
}

void fuzz_check_plans(const ompext_planner_t *planner) {
  for (size_t i = 0; i < sizeof(team_sizes) / sizeof(team_sizes[0]); ++i) {
    for (int oversubscribed = 0; oversubscribed <= 1; ++oversubscribed) {
      ompext_plan_t plan;
      memset(&plan, 0xa5, sizeof(plan)); /* nothing left over is taken */
      ompext_plan_build(planner, team_sizes[i], oversubscribed, &plan);
      check_plan(&plan, team_sizes[i], oversubscribed);
      char line[1024];
      ompext_plan_describe(planner, &plan, line, sizeof(line));
    }
  }
}
