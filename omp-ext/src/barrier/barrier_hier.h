/* Hierarchical barrier, one leader per domain (see barrier_hier.c). */
#ifndef OMPEXT_BARRIER_HIER_H
#define OMPEXT_BARRIER_HIER_H

#include "barrier.h"
#include "topology.h"

#include <stddef.h>

typedef struct ompext_barrier_hier ompext_barrier_hier_t;

/* Bytes for a barrier over this layout whose leaders meet in `across`:
   the dissemination barrier, or the tree barrier, a combining tree rooted
   at tid 0. */
size_t ompext_barrier_hier_size(const ompext_topo_layout_t *layout,
                                const ompext_barrier_plan_t *across);
/* Lays the barrier out in zeroed, OMPEXT_CACHE_LINE-aligned memory: a
   combining tree of fan-in inside_tree_k in each domain, and the leaders'
   barrier of ompext_barrier_hier_size.  The layout must outlive the
   barrier and not change. */
ompext_barrier_hier_t *
ompext_barrier_hier_init(void *mem, const ompext_topo_layout_t *layout,
                         int inside_tree_k,
                         const ompext_barrier_plan_t *across);
/* Returns once all of the layout's threads have called it this episode. */
void ompext_barrier_hier_wait(ompext_barrier_hier_t *b, int gtid, int tid,
                              unsigned spin_polls);

#endif
