/*
 * The baselines: the collectives of the runtimes omp-ext is compared with,
 * priced with the same primitives and the same min/max accounting as
 * omp-ext's own algorithms in cost.c (see model.h), so that the model can
 * say "ext over stock" per team size.
 *
 *   stock         LLVM libomp (release 19) as shipped: barriers of the
 *                 hyper pattern, branch bits 2 (radix 4) for the plain and
 *                 the fork/join barriers, 1 for the reduction barrier
 *                 (kmp_global.cpp __kmp_barrier_*_bb_dflt, kmp_runtime.cpp
 *                 __kmp_init_barrier ... KMP_FAST_REDUCTION_BARRIER)
 *   stock-tree    the same with the tree pattern (KMP_*_BARRIER_PATTERN=
 *   stock-linear  tree,tree / linear,linear for all three barriers)
 *   libgomp       GCC's runtime: one centralized barrier (config/linux/bar.c)
 *
 * Structures are read from the runtimes' sources and written here as
 * costs, one function per construct; each comment names the function it
 * models.  The accounting is cost.c's: G(k) (a waiter reads k flag lines
 * that their owners set) and S(k) (one thread sets k lines that their
 * owners poll), T_C(n) for n readers of one line, T_N for a copy of N lines,
 * T_nb(n) for one line written in turn by many.  A level of a tree costs G
 * or S of the children of the node on the critical path, the node with the
 * most children and the deepest subtree; the tests (tests/model/
 * test_baseline.c) check that against the longest path over every thread.
 *
 * On a topology (ompext_model_baseline_cost_placed) every transfer between
 * threads of two packages costs R_X instead of R_R.  libomp's trees do not
 * know the topology: their longest path is then taken over every thread
 * (placed.h), tid 0's levels being no longer the critical ones.  libgomp's
 * lines are touched by every thread: each thread on another package than
 * tid 0's pays R_X.  A copyprivate's single thread is taken to be tid 0:
 * readers on the other packages copy its data across (copyprivate_of).
 *
 * What is left out, on both sides alike: the bookkeeping around a barrier
 * (tasking checks, ITT, OMPT), the team set-up of a fork, sleeping after
 * the blocktime, and system calls (libgomp's last arriver always calls
 * futex_wake, a system call the model has no parameter for: its barrier is
 * priced low by that much).  On Intel's first Xeon Phi (KNC) libomp picks
 * other defaults (plain gather branch bits 3, hierarchical fork/join and
 * reduction barriers, atomics up to 8 threads); the "stock" baseline is the
 * generic x86-64 build.
 */
#include "cost_pair.h"
#include "model.h"
#include "placed.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------------ */
/* libomp: the barrier patterns                                             */
/* ------------------------------------------------------------------------ */

int ompext_model_hyper_levels(int n, int branch_bits) {
  if (n < 1 || branch_bits < 1 || branch_bits > 8)
    return -1;
  int levels = 0;
  for (long offset = 1; offset < n; offset <<= branch_bits)
    ++levels;
  return levels;
}

/* tid 0's children at level l of the hypercube-embedded tree: the k-nomial
   tree of radix 2^bits (knomial.c), whose tid-0 levels are the critical
   path of the gather and of the release. */
int ompext_model_hyper_children(int n, int branch_bits, int level) {
  if (n < 1 || branch_bits < 1 || branch_bits > 8 || level < 0 ||
      (long)level * branch_bits >= 62)
    return 0;
  const int radix[1] = {1 << branch_bits};
  return ompext_model_knomial_children(n, radix, 1, level);
}

/* The children of the critical node at each level of a pattern: hyper
   (libomp kmp_barrier.cpp, __kmp_hyper_barrier_gather/_release: at level l
   a thread whose tid has zero digits below l + 1 in base 2^bits waits for,
   then releases, the tids tid + j 2^{bits l}), tree (__kmp_tree_barrier_*:
   the heap with children tid*2^bits + 1 .. + 2^bits) or linear
   (__kmp_linear_barrier_*: tid 0 and the n-1 others).  0 past the last
   level. */
