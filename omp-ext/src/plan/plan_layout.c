/*
 * The rule on a layout (see plan.h ompext_plan_lay_out): a team whose
 * threads span several domains can run each collective with one leader
 * per domain or flat, and its barrier can go back to the runtime.  Each
 * collective takes the candidate of least predicted cost on the team's
 * topology (plan_placed.c), the runtime's own shapes among the flat ones
 * (the fan-in 2 reduction tree, the radix-4 k-nomial fork/join), so that
 * ext's best is never predicted above stock there; the barrier, which has
 * no such shape, goes to the runtime where its best is predicted slower.
 *
 * A barrier and fork/join have no size: the least min wins.  The
 * reduction and the copyprivate are weighed over sizes: the candidate
 * whose worst ratio to stock over the sizes is least, the reduction with
 * the best method for each size class (the tree, atomics or the lock) and
 * the copyprivate at 8 B to 1 MiB, as the plan's sweep checks it.
 */
#include "plan.h"

#include "bounds.h"
#include "plan_price.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The copyprivate sizes the rule weighs, in bytes. */
static const double copy_bytes[] = {8, 512, 4096, 65536, 1048576};
#define COPY_SIZES (sizeof(copy_bytes) / sizeof(copy_bytes[0]))

static double lines_of(const ompext_model_params_t *mp, double bytes) {
  const double lines = ceil(bytes / mp->line_bytes);
  return lines < 1 ? 1 : lines;
}

static int rule_applies(const ompext_planner_t *planner,
                        const ompext_plan_t *plan,
                        const ompext_model_topology_t *t) {
  return planner->machine && plan->from_model && !plan->oversubscribed &&
         plan->served.hierarchy == OMPEXT_HIERARCHY_AUTO &&
         ompext_model_topology_spans(t, plan->nproc) &&
         plan->nproc <= t->packages * t->cores;
}

static void decided(ompext_plan_t *plan, ompext_model_op_t op, int on_domains,
                    double ratio) {
  plan->on_domains[op] = (unsigned char)on_domains;
  plan->stock_ratio[op] = ratio;
}

/* ---- barrier ------------------------------------------------------------- */

static void lay_out_barrier(const ompext_planner_t *planner,
                            ompext_plan_t *plan,
                            const ompext_model_topology_t *t) {
  const ompext_config_t *cfg = planner->cfg;
  const ompext_model_params_t *mp = &planner->machine->params;
  if (!plan->served.plain_barrier || cfg->barrier != OMPEXT_BARRIER_AUTO ||
      cfg->dissem_m || cfg->tree_k || plan->barrier.alg == OMPEXT_BARRIER_STOCK)
    return;
  const ompext_model_op_t op = OMPEXT_MODEL_OP_BARRIER;
  plan->on_domains[op] = 1;
  const double domains = plan->domain_barrier
                             ? ompext_price_barrier_placed(planner, plan, t).min
                             : INFINITY;
  plan->on_domains[op] = 0;
  const double flat = ompext_price_barrier_placed(planner, plan, t).min;
  const ompext_model_cost_t stock =
      ompext_price_stock_placed(mp, t, op, plan->nproc, 1);
  const int on = !(flat < domains); /* NaN: never chosen */
  const double best = on ? domains : flat;
  if (best <= stock.min * (1 + OMPEXT_PRICE_EPSILON)) {
    decided(plan, op, on, best / stock.min);
    return;
  }
  decided(plan, op, 0, best / stock.min);
  plan->to_stock[op] = 1;
  plan->barrier.alg = OMPEXT_BARRIER_STOCK;
}

/* ---- fork/join ----------------------------------------------------------- */

