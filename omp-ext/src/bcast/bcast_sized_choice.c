/*
 * Which sized broadcast runs: the cost model's best broadcast (model.h,
 * ompext_model_best over the tree, flat and pipelined broadcasts of
 * Ramos and Hoefler; the pipelined one is seed 003's chain of chunks) for
 * the team size and the message in lines, mapped onto the plugin's
 * algorithms:
 *   - a tree of one level whose root serves every thread is the flat
 *     broadcast (every receiver copies from the root);
 *   - another tree runs with its root's fan-out k_1 at every level
 *     (bcast_tree.c keeps one fan-out), at most OMPEXT_BCAST_SIZED_TREE_KMAX;
 *   - the pipelined broadcast takes the model's chunk (whole lines, at least
 *     OMPEXT_BCAST_SIZED_MIN_CHUNK bytes) and its chain, fan-out 1.
 * Pure: the same inputs give the same answer on every thread and in
 * ompext-model, which prints this choice for --op bcast.
 */
#include "bcast_sized_choice.h"

#include <stdio.h>
#include <string.h>

static const char *const alg_names[OMPEXT_BCAST_SIZED_ALGS] = {
    "auto", "flat", "tree", "pipelined", "staged"};

static int clamp_k(int k, int n) {
  const int most = n - 1 < OMPEXT_BCAST_SIZED_TREE_KMAX
                       ? n - 1
                       : OMPEXT_BCAST_SIZED_TREE_KMAX;
  return k < 1 ? 1 : k > most ? (most < 1 ? 1 : most) : k;
}

static size_t clamp_chunk(double chunk, double line, size_t bytes) {
  size_t c = chunk < OMPEXT_BCAST_SIZED_MIN_CHUNK
                 ? OMPEXT_BCAST_SIZED_MIN_CHUNK
                 : (size_t)chunk;
  const size_t l = line >= 1 ? (size_t)line : 64;
  c = (c + l - 1) / l * l;
  return bytes && c > bytes ? bytes : c;
}

void ompext_bcast_sized_choose(const ompext_model_params_t *p, int n,
                               size_t bytes, ompext_bcast_sized_alg_t forced,
                               ompext_bcast_sized_choice_t *out) {
  const double line = p->line_bytes >= 1 ? p->line_bytes : 64;
  const long lines = bytes ? (long)((bytes + (size_t)line - 1) / (size_t)line)
                           : 1;
  ompext_model_options_t o;
  ompext_model_options_default(&o);
  ompext_model_choice_t best;
  *out = (ompext_bcast_sized_choice_t){OMPEXT_BCAST_SIZED_FLAT, n - 1, 0};
  if (n < 2)
    return;
  int found = ompext_model_best(p, &o, OMPEXT_MODEL_OP_BCAST, n, lines,
                                &best) == 0;
  ompext_bcast_sized_alg_t alg = OMPEXT_BCAST_SIZED_FLAT;
  int k = n - 1;
  size_t chunk = 0;
  if (found && best.alg == OMPEXT_MODEL_BCAST_PIPELINED) {
    alg = OMPEXT_BCAST_SIZED_PIPELINED;
    k = 1;
    chunk = clamp_chunk((double)best.chunk_lines * line, line, bytes);
  } else if (found && best.alg == OMPEXT_MODEL_BCAST_TREE &&
             !(best.depth <= 1 && best.fanout[0] >= n - 1)) {
    alg = OMPEXT_BCAST_SIZED_TREE;
    k = clamp_k(best.fanout[0], n);
  }
  if (forced != OMPEXT_BCAST_SIZED_AUTO && forced != alg) {
    /* The forced algorithm with the model's best parameters for it. */
    alg = forced;
    if (alg == OMPEXT_BCAST_SIZED_FLAT) {
      k = n - 1;
      chunk = 0;
    } else if (alg == OMPEXT_BCAST_SIZED_TREE) {
      found = ompext_model_best_config(p, &o, OMPEXT_MODEL_BCAST_TREE, n,
                                       lines, &best) == 0;
      k = clamp_k(found ? best.fanout[0] : 2, n);
      chunk = 0;
    } else if (alg == OMPEXT_BCAST_SIZED_STAGED) {
      k = n - 1; /* the root notifies every receiver */
      chunk = OMPEXT_BCAST_SIZED_STAGE_BYTES;
    } else {
      found = ompext_model_best_config(p, &o, OMPEXT_MODEL_BCAST_PIPELINED, n,
                                       lines, &best) == 0;
      k = 1;
      /* Too few lines for n-1 stages: chunks of a line's multiple anyway. */
      chunk = clamp_chunk(found ? (double)best.chunk_lines * line : 0, line,
                          bytes);
    }
  }
  out->alg = alg;
  out->k = alg == OMPEXT_BCAST_SIZED_FLAT ? n - 1 : k;
  out->chunk = chunk;
}

int ompext_bcast_sized_describe(const ompext_bcast_sized_choice_t *c,
                                char *buf, size_t cap) {
  switch (c->alg) {
  case OMPEXT_BCAST_SIZED_TREE:
    return snprintf(buf, cap, "tree(k=%d)", c->k);
  case OMPEXT_BCAST_SIZED_PIPELINED:
    return snprintf(buf, cap, "pipelined(k=%d,chunk=%zu)", c->k, c->chunk);
  case OMPEXT_BCAST_SIZED_STAGED:
    return snprintf(buf, cap, "staged(2x%zu)", c->chunk);
  default:
    return snprintf(buf, cap, "flat");
  }
}

int ompext_bcast_sized_alg_lookup(const char *name,
                                  ompext_bcast_sized_alg_t *out) {
  for (int a = 0; name && a < OMPEXT_BCAST_SIZED_ALGS; ++a)
    if (strcmp(name, alg_names[a]) == 0) {
      *out = (ompext_bcast_sized_alg_t)a;
      return 0;
    }
  return -1;
}

void ompext_bcast_sized_print(FILE *f, const ompext_model_params_t *p, int lo,
                              int hi, long bytes) {
  for (int n = lo; n <= hi; ++n) {
    ompext_bcast_sized_choice_t c;
    char text[96];
    ompext_bcast_sized_choose(p, n, (size_t)bytes, OMPEXT_BCAST_SIZED_AUTO,
                              &c);
    ompext_bcast_sized_describe(&c, text, sizeof(text));
    fprintf(f, "# team of %d: ompext_bcast of %ld bytes: %s\n", n, bytes,
            text);
  }
}
