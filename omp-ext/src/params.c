/*
 * Parameter choice per team size (see params.h).
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
 * always wins.  The fork/join tree is the combining tree barrier's shape
 * (children raise their own flag lines, the parent writes one line, ICVs and
 * go, per child), so it takes the model's tree k.
 *
 * A team with more threads than the machine has processors is outside the
 * model: a signal's receiver is then mostly not running, and every step
 * that waits on an earlier one (a dissemination round, a tree level) costs
 * a scheduler hand-off, microseconds against the model's line transfers.
 * Such a team gets the fewest steps: flat fork/join, broadcast, reduction
 * and barrier trees (within the fan-in bound), one dissemination round
 * where m allows (then the smallest m for that many rounds) if the
 * dissemination barrier is asked for, and copies are long from the floor a
 * team of 2 uses (the rooted close is one step more, see
 * bcast_close_long_ns below).
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
#include "params.h"

#include <string.h>

/* Copies this many times longer than what the rooted close costs over the
   team's barrier make it worth keeping the root (bcast_close.c); they are
   "long" copies, for the broadcast's fan-out too. */
#define CLOSE_LONG_FACTOR 16
/* Without a model: a transfer between cores of about 200 ns. */
#define CLOSE_DEFAULT_EXTRA_NS 200.0

static int levels_for(int nproc, const int *fanin, int given) {
  int levels = 0;
  long span = 1;
  while (span < nproc && levels < OMPEXT_MAX_LEVELS) {
    span *= fanin[levels < given ? levels : given - 1];
    ++levels;
  }
  return levels;
}

/* What the model chose for a team of nproc; have = 0 without a model. */
typedef struct model_pick {
  int have;
  int m, tree_k;
  int reduce_tree, reduce_levels, reduce_fanin[OMPEXT_MAX_LEVELS];
  int bcast_fanout;
  int bcast_long_fanout; /* for a message copied in the "long" time */
  double close_extra_ns; /* rooted close's cost over the dissemination's */
} model_pick_t;

static int model_best_lines(const ompext_machine_t *machine,
                            ompext_model_alg_t alg, int nproc, long lines,
                            ompext_model_choice_t *out) {
  ompext_model_options_t opts;
  ompext_model_options_default(&opts);
  opts.max_m = OMPEXT_MAX_M; /* the runtime's bounds */
  opts.max_k = OMPEXT_MAX_FANIN;
  opts.max_depth = OMPEXT_MAX_LEVELS;
  return ompext_model_best_config(&machine->params, &opts, alg, nproc, lines,
                                  out);
}

static int model_best(const ompext_machine_t *machine, ompext_model_alg_t alg,
                      int nproc, ompext_model_choice_t *out) {
  return model_best_lines(machine, alg, nproc, 1, out);
}

static void model_choose(const ompext_machine_t *machine, int nproc,
                         model_pick_t *pick) {
  ompext_model_choice_t c, atomic;
  ompext_model_options_t opts;
  memset(pick, 0, sizeof(*pick));
  if (!machine || nproc < 2)
    return;
  ompext_model_options_default(&opts);
  pick->have = 1;
  pick->m = model_best(machine, OMPEXT_MODEL_DISSEMINATION, nproc, &c) == 0
                ? c.m
                : 1;
  pick->tree_k =
      model_best(machine, OMPEXT_MODEL_BARRIER_TREE, nproc, &c) == 0 ? c.k : 4;
  if (model_best(machine, OMPEXT_MODEL_REDUCE_TREE, nproc, &c) == 0) {
    pick->reduce_tree =
        model_best(machine, OMPEXT_MODEL_REDUCE_ATOMIC, nproc, &atomic) != 0 ||
        ompext_model_compare(&opts, &c, &atomic) < 0;
    for (int l = 0; l < c.depth && l < OMPEXT_MAX_LEVELS; ++l) {
      int k = c.fanout[c.depth - 1 - l] + 1;
      pick->reduce_fanin[pick->reduce_levels++] =
          k > OMPEXT_MAX_FANIN ? OMPEXT_MAX_FANIN : k;
    }
  }
  pick->bcast_fanout =
      model_best(machine, OMPEXT_MODEL_BCAST_TREE, nproc, &c) == 0 && c.depth
          ? c.fanout[0]
          : 2;
  /* The rooted close is a combining tree of the barrier's k; best cases,
     and at least one transfer between cores. */
  const ompext_model_params_t *mp = &machine->params;
  double extra = ompext_model_barrier_tree(mp, nproc, pick->tree_k).min -
                 ompext_model_barrier_dissemination(
                     mp, nproc, pick->m, OMPEXT_MODEL_ROUNDS_ALGORITHM)
                     .min;
  pick->close_extra_ns = extra > mp->r_r ? extra : mp->r_r;
  /* Long copies: the smallest message whose copy takes the "long" time
     (T_N = o*N + q - p/N, ignoring p/N), and the root's fan-out the model
     picks for it. */
  const double long_ns = CLOSE_LONG_FACTOR * pick->close_extra_ns;
  const long lines =
      mp->o > 0 && long_ns > mp->q ? (long)((long_ns - mp->q) / mp->o) : 1;
  pick->bcast_long_fanout =
      model_best_lines(machine, OMPEXT_MODEL_BCAST_TREE, nproc,
                       lines > 1 ? lines : 1, &c) == 0 &&
              c.depth
          ? c.fanout[0]
          : nproc - 1;
}

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

