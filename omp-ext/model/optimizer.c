/*
 * The optimizer: per team size n (and message size for broadcasts), the best
 * parameters of every algorithm and the best algorithm (see model.h).
 *
 * Criterion.  The paper optimises the best case: Sec. 4.4 says its
 * parameters come from minimising the min (best-case) models, the max ones
 * giving similar results, and Appendix B lists the parameters of the min
 * equations.  So the default criterion is the min cost; the max cost is an
 * option.
 *
 * Search spaces (bounded, and searched exhaustively within the bounds):
 *   dissemination   m in [1, min(max_m, n-1)]; with paper rounds m = 1 is
 *                   only defined for n = 2 (see cost.c)
 *   barrier tree    k in [2, max(2, min(max_k, n-1))]
 *   tournament      k in {0} u [2, min(max_k, n-1)]  (0: tournament release)
 *   bcast/reduce    d in [1, max_depth], k_1 >= k_2 >= ... >= k_d >= 1,
 *   trees           k_i <= min(max_k, n-1), the tree reaches n threads
 *                   (1 + sum_i prod_{j<=i} k_j >= n, Eq. 4.4) and its last
 *                   level is needed (the first d-1 levels reach fewer than n)
 *   pipelined       chunk sizes N_cl in lines with P = ceil(N/N_cl) >= n-1
 *                   packets (the paper's premise: every receiving thread
 *                   copies a different packet in each stage)
 *   copyprivate     the broadcast of the same name, then the team's best
 *                   barrier (the plugin replaces libomp's first barrier by
 *                   the broadcast and runs its own plain barrier as the
 *                   second): the broadcast's search plus a constant
 *   fork/join tree  no search of its own: the tree barrier's best k, as the
 *                   plugin's plan takes it (plan.c)
 *
 * Why non-increasing fan-outs lose nothing: both tree costs are a constant
 * plus a sum of per-level terms, h(k_1) + ... + h(k_d), so every ordering
 * of the same fan-outs costs the same, and the non-increasing order reaches
 * the most threads.  (Eq. 4.7 prints the constraint as k_i <= k_j for
 * i < j, which contradicts the paper's own Tables B.1 and B.3 and its
 * remark that fan-outs decrease down the tree; the order does not change a
 * cost, only the reach, so the non-increasing order is used.)
 *
 * Pruning: a branch is cut when even one more level of the cheapest kind
 * cannot bring it below the best cost found (only when no level can have a
 * negative cost), or when no non-increasing completion within max_depth can
 * reach n threads.  Pipelined chunks: for a given packet count P the
 * smallest chunk giving P is the cheapest (T_N grows with N for o, p >= 0),
 * so only those O(sqrt(N)) chunks are evaluated.
 *
 * Ties (deterministic): costs within a relative 1e-9 are equal.  Between two
 * configurations the order is:
 *   1. the criterion's cost (min by default), lower first;
 *   2. the other bound, lower first;
 *   3. the structure: smaller m; smaller k (tournament: 0 first); fewer tree
 *      levels, then the lexicographically smaller (k_1, k_2, ...), i.e. the
 *      narrower top (so k=3,2 beats k=4,1); smaller chunk;
 *   4. between algorithms of one op, the order of ompext_model_op_algs:
 *      barrier: dissemination, tree, tournament, centralized;
 *      bcast and copyprivate: tree, flat, pipelined; reduce: tree,
 *      atomic, critical.
 */
#include "errorf.h"
#include "model.h"

#include <math.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define TIE_REL 1e-9

const char *const ompext_model_op_names[] = {
    "barrier", "bcast", "reduce", "copyprivate", "fork_join", NULL};

