/* Centralized barrier: one arrival counter, one go word per thread (see
   barrier_centralized.c). */
#ifndef OMPEXT_BARRIER_CENTRALIZED_H
#define OMPEXT_BARRIER_CENTRALIZED_H

#include <stddef.h>

typedef struct ompext_centralized ompext_centralized_t;

/* Bytes a barrier for nproc threads needs (k is ignored). */
size_t ompext_centralized_size(int nproc, int k);
/* Lays the barrier out in zeroed, OMPEXT_CACHE_LINE-aligned memory (k is
   ignored). */
ompext_centralized_t *ompext_centralized_init(void *mem, int nproc, int k);
/* Returns once all nproc threads have called it for this episode. */
void ompext_centralized_wait(ompext_centralized_t *b, int gtid, int tid,
                             unsigned spin_polls);

#endif
