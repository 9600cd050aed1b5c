/*
 * The baselines (omp-ext/model/baseline.c) and omp-ext's fork/join against
 * a brute-force count of line transfers.
 *
 * For every team size n = 2..40 the test builds each pattern's tree thread
 * by thread from the runtime's own index rules (libomp's hyper, tree and
 * linear barriers; the plugin's k-ary fork/join tree), counts the
 * transfers of every step (a flag set in the own cache R_L, a flag line
 * fetched R_R, twice in the worst case; a child's data T_N), and takes the
 * longest path over all threads: the gather as each parent's finish time
 * after its children, the release as each child's start after its parent.
 * The closed forms take one path (tid 0's, or the heap's leftmost); the
 * brute force checks every path.  libgomp's barrier and the composite
 * constructs are counted step by step the same way, and a few values are
 * computed by hand from the paper's Xeon Phi parameters (test_cost.c):
 *   R_L = 8.6, R_R = 235.8, R_I = 277.7, T_C(n) = 320.5 + 56.2 n,
 *   T_N = 76 N + 1521 - 1096/N.
 *
 * On a topology (2 to 4 packages of 1 to 8 cores, thread t on core t) the
 * same brute force classifies every transfer: between two threads of one
 * package R_R, else R_X (600 ns here, so that it differs from R_R), the one
 * extra line of a step (G's worst case, S's re-read) at the cost of the
 * step's last child; the model's costs of the baselines and of omp-ext's
 * one-leader-per-package fork/join and copyprivate broadcast must match
 * the longest path of every team that spans packages (copyprivate: the
 * slowest reader's copy, the longest path of the broadcast tree).
 */
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_N 64

static int failures, checks;
static ompext_model_params_t P;
/* Cores per package of the topology under test; 0: none (one package). */
static int CORES;

/* A transfer between threads a and b. */
static double xfer(int a, int b) {
  return CORES == 0 || a / CORES == b / CORES ? P.r_r : P.r_x;
}

static void expect(const char *what, double got, double want) {
  ++checks;
  if (!(fabs(got - want) <= 1e-6 * (fabs(want) > 1 ? fabs(want) : 1))) {
    fprintf(stderr, "FAIL %s: got %.6f, want %.6f\n", what, got, want);
    ++failures;
  }
}

static void expect_cost(const char *what, ompext_model_cost_t got,
                        ompext_model_cost_t want) {
  char name[256];
  snprintf(name, sizeof(name), "%s (min)", what);
  expect(name, got.min, want.min);
  snprintf(name, sizeof(name), "%s (max)", what);
  expect(name, got.max, want.max);
}

static ompext_model_cost_t pair(double min, double max) {
  ompext_model_cost_t c = {min, max};
  return c;
}

/* ---- the trees, thread by thread ---------------------------------------- */

/* One thread's levels: at each, the children it waits for / releases. */
typedef struct node {
  int levels;
  int count[MAX_N];
  int child[MAX_N][MAX_N];
} node_t;

typedef enum { HYPER, TREE, LINEAR } shape_t;

/* libomp's rules (kmp_barrier.cpp): hyper: at level l (offset r^l), a tid
   with a nonzero base-r digit l reports to its parent and stops, else its
   children are tid + j r^l; tree: children tid*r + 1 .. tid*r + r; linear:
   tid 0 has all.  The plugin's fork/join tree is TREE with any r. */
static void build(shape_t shape, int n, int r, node_t *nodes) {
  memset(nodes, 0, sizeof(node_t) * (size_t)n);
  for (int t = 0; t < n; ++t) {
    node_t *x = &nodes[t];
    if (shape == LINEAR) {
      if (t == 0) {
        x->levels = 1;
        for (int c = 1; c < n; ++c)
          x->child[0][x->count[0]++] = c;
      }
    } else if (shape == TREE) {
      x->levels = 1;
      for (long c = (long)t * r + 1; c <= (long)t * r + r && c < n; ++c)
        x->child[0][x->count[0]++] = (int)c;
      if (x->count[0] == 0)
        x->levels = 0;
    } else {
      for (long offset = 1; offset < n; offset *= r) {
        if ((t / offset) % r != 0)
          break;
        int l = x->levels++;
        for (long j = 1; j < r && t + j * offset < n; ++j)
          x->child[l][x->count[l]++] = (int)(t + j * offset);
      }
    }
  }
}