static const struct {
  const char *name;
  ompext_model_op_t op;
} alg_info[OMPEXT_MODEL_ALG_COUNT] = {
    [OMPEXT_MODEL_DISSEMINATION] = {"dissemination", OMPEXT_MODEL_OP_BARRIER},
    [OMPEXT_MODEL_BARRIER_TREE] = {"tree", OMPEXT_MODEL_OP_BARRIER},
    [OMPEXT_MODEL_TOURNAMENT] = {"tournament", OMPEXT_MODEL_OP_BARRIER},
    [OMPEXT_MODEL_CENTRALIZED] = {"centralized", OMPEXT_MODEL_OP_BARRIER},
    [OMPEXT_MODEL_BCAST_TREE] = {"tree", OMPEXT_MODEL_OP_BCAST},
    [OMPEXT_MODEL_BCAST_FLAT] = {"flat", OMPEXT_MODEL_OP_BCAST},
    [OMPEXT_MODEL_BCAST_PIPELINED] = {"pipelined", OMPEXT_MODEL_OP_BCAST},
    [OMPEXT_MODEL_REDUCE_TREE] = {"tree", OMPEXT_MODEL_OP_REDUCE},
    [OMPEXT_MODEL_REDUCE_ATOMIC] = {"atomic", OMPEXT_MODEL_OP_REDUCE},
    [OMPEXT_MODEL_REDUCE_CRITICAL] = {"critical", OMPEXT_MODEL_OP_REDUCE},
    [OMPEXT_MODEL_COPYPRIVATE_TREE] = {"tree", OMPEXT_MODEL_OP_COPYPRIVATE},
    [OMPEXT_MODEL_COPYPRIVATE_FLAT] = {"flat", OMPEXT_MODEL_OP_COPYPRIVATE},
    [OMPEXT_MODEL_COPYPRIVATE_PIPELINED] = {"pipelined",
                                            OMPEXT_MODEL_OP_COPYPRIVATE},
    [OMPEXT_MODEL_FORKJOIN_TREE] = {"tree", OMPEXT_MODEL_OP_FORK_JOIN},
};

/* The broadcast a copyprivate algorithm runs (the algorithm itself if it is
   not one). */
static ompext_model_alg_t bcast_of(ompext_model_alg_t alg) {
  switch (alg) {
  case OMPEXT_MODEL_COPYPRIVATE_TREE:
    return OMPEXT_MODEL_BCAST_TREE;
  case OMPEXT_MODEL_COPYPRIVATE_FLAT:
    return OMPEXT_MODEL_BCAST_FLAT;
  case OMPEXT_MODEL_COPYPRIVATE_PIPELINED:
    return OMPEXT_MODEL_BCAST_PIPELINED;
  default:
    return alg;
  }
}

static int is_copyprivate(ompext_model_alg_t alg) {
  return bcast_of(alg) != alg;
}

const char *ompext_model_alg_name(ompext_model_alg_t alg) {
  return (unsigned)alg < OMPEXT_MODEL_ALG_COUNT ? alg_info[alg].name : "?";
}

ompext_model_op_t ompext_model_alg_op(ompext_model_alg_t alg) {
  return alg_info[alg].op;
}

int ompext_model_op_algs(ompext_model_op_t op, ompext_model_alg_t *out) {
  int count = 0;
  for (int a = 0; a < OMPEXT_MODEL_ALG_COUNT; ++a)
    if (alg_info[a].op == op)
      out[count++] = (ompext_model_alg_t)a;
  return count;
}

int ompext_model_alg_lookup(ompext_model_op_t op, const char *name,
                            ompext_model_alg_t *out) {
  for (int a = 0; a < OMPEXT_MODEL_ALG_COUNT; ++a)
    if (alg_info[a].op == op && strcmp(alg_info[a].name, name) == 0) {
      *out = (ompext_model_alg_t)a;
      return 0;
    }
  return -1;
}

int ompext_model_op_lookup(const char *name, ompext_model_op_t *out) {
  for (int i = 0; ompext_model_op_names[i]; ++i)
    if (strcmp(ompext_model_op_names[i], name) == 0) {
      *out = (ompext_model_op_t)i;
      return 0;
    }
  return -1;
}

void ompext_model_options_default(ompext_model_options_t *o) {
  memset(o, 0, sizeof(*o));
  o->criterion = OMPEXT_MODEL_CRITERION_MIN;
  o->rounds = OMPEXT_MODEL_ROUNDS_ALGORITHM;
}

double ompext_model_criterion_value(const ompext_model_options_t *o,
                                    ompext_model_cost_t c) {
  return o->criterion == OMPEXT_MODEL_CRITERION_MAX ? c.max : c.min;
}