static int pattern_children(ompext_model_libomp_pattern_t pattern, int n,
                            int bits, int level) {
  switch (pattern) {
  case OMPEXT_MODEL_LIBOMP_LINEAR:
    return level == 0 ? n - 1 : 0;
  case OMPEXT_MODEL_LIBOMP_TREE:
    return ompext_model_kary_children(n, 1 << bits, level);
  case OMPEXT_MODEL_LIBOMP_HYPER:
    return level < ompext_model_hyper_levels(n, bits)
               ? ompext_model_hyper_children(n, bits, level)
               : 0;
  }
  return 0;
}

static int pattern_valid(ompext_model_libomp_pattern_t pattern, int n,
                         int bits) {
  return n >= 2 && bits >= 1 && bits <= 8 &&
         (pattern == OMPEXT_MODEL_LIBOMP_LINEAR ||
          pattern == OMPEXT_MODEL_LIBOMP_TREE ||
          pattern == OMPEXT_MODEL_LIBOMP_HYPER);
}

/* Gather (libomp __kmp_{linear,tree,hyper}_barrier_gather).  Each child
   bumps its own b_arrived line; the parent waits for its children one after
   the other.  With a reduction (combine_lines N >= 1) the parent combines
   each child's data right after that child's flag, a copy of N lines from
   the child's cache (T_N, Eq. 3.1).  Per level with c children:
     min/max  G(c) + c * T_N(N)            (no T_N without a reduction) */
ompext_model_cost_t ompext_model_libomp_gather(
    const ompext_model_params_t *p, ompext_model_libomp_pattern_t pattern,
    int n, int branch_bits, double combine_lines) {
  if (!pattern_valid(pattern, n, branch_bits) || combine_lines < 0)
    return INVALID_COST;
  const double combine =
      combine_lines > 0 ? ompext_model_tn(p, combine_lines) : 0.0;
  ompext_model_cost_t total = cost(0, 0);
  for (int level = 0;; ++level) {
    const int c = pattern_children(pattern, n, branch_bits, level);
    if (c == 0)
      break;
    const ompext_model_cost_t g = ompext_model_gather(p, c);
    total = add(total, cost(g.min + c * combine, g.max + c * combine));
  }
  return total;
}

/* Release (libomp __kmp_{linear,tree,hyper}_barrier_release; the hyper one
   top level first, KMP_REVERSE_HYPER_BAR).  The parent writes each child's
   b_go line, which the child polls.  The fork barrier's pushed ICVs share
   that line (kmp.h, kmp_bstate_t), so they add nothing.  Per level with c
   children:
     min/max  S(c) */
ompext_model_cost_t ompext_model_libomp_release(
    const ompext_model_params_t *p, ompext_model_libomp_pattern_t pattern,
    int n, int branch_bits) {
  if (!pattern_valid(pattern, n, branch_bits))
    return INVALID_COST;
  ompext_model_cost_t total = cost(0, 0);
  for (int level = 0;; ++level) {
    const int c = pattern_children(pattern, n, branch_bits, level);
    if (c == 0)
      break;
    total = add(total, ompext_model_signal(p, c));
  }
  return total;
}

/* Plain barrier (libomp __kmp_barrier: gather, then release, both of the
   plain barrier's pattern and branch bits; no ICVs). */
ompext_model_cost_t ompext_model_libomp_barrier(
    const ompext_model_params_t *p, ompext_model_libomp_pattern_t pattern,
    int n, int branch_bits) {
  return add(ompext_model_libomp_gather(p, pattern, n, branch_bits, 0),
             ompext_model_libomp_release(p, pattern, n, branch_bits));
}

/* ------------------------------------------------------------------------ */
/* libomp: reduction, copyprivate, fork/join                                */
/* ------------------------------------------------------------------------ */

/* The tree method, TREE_REDUCE_BLOCK_WITH_REDUCTION_BARRIER (libomp
   kmp_csupport.cpp __kmpc_reduce{,_nowait} -> __kmp_barrier of the
   reduction barrier with reduce_func): the gather of the reduction barrier
   (branch bits 1) combines on the way up, then tid 0 folds its N lines
   into the shared variable, as omp-ext's tree does (cost.c: R_R + o(N-1)).
   The release that follows is the same stock release with or without the
   plugin (the plugin replaces only the gather), so neither side counts it:
     min/max  gather(n, bits 1, N) + R_R + o*(N-1) */
