/* Tree reduction gather with a fan-in per level (see reduce_tree.c). */
#ifndef OMPEXT_REDUCE_TREE_H
#define OMPEXT_REDUCE_TREE_H

#include "ompext/abi.h"
#include "topology.h"

#include <stddef.h>

typedef struct ompext_reduce_tree ompext_reduce_tree_t;

/* What a timed gather reports (ns): its longest combine, and how long the
   read of that child's reference line took, one line the child modified
   just before its arrival (see reduce_tree.c).  combine_ns < 0: no combine
   was timed. */
typedef struct ompext_reduce_probe {
  double combine_ns;
  double reference_ns;
} ompext_reduce_probe_t;

size_t ompext_reduce_tree_size(int nproc);
/* fanin[0] is k_1 (the leaves' level); levels entries. */
ompext_reduce_tree_t *ompext_reduce_tree_init(void *mem, int nproc,
                                              const int *fanin, int levels);
/* New fan-ins (a team laid out later), while no gather runs: the arrival
   words count episodes whatever the shape (see reduce_tree.c). */
void ompext_reduce_tree_set_fanin(ompext_reduce_tree_t *t, const int *fanin,
                                  int levels);
/* Combines every thread's data into tid 0's data with reduce(lhs, rhs).
   A non-zero tid returns once its data has been handed to its parent; the
   caller keeps that data alive until tid 0 returns.  layout: NULL or one
   domain for the tid-ordered tree; several domains, one leader each (see
   reduce_tree.c).  Every thread of an episode must pass the same layout.
   probe: NULL, or where the caller gets its longest combine and the
   reference read beside it (left alone if it made no combine). */
void ompext_reduce_tree_gather(ompext_reduce_tree_t *t, int gtid, int tid,
                               void *data, ompext_pairfn_t reduce,
                               const ompext_topo_layout_t *layout,
                               unsigned spin_polls,
                               ompext_reduce_probe_t *probe);

#endif