static double other_value(const ompext_model_options_t *o,
                          ompext_model_cost_t c) {
  return o->criterion == OMPEXT_MODEL_CRITERION_MAX ? c.min : c.max;
}

/* -1, 0, 1 for a < b, a == b (relative 1e-9), a > b. */
static int cmp_cost(double a, double b) {
  double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
  if (scale < 1.0)
    scale = 1.0;
  if (fabs(a - b) <= TIE_REL * scale)
    return 0;
  return a < b ? -1 : 1;
}

static int cmp_int(long a, long b) { return (a > b) - (a < b); }

static int cmp_structure(const ompext_model_choice_t *a,
                         const ompext_model_choice_t *b) {
  switch (bcast_of(a->alg)) {
  case OMPEXT_MODEL_DISSEMINATION:
    return cmp_int(a->m, b->m);
  case OMPEXT_MODEL_BARRIER_TREE:
  case OMPEXT_MODEL_TOURNAMENT:
  case OMPEXT_MODEL_FORKJOIN_TREE:
    return cmp_int(a->k, b->k);
  case OMPEXT_MODEL_BCAST_TREE:
  case OMPEXT_MODEL_REDUCE_TREE: {
    int c = cmp_int(a->depth, b->depth);
    for (int i = 0; c == 0 && i < a->depth; ++i)
      c = cmp_int(a->fanout[i], b->fanout[i]);
    return c;
  }
  case OMPEXT_MODEL_BCAST_PIPELINED:
    return cmp_int(a->chunk_lines, b->chunk_lines);
  default:
    return 0;
  }
}

int ompext_model_compare(const ompext_model_options_t *o,
                         const ompext_model_choice_t *a,
                         const ompext_model_choice_t *b) {
  int c = cmp_cost(ompext_model_criterion_value(o, a->cost),
                   ompext_model_criterion_value(o, b->cost));
  if (c)
    return c;
  c = cmp_cost(other_value(o, a->cost), other_value(o, b->cost));
  if (c)
    return c;
  if (a->alg != b->alg)
    return cmp_int(a->alg, b->alg); /* enum order = ompext_model_op_algs */
  return cmp_structure(a, b);
}

static int tree_valid(int n, int maxk, int d, const int *k) {
  if (d < 1 || d > OMPEXT_MODEL_MAX_LEVELS)
    return 0;
  for (int i = 0; i < d; ++i)
    if (k[i] < 1 || k[i] > maxk)
      return 0;
  /* Reaches n, and the last level is needed. */
  return ompext_model_tree_coverage(d, k, n) >= n &&
         ompext_model_tree_coverage(d - 1, k, n) < n;
}

/* The barrier a copyprivate ends with: the team's best. */
static int closing_barrier(const ompext_model_params_t *p,
                           const ompext_model_options_t *o, int n,
                           ompext_model_cost_t *out) {
  ompext_model_choice_t b;
  if (ompext_model_best(p, o, OMPEXT_MODEL_OP_BARRIER, n, 1, &b) != 0)
    return -1;
  *out = b.cost;
  return 0;
}

/* A copyprivate choice from the broadcast's evaluated choice: the same
   configuration, the barrier's cost added. */
static int add_closing_barrier(const ompext_model_params_t *p,
                               const ompext_model_options_t *o,
                               ompext_model_alg_t alg,
                               ompext_model_choice_t *ch) {
  ompext_model_cost_t b;
  if (closing_barrier(p, o, ch->n, &b) != 0)
    return -1;
  ch->alg = alg;
  ch->cost.min += b.min;
  ch->cost.max += b.max;
  return 0;
}