ompext_model_cost_t ompext_model_libomp_reduce_tree(
    const ompext_model_params_t *p, ompext_model_libomp_pattern_t pattern,
    int n, double lines) {
  if (lines < 1)
    return INVALID_COST;
  const ompext_model_cost_t g = ompext_model_libomp_gather(
      p, pattern, n, OMPEXT_MODEL_LIBOMP_REDUCTION_BRANCH_BITS, lines);
  const double fold = p->r_r + p->o * (lines - 1);
  return cost(g.min + fold, g.max + fold);
}

/* The method libomp takes (kmp_runtime.cpp __kmp_determine_reduction_method,
   x86-64 Linux): atomics up to OMPEXT_MODEL_LIBOMP_ATOMIC_CUTOFF threads
   (the compiler made both possible, as clang does for scalars and array
   sections), else the tree.  Atomics are cost.c's atomic reduction (one
   atomic per 8-byte item), the same method the plugin can choose. */
ompext_model_cost_t ompext_model_libomp_reduce(
    const ompext_model_params_t *p, ompext_model_libomp_pattern_t pattern,
    int n, double lines, const char **method) {
  const int atomic = n <= OMPEXT_MODEL_LIBOMP_ATOMIC_CUTOFF;
  if (method)
    *method = atomic ? "atomic" : "tree";
  return atomic ? ompext_model_reduce_atomic_lines(p, n, lines)
                : ompext_model_libomp_reduce_tree(p, pattern, n, lines);
}

/* n-1 threads read one line the single thread wrote (the shared data
   pointer): T_C(n-1); worst case one interference, 2*T_C(n-1), as the
   flat broadcast's notification (Eq. 4.10).  Then each copies the N lines
   from the single thread's cache at once: the flat broadcast's
   T_copy = b + c*(n-2) + o*N (Eq. 4.10).  A copyprivate is that between
   two barriers of the runtime:
     min/max  2 * barrier(n) + pointer_and_copy(n, N)
   On a topology (`cross` = R_X - R_R when some reader is on another
   package than the single thread, else 0) the pointer's line and the first
   line of the copy come across, as libgomp's generation line does
   (gomp_release): T_C(n-1) + cross, and T_copy + cross; the slopes c and o,
   fitted inside one package, are kept (topology.c). */
static ompext_model_cost_t copyprivate_of(const ompext_model_params_t *p,
                                          ompext_model_cost_t barrier, int n,
                                          double lines, double cross) {
  if (n < 2 || lines < 1)
    return INVALID_COST;
  const double tc = ompext_model_tc(p, n - 1) + cross;
  const double copy = p->b + p->c * (n - 2) + p->o * lines + cross;
  return add(cost(2 * barrier.min, 2 * barrier.max),
             cost(tc + copy, 2 * tc + copy));
}

/* libomp kmp_csupport.cpp __kmpc_copyprivate: the single thread stores a
   pointer to its data in the team, a plain barrier, every other thread
   copies from that data, a plain barrier (copyprivate_of). */
ompext_model_cost_t ompext_model_libomp_copyprivate(
    const ompext_model_params_t *p, ompext_model_libomp_pattern_t pattern,
    int n, double lines) {
  if (n < 2 || lines < 1)
    return INVALID_COST;
  return copyprivate_of(p,
                        ompext_model_libomp_barrier(
                            p, pattern, n, OMPEXT_MODEL_LIBOMP_BRANCH_BITS),
                        n, lines, 0.0);
}

/* libomp fork and join of a hot team (kmp_runtime.cpp __kmp_fork_call ->
   kmp_barrier.cpp __kmp_fork_barrier: the release of the fork/join
   barrier, ICVs pushed on the go line; __kmp_join_call ->
   __kmp_join_barrier: its gather, tid 0 waits):
     min/max  release(n, bits 2) + gather(n, bits 2)
   The team-wide set-up of a fork is the same with the plugin and is left
   out, as in ompext_model_forkjoin_tree. */
ompext_model_cost_t ompext_model_libomp_fork_join(
    const ompext_model_params_t *p, ompext_model_libomp_pattern_t pattern,
    int n) {
  return add(ompext_model_libomp_release(p, pattern, n,
                                         OMPEXT_MODEL_LIBOMP_BRANCH_BITS),
             ompext_model_libomp_gather(p, pattern, n,
                                        OMPEXT_MODEL_LIBOMP_BRANCH_BITS, 0));
}

