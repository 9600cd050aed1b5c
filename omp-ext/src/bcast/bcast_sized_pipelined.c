/*
 * Pipelined sized broadcast (seed 003's pipelined k-ary broadcast, priced by
 * seed 004's model): the message travels down a k-ary tree re-rooted at the
 * root in chunks, and a thread copies chunk i from its parent while the
 * parent already copies chunk i+1 from its own, so a deep tree costs about
 * one message time plus one chunk time per level, not one message per
 * level.  With a layout of several packages the tree is the two-level tree
 * of ompext_topology_rooted_child: the root's children include one leader
 * per other package, and each leader relays chunk by chunk inside its own.
 *
 * The chunk protocol.  The runtime's waits end when a flag word equals the
 * value waited for (abi.h), so no word may run ahead of its waiter: every
 * signal here is acknowledged before the next one on the same word.
 * Thread t's mailbox (sized_chunks_t) has go, whose only waiter is t, and
 * source and parent, set by the parent before its first signal; and acks,
 * whose only waiter is t as a parent.  For each chunk i in order, a parent
 * first holds chunk i (the root holds all; a receiver has copied it), then
 * (i > 0) waits until every child acknowledged chunk i-1, then bumps each
 * child's go.  A child waits for go to count chunk i (its running count of
 * chunks received: words only grow, across broadcasts), acknowledges at
 * once, copies chunk i from source and serves its own children.  So a
 * child copies chunk i while its parent copies chunk i+1, a receiver never
 * reads a chunk its parent has not finished, and a word is at most one
 * signal ahead of the value its waiter waits for next, never past it
 * (tests/spin/bcast_chunks.pml checks this over two broadcasts).  Chunks of
 * one message are disjoint; the caller's barrier after the broadcast keeps
 * source alive, collects the last acknowledgements and keeps mailboxes
 * unwritten until they were read.
 */
#include "bcast_sized_impl.h"

#include "wait.h"

#include <string.h>

/* Child j of tid in the tree rooted at root (-1: none). */
static int child_of(const ompext_bcast_sized_t *s, int k, int root, int tid,
                    int j, const ompext_topo_layout_t *layout) {
  if (layout && layout->ndomains > 1)
    return ompext_topology_rooted_child(layout, k, k, root, tid, j);
  if (j >= k)
    return -1;
  const long n = s->nproc;
  const long c = ((tid - root + n) % n) * k + 1 + j;
  return c < n ? (int)((c + root) % n) : -1;
}

void ompext_bcast_sized_pipelined(ompext_bcast_sized_t *s, int gtid, int tid,
                                  ompext_bcast_request_t *req, int k,
                                  size_t chunk,
                                  const ompext_topo_layout_t *layout,
                                  unsigned spin_polls) {
  const size_t bytes = req->bytes;
  if (chunk == 0 || chunk > bytes)
    chunk = bytes;
  if (k < 1)
    k = 1;
  const uint64_t nchunks = (bytes + chunk - 1) / chunk;
  const int root = req->root;
  char *buf = req->buf;
  sized_own_t *own = &s->own[tid];
  sized_chunks_t *in = &s->chunks[tid];
  int nchildren = 0;
  while (child_of(s, k, root, tid, nchildren, layout) >= 0)
    ++nchildren;
  const char *source = NULL;
  int parent = -1;
  for (uint64_t i = 0; i < nchunks; ++i) {
    const size_t off = (size_t)i * chunk;
    const size_t len = bytes - off < chunk ? bytes - off : chunk;
    if (tid != root) {
      ompext_wait(gtid, &in->go, ompext_expect(own->chunks + i + 1, 1),
                  spin_polls);
      if (i == 0) { /* set before the first signal, ordered by it */
        source = in->source;
        parent = in->parent;
      }
      /* At once: the parent may signal chunk i+1 while this copies i. */
      ompext_signal(gtid, parent, &s->chunks[parent].acks);
      if (source != buf && buf != req->root_buf) /* else: already there */
        memcpy(buf + off, source + off, len);
    }
    if (!nchildren)
      continue;
    if (i > 0) /* every child took chunk i-1: its go may move again */
      ompext_wait(gtid, &in->acks,
                  ompext_expect(own->acks + (uint64_t)nchildren * i, 1),
                  spin_polls);
    int c;
    for (int j = 0; (c = child_of(s, k, root, tid, j, layout)) >= 0; ++j) {
      if (i == 0) {
        s->chunks[c].source = buf; /* ordered by the signal's release */
        s->chunks[c].parent = tid;
      }
      ompext_signal(gtid, c, &s->chunks[c].go);
    }
  }
  if (tid != root)
    own->chunks += nchunks;
  /* The last chunk's acknowledgements arrive before the caller's barrier
     ends; the next broadcast waits for counts beyond them. */
  own->acks += (uint64_t)nchildren * nchunks;
}