int ompext_model_evaluate(const ompext_model_params_t *p,
                          const ompext_model_options_t *o,
                          ompext_model_choice_t *ch) {
  const int n = ch->n;
  ompext_model_cost_t c = {NAN, NAN};
  if (n < 2)
    return -1;
  if (is_copyprivate(ch->alg)) {
    const ompext_model_alg_t alg = ch->alg;
    ch->alg = bcast_of(alg);
    const int rc = ompext_model_evaluate(p, o, ch);
    if (rc != 0) {
      ch->alg = alg;
      return rc;
    }
    return add_closing_barrier(p, o, alg, ch);
  }
  /* Canonical form: no fan-outs below the tree's depth. */
  if (ch->depth >= 0 && ch->depth < OMPEXT_MODEL_MAX_LEVELS)
    memset(ch->fanout + ch->depth, 0,
           sizeof(ch->fanout[0]) * (size_t)(OMPEXT_MODEL_MAX_LEVELS - ch->depth));
  switch (ch->alg) {
  case OMPEXT_MODEL_DISSEMINATION:
    if (ch->m < 1 || ch->m > n - 1)
      return -1;
    ch->rounds = ompext_model_dissemination_rounds(n, ch->m, o->rounds);
    c = ompext_model_barrier_dissemination(p, n, ch->m, o->rounds);
    break;
  case OMPEXT_MODEL_BARRIER_TREE:
    if (ch->k > (n - 1 > 2 ? n - 1 : 2))
      return -1;
    c = ompext_model_barrier_tree(p, n, ch->k);
    break;
  case OMPEXT_MODEL_TOURNAMENT:
    if (ch->k > (n - 1 > 2 ? n - 1 : 2))
      return -1;
    c = ompext_model_barrier_tournament(p, n, ch->k);
    break;
  case OMPEXT_MODEL_CENTRALIZED:
    c = ompext_model_barrier_centralized(p, n);
    break;
  case OMPEXT_MODEL_BCAST_TREE:
    if (!tree_valid(n, n - 1, ch->depth, ch->fanout))
      return -1;
    c = ompext_model_bcast_tree(p, (double)ch->lines, ch->depth, ch->fanout);
    break;
  case OMPEXT_MODEL_BCAST_FLAT:
    c = ompext_model_bcast_flat(p, n, (double)ch->lines);
    break;
  case OMPEXT_MODEL_BCAST_PIPELINED:
    if (ch->chunk_lines < 1 || ch->lines < 1)
      return -1;
    ch->packets = (ch->lines + ch->chunk_lines - 1) / ch->chunk_lines;
    if (ch->packets < n - 1)
      return -1;
    c = ompext_model_bcast_pipelined(p, n, (double)ch->packets,
                                     (double)ch->chunk_lines);
    break;
  case OMPEXT_MODEL_REDUCE_TREE:
    if (!tree_valid(n, n - 1, ch->depth, ch->fanout))
      return -1;
    c = ompext_model_reduce_tree_lines(p, ch->depth, ch->fanout,
                                       (double)ch->lines);
    break;
  case OMPEXT_MODEL_REDUCE_ATOMIC:
    c = ompext_model_reduce_atomic_lines(p, n, (double)ch->lines);
    break;
  case OMPEXT_MODEL_REDUCE_CRITICAL:
    c = ompext_model_reduce_critical(p, n, (double)ch->lines);
    break;
  case OMPEXT_MODEL_FORKJOIN_TREE:
    if (ch->k < 1 || ch->k > (n - 1 > 2 ? n - 1 : 2))
      return -1;
    c = ompext_model_forkjoin_tree(p, n, ch->k);
    break;
  default:
    return -1;
  }
  if (isnan(c.min) || isnan(c.max))
    return -1;
  ch->cost = c;
  return 0;
}

static void choice_init(ompext_model_choice_t *ch, ompext_model_alg_t alg,
                        int n, long lines) {
  memset(ch, 0, sizeof(*ch));
  ch->alg = alg;
  ch->n = n;
  ch->lines = lines < 1 ? 1 : lines;
}

/* Keeps the better of *best and *cand; *have says whether best is set. */
static void consider(const ompext_model_params_t *p,
                     const ompext_model_options_t *o,
                     ompext_model_choice_t *cand, ompext_model_choice_t *best,
                     int *have) {
  if (ompext_model_evaluate(p, o, cand) != 0)
    return;
  if (!*have || ompext_model_compare(o, cand, best) < 0) {
    *best = *cand;
    *have = 1;
  }
}

/* ---- tree search -------------------------------------------------------- */

typedef struct tree_search {
  const ompext_model_params_t *p;
  const ompext_model_options_t *o;
  int n, maxk, maxdepth;
  int prune;        /* every level costs >= 0: cost bounds are valid */
  double hmin;      /* cheapest single level (criterion) */
  ompext_model_choice_t cand, best;
  int have;
} tree_search_t;

