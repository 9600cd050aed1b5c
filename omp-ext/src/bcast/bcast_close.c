/*
 * Closing a copyprivate broadcast.
 *
 * Copyprivate ends with a barrier, which also keeps the root's data alive
 * until every copy is done.  The team's barrier (dissemination) is
 * symmetric: the thread that arrives last, the slowest copier, leaves
 * first and tends to win the next single.  With short copies that is the
 * cheapest close.  With long ones the root moves from thread to thread, and
 * a program that rebroadcasts mostly unchanged data then moves all of it
 * through the caches at every broadcast, where a fixed root would let each
 * receiver copy from lines it already holds.  So when the copies are long,
 * the root asks for a rooted close instead: a k-ary combining tree re-rooted
 * at the root (gather up, then release down), after which the root leaves
 * first.  It costs a few line transfers more than the team's barrier; the
 * threshold (plan.c) keeps that small next to the copy.  A program that
 * rewrites the data in every single wants the root to move instead (it then
 * rewrites lines it holds), so under OMPEXT_BCAST_CLOSE=auto each construct
 * with long copies tries both closes and keeps the faster (bcast_trial.c).
 *
 * Who decides: the root, when it publishes, so that every thread of the
 * broadcast learns the same choice with the root's mailbox (bcast_tree.c)
 * and the team agrees on what its next barrier is.  What it decides from: a
 * hint word, "copies are long", written by receivers that timed their copy,
 * from before the copy to the closing barrier: a receiver's first
 * FIRST_SAMPLES copies, then one in SAMPLE_EVERY, so the clock costs
 * nothing noticeable on short copies and long ones are found within a few
 * broadcasts (until then the team's barrier moves the root at every
 * broadcast: at 1 MiB and 2 threads a broadcast then took 480 us against
 * stock's 30, and sampling one in 16 from the start kept that up for about
 * 50 broadcasts, 2 to 3 of syncbench's 5 timed runs).
 * A receiver sets the hint after LONG_STREAK long samples in a row (one
 * copy preempted by the scheduler does not move the close), and the hint
 * then sticks for the team's life: under the rooted close the receivers of
 * unchanged data copy from lines they hold, so their copies turn short
 * exactly because the close is right, and a hint that followed them would
 * swing back to the team's barrier and pay the long copies again (at 4 KiB
 * and 2 threads the swinging close cost 1.1-1.4x stock, the sticky one
 * 0.7x).  A steady program therefore writes the hint's line at most once.
 * The hint is a heuristic and relaxed: a stale read picks a slower close
 * (or broadcast tree, for which bcast_tree.c reads the same hint), never a
 * wrong one.
 *
 * Who wins the next single: the root leaves the rooted close first, but
 * only by the time its go signal takes to reach a receiver, and a receiver
 * that then reaches the next single first becomes the root.  For unchanged
 * data that is the move the rooted close exists to avoid: the old root then
 * copies every line the new one just wrote (at 1 MiB and 2 threads about 70
 * us more, once per move).  Leaving at once, receivers won 1-2 % of the
 * singles at 1 MiB (stock's workers, which have more to do after their
 * barrier, 0.1-0.4 %), enough to put the broadcast at 1.03-1.07x stock.  So a
 * receiver that spins (spin_polls > 0) lets the root lead: it leaves
 * lead_ns after its go, a few line transfers (plan.c), time the root needs
 * to take the single's line; the receiver would often wait at the
 * next broadcast's mailbox meanwhile.  Measured at 1 MiB and 2 threads (5000
 * broadcasts): receivers' wins fell from about 80 to 15-25 with a 30 ns lead
 * and 7-10 with 60-120 ns.  The wait is on the receiver's way to the next
 * broadcast, and when the root has little to do before publishing again it
 * delays that broadcast: with a calibration of R_R 136 ns (a noisy spell),
 * a lead of 272 ns put syncbench's 4 KiB at 1.28x stock and 64 KiB at 1.06
 * (0.89 and 0.98 without it).  Flips cost in proportion to the copy, the
 * lead does not, so a receiver leads only after a timed copy of at least
 * LEAD_COPY_FACTOR leads.  A receiver that does not spin (oversubscribed
 * or passive) leaves at once: its processor is wanted elsewhere.  Data
 * rewritten in every single is the other way round (a moving root rewrites
 * lines it holds); its trial finds the team's barrier faster, and that
 * close has no lead.
 *
 * The rooted barrier reuses the combining tree's halves (barrier_tree.h)
 * over the team in rotated order: member index i is tid (root + i) mod n,
 * read from a doubled identity table, so no table is built per episode.
 * Its words count uses, as the tree barrier's do, whichever thread is the
 * root: the root, which neither signals its arrival nor waits for its go,
 * bumps both of its own words itself, unobserved (nobody waits on them in
 * this use), so that after use u every word holds u bumps.  A word's
 * signaller and waiter change with the root, but every thread signals a
 * word for use u+1 only after it left use u, so no word runs ahead of its
 * waiter.
 */

