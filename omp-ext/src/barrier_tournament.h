/* Tournament barrier (see barrier_tournament.c). */
#ifndef OMPEXT_BARRIER_TOURNAMENT_H
#define OMPEXT_BARRIER_TOURNAMENT_H

#include <stddef.h>

/* Release fan-out k: 0 (or 1) releases down the tournament itself (the
   Mellor-Crummey and Scott wake-up tree); 2..OMPEXT_TOURNAMENT_MAX_K
   releases down a k-ary tree (Panigrahi et al.); larger values are
   clamped, negative ones mean 0. */
#define OMPEXT_TOURNAMENT_MAX_K 64

typedef struct ompext_tournament ompext_tournament_t;

/* Bytes a barrier for nproc threads and release fan-out k needs. */
size_t ompext_tournament_size(int nproc, int k);
/* Lays the barrier out in zeroed, OMPEXT_CACHE_LINE-aligned memory. */
ompext_tournament_t *ompext_tournament_init(void *mem, int nproc, int k);
/* Returns once all nproc threads have called it for this episode. */
void ompext_tournament_wait(ompext_tournament_t *b, int gtid, int tid,
                            unsigned spin_polls);
/* ceil(log2 nproc): the rounds of the gather. */
int ompext_tournament_rounds(const ompext_tournament_t *b);
/* The release fan-out in use after clamping (0: down the tournament). */
int ompext_tournament_fanout(const ompext_tournament_t *b);

#endif