static double tree_value(tree_search_t *s, int d) {
  ompext_model_cost_t c =
      s->cand.alg == OMPEXT_MODEL_BCAST_TREE
          ? ompext_model_bcast_tree(s->p, (double)s->cand.lines, d,
                                    s->cand.fanout)
          : ompext_model_reduce_tree_lines(s->p, d, s->cand.fanout,
                                           (double)s->cand.lines);
  return ompext_model_criterion_value(s->o, c);
}

/* Can levels `from`..maxdepth-1, with fan-outs <= k, lift the coverage
   `covered` (current last level `level` threads wide) to n? */
static int can_reach(long n, long covered, long level, int k, int levels) {
  for (int i = 0; i < levels && covered < n; ++i) {
    level = level > n / k ? n : level * k;
    covered += level;
  }
  return covered >= n;
}

static void tree_dfs(tree_search_t *s, int depth, long covered, long level,
                     int kprev) {
  const long n = s->n;
  for (int k = kprev; k >= 1; --k) {
    if (!can_reach(n, covered, level, k, s->maxdepth - depth))
      break; /* smaller k reach even less */
    s->cand.fanout[depth] = k;
    const long next_level = level > n / k ? n : level * k;
    const long next_covered = covered + next_level;
    if (next_covered >= n) {
      s->cand.depth = depth + 1;
      consider(s->p, s->o, &s->cand, &s->best, &s->have);
      continue;
    }
    if (depth + 1 >= s->maxdepth)
      continue;
    if (s->prune && s->have) {
      /* Any completion adds at least one more level, costing >= hmin. */
      double bound = tree_value(s, depth + 1) + s->hmin;
      double best = ompext_model_criterion_value(s->o, s->best.cost);
      if (bound > best && cmp_cost(bound, best) > 0)
        continue;
    }
    tree_dfs(s, depth + 1, next_covered, next_level, k);
  }
}

static int best_tree(const ompext_model_params_t *p,
                     const ompext_model_options_t *o, ompext_model_alg_t alg,
                     int n, long lines, ompext_model_choice_t *out) {
  tree_search_t s;
  memset(&s, 0, sizeof(s));
  s.p = p;
  s.o = o;
  s.n = n;
  s.maxk = o->max_k > 0 && o->max_k < n - 1 ? o->max_k : n - 1;
  s.maxdepth = o->max_depth > 0 && o->max_depth < OMPEXT_MODEL_MAX_LEVELS
                   ? o->max_depth
                   : OMPEXT_MODEL_MAX_LEVELS;
  choice_init(&s.cand, alg, n, lines);
  /* Per-level costs h(k) = cost([k]) - cost([]). */
  const double base = tree_value(&s, 0);
  s.hmin = INFINITY;
  for (int k = 1; k <= s.maxk; ++k) {
    s.cand.fanout[0] = k;
    double h = tree_value(&s, 1) - base;
    if (h < s.hmin)
      s.hmin = h;
  }
  s.prune = s.hmin >= 0;
  tree_dfs(&s, 0, 1, 1, s.maxk);
  if (!s.have)
    return -1;
  *out = s.best;
  return 0;
}

/* ---- the other algorithms ----------------------------------------------- */

static int best_pipelined(const ompext_model_params_t *p,
                          const ompext_model_options_t *o, int n, long lines,
                          ompext_model_choice_t *out) {
  ompext_model_choice_t cand, best;
  int have = 0;
  choice_init(&cand, OMPEXT_MODEL_BCAST_PIPELINED, n, lines);
  const long N = cand.lines;
  for (long chunk = 1;;) {
    const long packets = (N + chunk - 1) / chunk;
    if (packets < n - 1)
      break;
    cand.chunk_lines = chunk;
    consider(p, o, &cand, &best, &have);
    if (packets == 1)
      break;
    chunk = (N + (packets - 1) - 1) / (packets - 1); /* next packet count */
  }
  if (!have)
    return -1;
  *out = best;
  return 0;
}

