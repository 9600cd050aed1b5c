/* Tree (and flat) broadcast for copyprivate (see bcast_tree.c). */
#ifndef OMPEXT_BCAST_TREE_H
#define OMPEXT_BCAST_TREE_H

#include "ompext/abi.h"

#include <stddef.h>

typedef struct ompext_bcast_tree ompext_bcast_tree_t;

size_t ompext_bcast_tree_size(int nproc);
/* fanout nproc-1 gives the flat broadcast: every thread reads the root. */
ompext_bcast_tree_t *ompext_bcast_tree_init(void *mem, int nproc, int fanout);
/* See ompext_ops_t.bcast. */
void *ompext_bcast_tree_run(ompext_bcast_tree_t *t, int gtid, int tid,
                            int is_root, void *data, ompext_pairfn_t cpy,
                            unsigned spin_polls);

#endif
