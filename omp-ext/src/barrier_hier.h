/* Hierarchical barrier, one leader per domain (see barrier_hier.c). */
#ifndef OMPEXT_BARRIER_HIER_H
#define OMPEXT_BARRIER_HIER_H

#include "topology.h"

#include <stddef.h>

typedef struct ompext_hier ompext_hier_t;

/* Bytes for a barrier over this layout with leaders' dissemination m. */
size_t ompext_hier_size(const ompext_topo_layout_t *layout, int m);
/* Lays the barrier out in zeroed, OMPEXT_CACHE_LINE-aligned memory: a k-ary
   tree inside each domain, an m-ary dissemination barrier among the
   leaders.  The layout must outlive the barrier and not change. */
ompext_hier_t *ompext_hier_init(void *mem, const ompext_topo_layout_t *layout,
                                int k, int m);
/* Returns once all of the layout's threads have called it this episode. */
void ompext_hier_wait(ompext_hier_t *b, int gtid, int tid,
                      unsigned spin_polls);

#endif
