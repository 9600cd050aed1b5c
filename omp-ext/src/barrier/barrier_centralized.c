/*
 * Centralized barrier with per-thread release flags (the "Centralized-II"
 * shape of Panigrahi et al.; a counter barrier without sense reversal).
 *
 * Gather: every tid t != 0 signals the one arrival word, which only tid 0
 * waits on, for n-1 more bumps per episode.  Release: tid 0 then signals the
 * go word of each t = 1..n-1 in turn, and t returns once its go word moved.
 * A flat tree of height one: 2 steps, but n-1 threads contend for the
 * arrival line and tid 0 performs n-1 releases in sequence.
 *
 * Flags, each alone on its padded line, each compared with == against a
 * monotone count and never reset:
 *   arrived  signalled by every t != 0, waited on by tid 0 only; holds
 *            e * (n-1) bumps after episode e (counting uses from 1);
 *   go[t]    signalled by tid 0, waited on by t; holds e bumps.
 * Only signals are shared (the ABI gives a word one waiter, not one
 * signaller), so the shared arrival word is within the rules.
 *
 * Episodes: no parity is needed.  t signals arrived for episode e+1 only
 * after go[t] moved in episode e, which tid 0 does only after its wait on
 * arrived for e returned: the count cannot pass e * (n-1) before tid 0 saw
 * it.  tid 0 signals go[t] for e+1 only after t's arrival in e+1, i.e. after
 * t left its wait on go[t] for e.
 *
 * Memory order: signals are release fetch-adds and waits end with an acquire
 * load (wait.h).  The fetch-adds on arrived form one release sequence, so
 * tid 0's acquire load of the final count synchronizes with every arrival;
 * tid 0 signals every go word after that, so each thread's writes before the
 * barrier happen before every thread's return.
 *
 * The episode counter of each tid is on its own padded line, touched only by
 * the thread holding that tid; go[t] is on another line, written by tid 0
 * while t polls it.  The read-only header is on a line of its own too.
 */
#include "barrier_centralized.h"

#include "pad.h"
#include "wait.h"

typedef struct central_slot {
  alignas(OMPEXT_CACHE_LINE) uint64_t episode;       /* owner-only */
  alignas(OMPEXT_CACHE_LINE) ompext_flag_word_t go;  /* tid 0 -> tid */
} central_slot_t;
_Static_assert(sizeof(ompext_flag_word_t) == 8, "flag words are 64-bit");
_Static_assert(sizeof(central_slot_t) == 2 * OMPEXT_CACHE_LINE,
               "episode and go each fill one padded line");

struct ompext_barrier_centralized {
  alignas(OMPEXT_CACHE_LINE) int nproc;  /* read-only after init */
  central_slot_t *slots;                 /* [nproc] */
  alignas(OMPEXT_CACHE_LINE) ompext_flag_word_t arrived; /* all -> tid 0 */
};
_Static_assert(sizeof(struct ompext_barrier_centralized) ==
                   2 * OMPEXT_CACHE_LINE,
               "the header and the arrival word each fill one padded line");

size_t ompext_barrier_centralized_size(int nproc) {
  return ompext_pad_bytes(sizeof(ompext_barrier_centralized_t)) +
         (size_t)nproc * sizeof(central_slot_t);
}

ompext_barrier_centralized_t *ompext_barrier_centralized_init(void *mem,
                                                              int nproc) {
  ompext_barrier_centralized_t *b = mem;
  b->nproc = nproc;
  b->slots = (void *)((char *)mem + ompext_pad_bytes(sizeof(*b)));
  return b;
}

void ompext_barrier_centralized_wait(ompext_barrier_centralized_t *b, int gtid,
                                     int tid, unsigned spin_polls) {
  const int n = b->nproc;
  if (n <= 1)
    return;
  central_slot_t *self = &b->slots[tid];
  const uint64_t uses = ++self->episode;

  if (tid != 0) {
    /* Release: publishes this thread's writes to tid 0's acquire wait. */
    ompext_signal(gtid, 0, &b->arrived);
    /* Acquire: pairs with tid 0's release signal of go[tid] below. */
    ompext_wait(gtid, &self->go, ompext_expect(uses, 1), spin_polls);
    return;
  }
  /* Acquire: pairs with the n-1 release signals of the arrivals above. */
  ompext_wait(gtid, &b->arrived, ompext_expect(uses, (unsigned)(n - 1)),
              spin_polls);
  /* Release: everything tid 0 has seen reaches each woken thread. */
  for (int t = 1; t < n; ++t)
    ompext_signal(gtid, t, &b->slots[t].go);
}
