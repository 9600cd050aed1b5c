/*
 * Tree broadcast for small copyprivate data, with relay copies (Ramos and
 * Hoefler, Table 4.1; paper 000's tree broadcast).  Fan-out nproc-1 makes
 * it the flat broadcast in which every thread copies from the root.
 *
 * Small or large: copyprivate gives the runtime no size, only a copy
 * function, so the root goes by how long receivers' copies have recently
 * taken (bcast_close.c): after long copies it uses the fan-out the model
 * chose for large data (flat, as a rule: relays would copy the whole data
 * once per level), else the one for small data.  Its choice travels in the
 * mailbox with the rest, so every relay serves the same tree.
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
 * Copying from the root: for data whose copies are long, relaying costs a
 * whole copy per level, and the plan may have every receiver copy from the
 * root instead (the flat broadcast's copy) while the tree only carries the
 * notification: a relay fills and signals its children first, with the
 * root's data as their source, then copies.  The root's data is complete
 * before its first signal and lives until the caller's barrier.
 *
 * Closing: the root also decides how the broadcast is closed (bcast_close.c),
 * on the same verdict, and the mailbox carries that to every thread too,
 * each of which notes it before it copies.
 *
 * Counting: a word is bumped only in broadcasts where its owner is not the
 * root, so each owner counts its receptions; after its r-th reception its
 * word holds 4*r.  The caller puts a barrier after
 * every broadcast, so a mailbox is never refilled before it was read and
 * relay sources stay alive while children copy.
 */
#include "bcast_tree.h"

#include "pad.h"
#include "wait.h"

/* What the root decided; every thread of the broadcast learns it. */
typedef struct bcast_decision {
  int root;         /* tid of the root */
  int fanout;       /* of this broadcast's tree */
  int from_root;    /* receivers copy from the root, not their sender */
  int rooted_close; /* the root asks for the rooted close */
} bcast_decision_t;

/* A thread's mailbox, written by its sender, then its own line. */
typedef struct bcast_slot {
  alignas(OMPEXT_CACHE_LINE) ompext_flag_word_t go; /* sender -> owner */
  void *source;    /* data to copy from (the sender's) */
  void *root_data; /* what every thread returns */
  bcast_decision_t decision;
  alignas(OMPEXT_CACHE_LINE) uint64_t received; /* broadcasts received */
  int last_fanout; /* the fan-out of its last broadcast */
  int last_from_root; /* whether it copied from the root in it */
} bcast_slot_t;

struct ompext_bcast_tree {
  alignas(OMPEXT_CACHE_LINE) int nproc;
  int fanout;          /* copies that are not long */
  int long_fanout;     /* after long copies */
  int from_root, long_from_root; /* see ompext_bcast_tree_copy_from_root */
  bcast_slot_t *slots; /* [nproc] */
};

size_t ompext_bcast_tree_size(int nproc) {
  return ompext_pad_bytes(sizeof(ompext_bcast_tree_t)) +
         (size_t)nproc * sizeof(bcast_slot_t);
}

ompext_bcast_tree_t *ompext_bcast_tree_init(void *mem, int nproc,
                                            int short_fanout, int long_fanout) {
  ompext_bcast_tree_t *t = mem;
  t->nproc = nproc;
  t->fanout = short_fanout;
  t->long_fanout = long_fanout;
  t->from_root = t->long_from_root = 0;
  t->slots = (bcast_slot_t *)((char *)mem + ompext_pad_bytes(sizeof(*t)));
  return t;
}

void ompext_bcast_tree_copy_from_root(ompext_bcast_tree_t *t, int short_copies,
                                      int long_copies) {
  t->from_root = short_copies;
  t->long_from_root = long_copies;
}

void ompext_bcast_tree_set_fanout(ompext_bcast_tree_t *t, int short_fanout,
                                  int long_fanout) {
  t->fanout = short_fanout;
  t->long_fanout = long_fanout;
}

int ompext_bcast_tree_last_fanout(const ompext_bcast_tree_t *t, int tid) {
  return t->slots[tid].last_fanout;
}

int ompext_bcast_tree_last_from_root(const ompext_bcast_tree_t *t, int tid) {
  return t->slots[tid].last_from_root;
}

/* The mailbox before the signal: the release in the signal orders it. */
static void fill_and_signal(bcast_slot_t *slot, int gtid, int child,
                            void *source, void *root_data,
                            const bcast_decision_t *decision) {
  slot->source = source;
  slot->root_data = root_data;
  slot->decision = *decision;
  ompext_signal(gtid, child, &slot->go);
}

/* The root's decisions: the tree's fan-out and how to close. */
static bcast_decision_t root_decides(const ompext_bcast_tree_t *t, int tid,
                                     const ompext_topo_layout_t *layout,
                                     ompext_bcast_close_t *close,
                                     const void *site) {
  const int copies_long = close && ompext_bcast_close_copies_long(close);
  return (bcast_decision_t){
      .root = tid,
      .fanout = copies_long ? t->long_fanout : t->fanout,
      .from_root = copies_long ? t->long_from_root : t->from_root,
      .rooted_close =
          close && ompext_bcast_close_choose(close, copies_long,
                                             !layout || layout->ndomains <= 1,
                                             (uintptr_t)site)};
}

void *ompext_bcast_tree_run(ompext_bcast_tree_t *t, int gtid, int tid,
                            int is_root, void *data, ompext_pairfn_t cpy,
                            const void *site,
                            const ompext_topo_layout_t *layout,
                            ompext_bcast_close_t *close, unsigned spin_polls) {
  bcast_slot_t *mine = &t->slots[tid];
  const int n = t->nproc;
  void *root_data = data;
  bcast_decision_t decision;
  if (is_root) {
    decision = root_decides(t, tid, layout, close, site);
  } else {
    ompext_wait(gtid, &mine->go, ompext_expect(++mine->received, 1),
                spin_polls);
    decision = mine->decision;
    root_data = mine->root_data;
  }
  if (close)
    ompext_bcast_close_note(close, tid, decision.root, decision.rooted_close,
                            is_root);
  /* Relaying, a receiver copies before serving its children from its own
     data; copying from the root, it serves them first. */
  const int relay = !decision.from_root;
  if (!is_root && relay) {
    if (cpy)
      cpy(data, mine->source);
    else
      data = root_data; /* nothing copied: children read the root too */
  }
  void *const source = relay ? data : root_data;
  const int k = decision.fanout, root = decision.root;
  mine->last_fanout = k;
  mine->last_from_root = decision.from_root;
  if (layout && layout->ndomains > 1) {
    /* One representative per domain (see topology.h): ndomains-1 copies
       cross the costly level, the rest stay inside domains. */
    int child;
    for (int j = 0; (child = ompext_topology_rooted_child(layout, k, k, root,
                                                          tid, j)) >= 0;
         ++j)
      fill_and_signal(&t->slots[child], gtid, child, source, root_data,
                      &decision);
  } else {
    const long rank = (tid - root + n) % n;
    for (long c = rank * k + 1; c <= rank * k + k && c < n; ++c) {
      const int child = (int)((c + root) % n);
      fill_and_signal(&t->slots[child], gtid, child, source, root_data,
                      &decision);
    }
  }
  if (!is_root && !relay && cpy)
    cpy(data, root_data);
  return root_data;
}
