/*
 * Hierarchical barrier: one leader per domain (paper 002's multi-leader
 * idea, on the m-ary dissemination barrier of Ramos and Hoefler).
 *
 * A team whose threads are bound across several domains (packages, or L3
 * caches where a package has several; see topology.h) synchronises in
 * three steps:
 *   1. inside each domain, a k-ary combining tree gathers the members into
 *      the domain's leader (its lowest tid, local index 0): children of
 *      local index i are i*k+1 .. i*k+k;
 *   2. the leaders meet, numbered by domain: in an m-ary dissemination
 *      barrier, or, for an oversubscribed team (plan.c), in a combining
 *      tree rooted at tid 0, the leader of domain 0, so that tid 0 leaves
 *      first, as it does from the flat tree such a team would otherwise
 *      get (barrier_tree.c);
 *   3. each leader releases its domain down the same tree.
 * Only step 2 crosses the costly level, and only between leaders: a flat
 * dissemination barrier crosses it from almost every thread in every round.
 *
 * Steps 1 and 3 are the two halves of the combining tree barrier
 * (barrier_tree.c) run over one domain's members, with its flag protocol:
 * each tid owns an arrived and a go word, a word holds e bumps after
 * episode e and never runs ahead of its waiter.  The leaders' barrier keeps
 * words of its own: the dissemination barrier's parity-split words, or a
 * second set of tree slots (a leader already counts its domain's episodes
 * in its first one), indexed by team tid like the first so that signals
 * wake the right thread.
 *
 * Memory order: every signal is a release and every wait ends with an
 * acquire of the same word (wait.h); a leader enters step 2 only after all
 * of its domain arrived and releases it only after step 2, so every
 * thread's writes before the barrier happen before every thread's return.
 */
#include "barrier_hier.h"

#include "barrier_dissemination.h"
#include "barrier_tree.h"

struct ompext_barrier_hier {
  alignas(OMPEXT_CACHE_LINE) int k; /* read-only after init */
  const ompext_topo_layout_t *layout;
  int *leader_tid;                 /* [ndomains] domain -> its leader */
  ompext_barrier_dissemination_t
      *leaders; /* over the domains; NULL: leaders_tree */
  ompext_barrier_tree_group_t leaders_tree; /* the leaders' tree, by domain */
  ompext_barrier_tree_slot_t *slots;        /* [nproc], by team tid */
};

/* Bytes of the leaders' barrier: see ompext_barrier_hier_size. */
static size_t leaders_size(const ompext_topo_layout_t *layout,
                           const ompext_barrier_plan_t *across) {
  return across->alg == OMPEXT_BARRIER_TREE
             ? (size_t)layout->nproc * sizeof(ompext_barrier_tree_slot_t)
             : ompext_barrier_dissemination_size(layout->ndomains,
                                                 across->dissem_m);
}

size_t ompext_barrier_hier_size(const ompext_topo_layout_t *layout,
                                const ompext_barrier_plan_t *across) {
  return ompext_pad_bytes(sizeof(ompext_barrier_hier_t)) +
         (size_t)layout->nproc * sizeof(ompext_barrier_tree_slot_t) +
         ompext_pad_bytes((size_t)layout->ndomains * sizeof(int)) +
         leaders_size(layout, across);
}

ompext_barrier_hier_t *
ompext_barrier_hier_init(void *mem, const ompext_topo_layout_t *layout,
                         int inside_tree_k,
                         const ompext_barrier_plan_t *across) {
  ompext_barrier_hier_t *b = mem;
  char *p = (char *)mem + ompext_pad_bytes(sizeof(*b));
  b->k = inside_tree_k;
  b->layout = layout;
  b->slots = (ompext_barrier_tree_slot_t *)p;
  p += (size_t)layout->nproc * sizeof(ompext_barrier_tree_slot_t);
  b->leader_tid = (int *)p;
  for (int d = 0; d < layout->ndomains; ++d)
    b->leader_tid[d] = ompext_topology_leader(layout, d);
  p += ompext_pad_bytes((size_t)layout->ndomains * sizeof(int));
  if (across->alg == OMPEXT_BARRIER_TREE) {
    /* Domain 0 holds tid 0 (topology.h: order[0] == 0), the tree's root. */
    b->leaders = NULL;
    b->leaders_tree = (ompext_barrier_tree_group_t){
        (ompext_barrier_tree_slot_t *)p, b->leader_tid, layout->ndomains,
        across->tree_k};
  } else {
    b->leaders = ompext_barrier_dissemination_init(p, layout->ndomains,
                                                   across->dissem_m);
    ompext_barrier_dissemination_map_tids(b->leaders, b->leader_tid);
  }
  return b;
}

void ompext_barrier_hier_wait(ompext_barrier_hier_t *b, int gtid, int tid,
                              unsigned spin_polls) {
  const ompext_topo_layout_t *l = b->layout;
  const int d = l->domain[tid];
  const ompext_barrier_tree_group_t domain = {
      b->slots, l->order + l->dstart[d], l->dstart[d + 1] - l->dstart[d], b->k};
  const int64_t i = l->rank[tid] - l->dstart[d]; /* index in the domain */
  /* 1. The domain's tree gathers into its leader (i == 0); everybody else
     also waits there for the leader's go. */
  ompext_barrier_tree_arrive(&domain, gtid, i, spin_polls);
  /* 2. A leader: the whole domain has arrived; meet the other leaders. */
  if (i == 0 && b->leaders) {
    ompext_barrier_dissemination_wait(b->leaders, gtid, d, spin_polls);
  } else if (i == 0) { /* the leaders' tree: gather into tid 0, release */
    ompext_barrier_tree_arrive(&b->leaders_tree, gtid, d, spin_polls);
    ompext_barrier_tree_depart(&b->leaders_tree, gtid, d);
  }
  /* 3. Release the subtree: what this thread saw reaches each child. */
  ompext_barrier_tree_depart(&domain, gtid, i);
}
