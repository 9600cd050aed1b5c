/*
 * The contract between the plan builder and the algorithms: every value of
 * a plan lies within its bound (omp-ext/src/base/bounds.h), the algorithm and
 * close are ones the plan may pick, and the long-copy time is positive.
 * Checked by tests/unit/check_plan.c over the built-in parameter sets and
 * by the fuzz targets (tests/fuzz) over any environment or file.
 */
#ifndef OMPEXT_TEST_PLAN_BOUNDS_H
#define OMPEXT_TEST_PLAN_BOUNDS_H

#include "plan.h"

#include <stddef.h>

/* 0 when p keeps the contract; else -1 and what it breaks in why. */
int plan_bounds_check(const ompext_plan_t *p, char *why, size_t cap);

#endif /* OMPEXT_TEST_PLAN_BOUNDS_H */
