/*
 * sleep_wake.pml -- libomp's sleep-bit wake-up protocol, as the runtime's
 * services (kmp_plugin.cpp: __kmp_plugin_svc_wait and
 * __kmp_plugin_svc_release, through kmp_flag_64) run it for the plugin's
 * flag words.
 *
 * What is modelled
 *   N threads pass EPISODES barrier episodes in which every flag operation
 *   runs libomp's full code path, sleeping included.  Two barrier patterns
 *   give the threads something real to wait for:
 *   PATTERN 0  all-to-all: the one-round dissemination barrier
 *              (m = N-1, two parities).  In episode e thread t releases
 *              word (e mod 2, peer) of every other thread, then waits on
 *              its own word (e mod 2, t) for a growing count.  A word gets
 *              N-1 concurrent releases per use, and a slow releaser's
 *              wake-up can reach its target while that already sleeps on
 *              its other word in the next episode.
 *   PATTERN 1  the K-ary combining tree barrier: arrived[t] (released by
 *              t, waited on by its parent) and go[t] (released by the
 *              parent, waited on by t).  A parent waits on several words
 *              in turn and gets wake-ups from several children at once.
 *   -DRESET    the owner stores 0 into its word after each wait, and
 *              waits for one use's count (N-1 bumps; 1 on a go word), as
 *              for the fork's b_go.  In PATTERN 1 only the go words are
 *              reset: that is the fork/join flags of forkjoin.pml
 *              (monotone b_arrived, reset b_go) with sleeping added.
 *   So every thread is a waiter, on its own words, and a releaser.
 *
 *   inline release       __kmp_release_template: internal_release (atomic
 *                        add of a bump), then is_any_sleeping (the word's
 *                        sleep bit) and if set resume(waiter):
 *     resume             __kmp_resume_template: lock the waiter's
 *                        th_suspend_mx; take the flag it sleeps on now
 *                        (th_sleep_loc: the flag object the services
 *                        release builds is never the waiter's, so it is
 *                        always that one, whatever word it is on); NULL:
 *                        unlock and return; its sleep bit no longer set:
 *                        unlock and return; else unset_sleeping,
 *                        th_sleep_loc = NULL, pthread_cond_signal, unlock
 *   inline wait          __kmp_wait_template: done_check (word without the
 *                        sleep bit == checker): return; else loop while
 *                        notdone_check (the raw word != checker): poll
 *                        again, or (the blocktime ran out) suspend:
 *     suspend            __kmp_suspend_template: lock th_suspend_mx;
 *                        set_sleeping (atomic or, returns the old word);
 *                        th_sleep_loc = flag; if done_check_val(old) or
 *                        done_check(): unset_sleeping (false alarm); else
 *                        while is_sleeping(): pthread_cond_wait; then
 *                        th_sleep_loc = NULL and unlock
 *   inline reset         TCW_4(b_go, KMP_INIT_BARRIER_STATE)
 *   The word methods are kmp_flag_native's (set_sleeping, unset_sleeping,
 *   is_sleeping, done_check, done_check_val, notdone_check).
 *
 * Abstractions
 *   - A word is its count of bumps (count[], +1 per release for the +4)
 *     and its sleep bit (sleepb[]), kept apart; an atomic operation on the
 *     word is one step on both, the plain store of the reset sets both.
 *   - The mutex is a bit taken by a blocking test-and-set.  The condition
 *     variable: pthread_cond_wait releases the mutex and marks the thread
 *     waiting in one step; pthread_cond_signal clears the mark (a signal
 *     with no waiter is lost); the woken thread then re-takes the mutex.
 *     Spurious wake-ups: a waiting thread may also wake without a signal,
 *     at most SPURIOUS times in the whole run (POSIX allows them; finitely
 *     many, since weak fairness cannot promise progress to a thread that
 *     finds the mutex free only now and then).  The timed wait
 *     (USE_SUSPEND_TIMEOUT) is off in libomp: no ETIMEDOUT returns.
 *   - The polling loop is modelled as such (a failed poll goes round the
 *     loop), so the progress check needs weak fairness: without pan -f a
 *     thread polling for ever while the others stand still is a cycle.
 *     The waiter may suspend at any poll: the blocktime is finite (with
 *     KMP_MAX_BLOCKTIME nobody sleeps and releases never resume).  Tasks,
 *     yields, mwait, shutdown (g_done), pause and cancellation are not
 *     modelled, nor other kinds of flags the same thread may sleep on (type
 *     mismatch, null resume): every flag here is a kmp_flag_64.
 *   - Reduction: a critical section (lock ... unlock) with at most one
 *     access that conflicts with accesses made without the mutex is one
 *     step (Lipton: the lock moves right, the unlock left, accesses to
 *     data only touched under the mutex both ways).  th_sleep_loc is only
 *     touched under the mutex.  The sleep bit is written only under the
 *     mutex (set_sleeping, unset_sleeping) or by the owner's reset, which
 *     runs outside suspend, when th_sleep_loc is NULL and no resume looks
 *     at the word; it is read without the mutex by polls and by releasers.
 *     So the whole of resume, whose one such access is its
 *     unset_sleeping, is one step; in suspend, lock + set_sleeping +
 *     th_sleep_loc = flag is one, and so is th_sleep_loc = NULL + unlock.
 *   - Sequentially consistent memory: every word access in the protocol is
 *     an atomic RMW or under the mutex, except the polls, single loads.
 *
 * Properties
 *   - safety: no thread leaves episode e before every thread entered it;
 *     a lost wake-up leaves a thread blocked for ever in pthread_cond_wait
 *     (or on the mutex): Spin's invalid end states;
 *   - progress: ltl { <> (finished == N) } with pan -a -f (weak fairness):
 *     every waiter returns from every wait.
 *
 * Parameters: N threads, EPISODES, PATTERN (0 all-to-all, 1 tree), K (the
 *   tree's fan-in), SPURIOUS (spurious wake-ups in the run, default 1),
 *   RESET (defined: reset words).
 *
 * Mutations
 *   -DMUTATION (=1): the waiter sleeps without re-checking after it set
 *   the sleep bit (no done_check_val / done_check): a release that landed
 *   between its last poll and its set_sleeping saw no sleep bit and woke
 *   nobody, and the waiter sleeps for ever (invalid end state).
 *   -DMUTATION=2: the releaser reads the sleep bit before its add: the
 *   waiter can set the bit and re-check in between, then sleep, and the
 *   release that completes its word does not wake it.
 */

