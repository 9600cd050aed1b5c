/*
 * Inside the sized broadcast: the team state bcast_sized.c lays out and the
 * algorithm files (bcast_sized_flat.c, _tree.c, _pipelined.c) share.
 * Every line is written by one thread per broadcast: a thread's own line,
 * or its mailboxes, each written by the one thread that signals it.
 */
#ifndef OMPEXT_BCAST_SIZED_IMPL_H
#define OMPEXT_BCAST_SIZED_IMPL_H

#include "bcast_sized.h"
#include "bcast_tree.h"
#include "pad.h"

#include <stdint.h>

#define OMPEXT_BCAST_SIZED_MAX_ROUNDS 24 /* dissemination rounds: n < 2^24 */
#define OMPEXT_BCAST_SIZED_PRINTED 16   /* sizes OMPEXT_VERBOSE reports */

/* What the agreement learns about the whole team (min/max/or: combining a
   thread's contribution twice changes nothing). */
typedef struct sized_summary {
  size_t min_bytes, max_bytes;
  int min_root, max_root;
  int null_buf;   /* some thread passed NULL with bytes > 0 */
  void *root_buf; /* the buffer of a thread that is its own root */
} sized_summary_t;

/* Thread tid's mailbox of one agreement round, filled and signalled by that
   round's partner. */
typedef struct sized_round {
  alignas(OMPEXT_CACHE_LINE) ompext_flag_word_t go;
  sized_summary_t mail;
} sized_round_t;

/* Thread tid's chunk mailbox: its parent in the pipelined tree signals go
   once per chunk it holds, having set source and parent before the first. */
typedef struct sized_chunks {
  alignas(OMPEXT_CACHE_LINE) ompext_flag_word_t go;
  const char *source;
  int parent;
  /* Its children's acknowledgements, one per chunk each (the owner waits,
     the children signal): on a line of its own. */
  alignas(OMPEXT_CACHE_LINE) ompext_flag_word_t acks;
} sized_chunks_t;

/* The staged broadcast (bcast_sized_staged.c): the team's two stage
   buffers and, per buffer, the word on which the root of the moment counts
   the receivers' acknowledgements (its one waiter), with the count each
   word has reached at the end of the last broadcast (written by that
   broadcast's root, read by the next one's after the closing barrier). */
typedef struct sized_ack_word {
  alignas(OMPEXT_CACHE_LINE) ompext_flag_word_t word;
} sized_ack_word_t;
typedef struct sized_stage {
  alignas(OMPEXT_CACHE_LINE) uint64_t acks_due[2];
  sized_ack_word_t acks[2];
  alignas(OMPEXT_CACHE_LINE) unsigned char buf[2][OMPEXT_BCAST_SIZED_STAGE_BYTES];
} sized_stage_t;
/* Thread tid's two stage words (the root signals, tid waits). */
typedef struct sized_stage_in {
  alignas(OMPEXT_CACHE_LINE) ompext_flag_word_t go[2];
} sized_stage_in_t;

/* Thread tid's own line: its counters and its cached choice. */
typedef struct sized_own {
  alignas(OMPEXT_CACHE_LINE) uint64_t episodes; /* agreements */
  uint64_t chunks;                              /* chunks received */
  uint64_t acks;                                /* acknowledgements due */
  uint64_t stage_uses[2]; /* stage buffers received (staged broadcast) */
  size_t cached_bytes;
  int cached;
  ompext_bcast_sized_choice_t choice;
} sized_own_t;

struct ompext_bcast_sized {
  alignas(OMPEXT_CACHE_LINE) int nproc;
  int rounds;
  ompext_bcast_sized_alg_t forced;
  int verbose;
  const ompext_model_params_t *params;
  ompext_bcast_tree_t *trees[OMPEXT_BCAST_SIZED_TREE_KMAX + 1]; /* [k] */
  sized_round_t *round;   /* [nproc * rounds] */
  sized_chunks_t *chunks; /* [nproc] */
  sized_own_t *own;       /* [nproc] */
  sized_stage_t *stage;
  sized_stage_in_t *stage_in; /* [nproc] */
  /* OMPEXT_VERBOSE: the sizes whose choice tid 0 printed (tid 0 only). */
  alignas(OMPEXT_CACHE_LINE) int nprinted;
  size_t printed[OMPEXT_BCAST_SIZED_PRINTED];
};

/* The algorithms, run once the team agreed (root in the team, same bytes,
   every buffer usable).  root_buf: the root's buffer. */
void ompext_bcast_sized_flat(ompext_bcast_sized_t *s, int tid,
                             ompext_bcast_request_t *req, const void *root_buf);
void ompext_bcast_sized_tree(ompext_bcast_sized_t *s, int gtid, int tid,
                             ompext_bcast_request_t *req, int k,
                             const ompext_topo_layout_t *layout,
                             unsigned spin_polls);
void ompext_bcast_sized_pipelined(ompext_bcast_sized_t *s, int gtid, int tid,
                                  ompext_bcast_request_t *req, int k,
                                  size_t chunk,
                                  const ompext_topo_layout_t *layout,
                                  unsigned spin_polls);
void ompext_bcast_sized_staged(ompext_bcast_sized_t *s, int gtid, int tid,
                               ompext_bcast_request_t *req,
                               unsigned spin_polls);

#endif
