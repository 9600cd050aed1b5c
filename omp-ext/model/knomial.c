/*
 * k-nomial (hypercube-embedded) trees, priced as they are walked (derived,
 * not in the paper).  One shape serves three collectives:
 *
 *   - libomp's hyper barriers: radix 2^bits at every level (baseline.c);
 *   - omp-ext's reduction gather (reduce_tree.c): fan-in f_l at level l,
 *     leaves first; the survivors of level l are the multiples of
 *     S_l = f_1 * ... * f_{l-1}, and a leader t gathers t + j*S_l,
 *     j = 1 .. f_l - 1;
 *   - omp-ext's fork/join tree of radix r (forkjoin_tree.c), the same
 *     groups with f_l = r, released top level first.
 *
 * tid 0 leads at every level, and any other leader of a level has no more
 * children there and a subtree no deeper, so tid 0's levels are the
 * critical path: a level whose tid-0 group has c children costs G(c) in a
 * gather (plus c combines of the data, each T_N) and S(c) in a release.
 * tests/model/test_knomial.c checks that against the longest path over
 * every thread of the trees the plugin builds.
 */
#include "cost_pair.h"
#include "model.h"

/* The fan-in of level l: fanin[l], the last given one repeating. */
static int fanin_at(const int *fanin, int given, int level) {
  return fanin[level < given ? level : given - 1];
}

static int fanins_valid(const int *fanin, int given) {
  if (!fanin || given < 1)
    return 0;
  for (int l = 0; l < given; ++l)
    if (fanin[l] < 2)
      return 0;
  return 1;
}

int ompext_model_knomial_children(int n, const int *fanin, int given,
                                  int level) {
  if (n < 1 || level < 0 || !fanins_valid(fanin, given))
    return 0;
  long stride = 1;
  for (int l = 0; l < level; ++l) {
    stride *= fanin_at(fanin, given, l);
    if (stride >= n)
      return 0;
  }
  const long f = fanin_at(fanin, given, level);
  const long others = (n - 1) / stride; /* multiples of stride after 0 */
  return (int)(others < f - 1 ? others : f - 1);
}

int ompext_model_knomial_levels(int n, const int *fanin, int given) {
  if (n < 1 || !fanins_valid(fanin, given))
    return -1;
  int levels = 0;
  for (long span = 1; span < n; span *= fanin_at(fanin, given, levels))
    ++levels;
  return levels;
}

ompext_model_cost_t ompext_model_knomial_gather(const ompext_model_params_t *p,
                                                int n, const int *fanin,
                                                int given,
                                                double combine_lines) {
  if (n < 2 || !fanins_valid(fanin, given) || combine_lines < 0)
    return INVALID_COST;
  const double combine =
      combine_lines > 0 ? ompext_model_tn(p, combine_lines) : 0.0;
  ompext_model_cost_t total = cost(0, 0);
  for (int level = 0;; ++level) {
    const int c = ompext_model_knomial_children(n, fanin, given, level);
    if (c == 0)
      break;
    const ompext_model_cost_t g = ompext_model_gather(p, c);
    total = add(total, cost(g.min + c * combine, g.max + c * combine));
  }
  return total;
}

ompext_model_cost_t ompext_model_knomial_release(
    const ompext_model_params_t *p, int n, const int *fanin, int given) {
  if (n < 2 || !fanins_valid(fanin, given))
    return INVALID_COST;
  ompext_model_cost_t total = cost(0, 0);
  for (int level = 0;; ++level) {
    const int c = ompext_model_knomial_children(n, fanin, given, level);
    if (c == 0)
      break;
    total = add(total, ompext_model_signal(p, c));
  }
  return total;
}

/* The fork release and the join gather of an empty region on the radix-r
   tree, run by the runtime's executor on its own flags, as stock runs its
   hyper fork/join barrier (ompext_model_libomp_fork_join). */
ompext_model_cost_t ompext_model_forkjoin_knomial(
    const ompext_model_params_t *p, int n, int radix) {
  const int fanin[1] = {radix};
  return add(ompext_model_knomial_release(p, n, fanin, 1),
             ompext_model_knomial_gather(p, n, fanin, 1, 0));
}

/* The reduction as reduce_tree.c gathers it: each child's arrival, then its
   data combined (T_N of the data's lines), level by level; then tid 0
   folds the result into the shared variable, which, as every shared
   structure at the start of a reduction (the atomic method's line, the
   lock: cost.c), comes from memory, R_I, the other lines at the copy
   slope; then the runtime's release of its reduction barrier (radix 2),
   which the tree method pays and atomics or the lock do not.  libomp's
   own tree is the same with fan-in 2. */
ompext_model_cost_t ompext_model_reduce_gathered(const ompext_model_params_t *p,
                                                 int n, const int *fanin,
                                                 int given, double lines) {
  if (lines < 1)
    return INVALID_COST;
  static const int runtime_release[1] = {2};
  const ompext_model_cost_t g =
      ompext_model_knomial_gather(p, n, fanin, given, lines);
  const ompext_model_cost_t r =
      ompext_model_knomial_release(p, n, runtime_release, 1);
  const double fold = p->r_i + p->o * (lines - 1);
  return cost(g.min + fold + r.min, g.max + fold + r.max);
}
