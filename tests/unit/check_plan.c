/*
 * Checks of the plan builder (plan.c).  Single-threaded: a plan is a pure
 * function of the configuration, the machine and the team.
 *
 * For every team size, fitting or oversubscribed, every parameter lies
 * within its bounds (bounds.h): the plan is the one place that clamps, and
 * the algorithms take what it gives.
 *
 * For team sizes 2..200, without a model and with each built-in parameter
 * set:
 *   - a team that fits the machine takes the combining tree's k for its
 *     fork/join tree, and says nothing of oversubscription;
 *   - an oversubscribed team takes the fewest steps: the dissemination m
 *     with the fewest rounds m <= OMPEXT_MAX_M allows, and the smallest such
 *     m; fork/join and tree-barrier fan-outs with the fewest levels, the
 *     smallest such; a flat broadcast for short and long copies; reduction
 *     groups over the fewest levels the fan-in bound allows, the smallest
 *     such; the long-copy time of a team of 2, which is no more than that
 *     of the same team fitting the machine; and it says so;
 *   - the root leads receivers out of a rooted close by two transfers
 *     between cores (R_R; without a model 200 ns) in a team that fits, and
 *     not at all in an oversubscribed one, whose receivers do not spin;
 *   - some values spelled out (8 threads: one round of m = 7, fork/join
 *     fan-out 7; 33 threads: m = 5, fan-out 32).
 * Given the processor count, an oversubscribed team's reduction groups
 * each processor's share of the team instead (fan-in ceil(n / processors)).
 * Settings from the environment win over the oversubscribed choice.
 * A team of 2 chooses its reductions by size, except under
 * OMPEXT_FORKJOIN=stock: the choice takes effect at a clock that the
 * plugin's forks and joins advance.
 * Under OMPEXT_BARRIER=auto (the default) a team that fits gets the
 * dissemination barrier, and an oversubscribed one the combining tree with
 * the fewest levels, the smallest such k, so that tid 0 releases the team;
 * knowing the runtime's hyper barrier, the oversubscribed team hands its
 * barriers back to it where the tree takes no fewer steps (2 to 5 threads
 * with libomp's 4 children per level), with the team's barrier as the
 * broadcast's close and no domain barrier.
 * One leader per domain: under OMPEXT_HIERARCHY=auto (the default) a team
 * that fits the processors is laid out by domain and an oversubscribed one
 * stays flat; on lays out both, off neither.
 */
#include "test_services.h"

#include "plan.h"
#include "plan_price.h"
#include "plan_bounds.h"

#include <stdio.h>
#include <string.h>

static void default_config(ompext_config_t *cfg) {
  memset(cfg, 0, sizeof(*cfg));
  cfg->barrier = OMPEXT_BARRIER_DISSEMINATION;
  cfg->reduce = OMPEXT_REDUCE_AUTO;
  cfg->bcast = OMPEXT_BCAST_TREE;
  cfg->bcast_close = OMPEXT_BCAST_CLOSE_AUTO;
  cfg->forkjoin = OMPEXT_FORKJOIN_TREE;
}

static int rounds(int n, int m) {
  return ompext_model_dissemination_rounds(n, m,
                                           OMPEXT_MODEL_ROUNDS_ALGORITHM);
}

static int depth(int n, int k) { return ompext_model_uniform_depth(n, k); }

static void plan_for(const ompext_config_t *cfg,
                     const ompext_machine_t *machine, int n, int oversubscribed,
                     ompext_plan_t *out) {
  const ompext_planner_t planner = {cfg, machine, 0, 0, 0};
  ompext_plan_build(&planner, n, oversubscribed, out);
}

/* Whether the OMPEXT_VERBOSE line says the team is oversubscribed. */
static int says_oversubscribed(const ompext_config_t *cfg,
                               const ompext_machine_t *machine,
                               const ompext_plan_t *p) {
  const ompext_planner_t planner = {cfg, machine, 0, 0, 0};
  char line[512];
  ompext_plan_describe(&planner, p, line, sizeof(line));
  return strstr(line, "oversubscribed") != NULL;
}

/* Every parameter the algorithms take lies within its bounds. */
static void check_bounds(const char *set, int n, const ompext_plan_t *p) {
  char why[160];
  if (plan_bounds_check(p, why, sizeof(why)) != 0)
    tu_fail("%s n=%d%s: out of bounds: %s", set, n,
            p->oversubscribed ? " oversubscribed" : "", why);
}

