/*
 * A plan's collectives priced on a topology, for a team spanning its
 * domains (see plan.h ompext_plan_price_on): each collective as the team
 * runs it, on the domains (one leader per domain, hier.c's equations) or
 * flat (placed_flat.c's walks, every transfer at R_R or R_X by where its
 * threads sit), and the runtime's own on the same topology (baseline.c;
 * its reduction as the plugin's fan-in 2 tree, as plan_price.c takes it on
 * one package).  A flat broadcast: its signals walked down its heap, its
 * copies as plan_price.c's with the first line of each across (derived,
 * as hier.c prices the copies across).
 */
#include "plan_price.h"

#include "plan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const ompext_model_cost_t invalid = {NAN, NAN};

static ompext_model_cost_t sum(ompext_model_cost_t a, ompext_model_cost_t b) {
  return (ompext_model_cost_t){a.min + b.min, a.max + b.max};
}

ompext_model_cost_t ompext_price_stock_placed(const ompext_model_params_t *mp,
                                              const ompext_model_topology_t *t,
                                              ompext_model_op_t op, int n,
                                              double lines) {
  if (op == OMPEXT_MODEL_OP_REDUCE) {
    static const int binomial[1] = {2};
    return n <= OMPEXT_MODEL_LIBOMP_ATOMIC_CUTOFF
               ? ompext_model_placed_reduce_shared(mp, t, n, lines, 0)
               : ompext_model_placed_reduce_gathered(mp, t, n, binomial, 1,
                                                     lines);
  }
  ompext_model_baseline_cost_t out;
  const long whole = lines < 1 ? 1 : (long)ceil(lines);
  if (ompext_model_baseline_cost_placed(mp, t, OMPEXT_MODEL_BASELINE_STOCK, op,
                                        n, whole, &out) != 0)
    return invalid;
  return out.cost;
}

ompext_model_cost_t ompext_price_barrier_placed(
    const ompext_planner_t *planner, const ompext_plan_t *plan,
    const ompext_model_topology_t *t) {
  const ompext_model_params_t *mp = &planner->machine->params;
  const int n = plan->nproc;
  const ompext_barrier_plan_t *b = &plan->barrier;
  if (b->alg == OMPEXT_BARRIER_STOCK)
    return ompext_price_stock_placed(mp, t, OMPEXT_MODEL_OP_BARRIER, n, 1);
  if (plan->on_domains[OMPEXT_MODEL_OP_BARRIER]) {
    ompext_domain_plan_t d;
    const int largest = ompext_largest_domain(t, n);
    if (ompext_plan_domains(planner, plan, largest, t->packages, &d) != 0 ||
        d.across.alg != OMPEXT_BARRIER_DISSEMINATION)
      return invalid;
    return ompext_model_hier_barrier(mp, t, n, d.inside_tree_k,
                                     d.across.dissem_m);
  }
  if (b->alg == OMPEXT_BARRIER_DISSEMINATION)
    return ompext_model_placed_dissemination(mp, t, n, b->dissem_m);
  /* The other barriers flat: every transfer taken across. */
  const ompext_model_params_t x = ompext_model_params_across(mp);
  return ompext_price_barrier(&x, n, b);
}

ompext_model_cost_t ompext_price_reduce_placed(
    const ompext_planner_t *planner, const ompext_plan_t *plan,
    const ompext_model_topology_t *t, int method, double lines) {
  const ompext_model_params_t *mp = &planner->machine->params;
  const int n = plan->nproc;
  switch (method) {
  case OMPEXT_REDUCE_METHOD_TREE:
    return plan->on_domains[OMPEXT_MODEL_OP_REDUCE]
               ? ompext_model_hier_reduce_tree(mp, t, n, plan->reduce_fanin,
                                               plan->reduce_levels, lines)
               : ompext_model_placed_reduce_gathered(
                     mp, t, n, plan->reduce_fanin, plan->reduce_levels, lines);
  case OMPEXT_REDUCE_METHOD_ATOMIC:
    return ompext_model_placed_reduce_shared(mp, t, n, lines, 0);
  case OMPEXT_REDUCE_METHOD_CRITICAL:
    return ompext_model_placed_reduce_shared(mp, t, n, lines, 1);
  default:
    return invalid;
  }
}

ompext_model_cost_t ompext_price_bcast_placed(const ompext_model_params_t *mp,
                                              const ompext_model_topology_t *t,
                                              int n, int fanout, int from_root,
                                              double lines) {
  if (n < 2 || fanout < 1 || lines < 1)
    return invalid;
  const int k = fanout < n - 1 ? fanout : n - 1;
  const ompext_model_cost_t signals =
      ompext_model_placed_release_heap(mp, t, n, k);
  /* The copies: once from the root, or level after level relaying; each
     with its first line across (the readers of other packages). */
  const double copy = mp->b + mp->r_x - mp->r_r + mp->o * lines;
  const ompext_model_cost_t copies =
      from_root ? (ompext_model_cost_t){copy + mp->c * (n - 2),
                                        copy + mp->c * (n - 2)}
                : (ompext_model_cost_t){
                      ompext_model_uniform_depth(n, k) * (copy + mp->c * (k - 1)),
                      ompext_model_uniform_depth(n, k) *
                          (copy + mp->c * (k - 1))};
  return sum(signals, copies);
}

ompext_model_cost_t ompext_price_copyprivate_placed(
    const ompext_planner_t *planner, const ompext_plan_t *plan,
    const ompext_model_topology_t *t, double lines) {
  const ompext_model_params_t *mp = &planner->machine->params;
  const int n = plan->nproc;
  const ompext_bcast_shape_t shape = ompext_plan_bcast_shape(mp, plan, lines);
  ompext_model_cost_t b;
  if (plan->on_domains[OMPEXT_MODEL_OP_COPYPRIVATE])
    b = ompext_model_hier_bcast(mp, t, n, shape.fanout, lines);
  else
    b = ompext_price_bcast_placed(mp, t, n, shape.fanout, shape.from_root,
                                  lines);
  return sum(b, ompext_price_barrier_placed(planner, plan, t));
}

ompext_model_cost_t ompext_price_forkjoin_placed(
    const ompext_planner_t *planner, const ompext_plan_t *plan,
    const ompext_model_topology_t *t) {
  const ompext_model_params_t *mp = &planner->machine->params;
  const int n = plan->nproc;
  if (plan->on_domains[OMPEXT_MODEL_OP_FORK_JOIN])
    return ompext_model_hier_fork_join(mp, t, n, plan->forkjoin_fanout);
  return plan->forkjoin_radix >= 2
             ? ompext_model_placed_forkjoin_knomial(mp, t, n,
                                                    plan->forkjoin_radix)
             : ompext_model_placed_forkjoin_heap(mp, t, n,
                                                 plan->forkjoin_fanout);
}
