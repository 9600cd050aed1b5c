/*
 * The min-max cost equations, one function per algorithm (see model.h).
 *
 * Equation and table numbers refer to S. Ramos and T. Hoefler, "Modelling
 * Communications in Cache Coherent Systems" (2013).  The paper models the
 * dissemination barrier, the small (one-line) broadcast tree, the two large
 * broadcasts and the small reduction tree (Table 4.1).  The tree,
 * tournament and centralized barriers and the atomic reduction are not in
 * the paper: their costs below are derived here from the paper's primitives
 * and say so.  Where this file extends a paper equation (messages of more
 * than one line in the small broadcast tree, a free chunk size in the
 * pipelined broadcast) the comment says that too.
 *
 * Notation: n threads (n_th in the paper), d tree levels, k_i the fan-out
 * of the nodes of level i-1 (k_1 is the root's), N lines.
 */
#include "cost_pair.h"
#include "model.h"

#include <math.h>

/* ------------------------------------------------------------------------ */
/* Pieces                                                                   */
/* ------------------------------------------------------------------------ */

/* Contention of n threads copying the same line, Eq. 3.2 (cached line:
   T_C(n) = b + c*n) and Eq. 3.3 (line in memory: ... - a/n).  With a = 0,
   as in the E/E row of Table 3.2, the two agree. */
double ompext_model_tc(const ompext_model_params_t *p, double n) {
  return p->b + p->c * n - (n > 0 ? p->a / n : 0.0);
}

/* Copy of N contiguous lines, Eq. 3.1: T_N = o*N + q - p/N. */
double ompext_model_tn(const ompext_model_params_t *p, double lines) {
  return p->o * lines + p->q - (lines > 0 ? p->p / lines : 0.0);
}

/* Notification backwards over one shared line by n threads (the root and
   n-1 writers), Eq. 4.1 and Eq. 4.2:
     min  R_I + (n-1)*R_R       writers serialise on the line, the root reads
                                it once at the end
     max  R_I + 2(n-1)*R_R      the root polls after every write */
ompext_model_cost_t ompext_model_notify_back(const ompext_model_params_t *p,
                                             int n) {
  if (n < 1)
    return INVALID_COST;
  return cost(p->r_i + (n - 1) * p->r_r, p->r_i + 2.0 * (n - 1) * p->r_r);
}

int ompext_model_dissemination_rounds(int n, int m,
                                      ompext_model_rounds_t mode) {
  if (n < 1 || m < 1)
    return -1;
  if (n == 1)
    return 0;
  const long base = mode == OMPEXT_MODEL_ROUNDS_PAPER ? m : (long)m + 1;
  if (base == 1) /* paper, m = 1: log_1 n; Table B.2 lists r = 1 for n = 2 */
    return n == 2 ? 1 : -1;
  int r = 0;
  for (long span = 1; span < n; span *= base) /* base <= n: no overflow */
    ++r;
  return r;
}

int ompext_model_uniform_depth(int n, int k) {
  if (n < 1 || k < 1)
    return -1;
  int d = 0;
  long level = 1, covered = 1;
  while (covered < n) {
    level = level * k > n ? n : level * k;
    covered += level;
    ++d;
  }
  return d;
}

long ompext_model_tree_coverage(int d, const int *k, long cap) {
  long covered = 1, level = 1;
  for (int i = 0; i < d && covered < cap; ++i) {
    if (k[i] < 1)
      return -1;
    level = level > cap / k[i] ? cap : level * k[i];
    covered = covered > cap - level ? cap : covered + level;
  }
  return covered < cap ? covered : cap;
}

/* ------------------------------------------------------------------------ */
/* Barriers                                                                 */
/* ------------------------------------------------------------------------ */

/* m-ary dissemination barrier, Eq. 4.11 (min) and Eq. 4.12 (max), Table 4.1
   and Eq. B.2:
     min  r * (R_L + m*R_R + R_R)            set own flag, read and bump m
                                             peers' lines, check own line
     max  r * (R_R + 4m*R_R + (2m+1)*R_R)    own line stolen, one
                                             interference per peer line, own
                                             line re-read after every bump
   with r = ceil(log_m n) (paper) or ceil(log_{m+1} n) (algorithm), see
   ompext_model_dissemination_rounds. */
ompext_model_cost_t ompext_model_barrier_dissemination(
    const ompext_model_params_t *p, int n, int m, ompext_model_rounds_t mode) {
  if (n < 2 || m < 1)
    return INVALID_COST;
  const int r = ompext_model_dissemination_rounds(n, m, mode);
  if (r < 0)
    return INVALID_COST;
  const double min = r * (p->r_l + m * p->r_r + p->r_r);
  const double max = r * (p->r_r + 4.0 * m * p->r_r + (2.0 * m + 1) * p->r_r);
  return cost(min, max);
}