/* Transfers of one gather step of `parent` with k children: the children
   set their own flags (one R_L; worst case the last must take its line
   back from the polling parent), the parent fetches each flag line (worst
   case twice), and with data combines each child's N lines (T_N). */
static ompext_model_cost_t gather_step(int parent, const int *child, int k,
                                       double lines) {
  const double data = lines > 0 ? k * ompext_model_tn(&P, lines) : 0;
  double min = P.r_l, max = xfer(parent, child[k - 1]);
  for (int c = 0; c < k; ++c) {
    min += xfer(parent, child[c]);
    max += 2 * xfer(parent, child[c]);
  }
  return pair(min + data, max + data);
}

/* One release step with k children: the parent writes each child's go
   line (worst case twice), the last child re-reads its line. */
static ompext_model_cost_t release_step(int parent, const int *child, int k) {
  const double last = xfer(parent, child[k - 1]);
  double min = last, max = last;
  for (int c = 0; c < k; ++c) {
    min += xfer(parent, child[c]);
    max += 2 * xfer(parent, child[c]);
  }
  return pair(min, max);
}

static double pick(ompext_model_cost_t c, int worst) {
  return worst ? c.max : c.min;
}

/* Longest path of the gather: children finish before their parents (their
   tids are larger), each level waits for its children's whole gathers. */
static double brute_gather(const node_t *nodes, int n, double lines,
                           int worst) {
  double done[MAX_N];
  for (int t = n - 1; t >= 0; --t) {
    double time = 0;
    for (int l = 0; l < nodes[t].levels; ++l) {
      if (nodes[t].count[l] == 0)
        continue;
      for (int i = 0; i < nodes[t].count[l]; ++i) {
        const double c = done[nodes[t].child[l][i]];
        if (c > time)
          time = c;
      }
      time += pick(gather_step(t, nodes[t].child[l], nodes[t].count[l],
                               lines),
                   worst);
    }
    done[t] = time;
  }
  return done[0];
}

/* Longest path of the release: each thread starts when its parent's level
   is done and releases its own levels top first; the release ends when the
   last thread has finished its steps. */
static double brute_release(const node_t *nodes, int n, int worst) {
  double start[MAX_N] = {0}, end = 0;
  for (int t = 0; t < n; ++t) {
    double time = start[t];
    for (int l = nodes[t].levels - 1; l >= 0; --l) {
      if (nodes[t].count[l] == 0)
        continue;
      time += pick(release_step(t, nodes[t].child[l], nodes[t].count[l]),
                   worst);
      for (int i = 0; i < nodes[t].count[l]; ++i)
        start[nodes[t].child[l][i]] = time;
    }
    if (time > end)
      end = time;
  }
  return end;
}

static ompext_model_cost_t brute_gather_cost(shape_t s, int n, int r,
                                             double lines) {
  static node_t nodes[MAX_N];
  build(s, n, r, nodes);
  return pair(brute_gather(nodes, n, lines, 0),
              brute_gather(nodes, n, lines, 1));
}

static ompext_model_cost_t brute_release_cost(shape_t s, int n, int r) {
  static node_t nodes[MAX_N];
  build(s, n, r, nodes);
  return pair(brute_release(nodes, n, 0), brute_release(nodes, n, 1));
}

/* ---- libgomp, step by step ---------------------------------------------- */

/* The dearest transfer from tid 0 to the others of a team of n. */
static double farthest(int n) {
  double far = P.r_r;
  for (int t = 1; t < n; ++t)
    if (CORES && t / CORES != 0)
      far = P.r_x;
  return far;
}

/* The generation line's release: the last arriver resets the counter
   (R_L), takes the line from its pollers (the dearest of them), and the
   n-1 others read it at once (T_C(n-1), worst case twice; a reader on
   another package adds R_X - R_R). */
static ompext_model_cost_t brute_gomp_release(int n) {
  const double far = farthest(n);
  const double tc = ompext_model_tc(&P, n - 1) + (far - P.r_r);
  return pair(P.r_l + far + tc, P.r_l + far + 2 * tc);
}

/* Every thread decrements the counter in turn; the first holds the line
   (R_L; worst case it fetches it from the farthest), each other fetches
   it from tid 0's package (worst case twice); then the release. */
static ompext_model_cost_t brute_gomp_barrier(int n) {
  double min = 0, max = 0;
  for (int t = 0; t < n; ++t) {
    min += t == 0 ? P.r_l : xfer(0, t);
    max += t == 0 ? farthest(n) : 2 * xfer(0, t);
  }
  const ompext_model_cost_t rel = brute_gomp_release(n);
  return pair(min + rel.min, max + rel.max);
}