/* ------------------------------------------------------------------------ */
/* libgomp                                                                  */
/* ------------------------------------------------------------------------ */

/* Arrivals at libgomp's barrier (config/linux/bar.h
   gomp_barrier_wait_start): each of the n threads decrements one counter
   line (awaited, alone on its line) with an atomic; the line moves from
   thread to thread, as in the notification backwards (Eq. 4.1/4.2), but
   nobody polls it:
     min  R_L + (n-1)*R_R      the previous last arriver holds the line
     max  R_R + 2(n-1)*R_R     each hand-off interfered with once
   On a topology (l: the line's transfers, placed.h) each (n-1)*R_R is the
   others' transfers and the worst case's first R_R the dearest. */
static ompext_model_cost_t gomp_arrivals(const ompext_model_params_t *p,
                                         placed_line_t l) {
  return cost(p->r_l + l.others, l.far + 2.0 * l.others);
}

/* Release (config/linux/bar.c gomp_team_barrier_wait_end, the last
   arriver): it resets the counter in its own cache (R_L), takes the
   generation line from the n-1 threads polling it (R_R) and writes it;
   the n-1 then read it at once (T_C(n-1); worst case 2*T_C(n-1), as the
   flat broadcast's notification, Eq. 4.10):
     min  R_L + R_R + T_C(n-1)
     max  R_L + R_R + 2*T_C(n-1)
   On a topology with readers on other packages the line is taken from
   them (R_X), and their copy comes across: T_C(n-1) + R_X - R_R. */
static ompext_model_cost_t gomp_release(const ompext_model_params_t *p, int n,
                                        placed_line_t l) {
  const double tc =
      ompext_model_tc(p, n - 1) + (l.remote ? p->r_x - p->r_r : 0.0);
  return cost(p->r_l + l.far + tc, p->r_l + l.far + 2 * tc);
}

static ompext_model_cost_t gomp_barrier(const ompext_model_params_t *p,
                                        const ompext_model_topology_t *t,
                                        int n) {
  if (n < 2)
    return INVALID_COST;
  const placed_line_t l = ompext_model_placed_line(p, t, n);
  return add(gomp_arrivals(p, l), gomp_release(p, n, l));
}

/* libgomp's centralized barrier (config/linux/bar.c
   gomp_team_barrier_wait): arrivals, then the release. */
ompext_model_cost_t ompext_model_libgomp_barrier(
    const ompext_model_params_t *p, int n) {
  return gomp_barrier(p, NULL, n);
}

/* GCC's reductions never call the runtime: for one scalar it emits an
   atomic update of the shared variable (cost.c's atomic reduction, one
   line), otherwise it merges every private copy under libgomp's one
   global lock (GOMP_atomic_start/_end: cost.c's lock reduction, libomp's
   critical method priced the same way). */
ompext_model_cost_t ompext_model_libgomp_reduce(
    const ompext_model_params_t *p, int n, double lines, const char **method) {
  const int atomic = lines <= 1;
  if (method)
    *method = atomic ? "atomic" : "lock";
  return atomic ? ompext_model_reduce_atomic_lines(p, n, 1)
                : ompext_model_reduce_critical(p, n, lines);
}

/* libgomp single.c GOMP_single_copy_start/_end: the other threads wait in
   a barrier while the single thread publishes its data pointer, copy, and
   the construct's closing barrier follows (GOMP_barrier; copyprivate_of). */
ompext_model_cost_t ompext_model_libgomp_copyprivate(
    const ompext_model_params_t *p, int n, double lines) {
  if (n < 2 || lines < 1)
    return INVALID_COST;
  return copyprivate_of(p, ompext_model_libgomp_barrier(p, n), n, lines, 0.0);
}