/*
 * Derived primitives for the barriers the paper does not model.  They follow
 * the accounting of the paper's barrier (Sec. 4.2): a write into or a read of
 * a line last touched by another core costs R_R, a write into a line already
 * in the own cache R_L, and the worst case allows one interference per line
 * (the line is fetched twice), as Eq. 4.12 does.
 *
 * signal_k (S): one thread sets k flag lines, each polled by another thread,
 *   one after the other; the last of those threads then sees its flag.
 *     min  k*R_R + R_R        each write fetches the line from its poller,
 *                             the last poller re-reads its line
 *     max  2k*R_R + R_R       each line bounces once more (one interference)
 * gather_k (G): one thread waits for k threads that each set their own flag
 *   line, reading the k lines in turn.
 *     min  R_L + k*R_R        the setters write lines they hold, the waiter
 *                             fetches each line once
 *     max  R_R + 2k*R_R       the setter must take its line back from the
 *                             polling waiter, and each line is read twice
 */
ompext_model_cost_t ompext_model_signal(const ompext_model_params_t *p,
                                        int k) {
  if (k < 0)
    return INVALID_COST;
  return cost(k * p->r_r + p->r_r, 2.0 * k * p->r_r + p->r_r);
}

ompext_model_cost_t ompext_model_gather(const ompext_model_params_t *p,
                                        int k) {
  if (k < 0)
    return INVALID_COST;
  return cost(p->r_l + k * p->r_r, p->r_r + 2.0 * k * p->r_r);
}

static ompext_model_cost_t signal_k(const ompext_model_params_t *p, int k) {
  return ompext_model_signal(p, k);
}

static ompext_model_cost_t gather_k(const ompext_model_params_t *p, int k) {
  return ompext_model_gather(p, k);
}

/* k-ary combining tree barrier (not in the paper; derived).  A gather up and
   a release down a complete k-ary tree of d levels, d the smallest with
   1 + k + ... + k^d >= n (the heap over the thread ids has that depth).
   Each level costs a gather of k children and a release of k children:
     min/max  d * (G(k) + S(k)),   k capped at n-1 (a one-level tree). */
ompext_model_cost_t ompext_model_barrier_tree(const ompext_model_params_t *p,
                                              int n, int k) {
  if (n < 2 || k < 2)
    return INVALID_COST;
  const int d = ompext_model_uniform_depth(n, k);
  const int kk = k < n - 1 ? k : n - 1;
  const ompext_model_cost_t g = gather_k(p, kk), s = signal_k(p, kk);
  return cost(d * (g.min + s.min), d * (g.max + s.max));
}

/* Tournament barrier (not in the paper; derived).  Gather: R = ceil(log2 n)
   rounds, each one loser signalling one winner: R * G(1).  Release, k = 0:
   back down the tournament; the champion signals its R beaten opponents in
   turn, each of them its own, so the longest chain is R hand-offs: R * S(1).
   Release, k >= 2: down the complete k-ary tree: depth(n, k) * S(k), k capped
   at n-1.
     min/max  R * G(1) + release */
ompext_model_cost_t ompext_model_barrier_tournament(
    const ompext_model_params_t *p, int n, int k) {
  if (n < 2 || k == 1 || k < 0)
    return INVALID_COST;
  const int rounds =
      ompext_model_dissemination_rounds(n, 1, OMPEXT_MODEL_ROUNDS_ALGORITHM);
  const ompext_model_cost_t g = gather_k(p, 1);
  ompext_model_cost_t release;
  if (k == 0) {
    const ompext_model_cost_t s = signal_k(p, 1);
    release = cost(rounds * s.min, rounds * s.max);
  } else {
    const int d = ompext_model_uniform_depth(n, k);
    const ompext_model_cost_t s = signal_k(p, k < n - 1 ? k : n - 1);
    release = cost(d * s.min, d * s.max);
  }
  return cost(rounds * g.min + release.min, rounds * g.max + release.max);
}

/* Centralized barrier (not in the paper; derived).  Gather: the n-1 other
   threads bump one shared line that thread 0 polls, which is exactly the
   paper's notification backwards T_nb(n) (Eq. 4.1/4.2).  Release: thread 0
   sets the n-1 threads' own flag lines in turn: S(n-1).
     min/max  T_nb(n) + S(n-1) */
