/* m-ary dissemination barrier (see barrier_dissemination.c). */
#ifndef OMPEXT_BARRIER_DISSEMINATION_H
#define OMPEXT_BARRIER_DISSEMINATION_H

#include <stddef.h>

typedef struct ompext_dissemination ompext_dissemination_t;

/* Bytes a barrier for nproc threads and m peers per round needs. */
size_t ompext_dissemination_size(int nproc, int m);
/* Lays the barrier out in zeroed, OMPEXT_CACHE_LINE-aligned memory. */
ompext_dissemination_t *ompext_dissemination_init(void *mem, int nproc, int m);
/* Returns once all nproc threads have called it for this episode. */
void ompext_dissemination_wait(ompext_dissemination_t *b, int gtid, int tid,
                               unsigned spin_polls);
int ompext_dissemination_rounds(const ompext_dissemination_t *b);

#endif
