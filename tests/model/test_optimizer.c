/*
 * The optimizer against brute force on random parameter sets (fixed seed).
 *
 * For every algorithm and team size the brute force evaluates every
 * configuration in the search space (no pruning, no skipped chunk sizes)
 * and picks the best with its own implementation of the documented order:
 * the criterion's cost, then the other bound (both equal within a relative
 * 1e-9), then the structure (smaller m / k / chunk; fewer levels, then the
 * lexicographically smaller k_1, k_2, ...), then the algorithm order.
 *
 * Trees are checked twice: against every non-increasing fan-out sequence
 * (the optimizer's space: the choice must be identical), and, for small
 * teams and parameter sets where no level can cost less than nothing,
 * against every sequence in any order (the optimal cost must be the same:
 * restricting to non-increasing fan-outs loses nothing).
 *
 * usage: test_optimizer [--seed S] [--sets N] [--max-n N]
 */
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures, checks;

/* xorshift64*: deterministic across platforms. */
static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;
static double urand(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  unsigned long long x = rng_state * 2685821657736338717ull;
  return (double)(x >> 11) / 9007199254740992.0;
}
static double uniform(double lo, double hi) { return lo + (hi - lo) * urand(); }

static int eq(double a, double b) {
  double s = fmax(fmax(fabs(a), fabs(b)), 1.0);
  return fabs(a - b) <= 1e-9 * s;
}

/* Brute-force order (independent of ompext_model_compare). */
static int better(const ompext_model_options_t *o,
                  const ompext_model_choice_t *a,
                  const ompext_model_choice_t *b) {
  double ca = o->criterion ? a->cost.max : a->cost.min;
  double cb = o->criterion ? b->cost.max : b->cost.min;
  if (!eq(ca, cb))
    return ca < cb;
  double oa = o->criterion ? a->cost.min : a->cost.max;
  double ob = o->criterion ? b->cost.min : b->cost.max;
  if (!eq(oa, ob))
    return oa < ob;
  if (a->alg != b->alg)
    return a->alg < b->alg;
  switch (a->alg) {
  case OMPEXT_MODEL_DISSEMINATION:
    return a->m < b->m;
  case OMPEXT_MODEL_BARRIER_TREE:
  case OMPEXT_MODEL_TOURNAMENT:
    return a->k < b->k;
  case OMPEXT_MODEL_BCAST_PIPELINED:
    return a->chunk_lines < b->chunk_lines;
  case OMPEXT_MODEL_BCAST_TREE:
  case OMPEXT_MODEL_REDUCE_TREE:
    if (a->depth != b->depth)
      return a->depth < b->depth;
    for (int i = 0; i < a->depth; ++i)
      if (a->fanout[i] != b->fanout[i])
        return a->fanout[i] < b->fanout[i];
    return 0;
  default:
    return 0;
  }
}

static const ompext_model_params_t *P;
static const ompext_model_options_t *O;

static void offer(ompext_model_choice_t *cand, ompext_model_choice_t *best,
                  int *have) {
  if (ompext_model_evaluate(P, O, cand) != 0)
    return;
  if (!*have || better(O, cand, best)) {
    *best = *cand;
    *have = 1;
  }
}

/* Every sequence of fan-outs in [1, n-1] (non-increasing only if `sorted`)
   whose last level is needed; evaluate() checks reach and validity. */
static void trees(ompext_model_choice_t *c, int depth, long covered,
                  long level, int kmax, int sorted, ompext_model_choice_t *best,
                  int *have) {
  const int n = c->n;
  for (int k = 1; k <= (sorted ? kmax : n - 1); ++k) {
    c->fanout[depth] = k;
    long next_level = level * k > n ? n : level * k;
    long next = covered + next_level;
    if (next >= n) {
      c->depth = depth + 1;
      offer(c, best, have);
    } else if (depth + 1 < OMPEXT_MODEL_MAX_LEVELS) {
      trees(c, depth + 1, next, next_level, k, sorted, best, have);
    }
  }
}

static int alg_is_copyprivate(int alg) {
  return ompext_model_alg_op((ompext_model_alg_t)alg) ==
         OMPEXT_MODEL_OP_COPYPRIVATE;
}