ompext_model_cost_t ompext_model_barrier_centralized(
    const ompext_model_params_t *p, int n) {
  if (n < 2)
    return INVALID_COST;
  const ompext_model_cost_t nb = ompext_model_notify_back(p, n);
  const ompext_model_cost_t s = signal_k(p, n - 1);
  return add(nb, s);
}

/* Children, in a k-ary heap over tids 0..n-1 (children of t: t*k+1 ..
   t*k+k), of the leftmost node of depth `depth` (tid (k^depth-1)/(k-1)):
   the node of that depth with the most children and the deepest subtree,
   so the leftmost path is the critical one of a gather or release in which
   each level costs G or S of the node's children.  0 below the tree. */
int ompext_model_kary_children(int n, int k, int depth) {
  if (n < 1 || k < 1 || depth < 0)
    return 0;
  long node = 0;
  for (int i = 0; i < depth; ++i) {
    node = node * k + 1;
    if (node >= n)
      return 0;
  }
  const long first = node * k + 1;
  if (first >= n)
    return 0;
  return n - first < k ? (int)(n - first) : k;
}

/* k-ary heap gather and release, level by level along the leftmost path
   (not in the paper; derived): every level with c children costs G(c) in
   the gather and S(c) in the release.  Unlike the tree barrier above,
   which charges every level the full G(k) + S(k), the partial bottom level
   costs only its own children; the two agree when n fills the tree. */
static ompext_model_cost_t
kary_levels(const ompext_model_params_t *p, int n, int k,
            ompext_model_cost_t (*level)(const ompext_model_params_t *, int)) {
  if (n < 2 || k < 1)
    return INVALID_COST;
  ompext_model_cost_t total = cost(0, 0);
  for (int depth = 0;; ++depth) {
    const int c = ompext_model_kary_children(n, k, depth);
    if (c == 0)
      break;
    total = add(total, level(p, c));
  }
  return total;
}

ompext_model_cost_t ompext_model_kary_gather(const ompext_model_params_t *p,
                                             int n, int k) {
  return kary_levels(p, n, k, gather_k);
}

ompext_model_cost_t ompext_model_kary_release(const ompext_model_params_t *p,
                                              int n, int k) {
  return kary_levels(p, n, k, signal_k);
}

/* omp-ext's fork/join (not in the paper; derived).  The runtime's own
   executor runs the fork release and the join gather on its per-thread
   flags, over the plugin's k-ary tree in tid order (forkjoin_tree.c); the
   pushed ICVs share the line of the go flag (libomp kmp.h, kmp_bstate_t),
   so each child costs one line in the release, as in any signal.  A fork
   and the join of an empty region:
     min/max  release(n, k) + gather(n, k)   (ompext_model_kary_*)
   k is the tree barrier's (plan.c takes the model's tree k); the team-wide
   bookkeeping of a fork, the same with or without the plugin, is left
   out. */
ompext_model_cost_t ompext_model_forkjoin_tree(const ompext_model_params_t *p,
                                               int n, int k) {
  if (n < 2 || k < 1)
    return INVALID_COST;
  const ompext_model_cost_t r = ompext_model_kary_release(p, n, k);
  const ompext_model_cost_t g = ompext_model_kary_gather(p, n, k);
  return add(r, g);
}

/* ------------------------------------------------------------------------ */
/* Broadcasts                                                               */
/* ------------------------------------------------------------------------ */

/* Small broadcast tree, Eq. 4.5-4.7, Table 4.1 and Eq. B.1:
     T = T_fw + sum_i T_C(k_i) + sum_i T_nb(k_i + 1)
   notification forwards, Eq. 4.6:
     min  T_fw = (d+1)*R_I + 2d*R_L
     max  T_fw = R_I + sum_i 2*(R_R + T_C(k_i))
   data: every one of the k_i children of a level-(i-1) node copies the same
   line, T_C(k_i) = c*k_i + b (Eq. 4.5); notification backwards per group of
   k_i children and their parent, T_nb(k_i + 1) (Eq. 4.1/4.2).

   The max of T_fw is printed as R_I + sum_{i=1}^d 2(R_R + sum_{i=1}^d
   (c*k_i + b)), the inner sum reusing the outer index.  It is read here as
   the per-level term 2(R_R + T_C(k_i)): the interference of level i's
   polling children with their parent, the same shape as the pipelined
   broadcast's T_init,max = R_I + 2(R_R + T_C(n-1)) + R_R (Eq. 4.9).

   Extension (not in the paper): for a message of N > 1 lines every level
   also copies the other N-1 lines at the multi-line slope o, i.e. the data
   term per level is T_C(k_i) + o*(N-1); N = 1 is the paper's equation. */
