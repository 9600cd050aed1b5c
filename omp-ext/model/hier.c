/*
 * omp-ext on a topology (see model.h): what the plugin runs for a team
 * that spans packages, priced with R_R inside a package and R_X between.
 *
 * The plugin gives such a team one leader per package, its lowest tid
 * (omp-ext/src/topology/topology.h, team.c), and chooses every parameter
 * with the model as for a flat team of the same size (plan.c); the
 * configurations below are chosen the same way, with the flat parameters
 * and the tool's search bounds, and only priced on the topology:
 *
 *   barrier    barrier_hier.c: a combining tree of the tree barrier's k for
 *              a team the size of the largest package gathers and releases
 *              each package, the leaders meet in between in the
 *              dissemination barrier of a team of one thread per package
 *              (plan.c ompext_plan_domains), every transfer of it R_X;
 *   reduce     the method plan.c picks for the size, by the flat costs
 *              (the tree, atomics or the lock); the tree runs its levels
 *              inside each package, then among the leaders
 *              (reduce_tree.c), the leaders' levels at R_X;
 *   fork_join  team.c's two-level tree: the fork/join k inside each
 *              package, every other leader a child of tid 0 (k_out =
 *              packages - 1, the fan-in bound permitting), walked thread
 *              by thread (placed.h);
 *   copyprivate  bcast_tree.c's two-level tree (topology.h
 *              ompext_topology_rooted_child, k_in = k_out = the root's
 *              fan-out): the root's data goes to the other packages'
 *              leaders first, at R_X, then down each package's k-ary tree,
 *              the longest path over the packages; then the team's
 *              barrier, the hierarchical one above.
 *
 * Threads sit close (model.h), so the packages are filled in order and the
 * largest holds min(n, cores) threads.  The broadcast alone (--op bcast)
 * is not priced on a topology.
 */
#include "cost_pair.h"
#include "model.h"
#include "placed.h"

#include <stdio.h>
#include <string.h>

/* The plugin's bound on any fan-in (omp-ext/src/base/bounds.h). */
#define PLUGIN_MAX_FANIN 64

typedef struct span {
  int packages; /* that the team occupies */
  int largest;  /* threads of the fullest */
} span_t;

static span_t span_of(const ompext_model_topology_t *t, int n) {
  const span_t s = {(n + t->cores - 1) / t->cores,
                    n < t->cores ? n : t->cores};
  return s;
}

