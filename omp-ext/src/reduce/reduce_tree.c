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
 * With a topology layout of several domains the same levels run twice:
 * inside each domain over the members' local indices (leader: local index
 * 0, the domain's lowest tid), then among the leaders over the domain
 * numbers, so exactly ndomains-1 arrivals cross the costly level.
 *
 * Timing (while the plugin measures a call site's size, reduce_choice.c):
 * the parent times each combine, and just before it the read of the
 * child's reference line, a line of the child's own that the child writes
 * before each arrival and nobody else touches.  That read is one modified
 * line from another core, the model's R_R, taken in the same moment as the
 * combine, so the two can be compared whatever the machine's transfers
 * cost right now (a virtual machine's cores move: on the development
 * machine R_R went from 28 to 125 ns and back within minutes).
 *
 * Arrival words count episodes: after episode e a child's word holds
 * 4*(e+1).  A child cannot start episode e+1 before the runtime's release
 * that follows this gather, which comes after its parent consumed episode
 * e, so neither parity nor resets are needed.
 */
#include "reduce_tree.h"

#include "bounds.h"
#include "now.h"
#include "pad.h"
#include "wait.h"

#include <assert.h>

typedef struct reduce_slot {
  alignas(OMPEXT_CACHE_LINE) ompext_flag_word_t arrived; /* child -> parent */
  void *data;       /* the child's data for this episode, set before arrival */
  uint64_t episode; /* owner-only */
  /* Written by the child before each arrival, read by the parent only when
     it times (ordered by the arrival), on a line of its own. */
  alignas(OMPEXT_CACHE_LINE) uint64_t reference;
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
  ompext_reduce_tree_set_fanin(t, fanin, levels);
  t->slots = (reduce_slot_t *)((char *)mem + ompext_pad_bytes(sizeof(*t)));
  return t;
}

void ompext_reduce_tree_set_fanin(ompext_reduce_tree_t *t, const int *fanin,
                                  int levels) {
  assert(levels >= 0 && levels <= OMPEXT_MAX_LEVELS); /* the plan's */
  t->levels = levels;
  for (int l = 0; l < levels; ++l) {
    assert(fanin[l] >= 2 && fanin[l] <= OMPEXT_MAX_FANIN);
    t->fanin[l] = fanin[l];
  }
}

/* The threads one gather runs over: index j (0 .. count-1) is the tid
   order[first[j]] (the leaders of a layout's domains), order[base + j] (the
   members of one domain), or j itself (order NULL: the whole team). */
typedef struct index_space {
  long count;
  const int *order;
  const int *first;
  long base;
} index_space_t;

static inline int space_tid(const index_space_t *s, long j) {
  if (!s->order)
    return (int)j;
  return s->first ? s->order[s->first[j]] : s->order[s->base + j];
}

/* reduce(data, slot's data), timed into *probe unless it is NULL: the
   slot's reference line read first, then the combine. */
static void combine(ompext_pairfn_t reduce, void *data, reduce_slot_t *slot,
                    ompext_reduce_probe_t *probe) {
  if (!probe) {
    reduce(data, slot->data);
    return;
  }
  const uint64_t before = ompext_now_ns();
  /* volatile: the read itself is what is timed */
  (void)*(volatile uint64_t *)&slot->reference;
  const uint64_t start = ompext_now_ns();
  reduce(data, slot->data);
  const double took = (double)(ompext_now_ns() - start);
  if (took > probe->combine_ns) {
    probe->combine_ns = took;
    probe->reference_ns = (double)(start - before);
  }
}

/* The levels over one index space.  Returns 1 when the caller is the
   space's index 0 (it now holds every member's data), 0 once it handed its
   data to its group's leader. */
static int gather_levels(ompext_reduce_tree_t *t, const index_space_t *s,
                         long self, int gtid, reduce_slot_t *mine,
                         uint64_t expect, void *data, ompext_pairfn_t reduce,
                         unsigned spin_polls, ompext_reduce_probe_t *probe) {
  long span = 1;
  for (int l = 0; l < t->levels && span < s->count; ++l) {
    const long group = span * t->fanin[l];
    if (self % group != 0) {
      /* Not a leader at this level: hand the data to the group's leader. */
      mine->data = data; /* ordered before the arrival by the release */
      mine->reference = expect;
      ompext_signal(gtid, space_tid(s, self - self % group), &mine->arrived);
      return 0;
    }
    for (int j = 1; j < t->fanin[l]; ++j) {
      long child = self + j * span;
      if (child >= s->count)
        break;
      reduce_slot_t *slot = &t->slots[space_tid(s, child)];
      ompext_wait(gtid, &slot->arrived, expect, spin_polls);
      if (ompext_svc->reduction_event)
        ompext_svc->reduction_event(gtid, 1);
      combine(reduce, data, slot, probe);
      if (ompext_svc->reduction_event)
        ompext_svc->reduction_event(gtid, 0);
    }
    span = group;
  }
  return 1;
}

void ompext_reduce_tree_gather(ompext_reduce_tree_t *t, int gtid, int tid,
                               void *data, ompext_pairfn_t reduce,
                               const ompext_topo_layout_t *layout,
                               unsigned spin_polls,
                               ompext_reduce_probe_t *probe) {
  reduce_slot_t *mine = &t->slots[tid];
  const uint64_t expect = ompext_expect(++mine->episode, 1);
  if (!layout || layout->ndomains < 2) {
    const index_space_t team = {t->nproc, NULL, NULL, 0};
    gather_levels(t, &team, tid, gtid, mine, expect, data, reduce, spin_polls,
                  probe);
    return; /* only tid 0 returns with every thread's data folded in */
  }
  /* One leader per domain: each domain first gathers into its leader (its
     lowest tid, local index 0), then the leaders gather into tid 0, the
     leader of domain 0.  Every tid still signals its own word exactly once
     per episode, so the counting above holds whichever layout runs. */
  const int d = layout->domain[tid];
  const index_space_t domain = {layout->dstart[d + 1] - layout->dstart[d],
                                layout->order, NULL, layout->dstart[d]};
  if (!gather_levels(t, &domain, layout->rank[tid] - layout->dstart[d], gtid,
                     mine, expect, data, reduce, spin_polls, probe))
    return;
  const index_space_t leaders = {layout->ndomains, layout->order,
                                 layout->dstart, 0};
  gather_levels(t, &leaders, d, gtid, mine, expect, data, reduce, spin_polls,
                probe);
}