static void check_fits(const ompext_config_t *cfg,
                       const ompext_machine_t *machine, const char *set, int n,
                       const ompext_plan_t *p) {
  if (p->forkjoin_fanout != p->barrier.tree_k)
    tu_fail("%s n=%d: fork/join fan-out %d, tree k %d", set, n,
            p->forkjoin_fanout, p->barrier.tree_k);
  /* Fork/join runs that heap or a k-nomial tree, whichever is cheaper: no
     dearer than the heap nor than stock's own. */
  if (machine) {
    const ompext_model_params_t *mp = &machine->params;
    const double mine =
        ompext_price_forkjoin(mp, n, p->forkjoin_radix, p->forkjoin_fanout).min;
    const double heap = ompext_model_forkjoin_tree(mp, n, p->barrier.tree_k).min;
    const double stock =
        ompext_price_stock(mp, OMPEXT_MODEL_OP_FORK_JOIN, n, 1).min;
    if (n >= 2 && (mine > heap * (1 + 1e-9) || mine > stock * (1 + 1e-9)))
      tu_fail("%s n=%d: fork/join (radix %d, k %d) %.1f ns, heap of k %d "
              "%.1f, stock %.1f",
              set, n, p->forkjoin_radix, p->forkjoin_fanout, mine,
              p->barrier.tree_k, heap, stock);
  }
  if (p->oversubscribed || says_oversubscribed(cfg, machine, p))
    tu_fail("%s n=%d: a team that fits says it is oversubscribed", set, n);
}

static void check_oversubscribed(const ompext_config_t *cfg,
                                 const ompext_machine_t *machine,
                                 const char *set, int n,
                                 const ompext_plan_t *p) {
  const int m = p->barrier.dissem_m, fewest = rounds(n, OMPEXT_MAX_M);
  if (m < 1 || m > OMPEXT_MAX_M || rounds(n, m) != fewest ||
      (m > 1 && rounds(n, m - 1) == fewest))
    tu_fail("%s n=%d: m=%d (%d rounds), fewest rounds %d", set, n, m,
            m >= 1 ? rounds(n, m) : -1, fewest);
  const int levels = depth(n, OMPEXT_MAX_FANIN);
  const int k = p->forkjoin_fanout;
  if (k < 1 || k > OMPEXT_MAX_FANIN || depth(n, k) != levels ||
      (k > 1 && depth(n, k - 1) == levels))
    tu_fail("%s n=%d: fork/join fan-out %d, not the smallest with %d levels",
            set, n, k, levels);
  if (p->barrier.tree_k < 2 || depth(n, p->barrier.tree_k) != levels)
    tu_fail("%s n=%d: tree k %d has more than %d levels", set, n,
            p->barrier.tree_k, levels);
  if (p->bcast.short_fanout != n - 1 || p->bcast.long_fanout != n - 1)
    tu_fail("%s n=%d: broadcast fan-outs %d/%d, not flat", set, n,
            p->bcast.short_fanout, p->bcast.long_fanout);
  const int want_levels = n <= OMPEXT_MAX_FANIN ? 1 : 2;
  if (p->reduce_levels != want_levels)
    tu_fail("%s n=%d: %d reduction levels, want %d", set, n, p->reduce_levels,
            want_levels);
  long span = 1, smaller = 1; /* the fan-in, and one less, over the levels */
  for (int l = 0; l < p->reduce_levels; ++l) {
    span *= p->reduce_fanin[l];
    smaller *= p->reduce_fanin[l] - 1;
    if (p->reduce_fanin[l] != p->reduce_fanin[0])
      tu_fail("%s n=%d: reduction fan-ins differ by level", set, n);
  }
  if (span < n || (p->reduce_fanin[0] > 2 && smaller >= n))
    tu_fail("%s n=%d: reduction fan-in %d over %d levels is not the smallest "
            "that covers the team",
            set, n, p->reduce_fanin[0], p->reduce_levels);
  if (!p->oversubscribed || !says_oversubscribed(cfg, machine, p))
    tu_fail("%s n=%d: oversubscription not reported", set, n);
}