#ifndef N
#define N 2
#endif
#ifndef EPISODES
#define EPISODES 3
#endif
#ifndef SPURIOUS
#define SPURIOUS 1
#endif
#ifndef MUTATION
#define MUTATION 0
#endif
#ifndef PATTERN
#define PATTERN 0
#endif
#ifndef K
#define K 2
#endif

/* Words: all-to-all: (parity, tid) = parity * N + tid;
   tree: arrived[t] = t, go[t] = N + t. */
#define W(p, t) ((p) * N + (t))

byte count[2 * N];   /* the word without its sleep bit, in bumps */
bit sleepb[2 * N];   /* the word's sleep bit (KMP_BARRIER_SLEEP_STATE) */
byte sleep_loc[N];   /* th_sleep_loc: 0 = NULL, else word + 1 */
bit mx[N];           /* th_suspend_mx held */
bit cv_wait[N];      /* waiting in pthread_cond_wait on th_suspend_cv */
byte spurious = SPURIOUS; /* spurious wake-ups left */

/* Ghosts. */
byte entered[N];
byte finished;

/*
 * Release word w, whose one waiter is thread `target`: the services
 * release, i.e. kmp_flag_64::release -> __kmp_release_template.
 */
inline release(w, target)
{
#if MUTATION == 2
  /* Wrong: the sleep bit read before the add. */
  seen = sleepb[w];
  count[w]++;
#else
  count[w]++;                  /* internal_release: atomic add */
  seen = sleepb[w];            /* is_any_sleeping */
#endif
  if
  :: seen ->
     /* __kmp_resume_template(target): its whole critical section is one
        step (see the reduction at the top). */
     atomic {
       !mx[target] ->          /* lock th_suspend_mx */
       loc = sleep_loc[target];
       if
       :: loc == 0 -> skip     /* already awake */
       :: loc != 0 && !sleepb[loc - 1] -> skip  /* no longer asleep */
       :: loc != 0 && sleepb[loc - 1] ->
          sleepb[loc - 1] = 0; /* unset_sleeping */
          sleep_loc[target] = 0;
          cv_wait[target] = 0  /* pthread_cond_signal */
       fi;
       loc = 0;                /* unlock */
       seen = 0
     }
  :: else
  fi
}

