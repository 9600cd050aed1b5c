/*
 * Building min/max cost pairs, shared by the model's cost files (cost.c for
 * omp-ext's algorithms, baseline.c for the runtimes it is compared with).
 * Private to the model library.
 */
#ifndef OMPEXT_MODEL_COST_PAIR_H
#define OMPEXT_MODEL_COST_PAIR_H

#include "model.h"

#include <math.h>

/* What a cost function returns for an invalid argument (model.h). */
#define INVALID_COST cost(NAN, NAN)

static inline ompext_model_cost_t cost(double min, double max) {
  ompext_model_cost_t c = {min, max};
  return c;
}

/* Two steps one after the other: their best cases and worst cases add. */
static inline ompext_model_cost_t add(ompext_model_cost_t a,
                                      ompext_model_cost_t b) {
  return cost(a.min + b.min, a.max + b.max);
}

/* 8-byte items in a reduction of `lines` lines: a one-line reduction is
   taken as one item (a scalar), a longer one as an array of doubles. */
static inline double ompext_model_reduce_items(const ompext_model_params_t *p,
                                               double lines) {
  return lines <= 1 ? 1 : lines * p->line_bytes / 8;
}

#endif