static void check_sizes(const char *set, const ompext_machine_t *machine) {
  ompext_config_t cfg;
  default_config(&cfg);
  ompext_plan_t pair;
  plan_for(&cfg, machine, 2, 0, &pair);
  for (int n = 2; n <= 200; ++n) {
    ompext_plan_t fits, over;
    plan_for(&cfg, machine, n, 0, &fits);
    plan_for(&cfg, machine, n, 1, &over);
    check_fits(&cfg, machine, set, n, &fits);
    check_oversubscribed(&cfg, machine, set, n, &over);
    check_bounds(set, n, &fits);
    check_bounds(set, n, &over);
    if (over.bcast.long_ns != pair.bcast.long_ns ||
        over.bcast.long_ns > fits.bcast.long_ns)
      tu_fail("%s n=%d: oversubscribed long copies from %llu ns; a team of "
              "2 has %llu, a team of %d that fits %llu",
              set, n, (unsigned long long)over.bcast.long_ns,
              (unsigned long long)pair.bcast.long_ns, n,
              (unsigned long long)fits.bcast.long_ns);
    /* The root's lead out of a rooted close: two transfers between cores
       for a team that spins, none for one that does not. */
    const uint64_t lead =
        machine ? (uint64_t)(2 * machine->params.r_r) : 400; /* 2 x 200 */
    if (fits.bcast.lead_ns != lead || over.bcast.lead_ns != 0)
      tu_fail("%s n=%d: root's lead %llu ns (oversubscribed %llu), want "
              "%llu (0)",
              set, n, (unsigned long long)fits.bcast.lead_ns,
              (unsigned long long)over.bcast.lead_ns,
              (unsigned long long)lead);
  }
  static const struct {
    int n, m, forkjoin;
  } spelled[] = {{2, 1, 1}, {4, 3, 3}, {8, 7, 7}, {17, 16, 16},
                 {18, 4, 17}, {33, 5, 32}, {65, 8, 64}, {66, 8, 8}};
  for (size_t i = 0; i < sizeof(spelled) / sizeof(spelled[0]); ++i) {
    ompext_plan_t p;
    plan_for(&cfg, machine, spelled[i].n, 1, &p);
    if (p.barrier.dissem_m != spelled[i].m ||
        p.forkjoin_fanout != spelled[i].forkjoin)
      tu_fail("%s n=%d oversubscribed: m=%d fork/join %d, want %d and %d", set,
              spelled[i].n, p.barrier.dissem_m, p.forkjoin_fanout, spelled[i].m,
              spelled[i].forkjoin);
  }
}

/* With the processor count known, an oversubscribed team's reduction
   groups each processor's share of the team: fan-in ceil(n / processors)
   (2 at least, the bound at most), over as many levels as the team needs;
   a team that fits keeps the model's tree, and the environment wins. */
static void check_reduce_by_processor(const char *set,
                                      const ompext_machine_t *machine) {
  ompext_config_t cfg;
  default_config(&cfg);
  for (int processors = 1; processors <= 8; ++processors)
    for (int n = processors + 1; n <= 200; ++n) {
      const ompext_planner_t planner = {&cfg, machine, processors, 0, 0};
      ompext_plan_t over;
      ompext_plan_build(&planner, n, 1, &over);
      int want = (n + processors - 1) / processors;
      want = want < 2 ? 2 : want > OMPEXT_MAX_FANIN ? OMPEXT_MAX_FANIN : want;
      long span = 1;
      for (int l = 0; l < over.reduce_levels; ++l) {
        if (over.reduce_fanin[l] != want)
          tu_fail("%s n=%d on %d processors: reduction fan-in %d at level %d, "
                  "want %d",
                  set, n, processors, over.reduce_fanin[l], l, want);
        span *= over.reduce_fanin[l];
      }
      if (span < n || span / over.reduce_fanin[0] >= n)
        tu_fail("%s n=%d on %d processors: %d reduction levels of %d", set, n,
                processors, over.reduce_levels, want);
      check_bounds(set, n, &over);
      if (n == 8 && processors == 2 &&
          (over.reduce_fanin[0] != 4 || over.reduce_levels != 2))
        tu_fail("8 threads on 2 processors: fan-in %d over %d levels, want 4 "
                "over 2", over.reduce_fanin[0], over.reduce_levels);
    }
  cfg.reduce_levels = 1;
  cfg.reduce_fanin[0] = 3;
  const ompext_planner_t planner = {&cfg, machine, 2, 0, 0};
  ompext_plan_t p;
  ompext_plan_build(&planner, 8, 1, &p);
  if (p.reduce_fanin[0] != 3)
    tu_fail("OMPEXT_REDUCE_FANIN=3 under oversubscription on 2 processors: %d",
            p.reduce_fanin[0]);
}

