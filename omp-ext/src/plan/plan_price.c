/*
 * Pricing of the plan's candidates and of the runtime's own collectives
 * (see plan_price.h).  Each function prices the code that runs: the
 * barriers by their files' equations (cost.c), the reduction as
 * reduce_tree.c gathers it and fork/join on the tree forkjoin_tree.c
 * builds (knomial.c), the broadcast by the seed paper's tree and flat
 * equations; stock by baseline.c.
 */
#include "plan_price.h"

#include "ompext/abi.h"
#include "plan.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const ompext_model_cost_t invalid = {NAN, NAN};

ompext_model_cost_t ompext_price_stock(const ompext_model_params_t *mp,
                                       ompext_model_op_t op, int n,
                                       double lines) {
  /* libomp's reduction: atomics up to its cutoff, else its tree, priced as
     the plugin's tree of fan-in 2 (the same gather, fold and release). */
  if (op == OMPEXT_MODEL_OP_REDUCE) {
    static const int binomial[1] = {2};
    return n <= OMPEXT_MODEL_LIBOMP_ATOMIC_CUTOFF
               ? ompext_model_reduce_atomic_lines(mp, n, lines)
               : ompext_model_reduce_gathered(mp, n, binomial, 1, lines);
  }
  ompext_model_baseline_cost_t out;
  const long whole = lines < 1 ? 1 : (long)ceil(lines);
  if (ompext_model_baseline_cost(mp, OMPEXT_MODEL_BASELINE_STOCK, op, n, whole,
                                 &out) != 0)
    return invalid;
  return out.cost;
}

ompext_model_cost_t ompext_price_barrier(const ompext_model_params_t *mp, int n,
                                         const ompext_barrier_plan_t *b) {
  switch (b->alg) {
  case OMPEXT_BARRIER_DISSEMINATION:
    return ompext_model_barrier_dissemination(mp, n, b->dissem_m,
                                              OMPEXT_MODEL_ROUNDS_ALGORITHM);
  case OMPEXT_BARRIER_TREE:
    return ompext_model_barrier_tree(mp, n, b->tree_k);
  case OMPEXT_BARRIER_TOURNAMENT:
    return ompext_model_barrier_tournament(mp, n, b->release_k);
  case OMPEXT_BARRIER_CENTRALIZED:
    return ompext_model_barrier_centralized(mp, n);
  case OMPEXT_BARRIER_STOCK:
    return ompext_price_stock(mp, OMPEXT_MODEL_OP_BARRIER, n, 1);
  default:
    return invalid;
  }
}

/* The broadcast of a copyprivate as bcast_tree.c runs it (derived).  Each
   sender fills and signals its k children's own lines in turn, S(k).
   Relaying, the k children then copy the N lines from the sender's data at
   once, the flat broadcast's T_copy for k readers (Eq. 4.10), b + c*(k-1)
   + o*N, level after level; copying from the root, the notification goes
   down the tree and all n-1 receivers copy from the root, b + c*(n-2) +
   o*N once.  The team's barrier after it closes the broadcast (no
   notification back, which the seed's equations count), so a copyprivate
   is this plus the barrier, as stock's is its pointer and copy between two
   barriers (baseline.c). */
ompext_model_cost_t ompext_price_bcast(const ompext_model_params_t *mp, int n,
                                       int fanout, int from_root,
                                       double lines) {
  if (n < 2 || fanout < 1 || lines < 1)
    return invalid;
  const int k = fanout < n - 1 ? fanout : n - 1;
  const int depth = ompext_model_uniform_depth(n, k);
  const ompext_model_cost_t s = ompext_model_signal(mp, k);
  if (from_root) {
    const double copy = mp->b + mp->c * (n - 2) + mp->o * lines;
    return (ompext_model_cost_t){depth * s.min + copy, depth * s.max + copy};
  }
  const double copy = mp->b + mp->c * (k - 1) + mp->o * lines;
  return (ompext_model_cost_t){depth * (s.min + copy), depth * (s.max + copy)};
}

