/*
 * The plan builder (see plan.h): the one reader of the configuration and
 * the cost model, and the one place that clamps a parameter into its bounds
 * (bounds.h).
 *
 * With machine parameters, the cost model (omp-ext/model) decides what it
 * can: the dissemination m and the tree barrier's k, atomics or the tree
 * for reductions and the tree's fan-ins, the broadcast's fan-out.  Its trees
 * are given root first (k_1 children of the root, ...), while the runtime's
 * reduction tree groups leaves first with the leader counted in each group,
 * so a model level of k children becomes a group of k + 1, leaves first.
 * Without machine parameters: a classic dissemination barrier (m = 1),
 * atomics up to 4 threads (libomp's own cutoff), trees of fan-in 4, a binary
 * broadcast tree.  Every value can be fixed from the environment, which
 * always wins; it is already within bounds (config.c parses against
 * them), the model's choices are clamped where they are taken.  The
 * fork/join tree is the heap or the k-nomial tree of least predicted min,
 * and a barrier predicted slower than the runtime's own is handed back
 * (rule_barrier, rule_forkjoin; docs/ARCHITECTURE.md, "Never slower").
 *
 * A team with more threads than the machine has processors is outside the
 * model: a signal's receiver is then mostly not running, and every step
 * that waits on an earlier one (a dissemination round, a tree level) costs
 * a scheduler hand-off, microseconds against the model's line transfers.
 * Such a team gets the fewest steps: flat fork/join, broadcast and barrier
 * trees (within the fan-in bound), one dissemination round where m allows
 * (then the smallest m for that many rounds) if the dissemination barrier
 * is asked for, and copies are long from the floor a team of 2 uses (the
 * rooted close is one step more, see bcast_close_long_ns below).  Its
 * reductions take atomics for small data and, for large data, a tree
 * grouped by processor, whose first level combines in parallel on every
 * processor (oversubscribed_reduce_fanin, oversubscribed_method).
 *
 * Who leaves a barrier first matters there too.  In the dissemination
 * barrier every thread leaves once its own words are complete, so the last
 * to arrive (the one running) leaves first and tid 0 may still be queued
 * for a processor.  Programs commonly wait after a barrier for something
 * tid 0 does next (master, then a flag); their workers would then sleep or
 * spin in user code until tid 0 gets a processor, a scheduler slice per
 * barrier.  LLVM's kmp_sch_simd_guided test went from 2 s to minutes that
 * way, with no signal lost.  So under OMPEXT_BARRIER=auto an oversubscribed
 * team takes the combining tree barrier, flat: tid 0 gathers every arrival
 * and releases the others itself, so it is running when they leave, as in
 * the runtime's own barriers.  Every other collective already ends that
 * way (see docs/ARCHITECTURE.md, "Who leaves first").
 * Measured at 8 and 33 threads on 2 cores: see docs/ARCHITECTURE.md.
 */
#include "plan.h"

#include "now.h"
#include "plan_price.h"
#include "services.h"

#include <math.h>
#include <string.h>

/* Copies this many times longer than what the rooted close costs over the
   team's barrier make it worth keeping the root (bcast_close.c); they are
   "long" copies, for the broadcast's fan-out too.  At 2 threads on the
   development machine, 4 puts 4 KiB copies (of data rewritten in part or
   in full) on the rooted close and 8-64 B ones on the team's barrier, the
   faster close for each; 2 moved 8 B copies too, 16 kept 4 KiB ones off. */
#define CLOSE_LONG_FACTOR 4
/* A receiver leaves a rooted close this many transfers between cores after
   the root, so that the root wins the next single (bcast_close.c).  At 2
   threads on the development machine (R_R 36 ns), a lead of 1 let
   receivers win 15-25 of 5000 singles at 1 MiB, 2 to 3 7-10, none about 80
   (stock's workers: 5-22). */
#define ROOT_LEAD_TRANSFERS 2
/* Without a model: a transfer between cores of about 200 ns. */
#define CLOSE_DEFAULT_EXTRA_NS 200.0
/* Without a model: combining trees and fork/join of fan-in 4, a binary
   broadcast tree, a classic dissemination barrier. */
#define DEFAULT_TREE_K 4
#define DEFAULT_BCAST_FANOUT 2
#define DEFAULT_DISSEM_M 1

