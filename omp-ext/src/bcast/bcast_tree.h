/* Tree (and flat) broadcast for copyprivate (see bcast_tree.c). */
#ifndef OMPEXT_BCAST_TREE_H
#define OMPEXT_BCAST_TREE_H

#include "bcast_close.h"
#include "ompext/abi.h"
#include "topology.h"

#include <stddef.h>

typedef struct ompext_bcast_tree ompext_bcast_tree_t;

size_t ompext_bcast_tree_size(int nproc);
/* short_fanout nproc-1 gives the flat broadcast: every thread reads the
   root.  long_fanout: the fan-out once receivers' copies are long (see
   bcast_close.h; only with a close object).  Both in 1..OMPEXT_MAX_FANIN
   (bounds.h; the plan clamps). */
ompext_bcast_tree_t *ompext_bcast_tree_init(void *mem, int nproc,
                                            int short_fanout, int long_fanout);
/* Whether broadcasts of short (resp. long) copies copy from the root
   instead of relaying: the tree then carries only the notification, each
   relay passes it on before copying, and every receiver copies from the
   root's data (0, the default: relay copies).  Before any broadcast. */
void ompext_bcast_tree_copy_from_root(ompext_bcast_tree_t *t, int short_copies,
                                      int long_copies);
/* New fan-outs, as at init; while no broadcast runs. */
void ompext_bcast_tree_set_fanout(ompext_bcast_tree_t *t, int short_fanout,
                                  int long_fanout);
/* The fan-out of the tree of tid's last broadcast, and whether tid copied
   from the root in it. */
int ompext_bcast_tree_last_fanout(const ompext_bcast_tree_t *t, int tid);
int ompext_bcast_tree_last_from_root(const ompext_bcast_tree_t *t, int tid);
/* See ompext_ops_t.bcast.  layout: NULL or one domain for the tree in tid
   order re-rooted at the root; several domains for the two-level tree of
   ompext_topology_rooted_child, fan-out k at both levels.  Every thread of
   a broadcast must pass the same layout.  close: NULL, or where the root
   decides how the broadcast is closed and every thread notes it (see
   bcast_close.h; the caller's next barrier asks it); site: the construct,
   as the root's close choice keys it (NULL: unknown). */
void *ompext_bcast_tree_run(ompext_bcast_tree_t *t, int gtid, int tid,
                            int is_root, void *data, ompext_pairfn_t cpy,
                            const void *site,
                            const ompext_topo_layout_t *layout,
                            ompext_bcast_close_t *close, unsigned spin_polls);

#endif
