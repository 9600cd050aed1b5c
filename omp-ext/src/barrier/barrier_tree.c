/*
 * k-ary combining tree barrier (the "tree" barrier of Panigrahi et al.,
 * after Mellor-Crummey and Scott's tree barriers).
 *
 * The tids form a k-ary heap: the children of t are k*t+1 .. k*t+k (those
 * below nproc), its parent is (t-1)/k.  Gather: a thread waits for the
 * arrival of each of its children in turn, then signals its own arrival to
 * its parent; tid 0 has then heard, through the chains, from everybody.
 * Release: tid 0 signals the go word of each of its children, and every
 * thread, once its go word moved, does the same for its own children before
 * it returns.  Gather and release both cross ceil(log_k n) levels.
 *
 * Flags: each tid t owns two words, each alone on its padded line:
 *   arrived[t]  signalled by t once per episode, waited on by parent(t);
 *   go[t]       signalled by parent(t) once per episode, waited on by t.
 * So every word has one signaller and one waiter, and after episode e (the
 * e-th use, counting from 1) it holds e bumps: a monotone count, compared
 * with == and never reset.  Children use words of their own rather than one
 * shared counter per parent, so siblings never contend for a line.
 *
 * Episodes: no parity is needed.  t signals arrived[t] for episode e+1 only
 * after leaving episode e, i.e. after go[t] moved, which its parent does only
 * after its wait on arrived[t] for episode e returned.  Likewise the parent
 * signals go[t] for e+1 only after arrived[t] reached e+1, i.e. after t left
 * its wait on go[t] for e.  A word therefore never runs ahead of its waiter.
 *
 * Memory order: every signal is a release fetch-add and every wait ends with
 * an acquire load of the same word (wait.h), and each thread signals upwards
 * only after its waits on its children, and downwards only after its own
 * go.  So every thread's writes before the barrier happen before tid 0's
 * release, and that happens before every thread's return.
 *
 * The episode counter of each tid is on its own padded line, touched only by
 * the thread holding that tid.  arrived and go sit on separate lines because
 * they change in different phases and are polled by different threads.
 *
 * Tid 0 leaves first: no thread returns before tid 0 has seen every arrival
 * and started the release, so tid 0 is running when the others leave, as in
 * the runtime's own barriers.  An oversubscribed team relies on that
 * (plan.c): user code after a barrier often waits for tid 0.
 */
#include "barrier_tree.h"

#include "bounds.h"
#include "pad.h"
#include "wait.h"

#include <assert.h>

typedef ompext_barrier_tree_slot_t tree_slot_t;
_Static_assert(sizeof(ompext_flag_word_t) == 8, "flag words are 64-bit");
_Static_assert(sizeof(tree_slot_t) == 3 * OMPEXT_CACHE_LINE,
               "episode, arrived and go each fill one padded line");

struct ompext_barrier_tree {
  alignas(OMPEXT_CACHE_LINE) int nproc; /* read-only after init */
  int k;
  tree_slot_t *slots; /* [nproc] */
};

size_t ompext_barrier_tree_size(int nproc) {
  return ompext_pad_bytes(sizeof(ompext_barrier_tree_t)) +
         (size_t)nproc * sizeof(tree_slot_t);
}

ompext_barrier_tree_t *ompext_barrier_tree_init(void *mem, int nproc,
                                                int tree_k) {
  ompext_barrier_tree_t *b = mem;
  assert(tree_k >= OMPEXT_MIN_TREE_K && tree_k <= OMPEXT_MAX_FANIN);
  b->nproc = nproc;
  b->k = tree_k;
  b->slots = (void *)((char *)mem + ompext_pad_bytes(sizeof(*b)));
  return b;
}

int ompext_barrier_tree_fanin(const ompext_barrier_tree_t *b) { return b->k; }

static inline int member_tid(const ompext_barrier_tree_group_t *g, int64_t i) {
  return g->member ? g->member[i] : (int)i;
}

/* Children of index i: i*k+1 .. i*k+k, those below count. */
static inline int64_t last_child(const ompext_barrier_tree_group_t *g,
                                 int64_t i) {
  const int64_t last = i * g->k + g->k;
  return last < g->count - 1 ? last : g->count - 1;
}

void ompext_barrier_tree_arrive(const ompext_barrier_tree_group_t *g, int gtid,
                                int64_t i, unsigned spin_polls) {
  ompext_barrier_tree_slot_t *self = &g->slots[member_tid(g, i)];
  /* Both words of every member hold `uses` bumps once this episode is
     done. */
  const uint64_t expect = ompext_expect(++self->episode, 1);
  /* Gather.  Acquire (in ompext_wait) pairs with each child's release
     signal of its arrived word below. */
  for (int64_t c = i * g->k + 1; c <= last_child(g, i); ++c)
    ompext_wait(gtid, &g->slots[member_tid(g, c)].arrived, expect,
                spin_polls);
  if (i != 0) {
    /* Release: publishes this subtree's writes to the parent's wait. */
    ompext_signal(gtid, member_tid(g, (i - 1) / g->k), &self->arrived);
    /* Acquire: pairs with the parent's release signal of go below. */
    ompext_wait(gtid, &self->go, expect, spin_polls);
  }
}

void ompext_barrier_tree_depart(const ompext_barrier_tree_group_t *g, int gtid,
                                int64_t i) {
  /* Release down the same tree, eldest (largest subtree) child first.
     Release order: what the root saw (everything) reaches each child. */
  for (int64_t c = i * g->k + 1; c <= last_child(g, i); ++c) {
    const int child = member_tid(g, c);
    ompext_signal(gtid, child, &g->slots[child].go);
  }
}

void ompext_barrier_tree_wait(ompext_barrier_tree_t *b, int gtid, int tid,
                              unsigned spin_polls) {
  if (b->nproc <= 1)
    return;
  const ompext_barrier_tree_group_t team = {b->slots, NULL, b->nproc, b->k};
  ompext_barrier_tree_arrive(&team, gtid, tid, spin_polls);
  ompext_barrier_tree_depart(&team, gtid, tid);
}