static void check_auto_barrier(const char *set,
                               const ompext_machine_t *machine) {
  ompext_config_t cfg;
  default_config(&cfg);
  cfg.barrier = OMPEXT_BARRIER_AUTO;
  cfg.dissem_m = 3; /* the dissemination's m; no effect on the tree */
  for (int n = 2; n <= 200; ++n) {
    ompext_plan_t fits, over;
    plan_for(&cfg, machine, n, 0, &fits);
    plan_for(&cfg, machine, n, 1, &over);
    if (fits.barrier.alg != OMPEXT_BARRIER_DISSEMINATION ||
        fits.barrier.dissem_m != 3)
      tu_fail("%s n=%d auto, fits: barrier %s(%d), want dissemination(3)", set,
              n, ompext_barrier_names[fits.barrier.alg], fits.barrier.dissem_m);
    const int levels = depth(n, OMPEXT_MAX_FANIN), k = over.barrier.tree_k;
    if (over.barrier.alg != OMPEXT_BARRIER_TREE || k < 2 ||
        depth(n, k) != levels || (k > 2 && depth(n, k - 1) == levels))
      tu_fail("%s n=%d auto, oversubscribed: barrier %s(%d), want the "
              "smallest tree k with %d levels",
              set, n, ompext_barrier_names[over.barrier.alg], k, levels);
  }
}

/* A planner that knows the runtime's barrier: 2^gather_bits children per
   level in its gather, 2^release_bits in its release. */
static void plan_knowing_stock(const ompext_config_t *cfg,
                               const ompext_machine_t *machine, int n,
                               int oversubscribed, int gather_bits,
                               int release_bits, ompext_plan_t *out) {
  const ompext_planner_t planner = {cfg, machine, 0, gather_bits,
                                    release_bits};
  ompext_plan_build(&planner, n, oversubscribed, out);
}

/* Under auto, an oversubscribed team hands its plain barriers back where
   its flat tree takes no fewer steps than libomp's hyper barrier: with 4
   children per level (libomp's default) that is 2 to 5 threads, whose
   hyper barrier is flat too; from 6 threads the hyper barrier takes two
   levels and the tree stays.  With 2 children per level, teams of 2 and 3
   hand back (tids 1 and 2 are one hop from tid 0, tid 3 two).  Forced barriers, teams that fit and an unknown runtime
   barrier never hand back. */
static void check_steps_aside(const char *set,
                              const ompext_machine_t *machine) {
  ompext_config_t cfg;
  default_config(&cfg);
  cfg.barrier = OMPEXT_BARRIER_AUTO;
  const ompext_planner_t planner = {&cfg, machine, 0, 2, 2};
  for (int n = 2; n <= 200; ++n) {
    ompext_plan_t over, fits, unknown, binary;
    plan_knowing_stock(&cfg, machine, n, 1, 2, 2, &over);
    plan_knowing_stock(&cfg, machine, n, 0, 2, 2, &fits);
    plan_knowing_stock(&cfg, machine, n, 1, 0, 0, &unknown);
    plan_knowing_stock(&cfg, machine, n, 1, 1, 1, &binary);
    const ompext_barrier_alg_t want =
        n <= 5 ? OMPEXT_BARRIER_STOCK : OMPEXT_BARRIER_TREE;
    if (over.barrier.alg != want)
      tu_fail("%s n=%d auto, oversubscribed, libomp 4 per level: barrier %s, "
              "want %s",
              set, n, ompext_barrier_names[over.barrier.alg],
              ompext_barrier_names[want]);
    if (fits.barrier.alg != OMPEXT_BARRIER_DISSEMINATION ||
        unknown.barrier.alg != OMPEXT_BARRIER_TREE)
      tu_fail("%s n=%d auto: fits %s, libomp's barrier unknown %s", set, n,
              ompext_barrier_names[fits.barrier.alg],
              ompext_barrier_names[unknown.barrier.alg]);
    if (binary.barrier.alg !=
        (n <= 3 ? OMPEXT_BARRIER_STOCK : OMPEXT_BARRIER_TREE))
      tu_fail("%s n=%d auto, oversubscribed, libomp 2 per level: barrier %s",
              set, n, ompext_barrier_names[binary.barrier.alg]);
    if (over.barrier.alg == OMPEXT_BARRIER_STOCK) {
      char line[512];
      ompext_plan_describe(&planner, &over, line, sizeof(line));
      if (!strstr(line, "barrier=stock(") ||
          over.bcast.close != OMPEXT_BCAST_CLOSE_BARRIER ||
          over.domain_barrier)
        tu_fail("%s n=%d handed back: close %s, domain barrier %d, line %s",
                set, n, ompext_bcast_close_names[over.bcast.close],
                over.domain_barrier, line);
    }
  }
  cfg.barrier = OMPEXT_BARRIER_TREE;
  ompext_plan_t forced;
  plan_knowing_stock(&cfg, machine, 4, 1, 2, 2, &forced);
  if (forced.barrier.alg != OMPEXT_BARRIER_TREE)
    tu_fail("%s OMPEXT_BARRIER=tree, 4 threads oversubscribed: barrier %s", set,
            ompext_barrier_names[forced.barrier.alg]);
}