#include "bcast_close.h"

#include "barrier_tree.h"
#include "bcast_trial.h"
#include "now.h"
#include "pad.h"
#include "wait.h"

#include <stdatomic.h>

/* A receiver times its first copies, then one in this many. */
#define FIRST_SAMPLES 8
#define SAMPLE_EVERY 16
/* This many long samples in a row make copies long. */
#define LONG_STREAK 3
/* A receiver lets the root lead only after a timed copy this many times
   the lead: the wait then costs at most 1/16 of a copy (see the top). */
#define LEAD_COPY_FACTOR 16

/* Each thread's own line: written and read by that thread only. */
typedef struct close_own {
  alignas(OMPEXT_CACHE_LINE) int pending; /* root + 1 of a rooted close; 0 */
  unsigned first_left; /* first receptions still to be timed each */
  unsigned countdown;  /* then receptions to the next sample */
  uint64_t copy_start_ns;                 /* 0: no sample running */
  uint64_t last_copy_ns;                  /* its last timed copy */
  unsigned long_streak;                   /* long samples in a row */
} close_own_t;

struct ompext_bcast_close {
  alignas(OMPEXT_CACHE_LINE) int nproc; /* read-only after init */
  int k;
  ompext_bcast_close_mode_t mode;
  int time_copies; /* receivers time one copy in SAMPLE_EVERY */
  uint64_t long_ns;
  uint64_t lead_ns;          /* receivers leave this long after their go */
  int *rotation;             /* [2 * nproc]: rotation[j] = j mod nproc */
  ompext_barrier_tree_slot_t *slots; /* [nproc], by tid */
  close_own_t *own;          /* [nproc], by tid */
  /* 1: receivers' recent copies were long.  Alone on its line. */
  alignas(OMPEXT_CACHE_LINE) _Atomic int copies_long;
  /* Rooted or barrier per call site, written by roots only (AUTO). */
  alignas(OMPEXT_CACHE_LINE) ompext_bcast_trial_t trial;
};

size_t ompext_bcast_close_size(int nproc) {
  return ompext_pad_bytes(sizeof(ompext_bcast_close_t)) +
         (size_t)nproc *
             (sizeof(ompext_barrier_tree_slot_t) + sizeof(close_own_t)) +
         ompext_pad_bytes(2 * (size_t)nproc * sizeof(int));
}

ompext_bcast_close_t *ompext_bcast_close_init(void *mem, int nproc, int tree_k,
                                              ompext_bcast_close_mode_t mode,
                                              uint64_t long_ns,
                                              uint64_t lead_ns,
                                              int time_copies, int verbose) {
  ompext_bcast_close_t *c = mem;
  char *p = (char *)mem + ompext_pad_bytes(sizeof(*c));
  c->nproc = nproc;
  c->k = tree_k;
  c->mode = mode;
  c->long_ns = long_ns;
  c->lead_ns = lead_ns;
  c->time_copies = time_copies;
  c->slots = (ompext_barrier_tree_slot_t *)p;
  p += (size_t)nproc * sizeof(ompext_barrier_tree_slot_t);
  c->own = (close_own_t *)p;
  p += (size_t)nproc * sizeof(close_own_t);
  c->rotation = (int *)p;
  for (int j = 0; j < 2 * nproc; ++j)
    c->rotation[j] = j % nproc;
  for (int t = 0; t < nproc; ++t) {
    c->own[t].first_left = FIRST_SAMPLES;
    c->own[t].countdown = 1 + (unsigned)t % SAMPLE_EVERY; /* staggered */
  }
  atomic_init(&c->copies_long, 0);
  ompext_bcast_trial_init(&c->trial, verbose);
  return c;
}