static void lay_out_forkjoin(const ompext_planner_t *planner,
                             ompext_plan_t *plan,
                             const ompext_model_topology_t *t) {
  if (!plan->served.forkjoin || planner->cfg->forkjoin_fanout)
    return;
  const ompext_model_op_t op = OMPEXT_MODEL_OP_FORK_JOIN;
  const int n = plan->nproc;
  plan->on_domains[op] = 1;
  double best = ompext_price_forkjoin_placed(planner, plan, t).min;
  int best_on = 1, best_radix = plan->forkjoin_radix;
  if (isnan(best))
    best = INFINITY;
  plan->on_domains[op] = 0;
  const int hi = n < OMPEXT_MAX_FANIN ? n : OMPEXT_MAX_FANIN;
  /* The heap (radix 0), then every radix whose tid 0 keeps within the
     fan-in bound (plan.c's rule). */
  for (int r = 0; r <= hi; ++r) {
    if (r == 1 || (r >= 2 && (long)(r - 1) *
                                     ompext_model_knomial_levels(n, &r, 1) >
                                 OMPEXT_MAX_FANIN))
      continue;
    plan->forkjoin_radix = r;
    const double min = ompext_price_forkjoin_placed(planner, plan, t).min;
    if (min < best * (1 - OMPEXT_PRICE_EPSILON)) {
      best = min;
      best_on = 0;
      best_radix = r;
    }
  }
  plan->forkjoin_radix = best_radix;
  decided(plan, op, best_on,
          best / ompext_price_stock_placed(&planner->machine->params, t, op, n,
                                           1)
                     .min);
}

/* ---- reduction ----------------------------------------------------------- */

/* The predicted mins of the three methods for class c, as priced now. */
static void reduce_costs(const ompext_planner_t *planner,
                         const ompext_plan_t *plan,
                         const ompext_model_topology_t *t, int c,
                         double cost[4]) {
  const double lines = (double)(1L << c);
  static const int methods[] = {OMPEXT_REDUCE_METHOD_ATOMIC,
                                OMPEXT_REDUCE_METHOD_TREE,
                                OMPEXT_REDUCE_METHOD_CRITICAL};
  cost[OMPEXT_REDUCE_METHOD_RUNTIME] = INFINITY;
  for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); ++i) {
    const int m = methods[i];
    const double min = ompext_price_reduce_placed(planner, plan, t, m, lines).min;
    cost[m] = isnan(min) ? INFINITY : min;
  }
}

/* Stock's reduction per size class on t, priced once per layout. */
static void reduce_stock(const ompext_planner_t *planner,
                         const ompext_plan_t *plan,
                         const ompext_model_topology_t *t,
                         double stock[OMPEXT_REDUCE_CLASSES]) {
  for (int c = 0; c < OMPEXT_REDUCE_CLASSES; ++c)
    stock[c] = ompext_price_stock_placed(&planner->machine->params, t,
                                         OMPEXT_MODEL_OP_REDUCE, plan->nproc,
                                         (double)(1L << c))
                   .min;
}

/* The worst over the size classes of the best method's ratio to stock. */
static double reduce_worst(const ompext_planner_t *planner,
                           const ompext_plan_t *plan,
                           const ompext_model_topology_t *t,
                           const double stock[OMPEXT_REDUCE_CLASSES]) {
  double worst = 0;
  for (int c = 0; c < OMPEXT_REDUCE_CLASSES; ++c) {
    double cost[4];
    reduce_costs(planner, plan, t, c, cost);
    const double best =
        fmin(cost[OMPEXT_REDUCE_METHOD_TREE],
             fmin(cost[OMPEXT_REDUCE_METHOD_ATOMIC],
                  cost[OMPEXT_REDUCE_METHOD_CRITICAL]));
    worst = fmax(worst, best / stock[c]);
  }
  return worst;
}

static void set_fanin(ompext_plan_t *plan, int fanin) {
  int levels = 0;
  for (long span = 1; span < plan->nproc && levels < OMPEXT_MAX_LEVELS;
       span *= fanin)
    plan->reduce_fanin[levels++] = fanin;
  plan->reduce_levels = levels;
}