/* libgomp fork and join of a reused (pooled) team, team.c gomp_team_start
   and gomp_team_end:
   fork  the master fills in each worker's start fields (function, data,
         team), one line per worker in that worker's cache, one after the
         other: (n-1)*R_R; the workers wait in the pool's dock barrier,
         which the master's arrival completes: its decrement fetches the
         counter line (R_R), then the release (gomp_release);
   join  gomp_team_barrier_wait_final: the arrivals of all n, then the
         master, polling the generation line, reads it once the last
         arriver has written it: 2*R_R (worst case one interference more,
         3*R_R).
     min  (n-1)*R_R + R_R + gomp_release,min + gomp_arrivals,min + 2*R_R
     max  (n-1)*R_R + R_R + gomp_release,max + gomp_arrivals,max + 3*R_R
   On a topology the workers' lines are each at its transfer's cost, and
   in the worst case the last arriver is on another package (3*R_X). */
static ompext_model_cost_t gomp_fork_join(const ompext_model_params_t *p,
                                          const ompext_model_topology_t *t,
                                          int n) {
  if (n < 2)
    return INVALID_COST;
  const placed_line_t l = ompext_model_placed_line(p, t, n);
  const ompext_model_cost_t rel = gomp_release(p, n, l);
  const ompext_model_cost_t arr = gomp_arrivals(p, l);
  const double start = l.others + p->r_r;
  return cost(start + rel.min + arr.min + 2 * p->r_r,
              start + rel.max + arr.max + 3 * l.far);
}

ompext_model_cost_t ompext_model_libgomp_fork_join(
    const ompext_model_params_t *p, int n) {
  return gomp_fork_join(p, NULL, n);
}

/* ------------------------------------------------------------------------ */
/* On a topology                                                            */
/* ------------------------------------------------------------------------ */

/* A libomp pattern as a tree for placed.h's walks: the same index rules
   as pattern_children, for every thread (kmp_barrier.cpp): hyper, at
   level l a tid with no nonzero base-2^bits digit below l + 1 has the
   children tid + j 2^{bits l}; tree, the heap's tid*2^bits + 1 .. +
   2^bits; linear, tid 0 has all. */
typedef struct pattern_shape {
  ompext_model_libomp_pattern_t pattern;
  int bits;
} pattern_shape_t;

static int pattern_kids(const placed_tree_t *tree, int tid, int level,
                        int *out) {
  const pattern_shape_t *s = tree->arg;
  const long radix = 1L << s->bits, n = tree->n;
  const long offset = s->pattern == OMPEXT_MODEL_LIBOMP_HYPER
                          ? 1L << (level * s->bits)
                          : 1;
  long first = 0, last = -1, stride = 1;
  if (s->pattern == OMPEXT_MODEL_LIBOMP_LINEAR && tid == 0 && level == 0) {
    first = 1;
    last = n - 1;
  } else if (s->pattern == OMPEXT_MODEL_LIBOMP_TREE && level == 0) {
    first = (long)tid * radix + 1;
    last = (long)tid * radix + radix;
  } else if (s->pattern == OMPEXT_MODEL_LIBOMP_HYPER &&
             tid % (offset * radix) == 0) {
    first = tid + offset;
    last = tid + (radix - 1) * offset;
    stride = offset;
  }
  int c = 0;
  for (long child = first; child <= last && child < n; child += stride)
    out[c++] = (int)child;
  return c;
}

static placed_tree_t pattern_tree(const ompext_model_topology_t *t,
                                  const pattern_shape_t *shape, int n) {
  const placed_tree_t tree = {
      n,
      shape->pattern == OMPEXT_MODEL_LIBOMP_HYPER
          ? ompext_model_hyper_levels(n, shape->bits)
          : 1,
      pattern_kids, shape, t};
  return tree;
}

/* ompext_model_libomp_gather and _release on a topology. */
static ompext_model_cost_t placed_gather(const ompext_model_params_t *p,
                                         const ompext_model_topology_t *t,
                                         ompext_model_libomp_pattern_t pattern,
                                         int n, int bits, double lines) {
  if (!pattern_valid(pattern, n, bits))
    return INVALID_COST;
  const pattern_shape_t shape = {pattern, bits};
  const placed_tree_t tree = pattern_tree(t, &shape, n);
  return ompext_model_placed_gather(p, &tree, lines);
}

static ompext_model_cost_t placed_release(const ompext_model_params_t *p,
                                          const ompext_model_topology_t *t,
                                          ompext_model_libomp_pattern_t pattern,
                                          int n, int bits) {
  if (!pattern_valid(pattern, n, bits))
    return INVALID_COST;
  const pattern_shape_t shape = {pattern, bits};
  const placed_tree_t tree = pattern_tree(t, &shape, n);
  return ompext_model_placed_release(p, &tree);
}