/* fork: each worker's start line (at its transfer's cost) + the master's
   decrement (R_R) and the dock's release; join: arrivals, then the
   generation line written and read (2 R_R, worst case 3 of the dearest). */
static ompext_model_cost_t brute_gomp_fork_join(int n) {
  double start = 0;
  for (int t = 1; t < n; ++t)
    start += xfer(0, t);
  start += P.r_r;
  const ompext_model_cost_t b = brute_gomp_barrier(n);
  const ompext_model_cost_t rel = brute_gomp_release(n);
  const ompext_model_cost_t arr = pair(b.min - rel.min, b.max - rel.max);
  return pair(start + rel.min + arr.min + 2 * P.r_r,
              start + rel.max + arr.max + 3 * farthest(n));
}

/* Reductions through one line, thread by thread: atomics (the line from
   memory, then handed to each other thread, once per item, twice in the
   worst case; each combine R_L), and the lock (tid 0 reads it from
   memory, each other thread fetches it, then each copies and combines). */
static ompext_model_cost_t brute_atomic(int n, double lines) {
  const double items = lines <= 1 ? 1 : lines * P.line_bytes / 8;
  double hand = 0;
  for (int t = 1; t < n; ++t)
    hand += xfer(0, t);
  const double combine = (n - 1) * items * P.r_l;
  return pair(P.r_i + items * hand + combine,
              items * (P.r_i + 2 * hand) + combine);
}

static ompext_model_cost_t brute_lock(int n, double lines) {
  const double tn = ompext_model_tn(&P, lines), tc = ompext_model_tc(&P, n);
  double min = 0, max = 0;
  for (int t = 0; t < n; ++t) {
    const double fetch = t == 0 ? P.r_i : xfer(0, t);
    min += fetch + tn + P.r_l;
    max += fetch + tc + tn;
  }
  return pair(min, max);
}

/* omp-ext's fork/join tree on a topology
   (omp-ext/src/topology/topology.h), built from each thread's parent: a
   package's leader (its lowest tid) under the leader of package
   (e-1)/k_out, any other thread under local index (i-1)/k_in of its
   package; leaders are listed first. */
static void build_two_level(int n, int k_in, int k_out, node_t *nodes) {
  memset(nodes, 0, sizeof(node_t) * (size_t)n);
  for (int pass = 0; pass < 2; ++pass)
    for (int t = 1; t < n; ++t) {
      const int e = t / CORES, i = t % CORES;
      if ((i == 0) != (pass == 0))
        continue;
      const int parent =
          i == 0 ? (e - 1) / k_out * CORES : e * CORES + (i - 1) / k_in;
      node_t *x = &nodes[parent];
      x->levels = 1;
      x->child[0][x->count[0]++] = t;
    }
}

static ompext_model_cost_t sum(ompext_model_cost_t a, ompext_model_cost_t b) {
  return pair(a.min + b.min, a.max + b.max);
}

static ompext_model_cost_t twice(ompext_model_cost_t a) { return sum(a, a); }

/* The data pointer and the copy of a copyprivate (T_C(n-1), worst case
   twice; then b + c(n-2) + o N). */
static ompext_model_cost_t brute_copy(int n, double lines) {
  const double tc = ompext_model_tc(&P, n - 1);
  const double copy = P.b + P.c * (n - 2) + P.o * lines;
  return pair(tc + copy, 2 * tc + copy);
}

/* The same on a topology, reader by reader: the single thread is tid 0; a
   reader on another package reads the pointer line and the first copied
   line across, each R_X - R_R dearer.  The slowest reader's. */
static ompext_model_cost_t brute_copy_placed(int n, double lines) {
  ompext_model_cost_t slowest = pair(0, 0);
  for (int t = 1; t < n; ++t) {
    const double across = xfer(0, t) - P.r_r;
    const double tc = ompext_model_tc(&P, n - 1) + across;
    const double copy = P.b + P.c * (n - 2) + P.o * lines + across;
    if (2 * tc + copy > slowest.max)
      slowest = pair(tc + copy, 2 * tc + copy);
  }
  return slowest;
}