static int clamp(int v, int lo, int hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* The tree barrier's k for a team of n, as plan.c takes it (at least 2). */
static int tree_k(const ompext_model_params_t *p,
                  const ompext_model_options_t *o, int n) {
  ompext_model_choice_t c;
  if (n < 2 || ompext_model_best_config(p, o, OMPEXT_MODEL_BARRIER_TREE, n, 1,
                                        &c) != 0)
    return 2;
  return clamp(c.k, 2, PLUGIN_MAX_FANIN);
}

/* ---- barrier -------------------------------------------------------------- */

ompext_model_cost_t ompext_model_hier_barrier(const ompext_model_params_t *p,
                                              const ompext_model_topology_t *t,
                                              int n, int inside_k,
                                              int leaders_m) {
  if (n < 2 || !t || inside_k < 2 || leaders_m < 1)
    return INVALID_COST;
  const span_t s = span_of(t, n);
  const ompext_model_params_t x = ompext_model_params_across(p);
  ompext_model_cost_t c = ompext_model_barrier_dissemination(
      &x, s.packages, leaders_m, OMPEXT_MODEL_ROUNDS_ALGORITHM);
  if (s.largest >= 2)
    c = add(ompext_model_barrier_tree(p, s.largest, inside_k), c);
  return c;
}

static int hier_barrier(const ompext_model_params_t *p,
                        const ompext_model_options_t *o,
                        const ompext_model_topology_t *t, span_t s, int n,
                        ompext_model_plan_cost_t *out) {
  ompext_model_choice_t leaders;
  if (ompext_model_best_config(p, o, OMPEXT_MODEL_DISSEMINATION, s.packages,
                               1, &leaders) != 0)
    return -1;
  const int k = tree_k(p, o, s.largest);
  if (o->rounds == OMPEXT_MODEL_ROUNDS_ALGORITHM)
    out->cost = ompext_model_hier_barrier(p, t, n, k, leaders.m);
  else {
    const ompext_model_params_t x = ompext_model_params_across(p);
    out->cost = ompext_model_barrier_dissemination(&x, s.packages, leaders.m,
                                                   o->rounds);
    if (s.largest >= 2)
      out->cost = add(ompext_model_barrier_tree(p, s.largest, k), out->cost);
  }
  snprintf(out->config, sizeof(out->config), "k=%d m=%d", k, leaders.m);
  return isnan(out->cost.min) ? -1 : 0;
}

/* ---- reduce --------------------------------------------------------------- */

/* The children of the leader of a group of `size` threads at each level of
   reduce_tree.c's leaves-first fan-ins (the last one repeats), root-first
   as cost.c takes them.  Returns the levels. */
static int leader_levels(int size, const int *fanin, int given, int *k) {
  int levels = 0;
  long span = 1;
  while (span < size && levels < OMPEXT_MODEL_MAX_LEVELS) {
    const int f = fanin[levels < given ? levels : given - 1];
    const long members = (size + span - 1) / span;
    k[levels++] = (int)(members < f ? members : f) - 1;
    span *= f;
  }
  for (int i = 0, j = levels - 1; i < j; ++i, --j) {
    const int tmp = k[i];
    k[i] = k[j];
    k[j] = tmp;
  }
  return levels;
}

static void format_levels(char *buf, size_t cap, const int *k, int levels) {
  size_t used = (size_t)snprintf(buf, cap, "k=");
  for (int i = 0; i < levels && used < cap; ++i)
    used += (size_t)snprintf(buf + used, cap - used, "%s%d", i ? "," : "",
                             k[i]);
  if (levels == 0 && used < cap)
    snprintf(buf + used, cap - used, "-");
}

/* The plugin's tree (reduce_tree.c: fan-ins leaves first, each level of
   f - 1 children a group of f) inside each package, then among the
   leaders: Eq. 4.13 per level, the leaders' levels at R_X, tid 0's fold
   once. */
static ompext_model_cost_t hier_reduce_tree(const ompext_model_params_t *p,
                                            const int *leaves_first, int given,
                                            span_t s, double lines,
                                            char *config, size_t cap) {
  int fanin[OMPEXT_MODEL_MAX_LEVELS], in[OMPEXT_MODEL_MAX_LEVELS],
      out[OMPEXT_MODEL_MAX_LEVELS];
  if (given > OMPEXT_MODEL_MAX_LEVELS)
    given = OMPEXT_MODEL_MAX_LEVELS;
  for (int l = 0; l < given; ++l)
    fanin[l] = clamp(leaves_first[l], 2, PLUGIN_MAX_FANIN);
  const int d_in = leader_levels(s.largest, fanin, given, in);
  const int d_out = leader_levels(s.packages, fanin, given, out);
  const ompext_model_params_t x = ompext_model_params_across(p);
  const ompext_model_cost_t inside =
      ompext_model_reduce_tree_lines(p, d_in, in, lines);
  const ompext_model_cost_t leaders =
      ompext_model_reduce_tree_lines(&x, d_out, out, lines);
  const double fold = x.r_r + x.o * (lines - 1); /* counted inside */
  if (config) {
    char a[48], b[48];
    format_levels(a, sizeof(a), in, d_in);
    format_levels(b, sizeof(b), out, d_out);
    snprintf(config, cap, "%s leaders %s", a, b);
  }
  return cost(inside.min + leaders.min - fold, inside.max + leaders.max - fold);
}

ompext_model_cost_t ompext_model_hier_reduce_tree(
    const ompext_model_params_t *p, const ompext_model_topology_t *t, int n,
    const int *fanin, int given, double lines) {
  if (n < 2 || !t || !fanin || given < 1 || lines < 1)
    return INVALID_COST;
  return hier_reduce_tree(p, fanin, given, span_of(t, n), lines, NULL, 0);
}

/* plan.c's choice by size (plan_reduce_sizes): the flat best cases of the
   model's tree, atomics and the lock; the tree unless another is cheaper. */
static int hier_reduce(const ompext_model_params_t *p,
                       const ompext_model_options_t *o,
                       const ompext_model_topology_t *t, int n, span_t s,
                       double lines, ompext_model_plan_cost_t *out) {
  ompext_model_choice_t tree;
  if (ompext_model_best_config(p, o, OMPEXT_MODEL_REDUCE_TREE, n, 1, &tree) !=
      0)
    return -1;
  const double flat_tree =
      ompext_model_reduce_tree_lines(p, tree.depth, tree.fanout, lines).min;
  const double atomic = ompext_model_reduce_atomic_lines(p, n, lines).min;
  const double lock = ompext_model_reduce_critical(p, n, lines).min;
  if (lock < flat_tree && lock <= atomic) {
    snprintf(out->algorithm, sizeof(out->algorithm), "critical");
    out->cost = ompext_model_placed_reduce_line(p, t, n, lines, 1);
  } else if (atomic < flat_tree) {
    snprintf(out->algorithm, sizeof(out->algorithm), "atomic");
    out->cost = ompext_model_placed_reduce_line(p, t, n, lines, 0);
  } else {
    int fanin[OMPEXT_MODEL_MAX_LEVELS];
    for (int l = 0; l < tree.depth; ++l)
      fanin[l] = tree.fanout[tree.depth - 1 - l] + 1;
    out->cost = hier_reduce_tree(p, fanin, tree.depth, s, lines, out->config,
                                 sizeof(out->config));
    return 0;
  }
  snprintf(out->config, sizeof(out->config), "-");
  return 0;
}

/* ---- fork/join ------------------------------------------------------------ */

/* team.c's tree (topology.h ompext_topology_tree) over close threads:
   package d holds tids d*cores .. , its leader first; a leader serves the
   leaders of packages d*k_out + 1 .. d*k_out + k_out first, then the local
   indices i*k_in + 1 .. i*k_in + k_in of its own package, as any member
   does. */
typedef struct two_level {
  int k_in, k_out;
} two_level_t;

static int two_level_kids(const placed_tree_t *tree, int tid, int level,
                          int *out) {
  const two_level_t *s = tree->arg;
  const int cores = tree->topo->cores, n = tree->n;
  const int d = tid / cores, i = tid % cores;
  const int packages = (n + cores - 1) / cores;
  const int size = n - d * cores < cores ? n - d * cores : cores;
  int c = 0;
  if (level != 0)
    return 0;
  for (long e = (long)d * s->k_out + 1;
       i == 0 && e <= (long)d * s->k_out + s->k_out && e < packages; ++e)
    out[c++] = (int)e * cores;
  for (long j = (long)i * s->k_in + 1;
       j <= (long)i * s->k_in + s->k_in && j < size; ++j)
    out[c++] = (int)(d * cores + j);
  return c;
}

ompext_model_cost_t ompext_model_hier_fork_join(
    const ompext_model_params_t *p, const ompext_model_topology_t *t, int n,
    int k_in) {
  if (n < 2 || !t || k_in < 1)
    return INVALID_COST;
  const span_t s = span_of(t, n);
  two_level_t shape;
  shape.k_in = clamp(k_in, 1, PLUGIN_MAX_FANIN - 1);
  shape.k_out = clamp(s.packages - 1, 1, PLUGIN_MAX_FANIN - shape.k_in);
  const placed_tree_t tree = {n, 1, two_level_kids, &shape, t};
  return add(ompext_model_placed_release(p, &tree),
             ompext_model_placed_gather(p, &tree, 0));
}

static int hier_fork_join(const ompext_model_params_t *p,
                          const ompext_model_options_t *o,
                          const ompext_model_topology_t *t, int n, span_t s,
                          ompext_model_plan_cost_t *out) {
  const int k_in = clamp(tree_k(p, o, n), 1, PLUGIN_MAX_FANIN - 1);
  out->cost = ompext_model_hier_fork_join(p, t, n, k_in);
  snprintf(out->config, sizeof(out->config), "k=%d leaders k=%d", k_in,
           clamp(s.packages - 1, 1, PLUGIN_MAX_FANIN - k_in));
  return isnan(out->cost.min) ? -1 : 0;
}

/* ---- copyprivate --------------------------------------------------------- */

/* The children of the critical node of each level of a k-ary heap of
   `size` members (the leftmost node: the most children, the deepest
   subtree), root first.  Returns the levels. */
static int heap_levels(int size, int k, int *out) {
  int d = 0;
  for (int c; d < OMPEXT_MODEL_MAX_LEVELS &&
              (c = ompext_model_kary_children(size, k, d)) > 0;)
    out[d++] = c;
  return d;
}

/* The copies of a level whose readers are on another package than their
   sender: every single-line transfer at R_X, the first line of each copy
   too (T_C + R_X - R_R, as baseline.c's copyprivate_of and libgomp's
   release take it); the slopes c and o are kept (topology.c). */
static ompext_model_params_t copies_across(const ompext_model_params_t *p) {
  ompext_model_params_t x = ompext_model_params_across(p);
  x.b = p->b + p->r_x - p->r_r;
  return x;
}

/* The plugin's copyprivate on a team spanning packages: bcast.c
   ompext_bcast_run -> bcast_tree.c ompext_bcast_tree_run with a layout of
   several domains, every thread copying from its sender (relays), then the
   close.  The tree (topology.h ompext_topology_rooted_child, k_in = k_out =
   k): the root, taken as tid 0, serves the leaders of packages 1 .. k
   first, each leader those of its k-ary subtree of packages, then every
   leader (the root included) its own package's k-ary tree.  A path to a
   thread of package e: the leaders' levels down to e's leader, each with
   its parent's leader children, then the leftmost path of e's own tree,
   priced by Eq. 4.5-4.7 (cost.c ompext_model_bcast_tree) per part, the
   leaders' at R_X (copies_across); one path, so its notification forwards
   starts once (the second part's first R_I dropped).  The longest over
   the packages (min and max each).  The contention of the root's own
   package's children on the root's line, beside the leaders', is left
   out.
   k: plan.c takes the model's best tree's root fan-out for one line and
   for "long" copies, and the root picks by how long copies take; here the
   model's best tree for the message's own size (k_1; n-1 if none).
   The close: bcast_tree.c's root asks for the rooted close under
   OMPEXT_BCAST_CLOSE=auto only in a flat layout (root_decides), so a team
   spanning packages closes with its barrier, hier_barrier. */
ompext_model_cost_t ompext_model_hier_bcast(const ompext_model_params_t *p,
                                            const ompext_model_topology_t *t,
                                            int n, int k, double lines) {
  if (n < 2 || !t || k < 1 || lines < 1)
    return INVALID_COST;
  const ompext_model_params_t x = copies_across(p);
  const int packages = (n + t->cores - 1) / t->cores;
  ompext_model_cost_t longest = cost(0, 0);
  for (int e = 0; e < packages; ++e) {
    int up[OMPEXT_MODEL_MAX_LEVELS], inside[OMPEXT_MODEL_MAX_LEVELS];
    int d_out = 0;
    for (long d = e; d > 0 && d_out < OMPEXT_MODEL_MAX_LEVELS;) {
      const long parent = (d - 1) / k, first = parent * k + 1;
      up[d_out++] = (int)(packages - first < k ? packages - first : k);
      d = parent;
    }
    for (int i = 0, j = d_out - 1; i < j; ++i, --j) { /* root first */
      const int tmp = up[i];
      up[i] = up[j];
      up[j] = tmp;
    }
    const int size = n - e * t->cores < t->cores ? n - e * t->cores : t->cores;
    const int d_in = heap_levels(size, k, inside);
    const ompext_model_cost_t across =
        ompext_model_bcast_tree(&x, lines, d_out, up);
    const ompext_model_cost_t local =
        ompext_model_bcast_tree(p, lines, d_in, inside);
    const ompext_model_cost_t path = cost(across.min + local.min - p->r_i,
                                          across.max + local.max - p->r_i);
    longest = cost(path.min > longest.min ? path.min : longest.min,
                   path.max > longest.max ? path.max : longest.max);
  }
  return longest;
}

static int hier_copyprivate(const ompext_model_params_t *p,
                            const ompext_model_options_t *o,
                            const ompext_model_topology_t *t, int n, span_t s,
                            double lines, ompext_model_plan_cost_t *out) {
  ompext_model_choice_t tree;
  const int k =
      ompext_model_best_config(p, o, OMPEXT_MODEL_BCAST_TREE, n, (long)lines,
                               &tree) == 0 &&
              tree.depth > 0
          ? tree.fanout[0]
          : n - 1;
  ompext_model_plan_cost_t close;
  if (hier_barrier(p, o, t, s, n, &close) != 0)
    return -1;
  out->cost = add(ompext_model_hier_bcast(p, t, n, k, lines), close.cost);
  snprintf(out->config, sizeof(out->config), "k=%d then barrier %s", k,
           close.config);
  return isnan(out->cost.min) ? -1 : 0;
}

/* ---- by op ---------------------------------------------------------------- */

int ompext_model_ext_placed(const ompext_model_params_t *p,
                            const ompext_model_options_t *o,
                            const ompext_model_topology_t *t,
                            ompext_model_op_t op, int n, long lines,
                            ompext_model_plan_cost_t *out) {
  memset(out, 0, sizeof(*out));
  if (n < 2 || (t && n > t->packages * t->cores))
    return -1;
  if (!ompext_model_topology_spans(t, n)) {
    ompext_model_choice_t c;
    if (ompext_model_best(p, o, op, n, lines, &c) != 0)
      return -1;
    out->cost = c.cost;
    snprintf(out->algorithm, sizeof(out->algorithm), "%s",
             ompext_model_alg_name(c.alg));
    ompext_model_format_config(p, &c, out->config, sizeof(out->config));
    return 0;
  }
  const span_t s = span_of(t, n);
  snprintf(out->algorithm, sizeof(out->algorithm), "hier");
  switch (op) {
  case OMPEXT_MODEL_OP_BARRIER:
    return hier_barrier(p, o, t, s, n, out);
  case OMPEXT_MODEL_OP_REDUCE:
    return hier_reduce(p, o, t, n, s, lines < 1 ? 1.0 : (double)lines, out);
  case OMPEXT_MODEL_OP_FORK_JOIN:
    return hier_fork_join(p, o, t, n, s, out);
  case OMPEXT_MODEL_OP_COPYPRIVATE:
    return hier_copyprivate(p, o, t, n, s, lines < 1 ? 1.0 : (double)lines,
                            out);
  default:
    return -1;
  }
}
