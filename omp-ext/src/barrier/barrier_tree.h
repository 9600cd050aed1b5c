/* k-ary combining tree barrier (see barrier_tree.c). */
#ifndef OMPEXT_BARRIER_TREE_H
#define OMPEXT_BARRIER_TREE_H

#include "pad.h"

#include <stddef.h>

typedef struct ompext_barrier_tree ompext_barrier_tree_t;

/* The words of one tid in a combining tree (see barrier_tree.c), each
   alone on its padded line (OMPEXT_CACHE_LINE, pad.h). */
typedef struct ompext_barrier_tree_slot {
  alignas(OMPEXT_CACHE_LINE) uint64_t episode;           /* owner-only */
  alignas(OMPEXT_CACHE_LINE) ompext_flag_word_t arrived; /* child -> parent */
  alignas(OMPEXT_CACHE_LINE) ompext_flag_word_t go;      /* parent -> child */
} ompext_barrier_tree_slot_t;

/* A k-ary combining tree over count members of a team: member index i has
   children i*k+1 .. i*k+k and is team tid member[i] (member NULL: i
   itself); slots are indexed by team tid.  The whole team (barrier_tree.c)
   or one domain of it (barrier_hier.c). */
typedef struct ompext_barrier_tree_group {
  ompext_barrier_tree_slot_t *slots;
  const int *member;
  int64_t count;
  int64_t k; /* >= 1 */
} ompext_barrier_tree_group_t;

/* The gather half for member index i: waits for its subtree, and unless i
   is the root (0) signals its arrival and waits for its go. */
void ompext_barrier_tree_arrive(const ompext_barrier_tree_group_t *g, int gtid,
                                int64_t i, unsigned spin_polls);
/* The release half: sends go to i's children. */
void ompext_barrier_tree_depart(const ompext_barrier_tree_group_t *g, int gtid,
                                int64_t i);

/* Bytes a barrier for nproc threads needs. */
size_t ompext_barrier_tree_size(int nproc);
/* Lays the barrier out in zeroed, OMPEXT_CACHE_LINE-aligned memory; tree_k
   in OMPEXT_MIN_TREE_K..OMPEXT_MAX_FANIN (bounds.h; the plan clamps). */
ompext_barrier_tree_t *ompext_barrier_tree_init(void *mem, int nproc,
                                                int tree_k);
/* Returns once all nproc threads have called it for this episode. */
void ompext_barrier_tree_wait(ompext_barrier_tree_t *b, int gtid, int tid,
                              unsigned spin_polls);
/* The fan-in in use. */
int ompext_barrier_tree_fanin(const ompext_barrier_tree_t *b);

#endif