ompext_model_cost_t ompext_model_bcast_tree(const ompext_model_params_t *p,
                                            double lines, int d,
                                            const int *k) {
  if (d < 0 || lines < 1)
    return INVALID_COST;
  double min = (d + 1) * p->r_i + 2.0 * d * p->r_l; /* T_fw,min */
  double max = p->r_i;                               /* T_fw,max, first R_I */
  for (int i = 0; i < d; ++i) {
    if (k[i] < 1)
      return INVALID_COST;
    const double tc = ompext_model_tc(p, k[i]);
    const double data = tc + p->o * (lines - 1);
    const ompext_model_cost_t nb = ompext_model_notify_back(p, k[i] + 1);
    min += data + nb.min;
    max += 2.0 * (p->r_r + tc) + data + nb.max;
  }
  return cost(min, max);
}

/* Large broadcast, pipelined, Eq. 4.8 (min) and Eq. 4.9 (max):
     T = T_init + T_1st + T_rest + T_fin
     min  T_init = R_I + 2R_L
          T_1st  = 2R_L + T_C(n-1) + T_{N_cl}
          T_rest = (P-1) * (R_R + R_L + T_{N_cl})
          T_fin  = 2R_R + R_L
     max  T_init = R_I + 2(R_R + T_C(n-1)) + R_R
          T_1st  = 2R_R + T_C(n-1) + T_{N_cl}
          T_rest = (P-1) * (2R_R + T_{N_cl})
          T_fin  = 2R_R + R_L
   with P packets of N_cl lines, T_{N_cl} by Eq. 3.1.  The paper fixes
   P = n-1 (T_rest has the factor n_th - 2) and N_cl = N/(n-1); a free chunk
   size (P = ceil(N/N_cl) >= n-1 stages, each thread copying one packet per
   stage from a distinct source) is this file's generalisation. */
ompext_model_cost_t ompext_model_bcast_pipelined(
    const ompext_model_params_t *p, int n, double packets,
    double chunk_lines) {
  if (n < 2 || packets < 1 || !(chunk_lines > 0))
    return INVALID_COST;
  const double tc = ompext_model_tc(p, n - 1);
  const double tn = ompext_model_tn(p, chunk_lines);
  const double init_min = p->r_i + 2 * p->r_l;
  const double first_min = 2 * p->r_l + tc + tn;
  const double rest_min = (packets - 1) * (p->r_r + p->r_l + tn);
  const double fin = 2 * p->r_r + p->r_l;
  const double init_max = p->r_i + 2 * (p->r_r + tc) + p->r_r;
  const double first_max = 2 * p->r_r + tc + tn;
  const double rest_max = (packets - 1) * (2 * p->r_r + tn);
  return cost(init_min + first_min + rest_min + fin,
              init_max + first_max + rest_max + fin);
}

/* Large broadcast, flat tree, Eq. 4.10:
     T = T_notif + T_copy,  T_copy = b + c*(n-2) + o*N
     min  T_notif = R_I + 3R_L + R_R + T_C(n-1) + (n-1)*R_R
     max  T_notif = R_I + R_L + 3R_R + 2*T_C(n-1) + 2(n-1)*R_R */
ompext_model_cost_t ompext_model_bcast_flat(const ompext_model_params_t *p,
                                            int n, double lines) {
  if (n < 2 || lines < 1)
    return INVALID_COST;
  const double copy = p->b + p->c * (n - 2) + p->o * lines;
  const double tc = ompext_model_tc(p, n - 1);
  const double notif_min =
      p->r_i + 3 * p->r_l + p->r_r + tc + (n - 1) * p->r_r;
  const double notif_max =
      p->r_i + p->r_l + 3 * p->r_r + 2 * tc + 2.0 * (n - 1) * p->r_r;
  return cost(notif_min + copy, notif_max + copy);
}

/* ------------------------------------------------------------------------ */
/* Reductions                                                               */
/* ------------------------------------------------------------------------ */

/* Small reduction tree, Eq. 4.13 (min) and Eq. 4.14 (max), Table 4.1, B.3:
     min  sum_i [R_I + T_C(k_i) + (1+k_i)*R_R + R_L + T_{k_i}] + R_R
     max  sum_i [R_I + 2*T_C(k_i) + 2(1+k_i)*R_R + R_L + T_{k_i}] + R_R
   (parent sets its flag R_I; the k_i children read it under contention and
   write their buffers; acknowledgements; the combine of the k_i buffers is
   the multi-line copy T_{k_i}, Eq. 3.1 with N = k_i).

   Extension (not in the paper): with N > 1 lines per buffer the combine of
   level i copies k_i*N lines, T_{k_i*N}, and the root then folds its N
   lines into the shared variable at the multi-line slope, o*(N-1); N = 1
   is the paper's equation. */