static void check_environment_wins(const ompext_machine_t *machine) {
  ompext_config_t cfg;
  default_config(&cfg);
  cfg.dissem_m = 3;
  cfg.forkjoin_fanout = 5;
  cfg.bcast_fanout = 2;
  cfg.reduce = OMPEXT_REDUCE_TREE;
  cfg.reduce_levels = 1;
  cfg.reduce_fanin[0] = 4;
  ompext_plan_t p;
  plan_for(&cfg, machine, 33, 1, &p);
  if (p.barrier.dissem_m != 3 || p.forkjoin_fanout != 5 ||
      p.bcast.short_fanout != 2 || p.bcast.long_fanout != 2 ||
      p.reduce_fanin[0] != 4 || p.reduce_levels != 3)
    tu_fail("environment under oversubscription: m=%d fork/join %d "
            "broadcast %d/%d reduction fan-in %d over %d levels",
            p.barrier.dissem_m, p.forkjoin_fanout, p.bcast.short_fanout,
            p.bcast.long_fanout, p.reduce_fanin[0], p.reduce_levels);
  default_config(&cfg);
  cfg.barrier = OMPEXT_BARRIER_TREE;
  cfg.tree_k = 3;
  plan_for(&cfg, machine, 33, 1, &p);
  if (p.barrier.tree_k != 3 || p.bcast.close_tree_k != 3)
    tu_fail("OMPEXT_BARRIER_K=3 under oversubscription: k=%d, close k %d",
            p.barrier.tree_k, p.bcast.close_tree_k);
}

/* Finite but extreme machine parameters: every derived integer saturates
   (the long-copy time at 10 s) and every parameter stays within bounds. */
static void check_saturation(void) {
  ompext_machine_t machine;
  memset(&machine, 0, sizeof(machine));
  ompext_model_params_builtin("default", &machine.params);
  snprintf(machine.source, sizeof(machine.source), "model(extreme)");
  machine.params.r_r = 1e300;
  machine.params.o = 1e-300;
  ompext_config_t cfg;
  default_config(&cfg);
  for (int n = 2; n <= 64; n *= 2)
    for (int over = 0; over <= 1; ++over) {
      ompext_plan_t p;
      plan_for(&cfg, &machine, n, over, &p);
      check_bounds("extreme R_R and o", n, &p);
      if (p.bcast.long_ns != 10000000000ull)
        tu_fail("extreme R_R n=%d: long copies from %llu ns, want the 10 s "
                "ceiling",
                n, (unsigned long long)p.bcast.long_ns);
    }
}

/* A scalar's combine is a read of the line the child has just written:
   R_R at the least.  With two calibrations of the 2-core development
   machine, one where T_N(1) lies below R_R and one where R_I is five times
   R_R, a team of 2 puts a combine of R_R (plus the timer) in the one-line
   class, and takes atomics there when the compiler allows them. */