static int clamp(int v, int lo, int hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* Derived integers saturate: parameters within their validated ranges can
   still give a quotient no integer holds, and a cast of such a double is
   undefined.  Copies longer than LONG_NS_MAX (10 s) count as long only if
   they take that long; a message longer than MAX_LINES is as good as any
   larger one for the model's fan-out. */
#define LONG_NS_MAX 10000000000.0
#define MAX_LINES 1073741824.0

static uint64_t saturate_ns(double ns) {
  if (!(ns > 0)) /* negative or NaN */
    return 0;
  if (ns < 1) /* a positive time stays positive: 0 would make every copy long */
    return 1;
  return ns < LONG_NS_MAX ? (uint64_t)ns : (uint64_t)LONG_NS_MAX;
}

static long saturate_lines(double lines) {
  if (!(lines > 1))
    return 1;
  return lines < MAX_LINES ? (long)lines : (long)MAX_LINES;
}

static int levels_for(int nproc, const int *fanin, int given) {
  int levels = 0;
  long span = 1;
  while (span < nproc && levels < OMPEXT_MAX_LEVELS) {
    span *= fanin[levels < given ? levels : given - 1];
    ++levels;
  }
  return levels;
}

/* ---- what the model chooses --------------------------------------------- */

/* The barriers' parameters the model chose for a team of nproc; have = 0
   without a model. */
typedef struct model_barrier_pick {
  int have;
  int dissem_m, tree_k;
} model_barrier_pick_t;

/* The other collectives' choices. */
typedef struct model_pick {
  model_barrier_pick_t barrier;
  int reduce_tree, reduce_levels, reduce_fanin[OMPEXT_MAX_LEVELS];
  int bcast_fanout;
  int bcast_long_fanout; /* for a message copied in the "long" time */
  int bcast_from_root, bcast_long_from_root; /* copies from the root */
  double close_extra_ns; /* rooted close's cost over the dissemination's */
} model_pick_t;

/* The optimizer's best configuration of a barrier within the plugin's
   bounds. */
static int model_best(const ompext_machine_t *machine, ompext_model_alg_t alg,
                      int nproc, ompext_model_choice_t *out) {
  ompext_model_options_t opts;
  ompext_model_options_default(&opts);
  opts.max_m = OMPEXT_MAX_M; /* the plugin's bounds */
  opts.max_k = OMPEXT_MAX_FANIN;
  opts.max_depth = OMPEXT_MAX_LEVELS;
  return ompext_model_best_config(&machine->params, &opts, alg, nproc, 1, out);
}

static void model_choose_barrier(const ompext_machine_t *machine, int nproc,
                                 model_barrier_pick_t *pick) {
  ompext_model_choice_t c;
  memset(pick, 0, sizeof(*pick));
  if (!machine || nproc < 2)
    return;
  pick->have = 1;
  /* Clamped: the model was asked within the bounds, but a tree needs two. */
  pick->dissem_m =
      model_best(machine, OMPEXT_MODEL_DISSEMINATION, nproc, &c) == 0
          ? clamp(c.m, 1, OMPEXT_MAX_M)
          : DEFAULT_DISSEM_M;
  pick->tree_k = model_best(machine, OMPEXT_MODEL_BARRIER_TREE, nproc, &c) == 0
                     ? clamp(c.k, OMPEXT_MIN_TREE_K, OMPEXT_MAX_FANIN)
                     : DEFAULT_TREE_K;
}

/* The parameter in [lo, hi] whose price has the least min; the smallest
   among equals. */
static int least_min(int lo, int hi, const ompext_model_params_t *mp,
                     int nproc, double lines,
                     ompext_model_cost_t (*price)(const ompext_model_params_t *,
                                                  int nproc, int parameter,
                                                  double lines)) {
  int best = lo;
  double best_min = INFINITY;
  for (int x = lo; x <= hi; ++x) {
    const double min = price(mp, nproc, x, lines).min;
    if (min < best_min * (1 - OMPEXT_PRICE_EPSILON)) {
      best_min = min;
      best = x;
    }
  }
  return best;
}

static ompext_model_cost_t reduce_tree_price(const ompext_model_params_t *mp,
                                             int nproc, int fanin,
                                             double lines) {
  return ompext_model_reduce_gathered(mp, nproc, &fanin, 1, lines);
}

/* The broadcast's fan-out and whether receivers copy from the root for
   copies of lo to hi lines: the candidate (every fan-out up to the bound
   and the flat one, relaying or not) whose copyprivate (the broadcast, then
   the barrier of barrier_ns) has the least predicted min over stock's at
   the worse of the two ends; relaying and smaller fan-outs first among
   equals. */
static void choose_bcast(const ompext_model_params_t *mp, int nproc,
                         double barrier_ns, double lo, double hi_lines,
                         int *fanout, int *from_root) {
  const int flat = nproc > 1 ? nproc - 1 : 1;
  const int hi = clamp(flat, 1, OMPEXT_MAX_FANIN);
  const double ends[2] = {lo, hi_lines};
  double stock[2];
  for (int e = 0; e < 2; ++e)
    stock[e] =
        ompext_price_stock(mp, OMPEXT_MODEL_OP_COPYPRIVATE, nproc, ends[e]).min;
  double best = INFINITY;
  *fanout = flat;
  *from_root = 0;
  for (int mode = 0; mode <= 1; ++mode)
    for (int k = 1; k <= hi + 1; ++k) {
      const int fan = k <= hi ? k : flat; /* last: the flat tree */
      double worst = 0;
      for (int e = 0; e < 2; ++e)
        worst = fmax(worst,
                     (ompext_price_bcast(mp, nproc, fan, mode, ends[e]).min +
                      barrier_ns) /
                         stock[e]);
      if (worst < best * (1 - OMPEXT_PRICE_EPSILON)) {
        best = worst;
        *fanout = fan;
        *from_root = mode;
      }
    }
}

static void model_choose(const ompext_machine_t *machine, int nproc,
                         model_pick_t *pick) {
  memset(pick, 0, sizeof(*pick));
  model_choose_barrier(machine, nproc, &pick->barrier);
  if (!pick->barrier.have)
    return;
  const ompext_model_params_t *mp = &machine->params;
  /* The reduction tree as reduce_tree.c gathers it, one fan-in at every
     level (fan-in 2 is the runtime's own tree), against atomics, for one
     item. */
  const int fanin = least_min(2, clamp(nproc, 2, OMPEXT_MAX_FANIN), mp, nproc,
                              1, reduce_tree_price);
  pick->reduce_fanin[0] = fanin;
  pick->reduce_levels = 1;
  pick->reduce_tree = reduce_tree_price(mp, nproc, fanin, 1).min <
                      ompext_model_reduce_atomic_lines(mp, nproc, 1).min;
  /* The rooted close is a combining tree of the barrier's k; best cases,
     and at least one transfer between cores. */
  double extra =
      ompext_model_barrier_tree(mp, nproc, pick->barrier.tree_k).min -
      ompext_model_barrier_dissemination(mp, nproc, pick->barrier.dissem_m,
                                         OMPEXT_MODEL_ROUNDS_ALGORITHM)
          .min;
  pick->close_extra_ns = extra > mp->r_r ? extra : mp->r_r;
  /* Long copies: the smallest message whose copy takes the "long" time
     (T_N = o*N + q - p/N, ignoring p/N), and the fan-out for it. */
  const double long_ns = CLOSE_LONG_FACTOR * pick->close_extra_ns;
  const long lines = mp->o > 0 && long_ns > mp->q
                         ? saturate_lines((long_ns - mp->q) / mp->o)
                         : 1;
  /* The broadcast of short copies, from one line to the long ones, and of
     long copies, priced up to 1 MiB, each followed by the team's barrier. */
  const double barrier_ns =
      ompext_model_barrier_dissemination(mp, nproc, pick->barrier.dissem_m,
                                         OMPEXT_MODEL_ROUNDS_ALGORITHM)
          .min;
  const double long_lines = (double)lines, mib = 1048576.0 / mp->line_bytes;
  choose_bcast(mp, nproc, barrier_ns, 1, fmax(long_lines, 1),
               &pick->bcast_fanout, &pick->bcast_from_root);
  choose_bcast(mp, nproc, barrier_ns, long_lines, fmax(long_lines, mib),
               &pick->bcast_long_fanout, &pick->bcast_long_from_root);
}

/* ---- the fewest steps, for oversubscribed teams -------------------------- */

/* The smallest parameter in [lo, hi] whose steps(nproc, parameter) are the
   fewest any parameter up to hi allows (steps fall as the parameter grows). */
static int smallest_with_fewest(int nproc, int lo, int hi,
                                int (*steps)(int nproc, int parameter)) {
  const int fewest = steps(nproc, hi);
  int x = lo;
  while (x < hi && steps(nproc, x) > fewest)
    ++x;
  return x;
}

/* Rounds of the dissemination barrier with m peers per round. */
static int dissemination_rounds(int nproc, int m) {
  return ompext_model_dissemination_rounds(nproc, m,
                                           OMPEXT_MODEL_ROUNDS_ALGORITHM);
}

/* Levels of the reduction with groups of fanin (leaves first): k^d >= n. */
static int reduce_levels(int nproc, int fanin) {
  return levels_for(nproc, &fanin, 1);
}

/* Root-first trees (fork/join, broadcast, combining tree barriers): levels
   of the complete k-ary tree; a combining tree needs k >= 2. */
static int flat_tree_k(int nproc) {
  return smallest_with_fewest(nproc, OMPEXT_MIN_TREE_K, OMPEXT_MAX_FANIN,
                              ompext_model_uniform_depth);
}

/* ---- barriers ------------------------------------------------------------ */

/* Hand-offs in a row on the longest path through libomp's hyper barrier of
   2^bits children per level: each hop from a tid to its parent clears the
   tid's lowest nonzero base-2^bits digit, so a tid reaches tid 0 in as many
   hops as it has nonzero digits. */
static int hyper_hops(int nproc, int bits) {
  const unsigned digit = (1u << bits) - 1;
  int most = 0;
  for (unsigned t = 1; t < (unsigned)nproc; ++t) {
    int hops = 0;
    for (unsigned v = t; v; v >>= bits)
      hops += (v & digit) != 0;
    most = hops > most ? hops : most;
  }
  return most;
}

/* An oversubscribed team pays a scheduler hand-off for each step of a
   barrier's gather and release (see the top of this file).  Its flat tree
   takes no fewer steps than the runtime's own barrier where that is flat
   too (3 to 5 threads with libomp's default 4 children per level); the
   runtime's barrier then does the same hand-offs with less code around
   them: at 3 and 4 threads on 2 cores, in calm spells, it was 1.5-2 %
   faster than the plugin's tree, level at 5, while the plugin's took 46 %
   less time at 6 and 8 (noisy spells: docs/ARCHITECTURE.md).  So under
   OMPEXT_BARRIER=auto such a team hands its plain barriers back. */
static int barrier_steps_aside(const ompext_planner_t *planner,
                               const ompext_barrier_plan_t *b, int nproc,
                               int oversubscribed) {
  const int gather = planner->stock_gather_bits;
  const int release = planner->stock_release_bits;
  if (planner->cfg->barrier != OMPEXT_BARRIER_AUTO || !oversubscribed ||
      b->alg != OMPEXT_BARRIER_TREE || gather < 1 || gather > 16 ||
      release < 1 || release > 16)
    return 0;
  const int steps = 2 * ompext_model_uniform_depth(nproc, b->tree_k);
  return steps >= hyper_hops(nproc, gather) + hyper_hops(nproc, release);
}

/* The team's plain barrier (see the top of this file).  Under stock the
   runtime runs its own; the dissemination barrier is laid out, never run. */
static ompext_barrier_alg_t barrier_for(const ompext_config_t *cfg,
                                        int oversubscribed) {
  switch (cfg->barrier) {
  case OMPEXT_BARRIER_AUTO:
    return oversubscribed ? OMPEXT_BARRIER_TREE : OMPEXT_BARRIER_DISSEMINATION;
  case OMPEXT_BARRIER_STOCK:
    return OMPEXT_BARRIER_DISSEMINATION;
  default:
    return cfg->barrier;
  }
}

/* Every barrier parameter for a team of nproc: the environment's, else
   the model's (model, chosen for nproc), else the defaults; oversubscribed,
   the fewest steps where the environment left the choice to us. */
static void plan_barrier(const ompext_config_t *cfg,
                         const model_barrier_pick_t *model, int nproc,
                         int oversubscribed, ompext_barrier_plan_t *out) {
  out->alg = barrier_for(cfg, oversubscribed);
  out->dissem_m =
      cfg->dissem_m ? cfg->dissem_m
      : oversubscribed
          ? smallest_with_fewest(nproc, 1, OMPEXT_MAX_M, dissemination_rounds)
      : model->have ? model->dissem_m
                    : DEFAULT_DISSEM_M;
  out->tree_k = cfg->tree_k      ? cfg->tree_k
                : oversubscribed ? flat_tree_k(nproc)
                : model->have    ? model->tree_k
                                 : DEFAULT_TREE_K;
  /* OMPEXT_BARRIER_K is the tournament's release fan-out too; unset, the
     release goes back down the tournament. */
  out->release_k = cfg->tree_k;
}

/* The rooted close needs the plugin's plain barrier to run it; under AUTO it
   stands in for the dissemination barrier only: the other barriers are
   released by tid 0 already (an oversubscribed team's tree), or forced to
   be measured. */
static ompext_bcast_close_mode_t close_for(const ompext_config_t *cfg,
                                           ompext_barrier_alg_t alg) {
  if (cfg->barrier == OMPEXT_BARRIER_STOCK ||
      (cfg->bcast_close == OMPEXT_BCAST_CLOSE_AUTO &&
       alg != OMPEXT_BARRIER_DISSEMINATION))
    return OMPEXT_BCAST_CLOSE_BARRIER;
  return cfg->bcast_close;
}

/* ---- the plan ------------------------------------------------------------ */

void ompext_plan_served(const ompext_planner_t *planner, ompext_served_t *out) {
  const ompext_config_t *cfg = planner->cfg;
  *out = (ompext_served_t){
      .plain_barrier = cfg->barrier != OMPEXT_BARRIER_STOCK,
      .reduce = cfg->reduce != OMPEXT_REDUCE_STOCK,
      .forkjoin = cfg->forkjoin != OMPEXT_FORKJOIN_STOCK,
      .bcast = cfg->bcast != OMPEXT_BCAST_STOCK,
      .atomic_lock = cfg->atomic_lock != OMPEXT_ATOMIC_LOCK_STOCK,
      .hierarchy = cfg->hierarchy,
      .verbose = cfg->verbose,
      .stats = cfg->stats,
  };
}

static int warn_unused(FILE *warn, const char *var, int value,
                       const char *why) {
  if (warn)
    fprintf(warn, "omp-ext: warning: %s=%d has no effect: %s\n", var, value,
            why);
  return 1;
}

int ompext_plan_warn_unused(const ompext_planner_t *planner, FILE *warn) {
  const ompext_config_t *cfg = planner->cfg;
  const ompext_barrier_alg_t barrier = cfg->barrier;
  const int dissemination_runs = barrier == OMPEXT_BARRIER_AUTO ||
                                 barrier == OMPEXT_BARRIER_DISSEMINATION;
  /* Where a combining tree of tree_k runs: the tree barrier (also an
     oversubscribed team's under auto), the tournament's release, each
     domain's tree, and the rooted close of a broadcast (see close_for). */
  const int rooted_close_possible =
      cfg->bcast != OMPEXT_BCAST_STOCK && barrier != OMPEXT_BARRIER_STOCK &&
      (cfg->bcast_close == OMPEXT_BCAST_CLOSE_ROOTED ||
       (cfg->bcast_close == OMPEXT_BCAST_CLOSE_AUTO && dissemination_runs));
  const int tree_k_used = barrier == OMPEXT_BARRIER_TREE ||
                          barrier == OMPEXT_BARRIER_TOURNAMENT ||
                          barrier == OMPEXT_BARRIER_AUTO ||
                          (barrier == OMPEXT_BARRIER_DISSEMINATION &&
                           cfg->hierarchy != OMPEXT_HIERARCHY_OFF) ||
                          rooted_close_possible;
  int n = 0;
  if (cfg->dissem_m && !dissemination_runs)
    n += warn_unused(warn, "OMPEXT_BARRIER_M", cfg->dissem_m,
                     "the barrier is not the dissemination barrier");
  if (cfg->tree_k && !tree_k_used)
    n += warn_unused(warn, "OMPEXT_BARRIER_K", cfg->tree_k,
                     "no combining tree barrier runs (OMPEXT_BARRIER, "
                     "OMPEXT_BCAST_CLOSE, OMPEXT_HIERARCHY)");
  if (cfg->reduce_levels && (cfg->reduce == OMPEXT_REDUCE_STOCK ||
                             cfg->reduce == OMPEXT_REDUCE_ATOMIC))
    n += warn_unused(warn, "OMPEXT_REDUCE_FANIN", cfg->reduce_fanin[0],
                     "the reduction is not the plugin's tree");
  if (cfg->bcast_fanout && (cfg->bcast == OMPEXT_BCAST_STOCK ||
                            cfg->bcast == OMPEXT_BCAST_FLAT))
    n += warn_unused(warn, "OMPEXT_BCAST_FANOUT", cfg->bcast_fanout,
                     "the broadcast is not the plugin's tree");
  if (cfg->bcast_close != OMPEXT_BCAST_CLOSE_AUTO &&
      (cfg->bcast == OMPEXT_BCAST_STOCK || barrier == OMPEXT_BARRIER_STOCK)) {
    if (warn)
      fprintf(warn,
              "omp-ext: warning: OMPEXT_BCAST_CLOSE=%s has no effect: the "
              "broadcast or the barrier is stock\n",
              ompext_bcast_close_names[cfg->bcast_close]);
    ++n;
  }
  if (cfg->forkjoin_fanout && cfg->forkjoin == OMPEXT_FORKJOIN_STOCK)
    n += warn_unused(warn, "OMPEXT_FORKJOIN_FANOUT", cfg->forkjoin_fanout,
                     "fork/join is stock");
  return n;
}

/* An oversubscribed team's reduction groups: one group per processor's
   share of the team (a bound team runs its tids in blocks, so the first
   level combines within a processor, in parallel across them), then the
   groups' leaders.  Measured at 8 threads on 2 cores, fan-in 4 against
   the flat tree (fan-in 8) and fan-in 2, ext/stock: 4 KiB 0.86 / 0.93 /
   0.91, 64 KiB 0.94 / 1.13 / 0.98, and on forced trees a scalar 0.97x
   and 512 B 0.95x the flat tree's time.  Without a processor count, the
   fewest levels. */
static int oversubscribed_reduce_fanin(int nproc, int processors) {
  if (processors < 1)
    return smallest_with_fewest(nproc, 2, OMPEXT_MAX_FANIN, reduce_levels);
  return clamp((nproc + processors - 1) / processors, 2, OMPEXT_MAX_FANIN);
}

static void plan_reduce(const ompext_config_t *cfg, const model_pick_t *model,
                        int nproc, int oversubscribed, int processors,
                        ompext_plan_t *out) {
  static const int default_fanin[1] = {DEFAULT_TREE_K};
  if (cfg->reduce == OMPEXT_REDUCE_AUTO)
    out->reduce_tree = model->barrier.have ? model->reduce_tree : nproc > 4;
  else
    out->reduce_tree = cfg->reduce == OMPEXT_REDUCE_TREE;
  const int *fanin = default_fanin;
  int given = 1;
  int oversubscribed_fanin;
  if (cfg->reduce_levels) {
    fanin = cfg->reduce_fanin;
    given = cfg->reduce_levels;
  } else if (oversubscribed) {
    oversubscribed_fanin = oversubscribed_reduce_fanin(nproc, processors);
    fanin = &oversubscribed_fanin;
  } else if (model->reduce_levels) {
    fanin = model->reduce_fanin;
    given = model->reduce_levels;
  }
  out->reduce_levels = levels_for(nproc, fanin, given);
  for (int l = 0; l < out->reduce_levels; ++l)
    out->reduce_fanin[l] = fanin[l < given ? l : given - 1];
}

/* An oversubscribed team is outside the model (one thread per core): a
   tree level waits for children that may not be running, atomics wait for
   nobody.  Its reductions of fewer lines than this take atomics (where the
   compiler emitted them), larger ones the tree grouped by processor
   (oversubscribed_reduce_fanin).  Measured at 8 threads on 2 cores,
   ext/stock per method (atomics, the tree by processor):
     8 B:    0.37, 0.87 (the flat tree)
     512 B:  0.49, 0.92 (the flat tree)
     4 KiB:  1.31, 0.86
     64 KiB: -,    0.94 */
#define OVERSUBSCRIBED_TREE_LINES 64

static int oversubscribed_method(double lines, unsigned allowed) {
  return lines < OVERSUBSCRIBED_TREE_LINES &&
                 (allowed & OMPEXT_REDUCE_ALLOW_ATOMIC)
             ? OMPEXT_REDUCE_METHOD_ATOMIC
             : OMPEXT_REDUCE_METHOD_TREE;
}

/* How long tid 0 takes to combine a child's data of so many lines: the
   model's copy T_N (Eq. 3.1), but never less than its first line, a line
   the child has just written and so a read of a modified line from another
   core (R_R), followed by the others at T_N's cost per line (o).  T_N is
   fitted over 1 to 128 lines and may put one line below R_R (on the
   development machine, T_N(1) 97 ns against R_R 125 ns): a scalar's
   combine then measured as two lines, whose method (the lock) took 10 %
   longer than atomics. */
static double combine_time(const ompext_model_params_t *mp, double lines) {
  return fmax(fmax(ompext_model_tn(mp, lines), mp->r_r + mp->o * (lines - 1)),
              0);
}

/* The method by size (reduce_choice.c): for each size class of 2^c lines
   the model's cost of the tree the team runs, of atomics and of libomp's
   critical method, and the cheapest of those the compiler allows.  An
   oversubscribed team never takes the lock (a holder that loses its
   processor would stop every thread waiting for it) and goes by the
   measured rule above.  The choice by size needs the plugin's fork/join:
   its decisions take effect at a clock that forks and joins advance (see
   reduce_choice.c), and with OMPEXT_FORKJOIN=stock a region without a
   barrier never reached a decision, so every reduction there probed the
   tree (regions 1.7 times stock's time); such a team takes the one-item
   method for every size. */
static void plan_reduce_sizes(const ompext_config_t *cfg,
                              const ompext_machine_t *machine,
                              const model_pick_t *model, int nproc,
                              int oversubscribed, ompext_plan_t *out) {
  ompext_reduce_sizes_t *z = &out->reduce_sizes;
  const int one_item = out->reduce_tree ? OMPEXT_REDUCE_METHOD_TREE
                                        : OMPEXT_REDUCE_METHOD_ATOMIC;
  for (unsigned a = 0; a < 4; ++a)
    z->one_item[a] = one_item;
  z->sized = cfg->reduce == OMPEXT_REDUCE_AUTO && out->served.forkjoin &&
             model->barrier.have && out->reduce_levels > 0 && nproc >= 2;
  if (!z->sized)
    return;
  const ompext_model_params_t *mp = &machine->params;
  z->timer_ns = ompext_now_overhead_ns();
  z->reference_ns = mp->r_r;
  z->reference_shrinks_only = oversubscribed;
  z->final_atomics = nproc <= OMPEXT_MODEL_LIBOMP_ATOMIC_CUTOFF;
  z->verbose = out->served.verbose;
  z->line_bytes = mp->line_bytes;
  for (int c = 0; c < OMPEXT_REDUCE_CLASSES; ++c) {
    const double lines = (double)(1L << c);
    z->combine_ns[c] = sqrt(combine_time(mp, lines) *
                            combine_time(mp, 2 * lines));
    const double cost[4] = {
        [OMPEXT_REDUCE_METHOD_ATOMIC] =
            ompext_model_reduce_atomic_lines(mp, nproc, lines).min,
        [OMPEXT_REDUCE_METHOD_TREE] =
            ompext_model_reduce_gathered(mp, nproc, out->reduce_fanin,
                                         out->reduce_levels, lines)
                .min,
        [OMPEXT_REDUCE_METHOD_CRITICAL] =
            oversubscribed
                ? INFINITY
                : ompext_model_reduce_critical(mp, nproc, lines).min,
    };
    ompext_plan_reduce_pick(z, c, cost, oversubscribed);
  }
}

void ompext_plan_reduce_pick(ompext_reduce_sizes_t *z, int c,
                             const double *cost, int oversubscribed) {
  const double lines = (double)(1L << c);
  for (int m = 0; m < 4; ++m)
    z->cost[c][m] = m == OMPEXT_REDUCE_METHOD_RUNTIME ? NAN : cost[m];
  for (unsigned a = 0; a < 4; ++a) {
    /* The tree, where allowed, else the critical method: the runtime's
       own fallback when the compiler emitted neither. */
    int best = (a & OMPEXT_REDUCE_ALLOW_TREE) ? OMPEXT_REDUCE_METHOD_TREE
                                              : OMPEXT_REDUCE_METHOD_CRITICAL;
    if ((a & OMPEXT_REDUCE_ALLOW_ATOMIC) &&
        cost[OMPEXT_REDUCE_METHOD_ATOMIC] < cost[best])
      best = OMPEXT_REDUCE_METHOD_ATOMIC;
    if (cost[OMPEXT_REDUCE_METHOD_CRITICAL] < cost[best])
      best = OMPEXT_REDUCE_METHOD_CRITICAL;
    if (oversubscribed && (a & OMPEXT_REDUCE_ALLOW_TREE))
      best = oversubscribed_method(lines, a);
    z->best[c][a] = (unsigned char)best;
  }
}

static void plan_bcast(const ompext_planner_t *planner,
                       const model_pick_t *model, int nproc, int oversubscribed,
                       ompext_plan_t *out) {
  const ompext_config_t *cfg = planner->cfg;
  const int flat = nproc > 1 ? nproc - 1 : 1;
  ompext_bcast_plan_t *b = &out->bcast;
  const int have = model->barrier.have;
  /* A fixed fan-out stays fixed; the model's depends on the copies.  The
     flat broadcast's fan-out, nproc - 1, may exceed OMPEXT_MAX_FANIN: the
     broadcast keeps no per-child array.  A fan-out beyond nproc - 1 is the
     flat tree too.  At least 1: a tree needs children. */
  if (cfg->bcast == OMPEXT_BCAST_FLAT)
    b->short_fanout = b->long_fanout = flat;
  else if (cfg->bcast_fanout)
    b->short_fanout = b->long_fanout = cfg->bcast_fanout;
  else if (oversubscribed)
    b->short_fanout = b->long_fanout = flat;
  else {
    b->short_fanout =
        have ? clamp(model->bcast_fanout, 1, flat)
             : clamp(DEFAULT_BCAST_FANOUT, 1, OMPEXT_MAX_FANIN);
    b->long_fanout = have ? clamp(model->bcast_long_fanout, 1, flat) : flat;
    b->short_from_root = have && model->bcast_from_root;
    b->long_from_root = have && model->bcast_long_from_root;
  }
  /* Oversubscribed, both closes are one flat level (the fewest steps): the
     rooted one costs a step more, not the model's extra transfers among
     nproc running threads, which raised the "long" time with the team size
     and kept 64 KiB copies on the team's barrier at 4 and 8 threads on 2
     cores.  Such a team takes the floor, one transfer between cores, as a
     team of 2 does. */
  const double close_extra_ns = !have            ? CLOSE_DEFAULT_EXTRA_NS
                                : oversubscribed ? planner->machine->params.r_r
                                                 : model->close_extra_ns;
  b->long_ns = saturate_ns(CLOSE_LONG_FACTOR * close_extra_ns);
  /* Oversubscribed receivers do not spin, so they take no lead. */
  const double transfer_ns =
      have ? planner->machine->params.r_r : CLOSE_DEFAULT_EXTRA_NS;
  b->lead_ns =
      oversubscribed ? 0 : saturate_ns(ROOT_LEAD_TRANSFERS * transfer_ns);
  b->close = close_for(cfg, out->barrier.alg);
  b->close_tree_k = out->barrier.tree_k;
  b->verbose = out->served.verbose;
}

/* ---- the rule: never predicted slower than the runtime's own ----------- */

/* tid 0 of a k-nomial tree has radix - 1 children per level: a radix whose
   tid 0 would have more than the fan-in bound (the runtime's cap on a
   node's children) is no candidate. */
static ompext_model_cost_t forkjoin_knomial_price(
    const ompext_model_params_t *mp, int nproc, int radix, double lines) {
  (void)lines;
  const int levels = ompext_model_knomial_levels(nproc, &radix, 1);
  if ((long)(radix - 1) * levels > OMPEXT_MAX_FANIN)
    return (ompext_model_cost_t){INFINITY, INFINITY};
  return ompext_model_forkjoin_knomial(mp, nproc, radix);
}

/* A team that fits the machine, with the model's parameters.  Each
   collective the environment left to the plan runs ext's best candidate
   where it is predicted no slower than stock's own (plan_price.h), and the
   runtime's path elsewhere.  The barrier is handed back (alg STOCK).  The
   reduction's and fork/join's candidates include the runtime's own shapes
   (the fan-in 2 tree; k-nomial trees of every radix, 4 among them), so
   ext's best is never above them.  A copyprivate's broadcast has no path
   back to the runtime: its ratio is only priced (ompext_plan_price). */
static void rule_barrier(const ompext_planner_t *planner, int nproc,
                         ompext_plan_t *out) {
  const ompext_model_params_t *mp = &planner->machine->params;
  const ompext_config_t *cfg = planner->cfg;
  if (!out->served.plain_barrier || cfg->barrier != OMPEXT_BARRIER_AUTO ||
      cfg->dissem_m || cfg->tree_k || out->barrier.alg == OMPEXT_BARRIER_STOCK)
    return;
  const ompext_model_cost_t ext = ompext_price_barrier(mp, nproc, &out->barrier);
  const ompext_model_cost_t stock =
      ompext_price_stock(mp, OMPEXT_MODEL_OP_BARRIER, nproc, 1);
  if (ompext_price_no_slower(ext, stock))
    return;
  out->to_stock[OMPEXT_MODEL_OP_BARRIER] = 1;
  out->stock_ratio[OMPEXT_MODEL_OP_BARRIER] = ext.min / stock.min;
  out->barrier.alg = OMPEXT_BARRIER_STOCK;
}

/* Fork/join: the heap of the tree barrier's k (the tree inside each domain
   of a laid-out team too, as hier.c prices it), or a flat team's k-nomial
   tree of the radix of least predicted min where that is cheaper. */
static void rule_forkjoin(const ompext_planner_t *planner, int nproc,
                          ompext_plan_t *out) {
  const ompext_model_params_t *mp = &planner->machine->params;
  if (planner->cfg->forkjoin_fanout)
    return;
  const int hi = clamp(nproc, 2, OMPEXT_MAX_FANIN);
  const int r = least_min(2, hi, mp, nproc, 0, forkjoin_knomial_price);
  out->forkjoin_radix =
      forkjoin_knomial_price(mp, nproc, r, 0).min <
              ompext_model_forkjoin_tree(mp, nproc, out->forkjoin_fanout).min
          ? r
          : 0;
}

void ompext_plan_build(const ompext_planner_t *planner, int nproc,
                       int oversubscribed, ompext_plan_t *out) {
  const ompext_config_t *cfg = planner->cfg;
  model_pick_t model;
  model_choose(planner->machine, nproc, &model);
  memset(out, 0, sizeof(*out));
  out->nproc = nproc;
  out->oversubscribed = oversubscribed;
  ompext_plan_served(planner, &out->served);
  plan_barrier(cfg, &model.barrier, nproc, oversubscribed, &out->barrier);
  if (barrier_steps_aside(planner, &out->barrier, nproc, oversubscribed))
    out->barrier.alg = OMPEXT_BARRIER_STOCK;
  else if (model.barrier.have && !oversubscribed)
    rule_barrier(planner, nproc, out);
  plan_reduce(cfg, &model, nproc, oversubscribed, planner->processors, out);
  plan_reduce_sizes(cfg, planner->machine, &model, nproc, oversubscribed, out);
  plan_bcast(planner, &model, nproc, oversubscribed, out);
  out->forkjoin_fanout = cfg->forkjoin_fanout ? cfg->forkjoin_fanout
                         : oversubscribed
                             ? smallest_with_fewest(nproc, 1, OMPEXT_MAX_FANIN,
                                                    ompext_model_uniform_depth)
                         : model.barrier.have ? model.barrier.tree_k
                                              : DEFAULT_TREE_K;
  if (model.barrier.have && !oversubscribed)
    rule_forkjoin(planner, nproc, out);
  out->spin_polls = cfg->spin_polls;
  /* The alternatives stay flat: they are kept for comparison. */
  out->domain_barrier = (cfg->barrier == OMPEXT_BARRIER_AUTO ||
                         cfg->barrier == OMPEXT_BARRIER_DISSEMINATION) &&
                        out->barrier.alg != OMPEXT_BARRIER_STOCK;
  memset(out->on_domains, 1, sizeof(out->on_domains));
  out->from_model = model.barrier.have;
  out->overridden = cfg->dissem_m || cfg->tree_k || cfg->reduce_levels ||
                    cfg->bcast_fanout || cfg->forkjoin_fanout;
}

int ompext_plan_domains(const ompext_planner_t *planner,
                        const ompext_plan_t *plan, int largest, int ndomains,
                        ompext_domain_plan_t *out) {
  if (!plan->domain_barrier)
    return -1;
  /* Inside each domain: the combining tree a team of the largest domain's
     size would get; among the leaders: the barrier a team of ndomains
     threads would get. */
  model_barrier_pick_t model;
  ompext_barrier_plan_t inside;
  model_choose_barrier(planner->machine, largest, &model);
  plan_barrier(planner->cfg, &model, largest, plan->oversubscribed, &inside);
  out->inside_tree_k = inside.tree_k;
  model_choose_barrier(planner->machine, ndomains, &model);
  plan_barrier(planner->cfg, &model, ndomains, plan->oversubscribed,
               &out->across);
  return 0;
}

/* ---- OMPEXT_VERBOSE ------------------------------------------------------ */

void ompext_plan_describe_barrier(const ompext_barrier_plan_t *b, char *buf,
                                  size_t cap) {
  switch (b->alg) {
  case OMPEXT_BARRIER_DISSEMINATION:
    snprintf(buf, cap, "dissemination(m=%d)", b->dissem_m);
    break;
  case OMPEXT_BARRIER_TREE:
    snprintf(buf, cap, "tree(k=%d)", b->tree_k);
    break;
  case OMPEXT_BARRIER_TOURNAMENT:
    snprintf(buf, cap, "tournament(k=%d)", b->release_k);
    break;
  case OMPEXT_BARRIER_STOCK: /* barrier_steps_aside or rule_barrier */
    snprintf(buf, cap, "stock");
    break;
  default:
    snprintf(buf, cap, "%s", ompext_barrier_names[b->alg]);
    break;
  }
}

/* "atomic<=64B,critical<=32KiB,tree": the method of each size class of a
   site the compiler allowed every method, the largest size of each run. */
static void describe_reduce_sizes(const ompext_reduce_sizes_t *z,
                                  double line_bytes, char *buf, size_t cap) {
  const unsigned all = OMPEXT_REDUCE_ALLOW_ATOMIC | OMPEXT_REDUCE_ALLOW_TREE;
  size_t used = 0;
  buf[0] = '\0';
  for (int c = 0; c < OMPEXT_REDUCE_CLASSES && used < cap; ++c) {
    const int method = z->best[c][all];
    const int last = c == OMPEXT_REDUCE_CLASSES - 1;
    if (!last && z->best[c + 1][all] == method)
      continue;
    const double bytes = line_bytes * (double)(1L << c);
    if (last)
      used += (size_t)snprintf(buf + used, cap - used, "%s%s",
                               used ? "," : "",
                               ompext_reduce_method_name(method));
    else if (bytes >= 1024)
      used += (size_t)snprintf(buf + used, cap - used, "%s%s<=%.0fKiB",
                               used ? "," : "",
                               ompext_reduce_method_name(method), bytes / 1024);
    else
      used += (size_t)snprintf(buf + used, cap - used, "%s%s<=%.0fB",
                               used ? "," : "",
                               ompext_reduce_method_name(method), bytes);
  }
}

int ompext_plan_describe(const ompext_planner_t *planner,
                         const ompext_plan_t *p, char *buf, size_t cap) {
  const ompext_config_t *cfg = planner->cfg;
  char fanin[OMPEXT_MAX_LEVELS * 4 + 1] = "";
  for (int l = 0; l < p->reduce_levels; ++l) {
    size_t used = strlen(fanin);
    snprintf(fanin + used, sizeof(fanin) - used, "%s%d", l ? "," : "",
             p->reduce_fanin[l]);
  }
  char barrier[64], reduce[96], bcast[144], forkjoin[48];
  if (!p->served.plain_barrier)
    snprintf(barrier, sizeof(barrier), "stock");
  else if (p->to_stock[OMPEXT_MODEL_OP_BARRIER])
    snprintf(barrier, sizeof(barrier),
             "stock(model: ext's best %.2fx stock's min)",
             p->stock_ratio[OMPEXT_MODEL_OP_BARRIER]);
  else if (p->barrier.alg == OMPEXT_BARRIER_STOCK)
    snprintf(barrier, sizeof(barrier), "stock(no fewer steps than libomp's)");
  else
    ompext_plan_describe_barrier(&p->barrier, barrier, sizeof(barrier));
  if (!p->served.reduce)
    snprintf(reduce, sizeof(reduce), "stock");
  else if (p->reduce_sizes.sized) {
    char sizes[72];
    describe_reduce_sizes(&p->reduce_sizes,
                          planner->machine->params.line_bytes, sizes,
                          sizeof(sizes));
    snprintf(reduce, sizeof(reduce), "by size(%s;tree k=%s)", sizes,
             p->reduce_levels ? fanin : "-");
  } else if (p->reduce_tree)
    snprintf(reduce, sizeof(reduce), "tree(k=%s)",
             p->reduce_levels ? fanin : "-");
  else
    snprintf(reduce, sizeof(reduce), "atomic");
  if (!p->served.bcast)
    snprintf(bcast, sizeof(bcast), "stock");
  else
    snprintf(bcast, sizeof(bcast),
             "%s(k=%d%s,long copies>=%.1fus:k=%d%s,%s close,root lead "
             "%lluns)",
             ompext_bcast_names[cfg->bcast], p->bcast.short_fanout,
             p->bcast.short_from_root ? " from root" : "",
             (double)p->bcast.long_ns / 1000.0, p->bcast.long_fanout,
             p->bcast.long_from_root ? " from root" : "",
             ompext_bcast_close_names[p->bcast.close],
             (unsigned long long)p->bcast.lead_ns);
  if (p->served.forkjoin && p->forkjoin_radix >= 2)
    snprintf(forkjoin, sizeof(forkjoin), "k-nomial(r=%d)", p->forkjoin_radix);
  else if (p->served.forkjoin)
    snprintf(forkjoin, sizeof(forkjoin), "tree(k=%d)", p->forkjoin_fanout);
  else
    snprintf(forkjoin, sizeof(forkjoin), "stock");
  return snprintf(buf, cap,
                  "omp-ext: team of %d: barrier=%s reduce=%s bcast=%s "
                  "forkjoin=%s params=%s%s%s",
                  p->nproc, barrier, reduce, bcast, forkjoin,
                  p->from_model ? planner->machine->source : "defaults",
                  p->overridden ? "+environment" : "",
                  p->oversubscribed ? ", oversubscribed: fewest steps" : "");
}

int ompext_plan_describe_domains(const ompext_plan_t *plan,
                                 const ompext_domain_plan_t *domains,
                                 int ndomains, char *buf, size_t cap) {
  char across[48];
  ompext_plan_describe_barrier(&domains->across, across, sizeof(across));
  return snprintf(buf, cap,
                  "omp-ext: team of %d: barrier tree(k=%d) in each domain, "
                  "%s among %d leaders",
                  plan->nproc, domains->inside_tree_k, across, ndomains);
}
