/*
 * What a plan's collectives cost by the model, against what the runtime's
 * own collectives cost (libomp as shipped, the model's "stock" baseline),
 * from the same machine parameters.  plan.c prices its candidates with it
 * and applies the rule (docs/ARCHITECTURE.md, "Never slower"); ompext-model
 * --plan and the tests price a built plan with ompext_plan_price, the same
 * code the plugin runs.
 */
#ifndef OMPEXT_PLAN_PRICE_H
#define OMPEXT_PLAN_PRICE_H

#include "barrier.h"
#include "model.h"

/* Costs within this relative margin count as equal (the optimizer's). */
#define OMPEXT_PRICE_EPSILON 1e-9

/* The rule: ext runs a collective where its predicted min is no more than
   stock's. */
static inline int ompext_price_no_slower(ompext_model_cost_t ext,
                                         ompext_model_cost_t stock) {
  return ext.min <= stock.min + OMPEXT_PRICE_EPSILON * stock.min;
}

/* The runtime's own collective (op: barrier, reduce, copyprivate,
   fork_join) for a team of n and data of so many lines. */
ompext_model_cost_t ompext_price_stock(const ompext_model_params_t *mp,
                                       ompext_model_op_t op, int n,
                                       double lines);
/* A barrier plan (alg STOCK: the runtime's). */
ompext_model_cost_t ompext_price_barrier(const ompext_model_params_t *mp, int n,
                                         const ompext_barrier_plan_t *b);
/* The broadcast tree of one fan-out (nproc - 1 or more: flat), relaying
   copies or (from_root) every receiver copying from the root. */
ompext_model_cost_t ompext_price_bcast(const ompext_model_params_t *mp, int n,
                                       int fanout, int from_root,
                                       double lines);
/* Fork/join: the k-nomial tree of radix (>= 2), else the k-ary heap of
   heap_k. */
ompext_model_cost_t ompext_price_forkjoin(const ompext_model_params_t *mp,
                                          int n, int radix, int heap_k);
/* A reduction by one method (enum ompext_reduce_method: the tree over the
   fan-ins, leaves first, atomics or the lock). */
ompext_model_cost_t ompext_price_reduce(const ompext_model_params_t *mp, int n,
                                        int method, const int *fanin,
                                        int levels, double lines);

/* The broadcast a copy of so many lines takes under a plan: the long or
   the short copy's fan-out, relaying or copying from the root. */
struct ompext_plan;
typedef struct ompext_bcast_shape {
  int fanout;
  int from_root;
} ompext_bcast_shape_t;
ompext_bcast_shape_t ompext_plan_bcast_shape(const ompext_model_params_t *mp,
                                             const struct ompext_plan *plan,
                                             double lines);

/* The model's largest domain for a team of n on t (thread t on core t). */
static inline int ompext_largest_domain(const ompext_model_topology_t *t,
                                        int n) {
  return n < t->cores ? n : t->cores;
}

/* On a topology, for a team spanning its domains (plan_placed.c): the
   runtime's own collective, and the plan's as the team runs it (each
   collective on the domains or flat, by plan->on_domains). */
struct ompext_planner;
ompext_model_cost_t ompext_price_stock_placed(const ompext_model_params_t *mp,
                                              const ompext_model_topology_t *t,
                                              ompext_model_op_t op, int n,
                                              double lines);
/* The flat broadcast of one fan-out on t (plan_placed.c). */
ompext_model_cost_t ompext_price_bcast_placed(const ompext_model_params_t *mp,
                                              const ompext_model_topology_t *t,
                                              int n, int fanout, int from_root,
                                              double lines);
ompext_model_cost_t ompext_price_barrier_placed(
    const struct ompext_planner *planner, const struct ompext_plan *plan,
    const ompext_model_topology_t *t);
/* method: enum ompext_reduce_method. */
ompext_model_cost_t ompext_price_reduce_placed(
    const struct ompext_planner *planner, const struct ompext_plan *plan,
    const ompext_model_topology_t *t, int method, double lines);
ompext_model_cost_t ompext_price_copyprivate_placed(
    const struct ompext_planner *planner, const struct ompext_plan *plan,
    const ompext_model_topology_t *t, double lines);
ompext_model_cost_t ompext_price_forkjoin_placed(
    const struct ompext_planner *planner, const struct ompext_plan *plan,
    const ompext_model_topology_t *t);

#endif /* OMPEXT_PLAN_PRICE_H */
