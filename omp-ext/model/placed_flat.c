/*
 * omp-ext's flat shapes on a topology (see model.h): what a team spanning
 * packages costs when a collective does not follow the packages, so that
 * the plan can weigh it against the leaders per package (hier.c) and
 * against the runtime's own (baseline.c), each transfer at R_R or R_X by
 * where its two threads sit (placed.h, thread t on core t).
 *
 *   k-nomial trees  forkjoin_tree.c's and reduce_tree.c's groups (knomial.c),
 *                   walked over every thread: libomp's hyper pattern is the
 *                   radix-4 tree, so with the same walk the runtime's own
 *                   shape prices the same here and in baseline.c;
 *   the heap        forkjoin_tree.c's k-ary heap, walked the same way, and
 *                   bcast_tree.c's signals down its heap from tid 0;
 *   dissemination   every round at R_X: in each round some pair crosses
 *                   (a rotation of the team by the round's distance cannot
 *                   map a package, a contiguous block of tids, onto
 *                   itself), and the round ends for all with its last pair.
 */
#include "cost_pair.h"
#include "placed.h"

/* ---- trees ------------------------------------------------------------- */

/* Levels a walk may take: every fan-in is at least 2. */
#define MAX_WALK_LEVELS 64

typedef struct knomial_shape {
  const int *fanin;
  int given;
  long stride[MAX_WALK_LEVELS]; /* S_l, filled by knomial_tree */
} knomial_shape_t;

static int fanin_of(const knomial_shape_t *s, int level) {
  return s->fanin[level < s->given ? level : s->given - 1];
}

/* knomial.c's groups: at level l a multiple t of S_l * f_l gathers and
   releases t + j*S_l, j = 1 .. f_l - 1 (those below n), nearest first. */
static int knomial_kids(const placed_tree_t *tree, int tid, int level,
                        int *out) {
  const knomial_shape_t *s = tree->arg;
  const long stride = s->stride[level], f = fanin_of(s, level);
  if (tid % (stride * f) != 0)
    return 0;
  int c = 0;
  for (long j = 1; j < f && tid + j * stride < tree->n; ++j)
    out[c++] = (int)(tid + j * stride);
  return c;
}

static placed_tree_t knomial_tree(const ompext_model_topology_t *t,
                                  knomial_shape_t *shape, int n) {
  const int levels = ompext_model_knomial_levels(n, shape->fanin, shape->given);
  long stride = 1;
  for (int l = 0; l < levels && l < MAX_WALK_LEVELS; ++l) {
    shape->stride[l] = stride;
    stride *= fanin_of(shape, l);
  }
  const placed_tree_t tree = {n, levels, knomial_kids, shape, t};
  return tree;
}

/* forkjoin_tree.c's heap: t serves t*k + 1 .. t*k + k at its one level. */
static int heap_kids(const placed_tree_t *tree, int tid, int level,
                     int *out) {
  const int *k = tree->arg;
  int c = 0;
  for (long child = (long)tid * *k + 1;
       level == 0 && child <= (long)tid * *k + *k && child < tree->n; ++child)
    out[c++] = (int)child;
  return c;
}

/* A fork's release and a join's gather on one tree. */
static ompext_model_cost_t fork_and_join(const ompext_model_params_t *p,
                                         const placed_tree_t *tree) {
  return add(ompext_model_placed_release(p, tree),
             ompext_model_placed_gather(p, tree, 0));
}

ompext_model_cost_t ompext_model_placed_forkjoin_knomial(
    const ompext_model_params_t *p, const ompext_model_topology_t *t, int n,
    int radix) {
  if (n < 2 || radix < 2)
    return INVALID_COST;
  knomial_shape_t shape = {&radix, 1, {0}};
  const placed_tree_t tree = knomial_tree(t, &shape, n);
  return fork_and_join(p, &tree);
}

ompext_model_cost_t ompext_model_placed_forkjoin_heap(
    const ompext_model_params_t *p, const ompext_model_topology_t *t, int n,
    int k) {
  if (n < 2 || k < 1)
    return INVALID_COST;
  const placed_tree_t tree = {n, 1, heap_kids, &k, t};
  return fork_and_join(p, &tree);
}

ompext_model_cost_t ompext_model_placed_release_heap(
    const ompext_model_params_t *p, const ompext_model_topology_t *t, int n,
    int k) {
  if (n < 2 || k < 1)
    return INVALID_COST;
  const placed_tree_t tree = {n, 1, heap_kids, &k, t};
  return ompext_model_placed_release(p, &tree);
}

/* ompext_model_reduce_gathered with each transfer placed: the gather
   combining the data as it arrives, tid 0's fold from memory, the
   runtime's radix-2 release. */
ompext_model_cost_t ompext_model_placed_reduce_gathered(
    const ompext_model_params_t *p, const ompext_model_topology_t *t, int n,
    const int *fanin, int given, double lines) {
  if (n < 2 || lines < 1 || !fanin || given < 1 ||
      ompext_model_knomial_levels(n, fanin, given) < 0)
    return INVALID_COST;
  static const int runtime_release[1] = {2};
  knomial_shape_t gather = {fanin, given, {0}},
                  release = {runtime_release, 1, {0}};
  const placed_tree_t g = knomial_tree(t, &gather, n),
                      r = knomial_tree(t, &release, n);
  const double fold = p->r_i + p->o * (lines - 1);
  return add(add(ompext_model_placed_gather(p, &g, lines), cost(fold, fold)),
             ompext_model_placed_release(p, &r));
}

/* ---- one line, and the dissemination barrier ----------------------------- */

ompext_model_cost_t ompext_model_placed_reduce_shared(
    const ompext_model_params_t *p, const ompext_model_topology_t *t, int n,
    double lines, int lock) {
  return ompext_model_placed_reduce_line(p, t, n, lines, lock);
}

ompext_model_params_t ompext_model_params_across(
    const ompext_model_params_t *p) {
  ompext_model_params_t x = *p;
  x.r_r = p->r_x;
  return x;
}

ompext_model_cost_t ompext_model_placed_dissemination(
    const ompext_model_params_t *p, const ompext_model_topology_t *t, int n,
    int m) {
  if (!ompext_model_topology_spans(t, n))
    return ompext_model_barrier_dissemination(p, n, m,
                                              OMPEXT_MODEL_ROUNDS_ALGORITHM);
  const ompext_model_params_t x = ompext_model_params_across(p);
  return ompext_model_barrier_dissemination(&x, n, m,
                                            OMPEXT_MODEL_ROUNDS_ALGORITHM);
}