/*
 * Wait until word w, without its sleep bit, equals x: the services wait,
 * i.e. kmp_flag_64::wait -> __kmp_wait_template, suspending through
 * __kmp_suspend_template.
 */
inline wait(w, x)
{
  if
  :: count[w] == x -> skip     /* done_check */
  :: else ->
     do
     :: atomic {
          count[w] == x && !sleepb[w] -> break  /* notdone_check */
        }
     :: !(count[w] == x && !sleepb[w]) -> skip  /* spin: poll again */
     :: atomic { !(count[w] == x && !sleepb[w]) -> skip }
        /* The blocktime ran out: __kmp_suspend_template. */
        atomic {
          !mx[t] -> mx[t] = 1; /* lock th_suspend_mx */
          /* set_sleeping: test_then_or, returns the old value */
          old_count = count[w];
          old_sleep = sleepb[w];
          sleepb[w] = 1;
          sleep_loc[t] = w + 1
        }
#if MUTATION == 1
        /* Wrong: straight to sleep, no second look. */
        if
        :: false -> skip
        :: else ->
#else
        if
        :: (old_count == x && !old_sleep) || count[w] == x ->
           /* done_check_val(old) || done_check(): false alarm */
           sleepb[w] = 0       /* unset_sleeping */
        :: else ->
#endif
           do
           :: sleepb[w] ->     /* while (is_sleeping()) */
              /* pthread_cond_wait: unlock and wait, one step ... */
              d_step { cv_wait[t] = 1; mx[t] = 0 }
              /* ... woken by a signal, or spuriously, then relock. */
              if
              :: atomic { !cv_wait[t] && !mx[t] -> mx[t] = 1 }
              :: atomic {
                   cv_wait[t] && spurious > 0 && !mx[t] ->
                   spurious--;
                   cv_wait[t] = 0;
                   mx[t] = 1
                 }
              fi
           :: else -> break
           od
        fi;
        /* th_sleep_loc = NULL, unlock */
        atomic { sleep_loc[t] = 0; mx[t] = 0; old_count = 0; old_sleep = 0 }
     od
  fi
}

/* The owner's plain store of KMP_INIT_BARRIER_STATE into its word. */
inline reset(w)
{
  atomic { count[w] = 0; sleepb[w] = 0 }
}

proctype thread(byte t)
{
  byte e, i, loc;
  byte old_count;
  bit old_sleep, seen;

  do
  :: e < EPISODES ->
     atomic { e++; entered[t] = e; i = 1 }
#if PATTERN == 0
     /* All-to-all: signal every other thread's word of this parity ... */
     do
     :: i < N -> release(W((e - 1) % 2, (t + i) % N), (t + i) % N); i++
     :: else -> break
     od;
     /* ... then wait on the own one. */
#ifdef RESET
     wait(W((e - 1) % 2, t), N - 1);
     reset(W((e - 1) % 2, t));
#else
     wait(W((e - 1) % 2, t), ((e - 1) / 2 + 1) * (N - 1));
#endif
#else
     /* Tree: gather the children's arrivals ... */
     i = K * t + 1;
     do
     :: i <= K * t + K && i < N -> wait(i, e); i++
     :: else -> break
     od;
     /* ... signal the own arrival to the parent and wait for go ... */
     if
     :: t != 0 ->
        release(t, (t - 1) / K);
#ifdef RESET
        wait(N + t, 1);
        reset(N + t);
#else
        wait(N + t, e);
#endif
     :: else
     fi;
     /* ... and release the children. */
     i = K * t + 1;
     do
     :: i <= K * t + K && i < N -> release(N + i, i); i++
     :: else -> break
     od;
#endif

     /* Leaving episode e: everybody must have entered it. */
     atomic {
       i = 0;
       do
       :: i < N -> assert(entered[i] >= e); i++
       :: else -> break
       od;
       i = 0
     }
  :: else -> break
  od;
  finished++
}

init {
  atomic {
    byte i;
    do
    :: i < N -> run thread(i); i++
    :: else -> break
    od;
    i = 0
  }
}

ltl all_finish { <> (finished == N) }
