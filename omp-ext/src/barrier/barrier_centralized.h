/* Centralized barrier: one arrival counter, one go word per thread (see
   barrier_centralized.c). */
#ifndef OMPEXT_BARRIER_CENTRALIZED_H
#define OMPEXT_BARRIER_CENTRALIZED_H

#include <stddef.h>

typedef struct ompext_barrier_centralized ompext_barrier_centralized_t;

/* Bytes a barrier for nproc threads needs. */
size_t ompext_barrier_centralized_size(int nproc);
/* Lays the barrier out in zeroed, OMPEXT_CACHE_LINE-aligned memory. */
ompext_barrier_centralized_t *ompext_barrier_centralized_init(void *mem,
                                                              int nproc);
/* Returns once all nproc threads have called it for this episode. */
void ompext_barrier_centralized_wait(ompext_barrier_centralized_t *b, int gtid,
                                     int tid, unsigned spin_polls);

#endif