ompext_model_cost_t ompext_price_forkjoin(const ompext_model_params_t *mp,
                                          int n, int radix, int heap_k) {
  return radix >= 2 ? ompext_model_forkjoin_knomial(mp, n, radix)
                    : ompext_model_forkjoin_tree(mp, n, heap_k);
}

ompext_model_cost_t ompext_price_reduce(const ompext_model_params_t *mp, int n,
                                        int method, const int *fanin,
                                        int levels, double lines) {
  switch (method) {
  case OMPEXT_REDUCE_METHOD_TREE:
    return ompext_model_reduce_gathered(mp, n, fanin, levels, lines);
  case OMPEXT_REDUCE_METHOD_ATOMIC:
    return ompext_model_reduce_atomic_lines(mp, n, lines);
  case OMPEXT_REDUCE_METHOD_CRITICAL:
    return ompext_model_reduce_critical(mp, n, lines);
  default:
    return invalid;
  }
}

/* ---- a built plan --------------------------------------------------------- */

void ompext_plan_offline(const ompext_model_params_t *params,
                         ompext_config_t *cfg, ompext_machine_t *machine,
                         FILE *warn, ompext_planner_t *out) {
  ompext_config_parse(cfg, warn);
  memset(machine, 0, sizeof(*machine));
  machine->params = *params;
  snprintf(machine->source, sizeof(machine->source), "%s", params->name);
  *out = (ompext_planner_t){cfg, machine, 0, OMPEXT_MODEL_LIBOMP_BRANCH_BITS,
                            OMPEXT_MODEL_LIBOMP_BRANCH_BITS};
}

/* The size class of a reduction of so many lines (reduce_choice.h): the
   largest c with 2^c lines at most that. */
static int size_class(double lines) {
  int c = 0;
  while (c + 1 < OMPEXT_REDUCE_CLASSES && (double)(1L << (c + 1)) <= lines)
    ++c;
  return c;
}

/* The method a site of every method allowed gets for so many lines. */
static int reduce_method_of(const ompext_plan_t *plan, double lines) {
  const unsigned all = OMPEXT_REDUCE_ALLOW_ATOMIC | OMPEXT_REDUCE_ALLOW_TREE;
  if (plan->reduce_sizes.sized)
    return plan->reduce_sizes.best[size_class(lines)][all];
  return plan->reduce_tree ? OMPEXT_REDUCE_METHOD_TREE
                           : OMPEXT_REDUCE_METHOD_ATOMIC;
}

static void describe_fanins(const int *fanin, int levels, char *buf,
                            size_t cap) {
  size_t used = 0;
  buf[0] = '\0';
  for (int l = 0; l < levels && used < cap; ++l)
    used += (size_t)snprintf(buf + used, cap - used, "%s%d", l ? "," : "",
                             fanin[l]);
}

/* A reduction's method in words: the tree as "tree(k=" and its fan-ins,
   then tail. */
static void describe_reduce(const ompext_plan_t *plan, int method,
                            const char *tail, char *what, size_t cap) {
  if (method != OMPEXT_REDUCE_METHOD_TREE) {
    snprintf(what, cap, "%s", ompext_reduce_method_name(method));
    return;
  }
  char fanin[OMPEXT_MAX_LEVELS * 4 + 1];
  describe_fanins(plan->reduce_fanin, plan->reduce_levels, fanin,
                  sizeof(fanin));
  snprintf(what, cap, "tree(k=%s%s", fanin, tail);
}

ompext_bcast_shape_t ompext_plan_bcast_shape(const ompext_model_params_t *mp,
                                             const ompext_plan_t *plan,
                                             double lines) {
  const int is_long = ompext_model_tn(mp, lines) >= (double)plan->bcast.long_ns;
  return (ompext_bcast_shape_t){
      is_long ? plan->bcast.long_fanout : plan->bcast.short_fanout,
      is_long ? plan->bcast.long_from_root : plan->bcast.short_from_root};
}