static int brute(ompext_model_alg_t alg, int n, long lines, int sorted,
                 ompext_model_choice_t *best) {
  ompext_model_choice_t c;
  int have = 0;
  memset(&c, 0, sizeof(c));
  c.alg = alg;
  c.n = n;
  c.lines = lines;
  switch (alg) {
  case OMPEXT_MODEL_DISSEMINATION:
    for (c.m = 1; c.m <= n - 1; ++c.m)
      offer(&c, best, &have);
    break;
  case OMPEXT_MODEL_BARRIER_TREE:
    for (c.k = 2; c.k <= (n - 1 > 2 ? n - 1 : 2); ++c.k)
      offer(&c, best, &have);
    break;
  case OMPEXT_MODEL_TOURNAMENT:
    for (c.k = 0; c.k <= n - 1; ++c.k)
      if (c.k != 1)
        offer(&c, best, &have);
    break;
  case OMPEXT_MODEL_BCAST_PIPELINED:
  case OMPEXT_MODEL_COPYPRIVATE_PIPELINED:
    for (c.chunk_lines = 1; c.chunk_lines <= lines; ++c.chunk_lines)
      offer(&c, best, &have);
    break;
  case OMPEXT_MODEL_BCAST_TREE:
  case OMPEXT_MODEL_REDUCE_TREE:
  case OMPEXT_MODEL_COPYPRIVATE_TREE:
    trees(&c, 0, 1, 1, n - 1, sorted, best, &have);
    break;
  case OMPEXT_MODEL_FORKJOIN_TREE: {
    /* The plan's rule: the tree barrier's best k, not a search of its
       own. */
    ompext_model_choice_t tree;
    if (brute(OMPEXT_MODEL_BARRIER_TREE, n, 1, sorted, &tree) != 0)
      return -1;
    c.k = tree.k;
    offer(&c, best, &have);
    break;
  }
  default:
    offer(&c, best, &have);
    break;
  }
  return have ? 0 : -1;
}

static int same_config(const ompext_model_choice_t *a,
                       const ompext_model_choice_t *b) {
  if (a->alg != b->alg)
    return 0;
  switch (a->alg) {
  case OMPEXT_MODEL_DISSEMINATION:
    return a->m == b->m;
  case OMPEXT_MODEL_BARRIER_TREE:
  case OMPEXT_MODEL_TOURNAMENT:
  case OMPEXT_MODEL_FORKJOIN_TREE:
    return a->k == b->k;
  case OMPEXT_MODEL_BCAST_PIPELINED:
  case OMPEXT_MODEL_COPYPRIVATE_PIPELINED:
    return a->chunk_lines == b->chunk_lines;
  case OMPEXT_MODEL_BCAST_TREE:
  case OMPEXT_MODEL_REDUCE_TREE:
  case OMPEXT_MODEL_COPYPRIVATE_TREE:
    if (a->depth != b->depth)
      return 0;
    for (int i = 0; i < a->depth; ++i)
      if (a->fanout[i] != b->fanout[i])
        return 0;
    return 1;
  default:
    return 1;
  }
}

static void describe(const ompext_model_choice_t *c, char *buf, size_t cap) {
  char cfg[256];
  ompext_model_format_config(P, c, cfg, sizeof(cfg));
  snprintf(buf, cap, "%s %s min %.6f max %.6f", ompext_model_alg_name(c->alg),
           cfg, c->cost.min, c->cost.max);
}

static void fail(const char *what, int set, int n, long lines,
                 const ompext_model_choice_t *got,
                 const ompext_model_choice_t *want) {
  char g[512], w[512];
  describe(got, g, sizeof(g));
  describe(want, w, sizeof(w));
  fprintf(stderr,
          "FAIL %s: set %d n=%d lines=%ld criterion %s rounds %s\n  optimizer:"
          " %s\n  brute:     %s\n",
          what, set, n, lines, O->criterion ? "max" : "min",
          O->rounds ? "paper" : "algorithm", g, w);
  ++failures;
}

/* Does every tree level cost >= 0 (so any-order trees are comparable)? */
static int levels_nonnegative(ompext_model_alg_t alg, int n, long lines) {
  for (int k = 1; k <= n - 1; ++k) {
    int kk[1] = {k};
    ompext_model_cost_t c0, c1;
    if (alg == OMPEXT_MODEL_BCAST_TREE) {
      c0 = ompext_model_bcast_tree(P, (double)lines, 0, kk);
      c1 = ompext_model_bcast_tree(P, (double)lines, 1, kk);
    } else {
      c0 = ompext_model_reduce_tree(P, 0, kk);
      c1 = ompext_model_reduce_tree(P, 1, kk);
    }
    if (c1.min < c0.min || c1.max < c0.max)
      return 0;
  }
  return 1;
}