int ompext_model_best_config(const ompext_model_params_t *p,
                             const ompext_model_options_t *o,
                             ompext_model_alg_t alg, int n, long lines,
                             ompext_model_choice_t *out) {
  if (n < 2)
    return -1;
  if (is_copyprivate(alg)) {
    if (ompext_model_best_config(p, o, bcast_of(alg), n, lines, out) != 0)
      return -1;
    return add_closing_barrier(p, o, alg, out);
  }
  ompext_model_choice_t cand, best;
  int have = 0;
  choice_init(&cand, alg, n, lines);
  const int maxk = o->max_k > 0 && o->max_k < n - 1 ? o->max_k : n - 1;
  switch (alg) {
  case OMPEXT_MODEL_DISSEMINATION: {
    const int maxm = o->max_m > 0 && o->max_m < n - 1 ? o->max_m : n - 1;
    for (int m = 1; m <= maxm; ++m) {
      cand.m = m;
      consider(p, o, &cand, &best, &have);
    }
    break;
  }
  case OMPEXT_MODEL_BARRIER_TREE:
    for (int k = 2; k <= (maxk > 2 ? maxk : 2); ++k) {
      cand.k = k;
      consider(p, o, &cand, &best, &have);
    }
    break;
  case OMPEXT_MODEL_TOURNAMENT:
    cand.k = 0;
    consider(p, o, &cand, &best, &have);
    for (int k = 2; k <= maxk; ++k) {
      cand.k = k;
      consider(p, o, &cand, &best, &have);
    }
    break;
  case OMPEXT_MODEL_FORKJOIN_TREE: {
    ompext_model_choice_t tree;
    if (ompext_model_best_config(p, o, OMPEXT_MODEL_BARRIER_TREE, n, 1,
                                 &tree) != 0)
      return -1;
    cand.k = tree.k;
    consider(p, o, &cand, &best, &have);
    break;
  }
  case OMPEXT_MODEL_BCAST_TREE:
  case OMPEXT_MODEL_REDUCE_TREE:
    return best_tree(p, o, alg, n, lines, out);
  case OMPEXT_MODEL_BCAST_PIPELINED:
    return best_pipelined(p, o, n, lines, out);
  case OMPEXT_MODEL_CENTRALIZED:
  case OMPEXT_MODEL_BCAST_FLAT:
  case OMPEXT_MODEL_REDUCE_ATOMIC:
  case OMPEXT_MODEL_REDUCE_CRITICAL:
    consider(p, o, &cand, &best, &have);
    break;
  default:
    return -1;
  }
  if (!have)
    return -1;
  *out = best;
  return 0;
}

int ompext_model_best(const ompext_model_params_t *p,
                      const ompext_model_options_t *o, ompext_model_op_t op,
                      int n, long lines, ompext_model_choice_t *out) {
  ompext_model_alg_t algs[OMPEXT_MODEL_ALG_COUNT];
  const int count = ompext_model_op_algs(op, algs);
  ompext_model_choice_t cand, best;
  int have = 0;
  for (int i = 0; i < count; ++i) {
    if (ompext_model_best_config(p, o, algs[i], n, lines, &cand) != 0)
      continue;
    if (!have || ompext_model_compare(o, &cand, &best) < 0) {
      best = cand;
      have = 1;
    }
  }
  if (!have)
    return -1;
  *out = best;
  return 0;
}

/* ---- formatting and parsing -------------------------------------------- */

long ompext_model_lines_for_bytes(const ompext_model_params_t *p, long bytes) {
  const long line = (long)p->line_bytes;
  if (bytes < 1)
    return 1;
  return (bytes + line - 1) / line;
}

int ompext_model_format_config(const ompext_model_params_t *p,
                               const ompext_model_choice_t *c, char *buf,
                               size_t cap) {
  switch (bcast_of(c->alg)) {
  case OMPEXT_MODEL_DISSEMINATION:
    return snprintf(buf, cap, "m=%d", c->m);
  case OMPEXT_MODEL_BARRIER_TREE:
  case OMPEXT_MODEL_TOURNAMENT:
  case OMPEXT_MODEL_FORKJOIN_TREE:
    return snprintf(buf, cap, "k=%d", c->k);
  case OMPEXT_MODEL_BCAST_TREE:
  case OMPEXT_MODEL_REDUCE_TREE: {
    int used = snprintf(buf, cap, "k=");
    for (int i = 0; i < c->depth; ++i) {
      size_t at = (size_t)used < cap ? (size_t)used : cap;
      used += snprintf(buf + at, cap - at, "%s%d", i ? "," : "",
                       c->fanout[i]);
    }
    return used;
  }
  case OMPEXT_MODEL_BCAST_PIPELINED:
    return snprintf(buf, cap, "chunk=%ld",
                    c->chunk_lines * (long)p->line_bytes);
  default:
    return snprintf(buf, cap, "-");
  }
}