/* Oversubscribed: the fewest steps, wherever the environment left the
   choice to us (see the top of this file). */
static void fewest_steps(const ompext_config_t *cfg, int nproc,
                         ompext_team_params_t *out) {
  /* Root-first trees (fork/join, broadcast, tree barrier): levels of the
     complete k-ary tree; a combining tree needs k >= 2. */
  const int flat_k = smallest_with_fewest(nproc, 1, OMPEXT_MAX_FANIN,
                                          ompext_model_uniform_depth);
  const int flat_tree_k = smallest_with_fewest(nproc, 2, OMPEXT_MAX_FANIN,
                                               ompext_model_uniform_depth);
  if (out->barrier_alg == OMPEXT_BARRIER_DISSEMINATION && !cfg->barrier_m)
    out->barrier_k =
        smallest_with_fewest(nproc, 1, OMPEXT_MAX_M, dissemination_rounds);
  if (out->barrier_alg == OMPEXT_BARRIER_TREE && !cfg->barrier_k)
    out->barrier_k = flat_tree_k;
  if (!cfg->barrier_k)
    out->tree_k = flat_tree_k;
  if (!cfg->reduce_levels) {
    const int fanin =
        smallest_with_fewest(nproc, 2, OMPEXT_MAX_FANIN, reduce_levels);
    out->reduce_levels = reduce_levels(nproc, fanin);
    for (int l = 0; l < out->reduce_levels; ++l)
      out->reduce_fanin[l] = fanin;
  }
  if (!cfg->bcast_fanout && nproc > 1)
    out->bcast_fanout = out->bcast_long_fanout = nproc - 1;
  if (!cfg->forkjoin_fanout)
    out->forkjoin_fanout = flat_k;
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

void ompext_params_choose(const ompext_config_t *cfg,
                          const ompext_machine_t *machine, int nproc,
                          int oversubscribed, ompext_team_params_t *out) {
  static const int default_fanin[1] = {4};
  model_pick_t model;
  model_choose(machine, nproc, &model);
  memset(out, 0, sizeof(*out));
  out->nproc = nproc;
  out->barrier_alg = barrier_for(cfg, oversubscribed);
  int overridden = 0;

  switch (out->barrier_alg) {
  case OMPEXT_BARRIER_DISSEMINATION:
    out->barrier_k = cfg->barrier_m ? cfg->barrier_m : model.have ? model.m : 1;
    overridden |= cfg->barrier_m != 0;
    break;
  case OMPEXT_BARRIER_TREE:
    out->barrier_k = cfg->barrier_k ? cfg->barrier_k
                     : model.have   ? model.tree_k
                                    : 4;
    overridden |= cfg->barrier_k != 0;
    break;
  case OMPEXT_BARRIER_TOURNAMENT: /* 0: release back down the tournament */
    out->barrier_k = cfg->barrier_k;
    overridden |= cfg->barrier_k != 0;
    break;
  default:
    out->barrier_k = 0;
    break;
  }

  if (cfg->reduce == OMPEXT_REDUCE_AUTO)
    out->reduce_tree = model.have ? model.reduce_tree : nproc > 4;
  else
    out->reduce_tree = cfg->reduce == OMPEXT_REDUCE_TREE;

  const int *fanin = default_fanin;
  int given = 1;
  if (cfg->reduce_levels) {
    fanin = cfg->reduce_fanin;
    given = cfg->reduce_levels;
    overridden = 1;
  } else if (model.reduce_levels) {
    fanin = model.reduce_fanin;
    given = model.reduce_levels;
  }
  out->reduce_levels = levels_for(nproc, fanin, given);
  for (int l = 0; l < out->reduce_levels; ++l)
    out->reduce_fanin[l] = fanin[l < given ? l : given - 1];

  if (cfg->bcast == OMPEXT_BCAST_FLAT)
    out->bcast_fanout = nproc > 1 ? nproc - 1 : 1;
  else if (cfg->bcast_fanout)
    out->bcast_fanout = cfg->bcast_fanout;
  else
    out->bcast_fanout = model.have ? model.bcast_fanout : 2;
  /* A fixed fan-out stays fixed; the model's depends on the copies. */
  out->bcast_long_fanout =
      cfg->bcast == OMPEXT_BCAST_FLAT || cfg->bcast_fanout ? out->bcast_fanout
      : model.have ? model.bcast_long_fanout
                   : (nproc > 1 ? nproc - 1 : 1);
  overridden |= cfg->bcast_fanout != 0;

  out->tree_k = cfg->barrier_k ? cfg->barrier_k : model.have ? model.tree_k : 4;
  /* Oversubscribed, both closes are one flat level (fewest_steps): the
     rooted one costs a step more, not the model's extra transfers among
     nproc running threads, which raised the "long" time with the team size
     and kept 64 KiB copies on the team's barrier at 4 and 8 threads on 2
     cores.  Such a team takes the floor, one transfer between cores, as a
     team of 2 does. */
  const double close_extra_ns = !model.have     ? CLOSE_DEFAULT_EXTRA_NS
                                : oversubscribed ? machine->params.r_r
                                                 : model.close_extra_ns;
  out->bcast_close_long_ns = CLOSE_LONG_FACTOR * close_extra_ns;
  out->bcast_close = close_for(cfg, out->barrier_alg);

  out->forkjoin_fanout = cfg->forkjoin_fanout ? cfg->forkjoin_fanout
                         : model.have           ? model.tree_k
                                                : 4;
  overridden |= cfg->forkjoin_fanout != 0;

  out->oversubscribed = oversubscribed;
  if (oversubscribed)
    fewest_steps(cfg, nproc, out);

  snprintf(out->source, sizeof(out->source), "%s%s%s",
           model.have ? machine->source : "defaults",
           overridden ? "+environment" : "",
           oversubscribed ? ", oversubscribed: fewest steps" : "");
}

int ompext_params_describe(const ompext_config_t *cfg,
                           const ompext_team_params_t *p, char *buf,
                           size_t cap) {
  char fanin[OMPEXT_MAX_LEVELS * 4 + 1] = "";
  for (int l = 0; l < p->reduce_levels; ++l) {
    size_t used = strlen(fanin);
    snprintf(fanin + used, sizeof(fanin) - used, "%s%d", l ? "," : "",
             p->reduce_fanin[l]);
  }
  char barrier[48], reduce[96], bcast[112], forkjoin[48];
  if (cfg->barrier == OMPEXT_BARRIER_STOCK)
    snprintf(barrier, sizeof(barrier), "stock");
  else if (p->barrier_alg == OMPEXT_BARRIER_DISSEMINATION)
    snprintf(barrier, sizeof(barrier), "dissemination(m=%d)", p->barrier_k);
  else if (p->barrier_alg == OMPEXT_BARRIER_TREE ||
           p->barrier_alg == OMPEXT_BARRIER_TOURNAMENT)
    snprintf(barrier, sizeof(barrier), "%s(k=%d)",
             ompext_barrier_names[p->barrier_alg], p->barrier_k);
  else
    snprintf(barrier, sizeof(barrier), "%s",
             ompext_barrier_names[p->barrier_alg]);
  if (cfg->reduce == OMPEXT_REDUCE_STOCK)
    snprintf(reduce, sizeof(reduce), "stock");
  else if (p->reduce_tree)
    snprintf(reduce, sizeof(reduce), "tree(k=%s)",
             p->reduce_levels ? fanin : "-");
  else
    snprintf(reduce, sizeof(reduce), "atomic");
  if (cfg->bcast == OMPEXT_BCAST_STOCK)
    snprintf(bcast, sizeof(bcast), "stock");
  else
    snprintf(bcast, sizeof(bcast), "%s(k=%d,long copies>=%.1fus:k=%d,%s close)",
             ompext_bcast_names[cfg->bcast], p->bcast_fanout,
             p->bcast_close_long_ns / 1000.0, p->bcast_long_fanout,
             ompext_bcast_close_names[p->bcast_close]);
  if (cfg->forkjoin == OMPEXT_FORKJOIN_TREE)
    snprintf(forkjoin, sizeof(forkjoin), "tree(k=%d)", p->forkjoin_fanout);
  else
    snprintf(forkjoin, sizeof(forkjoin), "stock");
  return snprintf(buf, cap,
                  "omp-ext: team of %d: barrier=%s reduce=%s bcast=%s "
                  "forkjoin=%s params=%s",
                  p->nproc, barrier, reduce, bcast, forkjoin, p->source);
}
