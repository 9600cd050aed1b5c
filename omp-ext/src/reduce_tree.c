/*
 * Tree reduction gather with a model-chosen fan-in per level (Ramos and
 * Hoefler, Table 4.1, small reduction).
 *
 * Level l (1-based) groups the survivors of level l-1 into groups of k_l:
 * with span s_l = k_1*...*k_{l-1}, thread t is still active at level l when
 * s_l divides t, leads its group when s_l*k_l divides t, and its children
 * there are t + j*s_l, j = 1..k_l-1 (those < n).  A child publishes its
 * data pointer on its own padded line, then signals its arrival word (the
 * parent is that word's only waiter); the parent waits for the arrival,
 * reads the pointer (acquire) and calls reduce(mine, child's).  A thread
 * signals upward only after folding in all of its children.
 *
 * Arrival words count episodes: after episode e a child's word holds
 * 4*(e+1).  A child cannot start episode e+1 before the runtime's release
 * that follows this gather, which comes after its parent consumed episode
 * e, so neither parity nor resets are needed.
 */
#include "reduce_tree.h"

#include "config.h"
#include "pad.h"
#include "wait.h"

typedef struct reduce_slot {
  alignas(OMPEXT_CACHE_LINE) ompext_flag_word_t arrived; /* child -> parent */
  void *data;       /* the child's data for this episode, set before arrival */
  uint64_t episode; /* owner-only */
} reduce_slot_t;

struct ompext_reduce_tree {
  alignas(OMPEXT_CACHE_LINE) int nproc;
  int levels;
  int fanin[OMPEXT_MAX_LEVELS];
  reduce_slot_t *slots; /* [nproc] */
};

size_t ompext_reduce_tree_size(int nproc) {
  return ompext_pad_bytes(sizeof(ompext_reduce_tree_t)) +
         (size_t)nproc * sizeof(reduce_slot_t);
}

ompext_reduce_tree_t *ompext_reduce_tree_init(void *mem, int nproc,
                                              const int *fanin, int levels) {
  ompext_reduce_tree_t *t = mem;
  t->nproc = nproc;
  t->levels = levels < OMPEXT_MAX_LEVELS ? levels : OMPEXT_MAX_LEVELS;
  for (int l = 0; l < t->levels; ++l)
    t->fanin[l] = fanin[l] < 2 ? 2 : fanin[l];
  t->slots = (reduce_slot_t *)((char *)mem + ompext_pad_bytes(sizeof(*t)));
  return t;
}

void ompext_reduce_tree_gather(ompext_reduce_tree_t *t, int gtid, int tid,
                               void *data, ompext_pairfn_t reduce,
                               unsigned spin_polls) {
  reduce_slot_t *mine = &t->slots[tid];
  const uint64_t expect = ompext_expect(++mine->episode, 1);
  long span = 1;
  for (int l = 0; l < t->levels; ++l) {
    const long group = span * t->fanin[l];
    if (tid % group != 0) {
      /* Not a leader at this level: hand the data to the group's leader. */
      int parent = (int)(tid - tid % group);
      mine->data = data; /* ordered before the arrival by the release */
      ompext_signal(gtid, parent, &mine->arrived);
      return;
    }
    for (int j = 1; j < t->fanin[l]; ++j) {
      long child = tid + j * span;
      if (child >= t->nproc)
        break;
      reduce_slot_t *slot = &t->slots[child];
      ompext_wait(gtid, &slot->arrived, expect, spin_polls);
      if (ompext_svc->reduction_event)
        ompext_svc->reduction_event(gtid, 1);
      reduce(data, slot->data);
      if (ompext_svc->reduction_event)
        ompext_svc->reduction_event(gtid, 0);
    }
    span = group;
  }
  /* Only tid 0 gets here: every level led, all data folded in. */
}
