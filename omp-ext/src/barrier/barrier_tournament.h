/* Tournament barrier (see barrier_tournament.c). */
#ifndef OMPEXT_BARRIER_TOURNAMENT_H
#define OMPEXT_BARRIER_TOURNAMENT_H

#include <stddef.h>

/* Release fan-out release_k: 0 releases down the tournament itself (the
   Mellor-Crummey and Scott wake-up tree); OMPEXT_MIN_TREE_K ..
   OMPEXT_MAX_FANIN (bounds.h) releases down a k-ary tree (Panigrahi et
   al.).  The plan clamps. */

typedef struct ompext_barrier_tournament ompext_barrier_tournament_t;

/* Bytes a barrier for nproc threads needs. */
size_t ompext_barrier_tournament_size(int nproc);
/* Lays the barrier out in zeroed, OMPEXT_CACHE_LINE-aligned memory. */
ompext_barrier_tournament_t *
ompext_barrier_tournament_init(void *mem, int nproc, int release_k);
/* Returns once all nproc threads have called it for this episode. */
void ompext_barrier_tournament_wait(ompext_barrier_tournament_t *b, int gtid,
                                    int tid, unsigned spin_polls);
/* ceil(log2 nproc): the rounds of the gather. */
int ompext_barrier_tournament_rounds(const ompext_barrier_tournament_t *b);
/* The release fan-out in use (0: down the tournament). */
int ompext_barrier_tournament_fanout(const ompext_barrier_tournament_t *b);

#endif