/* One level of the plugin's broadcast tree (Eq. 4.5-4.7) from `parent`
   to a child among k of the same kind (leaders, or members of its own
   package): the forward notification, the k copies of the line and the
   notification backwards, each line R_X if the step crosses packages (the
   first copied line then R_X - R_R dearer too), and the other N-1 lines. */
static ompext_model_cost_t bcast_level(int parent, int child, int k,
                                       double lines) {
  const double r = xfer(parent, child);
  const double tc = ompext_model_tc(&P, k) + (r - P.r_r);
  const double data = tc + P.o * (lines - 1);
  return pair(P.r_i + 2 * P.r_l + data + P.r_i + k * r,
              2 * (r + tc) + data + P.r_i + 2 * k * r);
}

/* omp-ext's copyprivate broadcast on a topology, thread by thread: the
   tree of topology.h ompext_topology_rooted_child rooted at tid 0 with
   k_in = k_out = k (package e's leader under that of (e-1)/k, local index
   i under (i-1)/k of its package), every path from the root summed level
   by level with its parent's count of children of the same kind; the
   longest. */
static ompext_model_cost_t brute_ext_bcast(int n, int k, double lines) {
  const int packages = (n + CORES - 1) / CORES;
  ompext_model_cost_t longest = pair(0, 0);
  for (int t = 1; t < n; ++t) {
    ompext_model_cost_t path = pair(P.r_i, P.r_i);
    for (int at = t; at != 0;) {
      const int e = at / CORES, i = at % CORES;
      const int size = n - e * CORES < CORES ? n - e * CORES : CORES;
      int parent, first, last;
      if (i == 0) { /* a leader, under a leader */
        const int pe = (e - 1) / k;
        parent = pe * CORES;
        first = pe * k + 1;
        last = first + k - 1 < packages - 1 ? first + k - 1 : packages - 1;
      } else {
        const int pi = (i - 1) / k;
        parent = e * CORES + pi;
        first = pi * k + 1;
        last = first + k - 1 < size - 1 ? first + k - 1 : size - 1;
      }
      path = sum(path, bcast_level(parent, at, last - first + 1, lines));
      at = parent;
    }
    if (path.min > longest.min)
      longest.min = path.min;
    if (path.max > longest.max)
      longest.max = path.max;
  }
  return longest;
}

