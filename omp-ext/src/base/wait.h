/*
 * Waiting on and signalling flag words.
 *
 * A wait first spins inline for a bounded number of polls (none when the
 * team is oversubscribed or the wait policy is passive), yielding the
 * processor at the runtime's own cadence (after 512 polls, then every 256):
 * threads of other processes may share it without the runtime knowing (MPI
 * ranks on the same cores), and a spin that never yields holds back the
 * thread it waits for or theirs.  Then it hands over to
 * the services wait, which in the runtime runs tasks, yields when threads
 * outnumber processors, sleeps after the blocktime (setting and clearing
 * the word's sleep bit around the sleep) and returns early at shutdown.
 * At every poll the inline spin asks the runtime whether the team has
 * tasks, and if so hands over at once: a task another thread created while
 * this one waits (a producer in a single, the others at its barrier) starts
 * at the next poll, not after the whole spin (4096 polls by default: 55 us
 * a task on the development machine).
 * Signals go through the services release: it adds OMPEXT_FLAG_BUMP and
 * wakes the word's waiter if it sleeps.  The only other change to a word
 * is bcast_close.c's own fetch-add of OMPEXT_FLAG_BUMP on a word nobody
 * waits on at that moment; no word is ever plain-stored.
 *
 * Ordering: every wait ends with an acquire load of the word, also after
 * the services wait, which promises no ordering (it reads the word the
 * runtime's way, a volatile load, which C11 does not count as atomic).  The
 * load reads the count the signallers' fetch-adds built, one release
 * sequence, so whatever each signaller wrote before signalling is visible
 * after the wait on any CPU.  On x86 it is a plain load of a line the wait
 * has just read.
 */
#ifndef OMPEXT_WAIT_H
#define OMPEXT_WAIT_H

#include "services.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define ompext_cpu_relax() _mm_pause()
#elif defined(__aarch64__)
#define ompext_cpu_relax() __asm__ __volatile__("yield" ::: "memory")
#else
#define ompext_cpu_relax() ((void)0)
#endif

/* The value a word reaches after `uses` uses of `signals` signals each. */
static inline uint64_t ompext_expect(uint64_t uses, unsigned signals) {
  return uses * signals * (uint64_t)OMPEXT_FLAG_BUMP;
}

static inline int ompext_word_is(ompext_flag_word_t *word, uint64_t expect) {
  /* acquire: pairs with the release in the signaller's fetch-add, so what
     the signaller wrote before signalling is visible after the wait. */
  uint64_t v = atomic_load_explicit(word, memory_order_acquire);
  return (v & ~(uint64_t)OMPEXT_FLAG_SLEEP_BIT) == expect;
}

/* The inline polls a wait may spin before it yields or sleeps: none when
   threads outnumber processors (the thread waited for may need this
   processor) or the wait policy is passive, else `polls`. */
static inline unsigned ompext_spin_budget(int oversubscribed, unsigned polls) {
  return oversubscribed || ompext_svc->passive_wait() ? 0 : polls;
}

/* One poll's pause of an inline spin (poll counts from 0): the runtime's
   waits pause the same way and yield after 512 pauses, then every 256
   (KMP_INIT_WAIT and KMP_NEXT_WAIT), so a spinning thread is never longer
   without a yield than a stock one.  A yield with nobody else runnable
   costs one system call, and most waits end before the first. */
enum { OMPEXT_SPIN_YIELD_FIRST = 512, OMPEXT_SPIN_YIELD_EVERY = 256 };

static inline void ompext_spin_pause(unsigned poll) {
  ompext_cpu_relax();
  if (poll + 1 >= OMPEXT_SPIN_YIELD_FIRST &&
      (poll + 1) % OMPEXT_SPIN_YIELD_EVERY == 0)
    sched_yield();
}

static inline void ompext_wait(int gtid, ompext_flag_word_t *word,
                               uint64_t expect, unsigned spin_polls) {
  for (unsigned i = 0; i < spin_polls; ++i) {
    if (ompext_word_is(word, expect))
      return;
    /* A call and three loads of lines nobody writes while no task exists:
       every poll costs the barriers nothing measurable (BARRIER, PARALLEL,
       FOR, REDUCTION at 2 threads, 14 rounds: 0.91-1.03 of asking every 64
       polls, none significant), and a task handed to a spinning waiter
       took 1.34 times stock's time per region when asked every 64 polls,
       1.04 every 8, 1.01 every poll. */
    if (ompext_svc->tasks_pending(gtid))
      break;
    ompext_spin_pause(i);
  }
  ompext_svc->wait(gtid, word, expect, 0);
  /* acquire: as in ompext_word_is; the services wait promises none. */
  (void)atomic_load_explicit(word, memory_order_acquire);
}

static inline void ompext_signal(int gtid, int waiter_tid,
                                 ompext_flag_word_t *word) {
  ompext_svc->release(gtid, waiter_tid, word);
}

#endif /* OMPEXT_WAIT_H */
