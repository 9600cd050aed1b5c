/*
 * Tree sized broadcast with relay copies: the copyprivate tree of
 * bcast_tree.c, unchanged, run on the threads' requests with a copy
 * function of the request's bytes.  Each relay copies the whole message
 * from its parent once its parent holds it, then serves its own children
 * from its own buffer, so copying spreads over the tree (Ramos and
 * Hoefler's tree broadcast).  One tree per fan-out 1..KMAX, each with its
 * own counters, laid out by bcast_sized.c; no close object, as the caller's
 * barrier closes the broadcast.
 */
#include "bcast_sized_impl.h"

#include <string.h>

/* bcast_tree.c's cpy(my data, a sender's data that holds the value). */
static void copy_request(void *dst, void *src) {
  ompext_bcast_request_t *d = dst;
  const ompext_bcast_request_t *from = src;
  /* The root's buffer or the sender's own: nothing to copy. */
  if (d->buf != d->root_buf && d->buf != from->buf)
    memcpy(d->buf, from->buf, d->bytes);
}

void ompext_bcast_sized_tree(ompext_bcast_sized_t *s, int gtid, int tid,
                             ompext_bcast_request_t *req, int k,
                             const ompext_topo_layout_t *layout,
                             unsigned spin_polls) {
  const int kmax = s->nproc - 1 < OMPEXT_BCAST_SIZED_TREE_KMAX
                       ? s->nproc - 1
                       : OMPEXT_BCAST_SIZED_TREE_KMAX;
  if (k > kmax)
    k = kmax;
  if (k < 1)
    k = 1;
  ompext_bcast_tree_run(s->trees[k], gtid, tid, req->root == tid, req,
                        copy_request, NULL, layout, NULL, spin_polls);
}
