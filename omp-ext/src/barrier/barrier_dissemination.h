/* m-ary dissemination barrier (see barrier_dissemination.c). */
#ifndef OMPEXT_BARRIER_DISSEMINATION_H
#define OMPEXT_BARRIER_DISSEMINATION_H

#include <stddef.h>

typedef struct ompext_barrier_dissemination ompext_barrier_dissemination_t;

/* Bytes a barrier for nproc threads and dissem_m peers per round needs;
   dissem_m in 1..OMPEXT_MAX_M (bounds.h; the plan clamps). */
size_t ompext_barrier_dissemination_size(int nproc, int dissem_m);
/* Lays the barrier out in zeroed, OMPEXT_CACHE_LINE-aligned memory. */
ompext_barrier_dissemination_t *
ompext_barrier_dissemination_init(void *mem, int nproc, int dissem_m);
/* Returns once all nproc threads have called it for this episode. */
void ompext_barrier_dissemination_wait(ompext_barrier_dissemination_t *b,
                                       int gtid, int tid, unsigned spin_polls);
/* For a barrier among some of a team's threads: index i (the tid argument of
   the wait) is team tid team_tid[i], which the services need to wake it.
   The array must outlive the barrier.  Default: index i is tid i. */
void ompext_barrier_dissemination_map_tids(ompext_barrier_dissemination_t *b,
                                           const int *team_tid);
int ompext_barrier_dissemination_rounds(
    const ompext_barrier_dissemination_t *b);

#endif