/* What a copy from tid 0's cache adds when some reader of a team of n is
   on another package (copyprivate_of): R_X - R_R, else 0. */
static double cross_copy(const ompext_model_params_t *p,
                         const ompext_model_topology_t *t, int n) {
  return ompext_model_placed_line(p, t, n).remote ? p->r_x - p->r_r : 0.0;
}

/* The libomp constructs of the sections above, each transfer placed. */
static ompext_model_cost_t placed_libomp(const ompext_model_params_t *p,
                                         const ompext_model_topology_t *t,
                                         ompext_model_libomp_pattern_t pat,
                                         ompext_model_op_t op, int n,
                                         double lines, const char **method) {
  const int bits = OMPEXT_MODEL_LIBOMP_BRANCH_BITS;
  if (op == OMPEXT_MODEL_OP_REDUCE) {
    const int atomic = n <= OMPEXT_MODEL_LIBOMP_ATOMIC_CUTOFF;
    *method = atomic ? "atomic" : "tree";
    if (atomic)
      return ompext_model_placed_reduce_line(p, t, n, lines, 0);
    const ompext_model_cost_t g = placed_gather(
        p, t, pat, n, OMPEXT_MODEL_LIBOMP_REDUCTION_BRANCH_BITS, lines);
    const double fold = p->r_r + p->o * (lines - 1); /* tid 0's own line */
    return cost(g.min + fold, g.max + fold);
  }
  /* The barrier, and the fork/join's release and gather. */
  const ompext_model_cost_t barrier = add(placed_gather(p, t, pat, n, bits, 0),
                                          placed_release(p, t, pat, n, bits));
  if (op != OMPEXT_MODEL_OP_COPYPRIVATE)
    return barrier;
  /* __kmpc_copyprivate: the single thread taken as tid 0, so every other
     package's threads read its lines across. */
  return copyprivate_of(p, barrier, n, lines, cross_copy(p, t, n));
}

/* libgomp's constructs on a topology (the reductions: cost.c's, placed). */
static ompext_model_cost_t placed_libgomp(const ompext_model_params_t *p,
                                          const ompext_model_topology_t *t,
                                          ompext_model_op_t op, int n,
                                          double lines, const char **method) {
  switch (op) {
  case OMPEXT_MODEL_OP_BARRIER:
    *method = "centralized";
    return gomp_barrier(p, t, n);
  case OMPEXT_MODEL_OP_FORK_JOIN:
    *method = "centralized";
    return gomp_fork_join(p, t, n);
  case OMPEXT_MODEL_OP_COPYPRIVATE: /* GOMP_single_copy_start/_end */
    *method = "centralized";
    return copyprivate_of(p, gomp_barrier(p, t, n), n, lines,
                          cross_copy(p, t, n));
  default:
    *method = lines <= 1 ? "atomic" : "lock";
    return lines <= 1 ? ompext_model_placed_reduce_line(p, t, n, 1, 0)
                      : ompext_model_placed_reduce_line(p, t, n, lines, 1);
  }
}

/* ------------------------------------------------------------------------ */
/* The baselines by name                                                    */
/* ------------------------------------------------------------------------ */

const char *const ompext_model_baseline_names[] = {
    "stock", "stock-tree", "stock-linear", "libgomp", NULL};

int ompext_model_baseline_lookup(const char *name,
                                 ompext_model_baseline_t *out) {
  for (int i = 0; ompext_model_baseline_names[i]; ++i)
    if (strcmp(ompext_model_baseline_names[i], name) == 0) {
      *out = (ompext_model_baseline_t)i;
      return 0;
    }
  return -1;
}

int ompext_model_baseline_has_op(ompext_model_baseline_t b,
                                 ompext_model_op_t op) {
  (void)b; /* no baseline has a broadcast of its own */
  return op == OMPEXT_MODEL_OP_BARRIER || op == OMPEXT_MODEL_OP_REDUCE ||
         op == OMPEXT_MODEL_OP_COPYPRIVATE || op == OMPEXT_MODEL_OP_FORK_JOIN;
}