/* A whole number in [1, hi] at *s, up to a ',' or the end. */
static int parse_count(const char **s, long hi, long *out) {
  char *end;
  if (!(**s >= '0' && **s <= '9'))
    return -1;
  errno = 0;
  long v = strtol(*s, &end, 10);
  if (errno || v < 0 || v > hi || (*end && *end != ','))
    return -1;
  *s = end;
  *out = v;
  return 0;
}

int ompext_model_parse_config(const ompext_model_params_t *p, const char *text,
                              ompext_model_choice_t *ch, char *err,
                              size_t errcap) {
  const char *name = ompext_model_alg_name(ch->alg);
  switch (bcast_of(ch->alg)) {
  case OMPEXT_MODEL_CENTRALIZED:
  case OMPEXT_MODEL_BCAST_FLAT:
  case OMPEXT_MODEL_REDUCE_ATOMIC:
  case OMPEXT_MODEL_REDUCE_CRITICAL:
    if (strcmp(text, "-") != 0 && *text) {
      errorf(err, errcap, "%s takes no parameters (give '-')", name);
      return -1;
    }
    return 0;
  case OMPEXT_MODEL_DISSEMINATION: {
    const char *s = text;
    long m;
    if (strncmp(s, "m=", 2) != 0 || (s += 2, parse_count(&s, 1 << 20, &m)) ||
        *s || m < 1) {
      errorf(err, errcap, "dissemination parameters: expected m=M (M >= 1), "
                          "got '%s'", text);
      return -1;
    }
    ch->m = (int)m;
    return 0;
  }
  case OMPEXT_MODEL_BARRIER_TREE:
  case OMPEXT_MODEL_TOURNAMENT:
  case OMPEXT_MODEL_FORKJOIN_TREE: {
    const char *s = text;
    long k;
    if (strncmp(s, "k=", 2) != 0 || (s += 2, parse_count(&s, 1 << 20, &k)) ||
        *s) {
      errorf(err, errcap, "%s parameters: expected k=K, got '%s'", name, text);
      return -1;
    }
    ch->k = (int)k;
    return 0;
  }
  case OMPEXT_MODEL_BCAST_TREE:
  case OMPEXT_MODEL_REDUCE_TREE: {
    const char *s = text;
    if (strncmp(s, "k=", 2) != 0)
      goto bad_tree;
    s += 2;
    ch->depth = 0;
    for (;;) {
      long k;
      if (ch->depth >= OMPEXT_MODEL_MAX_LEVELS || parse_count(&s, 1 << 20, &k) ||
          k < 1)
        goto bad_tree;
      ch->fanout[ch->depth++] = (int)k;
      if (!*s)
        break;
      ++s; /* ',' */
    }
    return 0;
  bad_tree:
    errorf(err, errcap,
           "tree parameters: expected k=K1,K2,... (k_1 first, each >= 1, at "
           "most %d levels), got '%s'", OMPEXT_MODEL_MAX_LEVELS, text);
    return -1;
  }
  case OMPEXT_MODEL_BCAST_PIPELINED: {
    const char *s = text;
    long bytes;
    if (strncmp(s, "chunk=", 6) != 0 ||
        (s += 6, parse_count(&s, 1L << 40, &bytes)) || *s || bytes < 1) {
      errorf(err, errcap, "pipelined parameters: expected chunk=BYTES, got "
                          "'%s'", text);
      return -1;
    }
    ch->chunk_lines = ompext_model_lines_for_bytes(p, bytes);
    return 0;
  }
  default:
    errorf(err, errcap, "unknown algorithm");
    return -1;
  }
}
