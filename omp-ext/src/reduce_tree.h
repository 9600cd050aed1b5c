/* Tree reduction gather with a fan-in per level (see reduce_tree.c). */
#ifndef OMPEXT_REDUCE_TREE_H
#define OMPEXT_REDUCE_TREE_H

#include "ompext/abi.h"
#include "topology.h"

#include <stddef.h>

typedef struct ompext_reduce_tree ompext_reduce_tree_t;

size_t ompext_reduce_tree_size(int nproc);
/* fanin[0] is k_1 (the leaves' level); levels entries. */
ompext_reduce_tree_t *ompext_reduce_tree_init(void *mem, int nproc,
                                              const int *fanin, int levels);
/* Combines every thread's data into tid 0's data with reduce(lhs, rhs).
   A non-zero tid returns once its data has been handed to its parent; the
   caller keeps that data alive until tid 0 returns.  layout: NULL or one
   domain for the tid-ordered tree; several domains, one leader each (see
   reduce_tree.c).  Every thread of an episode must pass the same layout.
   slowest_ns: NULL, or where the caller gets the longest time one of its
   own reduce calls took (ns; left alone if it made none). */
void ompext_reduce_tree_gather(ompext_reduce_tree_t *t, int gtid, int tid,
                               void *data, ompext_pairfn_t reduce,
                               const ompext_topo_layout_t *layout,
                               unsigned spin_polls, double *slowest_ns);

#endif