int ompext_bcast_close_copies_long(ompext_bcast_close_t *c) {
  /* relaxed: a hint; the root's choices travel to the team in the mailbox */
  return atomic_load_explicit(&c->copies_long, memory_order_relaxed);
}

int ompext_bcast_close_choose(ompext_bcast_close_t *c, int copies_long,
                              int auto_allowed, uintptr_t site) {
  switch (c->mode) {
  case OMPEXT_BCAST_CLOSE_ROOTED:
    return 1;
  case OMPEXT_BCAST_CLOSE_AUTO:
    return copies_long && auto_allowed &&
           ompext_bcast_trial_rooted(&c->trial, site, ompext_now_ns);
  default:
    return 0;
  }
}

void ompext_bcast_close_note(ompext_bcast_close_t *c, int tid, int root,
                             int rooted, int is_root) {
  close_own_t *own = &c->own[tid];
  own->pending = rooted ? root + 1 : 0;
  if (is_root || !c->time_copies)
    return;
  if (own->first_left)
    --own->first_left;
  else if (--own->countdown)
    return;
  else
    own->countdown = SAMPLE_EVERY;
  own->copy_start_ns = ompext_now_ns();
}

int ompext_bcast_close_take(ompext_bcast_close_t *c, int tid) {
  close_own_t *own = &c->own[tid];
  if (!own->pending && !own->copy_start_ns)
    return -1; /* every barrier asks: keep the common answer cheap */
  if (own->copy_start_ns) {
    own->last_copy_ns = ompext_now_ns() - own->copy_start_ns;
    const int long_copy = own->last_copy_ns >= c->long_ns;
    own->copy_start_ns = 0;
    own->long_streak = long_copy ? own->long_streak + 1 : 0;
    /* relaxed: a hint (see the top); stored once, it sticks */
    if (own->long_streak >= LONG_STREAK &&
        !atomic_load_explicit(&c->copies_long, memory_order_relaxed))
      atomic_store_explicit(&c->copies_long, 1, memory_order_relaxed);
  }
  const int root = own->pending - 1;
  own->pending = 0;
  return root;
}

/* A receiver's lead_ns behind the root (see the top), by the clock. */
static void let_root_lead(uint64_t lead_ns) {
  const uint64_t until = ompext_now_ns() + lead_ns;
  while (ompext_now_ns() < until)
    ompext_cpu_relax();
}

void ompext_bcast_close_wait(ompext_bcast_close_t *c, int gtid, int tid,
                             int root, unsigned spin_polls) {
  const int n = c->nproc;
  if (n <= 1)
    return;
  const ompext_barrier_tree_group_t rotated = {c->slots, c->rotation + root, n,
                                               c->k};
  const int64_t index = (tid - root + n) % n;
  if (index == 0) {
    /* relaxed: nobody waits on the root's words in this use; the next
       use's waiter sees the bump through the release chain that ends
       this use (see the top) */
    atomic_fetch_add_explicit(&c->slots[tid].arrived, OMPEXT_FLAG_BUMP,
                              memory_order_relaxed);
    atomic_fetch_add_explicit(&c->slots[tid].go, OMPEXT_FLAG_BUMP,
                              memory_order_relaxed);
  }
  ompext_barrier_tree_arrive(&rotated, gtid, index, spin_polls);
  ompext_barrier_tree_depart(&rotated, gtid, index);
  if (index != 0 && spin_polls && c->lead_ns &&
      c->own[tid].last_copy_ns >= LEAD_COPY_FACTOR * c->lead_ns)
    let_root_lead(c->lead_ns);
}