/* Every team of a topology of `packages` x CORES that spans packages. */
static void check_topology(int packages) {
  const ompext_model_topology_t topo = {packages, CORES, 1, "package"};
  const ompext_model_baseline_t stock[] = {OMPEXT_MODEL_BASELINE_STOCK,
                                           OMPEXT_MODEL_BASELINE_STOCK_TREE,
                                           OMPEXT_MODEL_BASELINE_STOCK_LINEAR};
  const shape_t shape[] = {HYPER, TREE, LINEAR};
  static node_t nodes[MAX_N];
  ompext_model_options_t o;
  ompext_model_options_default(&o);
  char what[160];
  for (int n = CORES + 1; n <= packages * CORES; ++n) {
    if (n < 2)
      continue;
    ompext_model_baseline_cost_t bc;
    for (int b = 0; b < 3; ++b) {
      const ompext_model_cost_t barrier = sum(
          brute_gather_cost(shape[b], n, 4, 0), brute_release_cost(shape[b], n, 4));
      snprintf(what, sizeof(what), "%d x %d n=%d %s barrier", packages, CORES,
               n, ompext_model_baseline_names[stock[b]]);
      ompext_model_baseline_cost_placed(&P, &topo, stock[b],
                                        OMPEXT_MODEL_OP_BARRIER, n, 1, &bc);
      expect_cost(what, bc.cost, barrier);
      snprintf(what, sizeof(what), "%d x %d n=%d %s fork/join", packages,
               CORES, n, ompext_model_baseline_names[stock[b]]);
      ompext_model_baseline_cost_placed(&P, &topo, stock[b],
                                        OMPEXT_MODEL_OP_FORK_JOIN, n, 1, &bc);
      expect_cost(what, bc.cost, barrier);
      for (long lines = 1; lines <= 40; lines += 39) {
        snprintf(what, sizeof(what), "%d x %d n=%d %s copyprivate lines %ld",
                 packages, CORES, n, ompext_model_baseline_names[stock[b]],
                 lines);
        ompext_model_baseline_cost_placed(&P, &topo, stock[b],
                                          OMPEXT_MODEL_OP_COPYPRIVATE, n,
                                          lines, &bc);
        expect_cost(what, bc.cost,
                    sum(twice(barrier), brute_copy_placed(n, (double)lines)));
      }
      for (long lines = 1; lines <= 3; lines += 2) {
        const double fold = P.r_r + P.o * (double)(lines - 1);
        snprintf(what, sizeof(what), "%d x %d n=%d %s reduce lines %ld",
                 packages, CORES, n, ompext_model_baseline_names[stock[b]],
                 lines);
        ompext_model_baseline_cost_placed(&P, &topo, stock[b],
                                          OMPEXT_MODEL_OP_REDUCE, n, lines,
                                          &bc);
        expect_cost(what, bc.cost,
                    n <= 4 ? brute_atomic(n, (double)lines)
                           : sum(brute_gather_cost(shape[b], n, 2,
                                                   (double)lines),
                                 pair(fold, fold)));
      }
    }
    const ompext_model_baseline_t gomp = OMPEXT_MODEL_BASELINE_LIBGOMP;
    snprintf(what, sizeof(what), "%d x %d n=%d libgomp barrier", packages,
             CORES, n);
    ompext_model_baseline_cost_placed(&P, &topo, gomp, OMPEXT_MODEL_OP_BARRIER,
                                      n, 1, &bc);
    expect_cost(what, bc.cost, brute_gomp_barrier(n));
    snprintf(what, sizeof(what), "%d x %d n=%d libgomp fork/join", packages,
             CORES, n);
    ompext_model_baseline_cost_placed(&P, &topo, gomp,
                                      OMPEXT_MODEL_OP_FORK_JOIN, n, 1, &bc);
    expect_cost(what, bc.cost, brute_gomp_fork_join(n));
    snprintf(what, sizeof(what), "%d x %d n=%d libgomp reduce", packages,
             CORES, n);
    ompext_model_baseline_cost_placed(&P, &topo, gomp, OMPEXT_MODEL_OP_REDUCE,
                                      n, 1, &bc);
    expect_cost(what, bc.cost, brute_atomic(n, 1));
    ompext_model_baseline_cost_placed(&P, &topo, gomp, OMPEXT_MODEL_OP_REDUCE,
                                      n, 3, &bc);
    expect_cost(what, bc.cost, brute_lock(n, 3));
    snprintf(what, sizeof(what), "%d x %d n=%d libgomp copyprivate", packages,
             CORES, n);
    ompext_model_baseline_cost_placed(&P, &topo, gomp,
                                      OMPEXT_MODEL_OP_COPYPRIVATE, n, 40, &bc);
    expect_cost(what, bc.cost,
                sum(twice(brute_gomp_barrier(n)), brute_copy_placed(n, 40)));
    /* omp-ext's copyprivate: the broadcast tree of the k it reports, then
       its hierarchical barrier (checked by hand below). */
    for (long lines = 1; lines <= 40; lines += 39) {
      ompext_model_plan_cost_t cp, hb;
      int k = 0;
      snprintf(what, sizeof(what), "%d x %d n=%d ext copyprivate lines %ld",
               packages, CORES, n, lines);
      ++checks;
      if (ompext_model_ext_placed(&P, &o, &topo, OMPEXT_MODEL_OP_COPYPRIVATE,
                                  n, lines, &cp) != 0 ||
          ompext_model_ext_placed(&P, &o, &topo, OMPEXT_MODEL_OP_BARRIER, n,
                                  1, &hb) != 0 ||
          sscanf(cp.config, "k=%d then barrier", &k) != 1 || k < 1 ||
          strcmp(cp.algorithm, "hier") != 0) {
        fprintf(stderr, "FAIL %s: config '%s'\n", what, cp.config);
        ++failures;
        continue;
      }
      expect_cost(what, cp.cost,
                  sum(brute_ext_bcast(n, k, (double)lines), hb.cost));
    }
    /* omp-ext's fork/join: the k it reports, the tree rebuilt here. */
    ompext_model_plan_cost_t pc;
    int k_in = 0, k_out = 0;
    snprintf(what, sizeof(what), "%d x %d n=%d ext fork/join", packages, CORES,
             n);
    ++checks;
    if (ompext_model_ext_placed(&P, &o, &topo, OMPEXT_MODEL_OP_FORK_JOIN, n, 1,
                                &pc) != 0 ||
        sscanf(pc.config, "k=%d leaders k=%d", &k_in, &k_out) != 2 ||
        k_out != (n + CORES - 1) / CORES - 1) {
      fprintf(stderr, "FAIL %s: config '%s'\n", what, pc.config);
      ++failures;
      continue;
    }
    build_two_level(n, k_in, k_out, nodes);
    expect_cost(what, pc.cost,
                pair(brute_release(nodes, n, 0) + brute_gather(nodes, n, 0, 0),
                     brute_release(nodes, n, 1) + brute_gather(nodes, n, 0, 1)));
  }
}