static void lay_out_reduce(const ompext_planner_t *planner, ompext_plan_t *plan,
                           const ompext_model_topology_t *t) {
  const ompext_config_t *cfg = planner->cfg;
  if (!plan->served.reduce || !plan->reduce_sizes.sized ||
      cfg->reduce != OMPEXT_REDUCE_AUTO || cfg->reduce_levels)
    return;
  const ompext_model_op_t op = OMPEXT_MODEL_OP_REDUCE;
  double stock[OMPEXT_REDUCE_CLASSES];
  reduce_stock(planner, plan, t, stock);
  ompext_plan_t trial = *plan;
  trial.on_domains[op] = 1;
  double best = reduce_worst(planner, &trial, t, stock);
  int best_fanin = 0; /* 0: on the domains with the plan's fan-ins */
  trial.on_domains[op] = 0;
  const int hi = plan->nproc < OMPEXT_MAX_FANIN ? plan->nproc : OMPEXT_MAX_FANIN;
  for (int f = 2; f <= hi; ++f) {
    set_fanin(&trial, f);
    const double worst = reduce_worst(planner, &trial, t, stock);
    if (worst < best * (1 - OMPEXT_PRICE_EPSILON)) {
      best = worst;
      best_fanin = f;
    }
  }
  if (best_fanin)
    set_fanin(plan, best_fanin);
  decided(plan, op, best_fanin == 0, best);
  for (int c = 0; c < OMPEXT_REDUCE_CLASSES; ++c) {
    double cost[4];
    reduce_costs(planner, plan, t, c, cost);
    ompext_plan_reduce_pick(&plan->reduce_sizes, c, cost, 0);
  }
}

/* ---- copyprivate --------------------------------------------------------- */

/* Stock's copyprivate at each size on t, priced once per layout. */
static void copyprivate_stock(const ompext_planner_t *planner,
                              const ompext_plan_t *plan,
                              const ompext_model_topology_t *t,
                              double stock[COPY_SIZES]) {
  const ompext_model_params_t *mp = &planner->machine->params;
  for (size_t s = 0; s < COPY_SIZES; ++s)
    stock[s] = ompext_price_stock_placed(mp, t, OMPEXT_MODEL_OP_COPYPRIVATE,
                                         plan->nproc,
                                         lines_of(mp, copy_bytes[s]))
                   .min;
}

static double copyprivate_worst(const ompext_planner_t *planner,
                                const ompext_plan_t *plan,
                                const ompext_model_topology_t *t,
                                const double stock[COPY_SIZES]) {
  const ompext_model_params_t *mp = &planner->machine->params;
  double worst = 0;
  for (size_t s = 0; s < COPY_SIZES; ++s) {
    const double ext = ompext_price_copyprivate_placed(
                           planner, plan, t, lines_of(mp, copy_bytes[s]))
                           .min;
    worst = fmax(worst, isnan(ext) ? INFINITY : ext / stock[s]);
  }
  return worst;
}

/* On the domains (the tree relays there, as hier.c prices it), or flat:
   the plan's own broadcast, or one fan-out for every copy (each up to the
   bound and the flat one, relaying or copying from the root). */
static void lay_out_copyprivate(const ompext_planner_t *planner,
                                ompext_plan_t *plan,
                                const ompext_model_topology_t *t) {
  const ompext_config_t *cfg = planner->cfg;
  if (!plan->served.bcast || cfg->bcast != OMPEXT_BCAST_TREE ||
      cfg->bcast_fanout)
    return;
  const ompext_model_op_t op = OMPEXT_MODEL_OP_COPYPRIVATE;
  double stock[COPY_SIZES];
  copyprivate_stock(planner, plan, t, stock);
  ompext_plan_t trial = *plan;
  trial.on_domains[op] = 1;
  trial.bcast.short_from_root = trial.bcast.long_from_root = 0;
  double best = copyprivate_worst(planner, &trial, t, stock);
  ompext_bcast_plan_t best_bcast = trial.bcast;
  int best_on = 1;
  trial = *plan;
  trial.on_domains[op] = 0;
  const int flat = plan->nproc - 1;
  const int hi = flat < OMPEXT_MAX_FANIN ? flat : OMPEXT_MAX_FANIN;
  for (int k = 0; k <= hi + 1; ++k)
    for (int from_root = 0; from_root <= 1; ++from_root) {
      if (k == 0 && from_root) /* k 0: the plan's own, as it is */
        continue;
      if (k > 0) {
        trial.bcast.short_fanout = trial.bcast.long_fanout =
            k <= hi ? k : flat;
        trial.bcast.short_from_root = trial.bcast.long_from_root = from_root;
      }
      const double worst = copyprivate_worst(planner, &trial, t, stock);
      if (worst < best * (1 - OMPEXT_PRICE_EPSILON)) {
        best = worst;
        best_bcast = trial.bcast;
        best_on = 0;
      }
    }
  plan->bcast = best_bcast;
  decided(plan, op, best_on, best);
}

