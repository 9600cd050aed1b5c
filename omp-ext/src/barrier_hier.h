/* Hierarchical barrier, one leader per domain (see barrier_hier.c). */
#ifndef OMPEXT_BARRIER_HIER_H
#define OMPEXT_BARRIER_HIER_H

#include "config.h"
#include "topology.h"

#include <stddef.h>

typedef struct ompext_hier ompext_hier_t;

/* Bytes for a barrier over this layout whose leaders meet in `across`:
   OMPEXT_BARRIER_DISSEMINATION with param m, or OMPEXT_BARRIER_TREE, a
   combining tree rooted at tid 0 with fan-in param. */
size_t ompext_hier_size(const ompext_topo_layout_t *layout,
                        ompext_barrier_alg_t across, int param);
/* Lays the barrier out in zeroed, OMPEXT_CACHE_LINE-aligned memory: a k-ary
   tree inside each domain, and the leaders' barrier of ompext_hier_size.
   The layout must outlive the barrier and not change. */
ompext_hier_t *ompext_hier_init(void *mem, const ompext_topo_layout_t *layout,
                                int k, ompext_barrier_alg_t across,
                                int param);
/* Returns once all of the layout's threads have called it this episode. */
void ompext_hier_wait(ompext_hier_t *b, int gtid, int tid,
                      unsigned spin_polls);

#endif
