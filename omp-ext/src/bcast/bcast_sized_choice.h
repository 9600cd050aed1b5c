/* The sized broadcast's algorithm, fan-out and chunk (bcast_sized_choice.c). */
#ifndef OMPEXT_BCAST_SIZED_CHOICE_H
#define OMPEXT_BCAST_SIZED_CHOICE_H

#include "model.h"

#include <stddef.h>
#include <stdio.h>

typedef enum ompext_bcast_sized_alg {
  OMPEXT_BCAST_SIZED_AUTO = 0, /* as an override: the model's choice */
  OMPEXT_BCAST_SIZED_FLAT,
  OMPEXT_BCAST_SIZED_TREE,
  OMPEXT_BCAST_SIZED_PIPELINED,
  OMPEXT_BCAST_SIZED_STAGED, /* seed 000's double buffering; never the
                                model's pick, for comparison */
  OMPEXT_BCAST_SIZED_ALGS
} ompext_bcast_sized_alg_t;

/* The tree fan-outs the plugin keeps a tree for (bcast_sized.c). */
#define OMPEXT_BCAST_SIZED_TREE_KMAX 8
/* Each of the staged broadcast's two buffers (seed 000: 32 KB for both). */
#define OMPEXT_BCAST_SIZED_STAGE_BYTES 16384
/* Chunks of the pipelined broadcast: whole lines, at least this many. */
#define OMPEXT_BCAST_SIZED_MIN_CHUNK 256

typedef struct ompext_bcast_sized_choice {
  ompext_bcast_sized_alg_t alg;
  int k;        /* tree and pipelined: fan-out (1..KMAX); flat: n-1 */
  size_t chunk; /* pipelined: bytes per chunk; else 0 */
} ompext_bcast_sized_choice_t;

/* The choice for a team of n threads and a message of `bytes`: a pure
   function of the model parameters, n and bytes (every thread of a team
   computes it alone and gets the same answer).  forced: an algorithm to
   take instead of the model's (AUTO: none); its parameters still come from
   the model. */
void ompext_bcast_sized_choose(const ompext_model_params_t *p, int n,
                               size_t bytes, ompext_bcast_sized_alg_t forced,
                               ompext_bcast_sized_choice_t *out);
/* "pipelined(k=1,chunk=8192)", "tree(k=3)", "flat", "staged(2x16384)"; returns the length. */
int ompext_bcast_sized_describe(const ompext_bcast_sized_choice_t *c,
                                char *buf, size_t cap);
/* ompext-model --op bcast: for teams of lo..hi, the line OMPEXT_VERBOSE=1
   prints at run time ("# team of 2: ompext_bcast of 4096 bytes: flat"). */
void ompext_bcast_sized_print(FILE *f, const ompext_model_params_t *p, int lo,
                              int hi, long bytes);
/* "flat", "tree", "pipelined", "staged", "auto" <-> the enum; -1 if unknown. */
int ompext_bcast_sized_alg_lookup(const char *name,
                                  ompext_bcast_sized_alg_t *out);

#endif