static const char *const pattern_names[] = {
    [OMPEXT_MODEL_LIBOMP_LINEAR] = "linear",
    [OMPEXT_MODEL_LIBOMP_TREE] = "tree",
    [OMPEXT_MODEL_LIBOMP_HYPER] = "hyper"};

static ompext_model_libomp_pattern_t stock_pattern(ompext_model_baseline_t b) {
  return b == OMPEXT_MODEL_BASELINE_STOCK_TREE     ? OMPEXT_MODEL_LIBOMP_TREE
         : b == OMPEXT_MODEL_BASELINE_STOCK_LINEAR ? OMPEXT_MODEL_LIBOMP_LINEAR
                                                   : OMPEXT_MODEL_LIBOMP_HYPER;
}

int ompext_model_baseline_cost(const ompext_model_params_t *p,
                               ompext_model_baseline_t b,
                               ompext_model_op_t op, int n, long lines,
                               ompext_model_baseline_cost_t *out) {
  if ((unsigned)b >= OMPEXT_MODEL_BASELINE_COUNT ||
      !ompext_model_baseline_has_op(b, op) || n < 2)
    return -1;
  const int gomp = b == OMPEXT_MODEL_BASELINE_LIBGOMP;
  const ompext_model_libomp_pattern_t pat = stock_pattern(b);
  const double nl = lines < 1 ? 1.0 : (double)lines;
  const char *method = NULL;
  ompext_model_cost_t c;
  switch (op) {
  case OMPEXT_MODEL_OP_BARRIER:
    c = gomp ? ompext_model_libgomp_barrier(p, n)
             : ompext_model_libomp_barrier(p, pat, n,
                                           OMPEXT_MODEL_LIBOMP_BRANCH_BITS);
    method = gomp ? "centralized" : pattern_names[pat];
    break;
  case OMPEXT_MODEL_OP_REDUCE:
    c = gomp ? ompext_model_libgomp_reduce(p, n, nl, &method)
             : ompext_model_libomp_reduce(p, pat, n, nl, &method);
    break;
  case OMPEXT_MODEL_OP_COPYPRIVATE:
    c = gomp ? ompext_model_libgomp_copyprivate(p, n, nl)
             : ompext_model_libomp_copyprivate(p, pat, n, nl);
    method = gomp ? "centralized" : pattern_names[pat];
    break;
  case OMPEXT_MODEL_OP_FORK_JOIN:
    c = gomp ? ompext_model_libgomp_fork_join(p, n)
             : ompext_model_libomp_fork_join(p, pat, n);
    method = gomp ? "centralized" : pattern_names[pat];
    break;
  default:
    return -1;
  }
  if (isnan(c.min) || isnan(c.max))
    return -1;
  out->cost = c;
  snprintf(out->method, sizeof(out->method), "%s:%s",
           ompext_model_baseline_names[b], method);
  return 0;
}

int ompext_model_baseline_cost_placed(const ompext_model_params_t *p,
                                      const ompext_model_topology_t *t,
                                      ompext_model_baseline_t b,
                                      ompext_model_op_t op, int n, long lines,
                                      ompext_model_baseline_cost_t *out) {
  if (!ompext_model_topology_spans(t, n))
    return ompext_model_baseline_cost(p, b, op, n, lines, out);
  if ((unsigned)b >= OMPEXT_MODEL_BASELINE_COUNT ||
      !ompext_model_baseline_has_op(b, op) ||
      n > t->packages * t->cores)
    return -1;
  const double nl = lines < 1 ? 1.0 : (double)lines;
  const char *method = NULL;
  const ompext_model_cost_t c =
      b == OMPEXT_MODEL_BASELINE_LIBGOMP
          ? placed_libgomp(p, t, op, n, nl, &method)
          : placed_libomp(p, t, stock_pattern(b), op, n, nl, &method);
  if (isnan(c.min) || isnan(c.max))
    return -1;
  if (b != OMPEXT_MODEL_BASELINE_LIBGOMP && op != OMPEXT_MODEL_OP_REDUCE)
    method = pattern_names[stock_pattern(b)];
  out->cost = c;
  snprintf(out->method, sizeof(out->method), "%s:%s",
           ompext_model_baseline_names[b], method);
  return 0;
}
