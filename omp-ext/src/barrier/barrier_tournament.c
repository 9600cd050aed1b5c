/*
 * Tournament barrier (Hensgen, Finkel and Manber; Mellor-Crummey and Scott,
 * with statically determined winners; the variant of Panigrahi et al. for the
 * release fan-out k >= 2).
 *
 * Gather: ceil(log2 n) rounds.  In round r the threads whose tid is a
 * multiple of 2^r meet in pairs (w, w + 2^r), w a multiple of 2^(r+1): the
 * winner w is fixed in advance.  The loser signals the winner's word for
 * round r and drops out to wait for its go word; the winner waits for that
 * signal (if its opponent exists, w + 2^r < n) and plays round r+1.  tid 0
 * wins every round: the champion, who has then heard from everybody.
 * Release, k = 0: back down the tournament.  A thread that lost in round r
 * (or the champion, r = rounds) signals the go words of the opponents it beat,
 * round r-1 first (the one with the largest subtree), down to round 0.
 * Release, k >= 2: down the k-ary heap over the tids (children k*t+1..k*t+k),
 * which takes ceil(log_k n) steps instead of ceil(log2 n).
 *
 * Flags, each alone on its padded line, each with one signaller and one
 * waiter, each holding e bumps after episode e (counting uses from 1) -- a
 * monotone count compared with ==, never reset:
 *   win[r][w]  signalled by w + 2^r, waited on by w, for w a multiple of
 *              2^(r+1); stored at row[r] + w / 2^(r+1), so the rounds take
 *              about n words in all rather than n * rounds;
 *   go[t]      (t != 0) signalled by t's releaser, waited on by t.
 *
 * Episodes: no parity is needed.  A loser signals win[r][w] for episode e+1
 * only after its go word moved in episode e, which happens after the champion
 * finished the gather of e, hence after w's wait on win[r][w] for e returned.
 * A releaser signals go[t] for e+1 only after the champion gathered e+1,
 * which needs t's arrival in e+1, i.e. t has left its wait on go[t] for e.
 *
 * Memory order: signals are release fetch-adds, waits end with an acquire
 * load (wait.h); each winner signals (as a later loser) only after its
 * waits, and each releaser only after its own go, so every thread's writes
 * before the barrier happen before the champion's release and thus before
 * every thread's return.
 *
 * The episode counter of each tid is on its own padded line, touched only by
 * the thread holding that tid; go[t] is on another line, since t's releaser
 * writes it while t polls it.
 */
#include "barrier_tournament.h"

#include "bounds.h"
#include "pad.h"
#include "wait.h"

#include <assert.h>

#define MAX_ROUNDS 31 /* 2^31 > any int nproc */

typedef struct tour_slot {
  alignas(OMPEXT_CACHE_LINE) uint64_t episode;       /* owner-only */
  alignas(OMPEXT_CACHE_LINE) ompext_flag_word_t go;  /* releaser -> tid */
} tour_slot_t;
_Static_assert(sizeof(ompext_flag_word_t) == 8, "flag words are 64-bit");
_Static_assert(sizeof(tour_slot_t) == 2 * OMPEXT_CACHE_LINE,
               "episode and go each fill one padded line");

struct ompext_barrier_tournament {
  alignas(OMPEXT_CACHE_LINE) int nproc; /* read-only after init */
  int k;                                /* release fan-out, 0: tournament */
  int rounds;
  int row[MAX_ROUNDS];        /* first win word of each round */
  tour_slot_t *slots;         /* [nproc] */
  ompext_padded_word_t *win;  /* [win_words(nproc)] */
};

static int rounds_for(int64_t nproc) {
  int rounds = 0;
  while (rounds < MAX_ROUNDS && ((int64_t)1 << rounds) < nproc)
    ++rounds;
  return rounds;
}

/* Winners of round r: the multiples of 2^(r+1) below n. */
static int64_t winners(int64_t nproc, int r) {
  return (nproc - 1) / ((int64_t)2 << r) + 1;
}

static size_t win_words(int64_t nproc) {
  size_t words = 0;
  for (int r = 0; r < rounds_for(nproc); ++r)
    words += (size_t)winners(nproc, r);
  return words;
}

size_t ompext_barrier_tournament_size(int nproc) {
  return ompext_pad_bytes(sizeof(ompext_barrier_tournament_t)) +
         (size_t)nproc * sizeof(tour_slot_t) +
         win_words(nproc) * sizeof(ompext_padded_word_t);
}

ompext_barrier_tournament_t *
ompext_barrier_tournament_init(void *mem, int nproc, int release_k) {
  ompext_barrier_tournament_t *b = mem;
  assert(release_k == 0 ||
         (release_k >= OMPEXT_MIN_TREE_K && release_k <= OMPEXT_MAX_FANIN));
  b->nproc = nproc;
  b->k = release_k;
  b->rounds = rounds_for(nproc);
  int at = 0;
  for (int r = 0; r < b->rounds; ++r) {
    b->row[r] = at;
    at += (int)winners(nproc, r);
  }
  char *tail = (char *)mem + ompext_pad_bytes(sizeof(*b));
  b->slots = (void *)tail;
  b->win = (void *)(tail + (size_t)nproc * sizeof(tour_slot_t));
  return b;
}

int ompext_barrier_tournament_rounds(const ompext_barrier_tournament_t *b) {
  return b->rounds;
}

int ompext_barrier_tournament_fanout(const ompext_barrier_tournament_t *b) {
  return b->k;
}

static inline ompext_flag_word_t *win_at(ompext_barrier_tournament_t *b, int r,
                                         int w) {
  return &b->win[b->row[r] + (w >> (r + 1))].word;
}

void ompext_barrier_tournament_wait(ompext_barrier_tournament_t *b, int gtid,
                                    int tid, unsigned spin_polls) {
  const int n = b->nproc;
  if (n <= 1)
    return;
  tour_slot_t *self = &b->slots[tid];
  /* Every word this episode touches holds `uses` bumps once it is done. */
  const uint64_t uses = ++self->episode;
  const uint64_t expect = ompext_expect(uses, 1);

  /* Gather.  Reaching round r means the low r bits of tid are clear. */
  int r = 0;
  for (; r < b->rounds; ++r) {
    const int bit = 1 << r;
    if (tid & bit) {
      /* Lost round r to tid - bit.  Release: publishes this subtree's
         writes to the winner's acquire wait below. */
      ompext_signal(gtid, tid - bit, win_at(b, r, tid - bit));
      /* Acquire: pairs with the releaser's release signal of go below. */
      ompext_wait(gtid, &self->go, expect, spin_polls);
      break;
    }
    /* Won round r.  Acquire: pairs with the loser's release signal above. */
    if ((int64_t)tid + bit < n)
      ompext_wait(gtid, win_at(b, r, tid), expect, spin_polls);
  }
  /* Here r is the round tid lost, or b->rounds for the champion. */

  /* Release.  Each signal is a release: what the champion saw (every
     thread's writes), and this thread's go, reach the woken thread. */
  if (b->k == 0) {
    for (int q = r - 1; q >= 0; --q) {
      const int64_t beaten = (int64_t)tid + (1 << q);
      if (beaten < n)
        ompext_signal(gtid, (int)beaten, &b->slots[beaten].go);
    }
  } else {
    const int64_t first = (int64_t)tid * b->k + 1;
    const int64_t last = first + b->k - 1 < n - 1 ? first + b->k - 1 : n - 1;
    for (int64_t c = first; c <= last; ++c)
      ompext_signal(gtid, (int)c, &b->slots[c].go);
  }
}