static void random_params(ompext_model_params_t *p, int set) {
  ompext_model_params_builtin("default", p);
  snprintf(p->name, sizeof(p->name), "random-%d", set);
  p->r_l = uniform(0.5, 20);
  p->r_r = uniform(5, 400);
  p->r_i = uniform(20, 600);
  p->b = uniform(0, 600);
  p->c = uniform(0, 120);
  p->o = uniform(0, 150);
  p->q = uniform(0, 2500);
  if (set % 4 == 3) {
    /* Occasionally the shapes that make levels cheap or negative: a large
       a (Eq. 3.3), p above q + o (T_1 < 0), R_R tiny. */
    p->a = uniform(0, 2000);
    p->p = uniform(0, 4000);
    p->r_r = uniform(0.1, 5);
  } else {
    p->a = urand() < 0.5 ? 0 : uniform(0, p->b);
    p->p = uniform(0, p->q);
  }
}

int main(int argc, char **argv) {
  int sets = 60, max_n = 30;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--seed") == 0)
      rng_state = strtoull(argv[i + 1], NULL, 0) | 1;
    else if (strcmp(argv[i], "--sets") == 0)
      sets = atoi(argv[i + 1]);
    else if (strcmp(argv[i], "--max-n") == 0)
      max_n = atoi(argv[i + 1]);
  }
  static const long line_choices[] = {1, 2, 3, 7, 40, 130};
  for (int set = 0; set < sets; ++set) {
    ompext_model_params_t params;
    random_params(&params, set);
    P = &params;
    for (int crit = 0; crit < 2; ++crit) {
      for (int rounds = 0; rounds < 2; ++rounds) {
        ompext_model_options_t opts;
        ompext_model_options_default(&opts);
        opts.criterion = crit ? OMPEXT_MODEL_CRITERION_MAX
                              : OMPEXT_MODEL_CRITERION_MIN;
        opts.rounds = rounds ? OMPEXT_MODEL_ROUNDS_PAPER
                             : OMPEXT_MODEL_ROUNDS_ALGORITHM;
        O = &opts;
        for (int n = 2; n <= max_n; ++n) {
          /* Per algorithm. */
          for (int alg = 0; alg < OMPEXT_MODEL_ALG_COUNT; ++alg) {
            if (rounds && alg != OMPEXT_MODEL_DISSEMINATION)
              continue; /* rounds only matter there */
            if (alg_is_copyprivate(alg) && n > 12)
              continue; /* each brute-force tree evaluates the barrier */
            const ompext_model_op_t alg_op =
                ompext_model_alg_op((ompext_model_alg_t)alg);
            const int is_bcast = alg_op == OMPEXT_MODEL_OP_BCAST ||
                                 alg_op == OMPEXT_MODEL_OP_COPYPRIVATE;
            const int nlines = is_bcast ? 6 : 1;
            for (int li = 0; li < nlines; ++li) {
              const long lines = is_bcast ? line_choices[li] : 1;
              ompext_model_choice_t got, want;
              int rg = ompext_model_best_config(P, O, (ompext_model_alg_t)alg,
                                                n, lines, &got);
              int rw = brute((ompext_model_alg_t)alg, n, lines, 1, &want);
              ++checks;
              if (rg != rw) {
                fprintf(stderr, "FAIL set %d n=%d %s: optimizer %d brute %d\n",
                        set, n, ompext_model_alg_name((ompext_model_alg_t)alg),
                        rg, rw);
                ++failures;
                continue;
              }
              if (rg)
                continue;
              if (!same_config(&got, &want) || !eq(got.cost.min, want.cost.min) ||
                  !eq(got.cost.max, want.cost.max))
                fail("best configuration", set, n, lines, &got, &want);
              /* Any-order trees: same optimal cost. */
              if ((alg == OMPEXT_MODEL_BCAST_TREE ||
                   alg == OMPEXT_MODEL_REDUCE_TREE) &&
                  n <= 12 && levels_nonnegative((ompext_model_alg_t)alg, n,
                                                lines)) {
                ompext_model_choice_t any;
                ++checks;
                if (brute((ompext_model_alg_t)alg, n, lines, 0, &any) != 0 ||
                    !eq(ompext_model_criterion_value(O, any.cost),
                        ompext_model_criterion_value(O, got.cost)))
                  fail("any-order trees", set, n, lines, &got, &any);
              }
            }
          }
          if (rounds)
            continue;
          /* Per op: the best algorithm. */
          for (int op = 0; op < OMPEXT_MODEL_OP_COUNT; ++op) {
            const long lines = op == OMPEXT_MODEL_OP_BCAST ||
                                       op == OMPEXT_MODEL_OP_COPYPRIVATE
                                   ? 7
                                   : 1;
            ompext_model_alg_t algs[OMPEXT_MODEL_ALG_COUNT];
            int count = ompext_model_op_algs((ompext_model_op_t)op, algs);
            ompext_model_choice_t want, cand, got;
            int have = 0;
            for (int a = 0; a < count; ++a)
              if (brute(algs[a], n, lines, 1, &cand) == 0 &&
                  (!have || better(O, &cand, &want))) {
                want = cand;
                have = 1;
              }
            ++checks;
            if (ompext_model_best(P, O, (ompext_model_op_t)op, n, lines,
                                  &got) != 0 ||
                !have || !same_config(&got, &want))
              fail("best algorithm", set, n, lines, &got, &want);
          }
        }
      }
    }
  }
  /* The built-in sets, larger teams, min and max: trees vs sorted brute. */
  for (int b = 0; ompext_model_builtin_names[b]; ++b) {
    ompext_model_params_t params;
    ompext_model_params_builtin(ompext_model_builtin_names[b], &params);
    P = &params;
    for (int crit = 0; crit < 2; ++crit) {
      ompext_model_options_t opts;
      ompext_model_options_default(&opts);
      opts.criterion = crit;
      O = &opts;
      for (int n = 2; n <= 64; ++n) {
        const ompext_model_alg_t tree_algs[] = {OMPEXT_MODEL_BCAST_TREE,
                                                OMPEXT_MODEL_REDUCE_TREE};
        for (int t = 0; t < 2; ++t) {
          ompext_model_choice_t got, want;
          ++checks;
          if (ompext_model_best_config(P, O, tree_algs[t], n, 1, &got) != 0 ||
              brute(tree_algs[t], n, 1, 1, &want) != 0 ||
              !same_config(&got, &want))
            fail("built-in set tree", b, n, 1, &got, &want);
        }
      }
    }
  }
  /* The search bounds. */
  {
    ompext_model_params_t params;
    ompext_model_params_builtin("xeon-phi-5110p", &params);
    ompext_model_options_t opts;
    ompext_model_options_default(&opts);
    ompext_model_choice_t c;
    opts.max_depth = 1; /* one level: the flat tree k = n-1 */
    ++checks;
    if (ompext_model_best_config(&params, &opts, OMPEXT_MODEL_BCAST_TREE, 60,
                                 1, &c) != 0 ||
        c.depth != 1 || c.fanout[0] != 59) {
      fprintf(stderr, "FAIL max_depth 1: depth %d k_1 %d\n", c.depth,
              c.fanout[0]);
      ++failures;
    }
    opts.max_depth = 0;
    opts.max_k = 3; /* fan-outs <= 3: 1+3+9+27 = 40 < 60 -> 4 levels */
    ++checks;
    if (ompext_model_best_config(&params, &opts, OMPEXT_MODEL_REDUCE_TREE, 60,
                                 1, &c) != 0 ||
        c.depth < 4 || c.fanout[0] > 3) {
      fprintf(stderr, "FAIL max_k 3: depth %d k_1 %d\n", c.depth,
              c.fanout[0]);
      ++failures;
    }
    opts.max_k = 0;
    opts.max_m = 2; /* paper rounds would pick m = 4 at 60 threads */
    opts.rounds = OMPEXT_MODEL_ROUNDS_PAPER;
    ++checks;
    if (ompext_model_best_config(&params, &opts, OMPEXT_MODEL_DISSEMINATION,
                                 60, 1, &c) != 0 ||
        c.m != 2 || c.rounds != 6) {
      fprintf(stderr, "FAIL max_m 2: m %d rounds %d\n", c.m, c.rounds);
      ++failures;
    }
  }
  if (failures) {
    fprintf(stderr, "%d of %d checks failed\n", failures, checks);
    return 1;
  }
  printf("ok: %d checks\n", checks);
  return 0;
}