int ompext_plan_lay_out(const ompext_planner_t *planner, ompext_plan_t *plan,
                        const ompext_model_topology_t *topo) {
  /* Under OMPEXT_HIERARCHY=off the team is never laid out. */
  memset(plan->on_domains, ompext_plan_lays_out_domains(plan),
         sizeof(plan->on_domains));
  if (!rule_applies(planner, plan, topo))
    return 0;
  /* The barrier first: the copyprivate closes with it. */
  lay_out_barrier(planner, plan, topo);
  lay_out_forkjoin(planner, plan, topo);
  lay_out_reduce(planner, plan, topo);
  lay_out_copyprivate(planner, plan, topo);
  return 1;
}

/* How one collective runs on the layout, e.g. "flat tree(k=2)". */
static void describe_path(const ompext_plan_t *plan, ompext_model_op_t op,
                          char *buf, size_t cap) {
  const ompext_bcast_plan_t *b = &plan->bcast;
  switch (op) {
  case OMPEXT_MODEL_OP_BARRIER:
    if (plan->barrier.alg == OMPEXT_BARRIER_STOCK)
      snprintf(buf, cap, "the runtime's");
    else if (plan->on_domains[op] && plan->domain_barrier)
      snprintf(buf, cap, "leaders");
    else {
      char alg[64];
      ompext_plan_describe_barrier(&plan->barrier, alg, sizeof(alg));
      snprintf(buf, cap, "flat %s", alg);
    }
    return;
  case OMPEXT_MODEL_OP_REDUCE:
    if (plan->on_domains[op])
      snprintf(buf, cap, "leaders");
    else
      snprintf(buf, cap, "flat tree(k=%d)", plan->reduce_fanin[0]);
    return;
  case OMPEXT_MODEL_OP_COPYPRIVATE:
    if (plan->on_domains[op])
      snprintf(buf, cap, "leaders");
    else if (b->short_fanout == b->long_fanout &&
             b->short_from_root == b->long_from_root)
      snprintf(buf, cap, "flat tree(k=%d%s)", b->short_fanout,
               b->short_from_root ? ", copies from the root" : "");
    else
      snprintf(buf, cap, "flat");
    return;
  default:
    if (plan->oversubscribed)
      snprintf(buf, cap, "flat (oversubscribed)");
    else if (plan->on_domains[op])
      snprintf(buf, cap, "leaders, tree(k=%d) in each", plan->forkjoin_fanout);
    else if (plan->forkjoin_radix >= 2)
      snprintf(buf, cap, "flat k-nomial(r=%d)", plan->forkjoin_radix);
    else
      snprintf(buf, cap, "flat tree(k=%d)", plan->forkjoin_fanout);
    return;
  }
}

int ompext_plan_describe_layout(const ompext_plan_t *plan, char *buf,
                                size_t cap) {
  static const struct {
    ompext_model_op_t op;
    const char *name;
  } ops[] = {{OMPEXT_MODEL_OP_BARRIER, "barrier"},
             {OMPEXT_MODEL_OP_REDUCE, "reduction"},
             {OMPEXT_MODEL_OP_COPYPRIVATE, "copyprivate"},
             {OMPEXT_MODEL_OP_FORK_JOIN, "fork/join"}};
  size_t used = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]) && used < cap; ++i) {
    const ompext_model_op_t op = ops[i].op;
    char how[96];
    describe_path(plan, op, how, sizeof(how));
    used += (size_t)snprintf(buf + used, cap - used, "%s%s %s", i ? ", " : "",
                             ops[i].name, how);
    /* Where the rule decided: the predicted ratio to stock (the worst
       over the sizes weighed). */
    if (used < cap && plan->stock_ratio[op] > 0)
      used += (size_t)snprintf(buf + used, cap - used, " (%s %.2f of stock)",
                               plan->to_stock[op] ? "ext predicted"
                                                  : "predicted",
                               plan->stock_ratio[op]);
  }
  return (int)used;
}
