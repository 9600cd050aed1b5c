/*
 * The runtime's global atomic lock as a test-and-test-and-set lock.
 *
 * The runtime's own is a queuing lock: a waiter links itself into a queue
 * and spins on a word of its own, and the holder's release finds the waiter
 * through the queue and writes that word.  The queue costs the one handoff
 * that matters here, two threads meeting at one short combine (GCC's array
 * reductions: every thread adds its partial result under the lock at the end
 * of the region), several line transfers: the queue's tail, the waiter's
 * word, the queue's head again.  Here a waiter reads the one lock word
 * until it sees it free, then swaps it: the release is one store, the
 * handoff the transfer of that line to the waiter and back into its
 * ownership.
 *
 * Progress: a waiter spins a bounded number of polls (yielding now and
 * then, as every spin does, wait.h), then yields its processor at every
 * poll, and yields from the start when threads outnumber processors or
 * waiting is passive, so a holder the scheduler preempted gets the
 * processor back.  The lock is not fair: among many waiters the
 * first to see the word free takes it; every holder holds it for one short
 * update, so nobody waits behind more than the others' updates.
 */
#include "atomic_lock.h"

#include "pad.h"
#include "services.h"
#include "stats.h"
#include "wait.h"

#include <sched.h>
#include <stdatomic.h>

typedef struct ompext_atomic_lock {
  alignas(OMPEXT_CACHE_LINE) atomic_int held;
} ompext_atomic_lock_t;

static ompext_atomic_lock_t the_lock;
static unsigned spin_polls = 4096;

void ompext_atomic_lock_set_spin(unsigned polls) { spin_polls = polls; }

/* acquire: what the previous holder wrote before its release is visible
   once the swap has returned 0. */
static inline int try_take(void) {
  return atomic_exchange_explicit(&the_lock.held, 1, memory_order_acquire) == 0;
}

static inline int looks_free(void) {
  /* relaxed: only a hint; try_take orders. */
  return atomic_load_explicit(&the_lock.held, memory_order_relaxed) == 0;
}

void ompext_atomic_lock_acquire(int gtid) {
  (void)gtid;
  ompext_stat_add(OMPEXT_STAT_ATOMIC_LOCK);
  /* Read before the swap: a swap on a held lock would take the line from
     the holder, who must take it back to release. */
  if (looks_free() && try_take())
    return;
  const unsigned polls =
      ompext_spin_budget(ompext_svc->oversubscribed(), spin_polls);
  unsigned spun = 0;
  for (;;) {
    while (!looks_free()) {
      if (spun < polls)
        ompext_spin_pause(spun++);
      else
        sched_yield();
    }
    if (try_take())
      return;
  }
}

void ompext_atomic_lock_release(int gtid) {
  (void)gtid;
  /* release: the holder's update is visible to the next holder's swap. */
  atomic_store_explicit(&the_lock.held, 0, memory_order_release);
}