ompext_model_cost_t ompext_model_reduce_tree_lines(
    const ompext_model_params_t *p, int d, const int *k, double lines) {
  if (d < 0 || lines < 1)
    return INVALID_COST;
  double min = p->r_r + p->o * (lines - 1), max = min;
  for (int i = 0; i < d; ++i) {
    if (k[i] < 1)
      return INVALID_COST;
    const double tc = ompext_model_tc(p, k[i]);
    const double tk = ompext_model_tn(p, k[i] * lines);
    min += p->r_i + tc + (1.0 + k[i]) * p->r_r + p->r_l + tk;
    max += p->r_i + 2 * tc + 2.0 * (1.0 + k[i]) * p->r_r + p->r_l + tk;
  }
  return cost(min, max);
}

ompext_model_cost_t ompext_model_reduce_tree(const ompext_model_params_t *p,
                                             int d, const int *k) {
  return ompext_model_reduce_tree_lines(p, d, k, 1);
}

/* Atomic reduction into shared lines (not a model of the paper; derived
   from its primitives).  Sec. 4.3 describes it as the first approach: the
   n-1 other threads combine into a common location one after another.  For
   one item the line hand-off is the notification backwards T_nb(n) (Eq.
   4.1/4.2: one line written by n-1 threads, read by the root at the end),
   and each combine applies the operation to the line in the own cache
   (R_L, as the paper charges the reduction step):
     min/max  T_nb(n) + (n-1)*R_L
   An array reduction does one atomic per item (as clang emits it), and the
   n threads sweep the items in the same order at the same time, so the
   line they share moves again for each further item:
     min  T_nb,min(n) + (I-1)*(n-1)*R_R + (n-1)*I*R_L
     max  I*T_nb,max(n) + (n-1)*I*R_L       (every item a full hand-off)
   with I items; I = 1 is the one-item cost above.  Measured at 2 threads
   on 2 cores (syncbench, one region per reduction), 64 items took about
   half a line move per item on one machine (R_R 79 ns: 2.2 us) and about a
   tenth on another (R_R 125 ns: 0.66 us); pricing one move per line
   instead would have sent the first machine's 512 B arrays to atomics,
   which took 3.3x the lock's time there (stock's atomics against ext's
   lock, bench/results/intel-xeon-2c). */
ompext_model_cost_t ompext_model_reduce_atomic_lines(
    const ompext_model_params_t *p, int n, double lines) {
  if (n < 2 || lines < 1)
    return INVALID_COST;
  const double items = ompext_model_reduce_items(p, lines);
  const ompext_model_cost_t nb = ompext_model_notify_back(p, n);
  const double combine = (n - 1) * items * p->r_l;
  return cost(nb.min + (items - 1) * (n - 1) * p->r_r + combine,
              items * nb.max + combine);
}

ompext_model_cost_t ompext_model_reduce_atomic(const ompext_model_params_t *p,
                                               int n) {
  return ompext_model_reduce_atomic_lines(p, n, 1);
}

/* Reduction under one lock, libomp's critical method (not in the paper;
   derived).  The n threads take the lock one after another.  The lock is a
   shared structure, so, as the paper assumes of every shared structure at
   the start of an algorithm (Sec. 4), the first thread reads its line from
   memory (R_I), as the first writer of the atomic method's line does in
   T_nb; each later one fetches it from the previous holder (R_R).  Each
   copies the N shared lines while combining (T_N, Eq. 3.1) and releases
   the lock in its own cache (R_L).  In the worst case every hand-off of the
   lock is contended by all n threads (T_C(n), Eq. 3.2):
     min  R_I + (n-1)*R_R + n * (T_N + R_L)
     max  R_I + (n-1)*R_R + n * (T_C(n) + T_N)
   Charging the first fetch R_R instead made the lock look cheaper than
   one atomic per thread wherever R_I is several times R_R (two cores
   sharing an L3, R_R 28 ns and R_I 139 ns), where at 2 threads the lock
   took about 15 % longer than atomics for one scalar. */
ompext_model_cost_t ompext_model_reduce_critical(
    const ompext_model_params_t *p, int n, double lines) {
  if (n < 2 || lines < 1)
    return INVALID_COST;
  const double tn = ompext_model_tn(p, lines);
  const double fetches = p->r_i + (n - 1) * p->r_r;
  return cost(fetches + n * (tn + p->r_l),
              fetches + n * (ompext_model_tc(p, n) + tn));
}