int main(void) {
  if (ompext_model_params_builtin("xeon-phi-5110p", &P) != 0) {
    fprintf(stderr, "FAIL: no xeon-phi-5110p\n");
    return 1;
  }
  char what[160];
  const shape_t shapes[] = {HYPER, TREE, LINEAR};
  const ompext_model_libomp_pattern_t patterns[] = {
      OMPEXT_MODEL_LIBOMP_HYPER, OMPEXT_MODEL_LIBOMP_TREE,
      OMPEXT_MODEL_LIBOMP_LINEAR};
  const char *const names[] = {"hyper", "tree", "linear"};
  const double line_choices[] = {0, 1, 3};

  /* ---- hand-computed ---- */
  /* hyper, bits 2, n = 16: levels at offsets 1 and 4, 3 children each.
     gather min 2 (R_L + 3 R_R) = 2 * 716.0 = 1432.0
            max 2 (R_R + 6 R_R) = 14 * 235.8 = 3301.2
     release min 2 * 4 R_R = 1886.4, max 2 * 7 R_R = 3301.2 */
  expect_cost("stock barrier n=16",
              ompext_model_libomp_barrier(&P, OMPEXT_MODEL_LIBOMP_HYPER, 16,
                                          2),
              pair(3318.4, 6602.4));
  /* n = 5: level 0 has tids 1, 2, 3, level 1 has tid 4.
     gather min (8.6 + 707.4) + (8.6 + 235.8) = 960.4
     release min 4 R_R + 2 R_R = 1414.8; total 2375.2
     max: gather 7 R_R + 3 R_R, release 7 R_R + 3 R_R = 20 R_R = 4716.0 */
  expect_cost("stock barrier n=5",
              ompext_model_libomp_barrier(&P, OMPEXT_MODEL_LIBOMP_HYPER, 5, 2),
              pair(2375.2, 4716.0));
  /* libgomp n = 5: arrivals R_L + 4 R_R = 951.8 (max 9 R_R = 2122.2),
     release R_L + R_R + T_C(4) = 8.6 + 235.8 + 545.3 = 789.7
     (max 8.6 + 235.8 + 1090.6 = 1335.0) */
  expect_cost("libgomp barrier n=5", ompext_model_libgomp_barrier(&P, 5),
              pair(1741.5, 3457.2));
  /* Reduction tree, bits 1, n = 8, one line: three levels of one child,
     each G(1) + T_N(1) = {244.4 + 501, 707.4 + 501}, then R_R:
     min 3 * 745.4 + 235.8 = 2472.0, max 3 * 1208.4 + 235.8 = 3861.0 */
  expect_cost("stock reduce tree n=8",
              ompext_model_libomp_reduce_tree(&P, OMPEXT_MODEL_LIBOMP_HYPER, 8,
                                              1),
              pair(2472.0, 3861.0));
  expect("hyper levels n=16 bits 2", ompext_model_hyper_levels(16, 2), 2);
  expect("hyper levels n=17 bits 2", ompext_model_hyper_levels(17, 2), 3);
  expect("hyper children n=6 bits 2 level 1",
         ompext_model_hyper_children(6, 2, 1), 1);
  expect("kary children n=6 k=4 depth 1", ompext_model_kary_children(6, 4, 1),
         1);

  /* ---- libomp's patterns against the brute force ---- */
  for (int s = 0; s < 3; ++s)
    for (int bits = 1; bits <= 3; ++bits)
      for (int n = 2; n <= 40; ++n) {
        for (int li = 0; li < 3; ++li) {
          snprintf(what, sizeof(what), "%s gather bits %d n=%d lines %g",
                   names[s], bits, n, line_choices[li]);
          expect_cost(what,
                      ompext_model_libomp_gather(&P, patterns[s], n, bits,
                                                 line_choices[li]),
                      brute_gather_cost(shapes[s], n, 1 << bits,
                                        line_choices[li]));
        }
        snprintf(what, sizeof(what), "%s release bits %d n=%d", names[s],
                 bits, n);
        expect_cost(what, ompext_model_libomp_release(&P, patterns[s], n, bits),
                    brute_release_cost(shapes[s], n, 1 << bits));
      }

  /* ---- omp-ext's fork/join tree against the brute force ---- */
  for (int k = 1; k <= 6; ++k)
    for (int n = 2; n <= 40; ++n) {
      snprintf(what, sizeof(what), "ext fork/join k=%d n=%d", k, n);
      expect_cost(what, ompext_model_forkjoin_tree(&P, n, k),
                  sum(brute_release_cost(TREE, n, k),
                      brute_gather_cost(TREE, n, k, 0)));
    }

  /* ---- the constructs ---- */
  for (int n = 2; n <= 16; ++n) {
    const ompext_model_cost_t hyper_barrier =
        sum(brute_gather_cost(HYPER, n, 4, 0), brute_release_cost(HYPER, n, 4));
    snprintf(what, sizeof(what), "stock fork/join n=%d", n);
    expect_cost(what,
                ompext_model_libomp_fork_join(&P, OMPEXT_MODEL_LIBOMP_HYPER, n),
                hyper_barrier);
    for (int li = 1; li < 3; ++li) {
      const double lines = line_choices[li];
      snprintf(what, sizeof(what), "stock copyprivate n=%d lines %g", n,
               lines);
      expect_cost(what,
                  ompext_model_libomp_copyprivate(
                      &P, OMPEXT_MODEL_LIBOMP_HYPER, n, lines),
                  sum(twice(hyper_barrier), brute_copy(n, lines)));
      /* libomp's method: atomics up to 4 threads, else the tree of the
         reduction barrier (bits 1) and tid 0's fold into the shared
         variable (R_R + o (N-1)). */
      const char *method = NULL;
      const ompext_model_cost_t reduce = ompext_model_libomp_reduce(
          &P, OMPEXT_MODEL_LIBOMP_HYPER, n, lines, &method);
      const double fold = P.r_r + P.o * (lines - 1);
      const ompext_model_cost_t tree =
          sum(brute_gather_cost(HYPER, n, 2, lines), pair(fold, fold));
      snprintf(what, sizeof(what), "stock reduce n=%d lines %g", n, lines);
      expect_cost(what, reduce,
                  n <= 4 ? ompext_model_reduce_atomic_lines(&P, n, lines)
                         : tree);
      ++checks;
      if (strcmp(method, n <= 4 ? "atomic" : "tree") != 0) {
        fprintf(stderr, "FAIL %s: method %s\n", what, method);
        ++failures;
      }
      snprintf(what, sizeof(what), "libgomp copyprivate n=%d lines %g", n,
               lines);
      expect_cost(what, ompext_model_libgomp_copyprivate(&P, n, lines),
                  sum(twice(brute_gomp_barrier(n)), brute_copy(n, lines)));
      snprintf(what, sizeof(what), "libgomp reduce n=%d lines %g", n, lines);
      expect_cost(what, ompext_model_libgomp_reduce(&P, n, lines, NULL),
                  lines <= 1 ? ompext_model_reduce_atomic_lines(&P, n, 1)
                             : ompext_model_reduce_critical(&P, n, lines));
    }
    snprintf(what, sizeof(what), "libgomp barrier n=%d", n);
    expect_cost(what, ompext_model_libgomp_barrier(&P, n),
                brute_gomp_barrier(n));
    snprintf(what, sizeof(what), "libgomp fork/join n=%d", n);
    expect_cost(what, ompext_model_libgomp_fork_join(&P, n),
                brute_gomp_fork_join(n));
  }

  /* ---- on a topology ---- */
  P.r_x = 600;
  for (int packages = 2; packages <= 4; ++packages)
    for (CORES = 1; CORES <= 8; ++CORES)
      check_topology(packages);
  CORES = 0;
  /* By hand, packages 2 x 4, n = 8 (2 x 4 x 8.6 etc.): omp-ext's barrier
     is the tree barrier of 4 threads (k = 3: G(3) + S(3) = 716.0 + 943.2,
     max 2 x 7 R_R = 3301.2) and one dissemination round of the 2 leaders
     at R_X = 600 (R_L + 2 R_X = 1208.6, max 8 R_X = 4800). */
  {
    const ompext_model_topology_t t = {2, 4, 1, "package"};
    ompext_model_options_t o;
    ompext_model_options_default(&o);
    ompext_model_plan_cost_t pc;
    ++checks;
    if (ompext_model_ext_placed(&P, &o, &t, OMPEXT_MODEL_OP_BARRIER, 8, 1,
                                &pc) != 0 ||
        strcmp(pc.algorithm, "hier") != 0 || strcmp(pc.config, "k=3 m=1")) {
      fprintf(stderr, "FAIL ext barrier on 2 x 4: %s %s\n", pc.algorithm,
              pc.config);
      ++failures;
    }
    expect_cost("ext barrier on 2 x 4, n=8", pc.cost,
                pair(1659.2 + 1208.6, 3301.2 + 4800));
    /* The reduction of 8 lines (512 B): the plugin's tree (cheaper than
       atomics and the lock by the flat costs), 3 children in each
       package, then one leader at R_X, Eq. 4.13 per level (N = 8):
         inside   R_I + T_C(3) + 4 R_R + R_L + T_24
                  = 277.7 + 489.1 + 943.2 + 8.6 + 3299.333 = 5017.933
                  max 277.7 + 978.2 + 1886.4 + 8.6 + 3299.333 = 6450.233
         leaders  R_I + T_C(1) + 2 R_X + R_L + T_8
                  = 277.7 + 376.7 + 1200 + 8.6 + 1992 = 3855.0
                  max 277.7 + 753.4 + 2400 + 8.6 + 1992 = 5431.7
         fold     R_R + 7 o = 767.8, once */
    ++checks;
    if (ompext_model_ext_placed(&P, &o, &t, OMPEXT_MODEL_OP_REDUCE, 8, 8,
                                &pc) != 0 ||
        strcmp(pc.config, "k=3 leaders k=1") != 0) {
      fprintf(stderr, "FAIL ext reduce on 2 x 4: %s %s\n", pc.algorithm,
              pc.config);
      ++failures;
    }
    expect_cost("ext reduce of 8 lines on 2 x 4, n=8", pc.cost,
                pair(5017.933333 + 3855.0 + 767.8,
                     6450.233333 + 5431.7 + 767.8));
  }

  /* ---- the baselines by name ---- */
  {
    ompext_model_baseline_t b;
    ompext_model_baseline_cost_t bc;
    ++checks;
    if (ompext_model_baseline_lookup("stock", &b) != 0 ||
        b != OMPEXT_MODEL_BASELINE_STOCK ||
        ompext_model_baseline_lookup("libgomp", &b) != 0 ||
        b != OMPEXT_MODEL_BASELINE_LIBGOMP ||
        ompext_model_baseline_lookup("icc", &b) != -1) {
      fprintf(stderr, "FAIL baseline lookup\n");
      ++failures;
    }
    ++checks;
    if (ompext_model_baseline_cost(&P, OMPEXT_MODEL_BASELINE_STOCK,
                                   OMPEXT_MODEL_OP_BCAST, 8, 1, &bc) != -1) {
      fprintf(stderr, "FAIL stock has no broadcast alone\n");
      ++failures;
    }
    ++checks;
    if (ompext_model_baseline_cost(&P, OMPEXT_MODEL_BASELINE_STOCK,
                                   OMPEXT_MODEL_OP_REDUCE, 8, 1, &bc) != 0 ||
        strcmp(bc.method, "stock:tree") != 0) {
      fprintf(stderr, "FAIL stock reduce n=8 method\n");
      ++failures;
    }
    ++checks;
    if (ompext_model_baseline_cost(&P, OMPEXT_MODEL_BASELINE_STOCK,
                                   OMPEXT_MODEL_OP_BARRIER, 16, 1, &bc) != 0 ||
        strcmp(bc.method, "stock:hyper") != 0) {
      fprintf(stderr, "FAIL stock barrier n=16 method\n");
      ++failures;
    }
    expect_cost("baseline stock barrier n=16", bc.cost, pair(3318.4, 6602.4));
    ++checks;
    if (ompext_model_baseline_cost(&P, OMPEXT_MODEL_BASELINE_LIBGOMP,
                                   OMPEXT_MODEL_OP_REDUCE, 8, 64, &bc) != 0 ||
        strcmp(bc.method, "libgomp:lock") != 0) {
      fprintf(stderr, "FAIL libgomp reduce of 64 lines method\n");
      ++failures;
    }
  }

  if (failures) {
    fprintf(stderr, "%d of %d check(s) failed\n", failures, checks);
    return 1;
  }
  printf("ok: %d checks\n", checks);
  return 0;
}
