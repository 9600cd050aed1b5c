/*
 * m-ary dissemination barrier (Ramos and Hoefler, Table 4.1; Hensgen,
 * Finkel and Manber for m = 1).
 *
 * In round r, thread t signals the m threads (t + i*(m+1)^r) mod n,
 * i = 1..m, then waits for the m signals addressed to it.  After round r a
 * thread has heard, directly or through a chain, from the (m+1)^(r+1) - 1
 * threads before it, so ceil(log_{m+1} n) rounds cover any n >= 1.  Offsets
 * that wrap to 0 mod n would be self-signals and are skipped on both sides:
 * every thread receives exactly signals[r] signals in round r.
 *
 * Flags: one padded word per (episode parity, round, thread), written only
 * through the services release (+4) and waited on only by its owner.  A
 * thread in episode e+1 can run ahead of a slow one still in episode e, but
 * not into e+2 (that needs the slow thread's arrival), so two parities keep
 * episodes apart.  Word (p, r, t) has received signals[r] * (e/2 + 1)
 * signals once episode e (of parity p) is complete there, a monotone count:
 * nothing is ever reset.
 *
 * A barrier over a subset of a team (the leaders of a hierarchical barrier)
 * numbers its members 0..nproc-1 and maps them to team tids for the
 * services, which wake a sleeping waiter by its tid.
 *
 * The episode counter of each tid lives on its own padded line and is
 * touched only by the thread holding that tid: all tids pass through every
 * episode, so the counters agree whichever thread holds which tid.
 *
 * Who leaves first: nobody waits for a release, so each thread leaves as
 * soon as its own words are complete, and the last to arrive (the thread
 * that is running) tends to leave first.  With more threads than
 * processors tid 0 may then still be queued for one while the workers run
 * on into user code that waits for tid 0, a scheduler slice per barrier.
 * Hence an oversubscribed team takes the tree barrier, which tid 0
 * releases (plan.c); this barrier serves teams that fit the processors.
 */
#include "barrier_dissemination.h"

#include "bounds.h"
#include "pad.h"
#include "wait.h"

#include <assert.h>

#define MAX_ROUNDS 32 /* (m+1)^32 > any team */

typedef struct episode_slot {
  alignas(OMPEXT_CACHE_LINE) uint64_t episode; /* owner-only */
} episode_slot_t;

struct ompext_barrier_dissemination {
  alignas(OMPEXT_CACHE_LINE) int nproc;
  int dissem_m;
  int rounds;
  int offsets[MAX_ROUNDS][OMPEXT_MAX_M]; /* nonzero offsets mod n, per round */
  int signals[MAX_ROUNDS];        /* how many of them */
  const int *team_tid;            /* index -> team tid; NULL: identity */
  episode_slot_t *episodes;       /* [nproc] */
  ompext_padded_word_t *flags;    /* [2][rounds][nproc] */
};

static int rounds_for(int nproc, int dissem_m) {
  assert(dissem_m >= 1 && dissem_m <= OMPEXT_MAX_M); /* the plan clamps */
  int rounds = 0;
  for (long span = 1; span < nproc; span *= dissem_m + 1)
    ++rounds;
  return rounds;
}

size_t ompext_barrier_dissemination_size(int nproc, int dissem_m) {
  size_t rounds = (size_t)rounds_for(nproc, dissem_m);
  return ompext_pad_bytes(sizeof(ompext_barrier_dissemination_t)) +
         (size_t)nproc * sizeof(episode_slot_t) +
         2 * rounds * (size_t)nproc * sizeof(ompext_padded_word_t);
}

ompext_barrier_dissemination_t *
ompext_barrier_dissemination_init(void *mem, int nproc, int dissem_m) {
  ompext_barrier_dissemination_t *b = mem;
  b->nproc = nproc;
  b->dissem_m = dissem_m;
  b->rounds = rounds_for(nproc, dissem_m);
  b->team_tid = NULL;
  char *tail = (char *)mem + ompext_pad_bytes(sizeof(*b));
  b->episodes = (episode_slot_t *)tail;
  b->flags = (ompext_padded_word_t *)(tail + (size_t)nproc * sizeof(episode_slot_t));
  long stride = 1;
  for (int r = 0; r < b->rounds; ++r, stride *= dissem_m + 1) {
    b->signals[r] = 0;
    for (int i = 1; i <= dissem_m; ++i) {
      int off = (int)((i * stride) % nproc);
      if (off != 0)
        b->offsets[r][b->signals[r]++] = off;
    }
  }
  return b;
}

void ompext_barrier_dissemination_map_tids(ompext_barrier_dissemination_t *b,
                                           const int *team_tid) {
  b->team_tid = team_tid;
}

int ompext_barrier_dissemination_rounds(
    const ompext_barrier_dissemination_t *b) {
  return b->rounds;
}

static inline ompext_flag_word_t *flag_at(ompext_barrier_dissemination_t *b,
                                          int parity, int round, int tid) {
  size_t index = ((size_t)parity * (size_t)b->rounds + (size_t)round) *
                     (size_t)b->nproc + (size_t)tid;
  return &b->flags[index].word;
}

void ompext_barrier_dissemination_wait(ompext_barrier_dissemination_t *b,
                                       int gtid, int tid, unsigned spin_polls) {
  const int n = b->nproc;
  const uint64_t episode = b->episodes[tid].episode++;
  const int parity = (int)(episode & 1);
  const uint64_t uses = (episode >> 1) + 1;
  for (int r = 0; r < b->rounds; ++r) {
    for (int i = 0; i < b->signals[r]; ++i) {
      int peer = tid + b->offsets[r][i];
      if (peer >= n)
        peer -= n;
      /* The services wake a sleeping waiter by its team tid. */
      ompext_signal(gtid, b->team_tid ? b->team_tid[peer] : peer,
                    flag_at(b, parity, r, peer));
    }
    ompext_wait(gtid, flag_at(b, parity, r, tid),
                ompext_expect(uses, (unsigned)b->signals[r]), spin_polls);
  }
}
