/*
 * Tree broadcast for small copyprivate data, with relay copies (Ramos and
 * Hoefler, Table 4.1; paper 000's tree broadcast).  Fan-out nproc-1 makes
 * it the flat broadcast in which every thread copies from the root.
 *
 * The root is whichever thread won the single, so the tree is re-rooted:
 * tid t has rank v = (t - root) mod n, and rank v's children are ranks
 * v*k+1 .. v*k+k.  A non-root cannot know the root in advance, so the
 * sender fills the receiver's mailbox (the source to copy from, the root and
 * its data) before signalling the receiver's own word; the receiver, the
 * word's only waiter, reads the mailbox after the wait (acquire), copies
 * with cpy from the sender's data (so relays spread the copying), then
 * serves its own children from its own, now current, data.
 *
 * With a topology layout of several domains the tree is two-level instead:
 * the root serves one representative per other domain (their leaders),
 * and each representative, the root included, a tree inside its domain.
 *
 * Closing: the root also decides how the broadcast is closed (bcast_close.c)
 * and the mailbox carries its choice to every thread, each of which notes
 * it before it copies.
 *
 * Counting: a word is bumped only in broadcasts where its owner is not the
 * root, so each owner counts its receptions; after its r-th reception its
 * word holds 4*r.  The caller puts a barrier after
 * every broadcast, so a mailbox is never refilled before it was read and
 * relay sources stay alive while children copy.
 */
#include "bcast_tree.h"

#include "bcast_close.h"
#include "pad.h"
#include "wait.h"

typedef struct bcast_slot {
  alignas(OMPEXT_CACHE_LINE) ompext_flag_word_t go; /* sender -> owner */
  void *source;      /* data to copy from (the sender's) */
  void *root_data;   /* what every thread returns */
  int root;          /* tid of the root */
  int rooted_close;  /* the root asks for the rooted close */
  uint64_t received; /* owner-only: broadcasts received so far */
} bcast_slot_t;

struct ompext_bcast_tree {
  alignas(OMPEXT_CACHE_LINE) int nproc;
  int fanout;
  bcast_slot_t *slots; /* [nproc] */
};

size_t ompext_bcast_tree_size(int nproc) {
  return ompext_pad_bytes(sizeof(ompext_bcast_tree_t)) +
         (size_t)nproc * sizeof(bcast_slot_t);
}

ompext_bcast_tree_t *ompext_bcast_tree_init(void *mem, int nproc, int fanout) {
  ompext_bcast_tree_t *t = mem;
  t->nproc = nproc;
  t->fanout = fanout < 1 ? 1 : fanout;
  t->slots = (bcast_slot_t *)((char *)mem + ompext_pad_bytes(sizeof(*t)));
  return t;
}

/* The mailbox before the signal: the release in the signal orders it. */
static void fill_and_signal(bcast_slot_t *slot, int gtid, int child,
                            void *source, void *root_data, int root,
                            int rooted_close) {
  slot->source = source;
  slot->root_data = root_data;
  slot->root = root;
  slot->rooted_close = rooted_close;
  ompext_signal(gtid, child, &slot->go);
}

void *ompext_bcast_tree_run(ompext_bcast_tree_t *t, int gtid, int tid,
                            int is_root, void *data, ompext_pairfn_t cpy,
                            const ompext_topo_layout_t *layout,
                            ompext_bcast_close_t *close, unsigned spin_polls) {
  bcast_slot_t *mine = &t->slots[tid];
  const int n = t->nproc;
  int root = tid;
  void *root_data = data;
  int rooted_close = 0;
  if (is_root) {
    if (close) {
      rooted_close =
          ompext_bcast_close_choose(close, !layout || layout->ndomains <= 1);
      ompext_bcast_close_note(close, tid, root, rooted_close, 1);
    }
  } else {
    ompext_wait(gtid, &mine->go, ompext_expect(++mine->received, 1),
                spin_polls);
    root = mine->root;
    root_data = mine->root_data;
    rooted_close = mine->rooted_close;
    if (close)
      ompext_bcast_close_note(close, tid, root, rooted_close, 0);
    if (cpy)
      cpy(data, mine->source);
    else
      data = root_data; /* nothing copied: children read the root too */
  }
  if (layout && layout->ndomains > 1) {
    /* One representative per domain (see topology.h): ndomains-1 copies
       cross the costly level, the rest stay inside domains. */
    int child;
    for (int j = 0; (child = ompext_topology_rooted_child(
                         layout, t->fanout, t->fanout, root, tid, j)) >= 0;
         ++j)
      fill_and_signal(&t->slots[child], gtid, child, data, root_data, root,
                      rooted_close);
    return root_data;
  }
  const long rank = (tid - root + n) % n;
  for (long c = rank * t->fanout + 1; c <= rank * t->fanout + t->fanout; ++c) {
    if (c >= n)
      break;
    int child = (int)((c + root) % n);
    fill_and_signal(&t->slots[child], gtid, child, data, root_data, root,
                    rooted_close);
  }
  return root_data;
}
