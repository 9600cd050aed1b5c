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
 *   2. the leaders run an m-ary dissemination barrier among themselves,
 *      numbered by domain;
 *   3. each leader releases its domain down the same tree.
 * Only step 2 crosses the costly level, and only between leaders: a flat
 * dissemination barrier crosses it from almost every thread in every round.
 *
 * Flags: each tid owns an arrived word (signalled by it, waited on by its
 * parent) and a go word (signalled by its parent, waited on by it), each
 * alone on its padded line, counting episodes as in barrier_tree.c: a word
 * holds e bumps after episode e, and never runs ahead of its waiter, since
 * a thread arrives for e+1 only after its go for e, and its parent sends go
 * for e+1 only after that arrival.  The leaders' barrier keeps its own
 * parity-split words (barrier_dissemination.c).
 *
 * Memory order: every signal is a release and every wait ends with an
 * acquire of the same word (wait.h); a leader enters step 2 only after all
 * of its domain arrived and releases it only after step 2, so every
 * thread's writes before the barrier happen before every thread's return.
 */
#include "barrier_hier.h"

#include "barrier_dissemination.h"
#include "pad.h"
#include "wait.h"

typedef struct hier_slot {
  alignas(OMPEXT_CACHE_LINE) uint64_t episode;           /* owner-only */
  alignas(OMPEXT_CACHE_LINE) ompext_flag_word_t arrived; /* child -> parent */
  alignas(OMPEXT_CACHE_LINE) ompext_flag_word_t go;      /* parent -> child */
} hier_slot_t;

struct ompext_hier {
  alignas(OMPEXT_CACHE_LINE) int nproc; /* read-only after init */
  int k;
  const ompext_topo_layout_t *layout;
  int *leader_tid;                  /* [ndomains] domain -> its leader */
  ompext_dissemination_t *leaders;  /* over the domains */
  hier_slot_t *slots;               /* [nproc] */
};

size_t ompext_hier_size(const ompext_topo_layout_t *layout, int m) {
  return ompext_pad_bytes(sizeof(ompext_hier_t)) +
         (size_t)layout->nproc * sizeof(hier_slot_t) +
         ompext_pad_bytes((size_t)layout->ndomains * sizeof(int)) +
         ompext_dissemination_size(layout->ndomains, m);
}

ompext_hier_t *ompext_hier_init(void *mem, const ompext_topo_layout_t *layout,
                                int k, int m) {
  ompext_hier_t *b = mem;
  char *p = (char *)mem + ompext_pad_bytes(sizeof(*b));
  b->nproc = layout->nproc;
  b->k = k < 1 ? 1 : k;
  b->layout = layout;
  b->slots = (hier_slot_t *)p;
  p += (size_t)layout->nproc * sizeof(hier_slot_t);
  b->leader_tid = (int *)p;
  for (int d = 0; d < layout->ndomains; ++d)
    b->leader_tid[d] = ompext_topology_leader(layout, d);
  p += ompext_pad_bytes((size_t)layout->ndomains * sizeof(int));
  b->leaders = ompext_dissemination_init(p, layout->ndomains, m);
  ompext_dissemination_map_tids(b->leaders, b->leader_tid);
  return b;
}

void ompext_hier_wait(ompext_hier_t *b, int gtid, int tid,
                      unsigned spin_polls) {
  const ompext_topo_layout_t *l = b->layout;
  hier_slot_t *self = &b->slots[tid];
  const uint64_t expect = ompext_expect(++self->episode, 1);
  const int d = l->domain[tid];
  const int *member = l->order + l->dstart[d]; /* local index -> tid */
  const long size = l->dstart[d + 1] - l->dstart[d];
  const long i = l->rank[tid] - l->dstart[d];
  const long first = i * b->k + 1;
  const long last = first + b->k - 1 < size - 1 ? first + b->k - 1 : size - 1;

  /* 1. Gather the subtree.  Acquire (in ompext_wait) pairs with each
     child's release signal. */
  for (long c = first; c <= last; ++c)
    ompext_wait(gtid, &b->slots[member[c]].arrived, expect, spin_polls);
  if (i != 0) {
    /* Release: publishes this subtree's writes to the parent. */
    ompext_signal(gtid, member[(i - 1) / b->k], &self->arrived);
    /* Acquire: pairs with the parent's release signal of go below. */
    ompext_wait(gtid, &self->go, expect, spin_polls);
  } else {
    /* 2. A leader: the whole domain has arrived; meet the other leaders. */
    ompext_dissemination_wait(b->leaders, gtid, d, spin_polls);
  }
  /* 3. Release the subtree: what this thread saw reaches each child. */
  for (long c = first; c <= last; ++c)
    ompext_signal(gtid, member[c], &b->slots[member[c]].go);
}