/* A flat copyprivate in words: its broadcast, then its close. */
static void describe_copyprivate(const ompext_plan_t *plan,
                                 ompext_bcast_shape_t shape, const char *close,
                                 char *what, size_t cap) {
  if (shape.fanout >= plan->nproc - 1)
    snprintf(what, cap, "flat, then %s", close);
  else
    snprintf(what, cap, "tree(k=%d%s), then %s", shape.fanout,
             shape.from_root ? ", copies from the root" : "", close);
}

static ompext_model_cost_t price_of_plan(const ompext_model_params_t *mp,
                                         const ompext_plan_t *plan,
                                         ompext_model_op_t op, double lines,
                                         char *what, size_t cap) {
  const int n = plan->nproc;
  switch (op) {
  case OMPEXT_MODEL_OP_BARRIER:
    ompext_plan_describe_barrier(&plan->barrier, what, cap);
    return ompext_price_barrier(mp, n, &plan->barrier);
  case OMPEXT_MODEL_OP_REDUCE: {
    const int method = reduce_method_of(plan, lines);
    describe_reduce(plan, method, ")", what, cap);
    return ompext_price_reduce(mp, n, method, plan->reduce_fanin,
                               plan->reduce_levels, lines);
  }
  case OMPEXT_MODEL_OP_COPYPRIVATE: {
    const ompext_bcast_shape_t shape = ompext_plan_bcast_shape(mp, plan, lines);
    char barrier[80] = "barrier ";
    ompext_plan_describe_barrier(&plan->barrier, barrier + strlen(barrier),
                                 sizeof(barrier) - strlen(barrier));
    describe_copyprivate(plan, shape, barrier, what, cap);
    const ompext_model_cost_t b =
        ompext_price_bcast(mp, n, shape.fanout, shape.from_root, lines);
    const ompext_model_cost_t close =
        ompext_price_barrier(mp, n, &plan->barrier);
    return (ompext_model_cost_t){b.min + close.min, b.max + close.max};
  }
  case OMPEXT_MODEL_OP_FORK_JOIN:
    if (plan->forkjoin_radix >= 2)
      snprintf(what, cap, "k-nomial(r=%d)", plan->forkjoin_radix);
    else
      snprintf(what, cap, "tree(k=%d)", plan->forkjoin_fanout);
    return ompext_price_forkjoin(mp, n, plan->forkjoin_radix,
                                 plan->forkjoin_fanout);
  default:
    return invalid;
  }
}

/* Whether the plugin serves op for this plan. */
static int serves(const ompext_plan_t *plan, ompext_model_op_t op) {
  switch (op) {
  case OMPEXT_MODEL_OP_BARRIER:
    return plan->served.plain_barrier;
  case OMPEXT_MODEL_OP_REDUCE:
    return plan->served.reduce;
  case OMPEXT_MODEL_OP_COPYPRIVATE:
    return plan->served.bcast;
  case OMPEXT_MODEL_OP_FORK_JOIN:
    return plan->served.forkjoin;
  default:
    return 0;
  }
}

int ompext_plan_price(const ompext_planner_t *planner,
                      const ompext_plan_t *plan, ompext_model_op_t op,
                      double lines, ompext_plan_price_t *out) {
  memset(out, 0, sizeof(*out));
  if (!planner->machine || !plan->from_model || plan->oversubscribed ||
      plan->nproc < 2 || !serves(plan, op) || lines < 1)
    return -1;
  const ompext_model_params_t *mp = &planner->machine->params;
  out->stock = ompext_price_stock(mp, op, plan->nproc, lines);
  out->ext = price_of_plan(mp, plan, op, lines, out->what, sizeof(out->what));
  out->stock_path =
      op == OMPEXT_MODEL_OP_BARRIER && plan->barrier.alg == OMPEXT_BARRIER_STOCK;
  return isnan(out->ext.min) || isnan(out->stock.min) ? -1 : 0;
}