static void check_scalar_class(void) {
  static const struct {
    const char *name;
    double r_l, r_r, r_i, b, o, q;
  } sets[] = {{"T_N(1) < R_R", 0.63, 125.5, 140.2, 110.2, 19.1, 78.1},
              {"R_I = 5 R_R", 0.63, 28.17, 139.27, 20.03, 3.43, 23.46}};
  for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); ++i) {
    ompext_machine_t machine;
    memset(&machine, 0, sizeof(machine));
    if (ompext_model_params_builtin("default", &machine.params) != 0)
      tu_fatal("built-in set default missing");
    ompext_model_params_t *mp = &machine.params;
    mp->r_l = sets[i].r_l;
    mp->r_r = sets[i].r_r;
    mp->r_i = sets[i].r_i;
    mp->a = 0;
    mp->b = sets[i].b;
    mp->c = 0;
    mp->o = sets[i].o;
    mp->q = sets[i].q;
    mp->p = 0;
    snprintf(machine.source, sizeof(machine.source), "model(%s)",
             sets[i].name);
    ompext_config_t cfg;
    default_config(&cfg);
    ompext_plan_t p;
    plan_for(&cfg, &machine, 2, 0, &p);
    const ompext_reduce_sizes_t *z = &p.reduce_sizes;
    if (!z->sized) {
      tu_fail("%s: a team of 2 does not choose by size", sets[i].name);
      continue;
    }
    if (!(z->combine_ns[0] > mp->r_r))
      tu_fail("%s: a combine of R_R = %g ns is not in the one-line class "
              "(its bound %g ns)",
              sets[i].name, mp->r_r, z->combine_ns[0]);
    const unsigned both = OMPEXT_REDUCE_ALLOW_ATOMIC | OMPEXT_REDUCE_ALLOW_TREE;
    if (z->best[0][both] != OMPEXT_REDUCE_METHOD_ATOMIC)
      tu_fail("%s: one line takes %s, want atomic", sets[i].name,
              ompext_reduce_method_name(z->best[0][both]));
    cfg.forkjoin = OMPEXT_FORKJOIN_STOCK;
    plan_for(&cfg, &machine, 2, 0, &p);
    if (p.reduce_sizes.sized)
      tu_fail("%s: under OMPEXT_FORKJOIN=stock a team of 2 still chooses by "
              "size, whose decisions no fork or join would bring in",
              sets[i].name);
  }
}

static void check_hierarchy_modes(void) {
  static const struct {
    ompext_hierarchy_mode_t mode;
    int fits, oversubscribed; /* laid out by domain */
  } want[] = {{OMPEXT_HIERARCHY_AUTO, 1, 0},
              {OMPEXT_HIERARCHY_ON, 1, 1},
              {OMPEXT_HIERARCHY_OFF, 0, 0}};
  for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); ++i) {
    ompext_config_t cfg;
    default_config(&cfg);
    cfg.hierarchy = want[i].mode;
    for (int over = 0; over <= 1; ++over) {
      ompext_plan_t p;
      plan_for(&cfg, NULL, 8, over, &p);
      const int expected = over ? want[i].oversubscribed : want[i].fits;
      if (ompext_plan_lays_out_domains(&p) != expected)
        tu_fail("hierarchy mode %d, 8 threads%s: laid out %d, want %d",
                (int)want[i].mode, over ? " oversubscribed" : "",
                ompext_plan_lays_out_domains(&p), expected);
    }
  }
}

int main(void) {
  unsigned long sets = 0;
  check_hierarchy_modes();
  check_scalar_class();
  check_sizes("no model", NULL);
  check_auto_barrier("no model", NULL);
  check_steps_aside("no model", NULL);
  check_reduce_by_processor("no model", NULL);
  check_environment_wins(NULL);
  check_saturation();
  ++sets;
  for (int i = 0; ompext_model_builtin_names[i]; ++i) {
    ompext_machine_t machine;
    memset(&machine, 0, sizeof(machine));
    if (ompext_model_params_builtin(ompext_model_builtin_names[i],
                                    &machine.params) != 0)
      tu_fatal("built-in set %s missing", ompext_model_builtin_names[i]);
    snprintf(machine.source, sizeof(machine.source), "model(%s)",
             ompext_model_builtin_names[i]);
    check_sizes(ompext_model_builtin_names[i], &machine);
    check_auto_barrier(ompext_model_builtin_names[i], &machine);
    check_steps_aside(ompext_model_builtin_names[i], &machine);
    check_reduce_by_processor(ompext_model_builtin_names[i], &machine);
    check_environment_wins(&machine);
    ++sets;
  }
  unsigned long bad = tu_failures();
  printf("check_plan: team sizes 2..200 over %lu parameter sources, %lu "
         "violations\n",
         sets, bad);
  return bad ? 1 : 0;
}