static ompext_model_cost_t placed_plan(const ompext_planner_t *planner,
                                       const ompext_plan_t *plan,
                                       const ompext_model_topology_t *t,
                                       ompext_model_op_t op, double lines) {
  switch (op) {
  case OMPEXT_MODEL_OP_BARRIER:
    return ompext_price_barrier_placed(planner, plan, t);
  case OMPEXT_MODEL_OP_REDUCE:
    return ompext_price_reduce_placed(planner, plan, t,
                                      reduce_method_of(plan, lines), lines);
  case OMPEXT_MODEL_OP_COPYPRIVATE:
    return ompext_price_copyprivate_placed(planner, plan, t, lines);
  case OMPEXT_MODEL_OP_FORK_JOIN:
    return ompext_price_forkjoin_placed(planner, plan, t);
  default:
    return invalid;
  }
}

/* What runs on the leaders (as hier.c prices it), in words. */
static void describe_on_domains(const ompext_planner_t *planner,
                                const ompext_plan_t *plan,
                                const ompext_model_topology_t *t,
                                ompext_model_op_t op, double lines, char *what,
                                size_t cap) {
  const int largest = ompext_largest_domain(t, plan->nproc);
  switch (op) {
  case OMPEXT_MODEL_OP_BARRIER: {
    ompext_domain_plan_t d;
    if (ompext_plan_domains(planner, plan, largest, t->packages, &d) == 0)
      snprintf(what, cap, "leaders: tree(k=%d) in each, dissemination(m=%d)",
               d.inside_tree_k, d.across.dissem_m);
    return;
  }
  case OMPEXT_MODEL_OP_REDUCE:
    if (reduce_method_of(plan, lines) == OMPEXT_REDUCE_METHOD_TREE) {
      char tree[sizeof(((ompext_plan_price_t *)0)->what)];
      describe_reduce(plan, OMPEXT_REDUCE_METHOD_TREE,
                      ") in each, then among them", tree, sizeof(tree));
      snprintf(what, cap, "leaders: %s", tree);
    }
    return;
  case OMPEXT_MODEL_OP_COPYPRIVATE:
    snprintf(
        what, cap, "leaders: tree(k=%d), then the barrier",
        ompext_plan_bcast_shape(&planner->machine->params, plan, lines).fanout);
    return;
  case OMPEXT_MODEL_OP_FORK_JOIN:
    snprintf(what, cap, "leaders: tree(k=%d) in each", plan->forkjoin_fanout);
    return;
  default:
    return;
  }
}

int ompext_plan_price_on(const ompext_planner_t *planner,
                         const ompext_plan_t *plan,
                         const ompext_model_topology_t *topo,
                         ompext_model_op_t op, double lines,
                         ompext_plan_price_t *out) {
  if (ompext_plan_price(planner, plan, op, lines, out) != 0)
    return -1;
  if (!ompext_model_topology_spans(topo, plan->nproc))
    return 0;
  if (plan->nproc > topo->packages * topo->cores)
    return -1;
  const ompext_model_params_t *mp = &planner->machine->params;
  out->stock = ompext_price_stock_placed(mp, topo, op, plan->nproc, lines);
  out->ext = placed_plan(planner, plan, topo, op, lines);
  if (plan->on_domains[op] && !out->stock_path)
    describe_on_domains(planner, plan, topo, op, lines, out->what,
                        sizeof(out->what));
  else if (op == OMPEXT_MODEL_OP_COPYPRIVATE &&
           plan->on_domains[OMPEXT_MODEL_OP_BARRIER] && plan->domain_barrier &&
           plan->barrier.alg != OMPEXT_BARRIER_STOCK)
    /* A flat broadcast closed by the barrier the team runs: the leaders'. */
    describe_copyprivate(plan, ompext_plan_bcast_shape(mp, plan, lines),
                         "the leaders' barrier", out->what, sizeof(out->what));
  return isnan(out->ext.min) || isnan(out->stock.min) ? -1 : 0;
}
