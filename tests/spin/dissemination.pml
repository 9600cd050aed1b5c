/*
 * dissemination.pml -- the m-ary dissemination barrier
 * (omp-ext/src/barrier/barrier_dissemination.c).
 *
 * What is modelled
 *   N threads pass EPISODES consecutive barrier episodes.  In round r a
 *   thread signals the words (parity, r, peer) of its peers
 *   peer = (t + off) mod N, off ranging over the nonzero values
 *   (i * (M+1)^r) mod N, i = 1..M (an offset that wraps to 0 is skipped, so
 *   an offset can also appear twice when M >= N), then waits until its own
 *   word (parity, r, t) holds uses * signals[r], where parity = episode mod 2
 *   and uses = episode / 2 + 1.  Words are monotone counts, never reset.
 *
 *   init                  ompext_barrier_dissemination_init (rounds_for, offsets,
 *                         signals) followed by the team's threads
 *   proctype thread       ompext_barrier_dissemination_wait, called EPISODES times
 *                         by the thread holding tid t (the per-tid episode
 *                         counter is entered[t])
 *
 * Abstractions
 *   - A signal (services release: atomic add of OMPEXT_FLAG_BUMP = 4, then a
 *     wake-up of the word's sleeping waiter) is modelled as an atomic +1 on
 *     the word.  The sleep bit is left out: a wait returns when the word
 *     without its sleep bit equals the expected count, and the count part
 *     only moves by whole bumps, so +1 per bump and the comparison
 *     word == uses * signals[r] are exactly the C comparison divided by 4.
 *     That a sleeping waiter is woken (no lost wake-up) is checked on its
 *     own in sleep_wake.pml.
 *   - A wait (inline polls, then the services wait) is a blocking guard
 *     (word == expect): the thread can take the step only in a state where
 *     the word holds exactly the expected value, and Spin explores every
 *     interleaving, including those where the word moves past the value
 *     before the waiter looks (then the waiter blocks for ever and the
 *     check reports an invalid end state).
 *   - The index-to-team-tid mapping (map_tids, for hierarchical leaders)
 *     only changes whom the services wake; it is the identity here.
 *   - Memory order is sequentially consistent; the C code relies on the
 *     release of each signal and the acquire of each wait, which pair
 *     exactly along the modelled signal -> wait edges.
 *   - Purely local steps are merged with the shared step they precede or
 *     follow (atomic / d_step): each atomic block still performs at most one
 *     access to a shared word, so no interleaving that matters is lost.
 *
 * Properties
 *   - safety: a thread leaving episode e asserts that every thread has
 *     entered episode e (entered[j] > e for all j); Spin's invalid end state
 *     check finds any thread blocked for ever (no deadlock);
 *   - progress: ltl { <> (finished == N) }, checked with pan -a -f (weak
 *     fairness): every thread completes all its episodes.
 *
 * Parameters (preprocessor macros, e.g. spin -DN=4 -DM=3 -a ...)
 *   N threads, M peers per round, EPISODES consecutive barriers.
 *   M = N-1 is the one-round "fewest steps" form, M = 1 the classic
 *   (Hensgen, Finkel and Manber) form with ceil(log2 N) rounds.
 *
 * Mutation (-DMUTATION): one parity instead of two (parity always 0 and
 *   uses = episode + 1).  A thread that ran ahead into episode e+1 then
 *   signals the very words a slow thread still waits on for episode e: the
 *   slow thread either leaves early or misses its value for ever.  Whether
 *   a thread can run that far ahead depends on the sizes: the check finds
 *   it at (N, M) = (2, 1), (3, 2), (4, 1), (4, 3), and one parity happens
 *   to be enough at (3, 1) and (4, 2), so the mutation test uses (4, 1).
 */

#ifndef N
#define N 3
#endif
#ifndef M
#define M 1
#endif
#ifndef EPISODES
#define EPISODES 3
#endif

/* Upper bound of ceil(log_{M+1} N), checked in init. */
#define MAXR 4

/* Word (parity, round, tid), flattened. */
#define W(p, r, t) (((p) * MAXR + (r)) * N + (t))

byte word[2 * MAXR * N];     /* the flag words, in bumps */
byte entered[N];             /* ghost: episodes entered by each thread */
byte finished;               /* ghost: threads done with every episode */

/* Layout, written by init before any thread runs, constant afterwards
   (hidden: kept out of the state vector). */
hidden byte rounds;
hidden byte signals[MAXR];
hidden byte off[MAXR * M];

proctype thread(byte t)
{
  byte e, parity, uses, r, i;

  do
  :: e < EPISODES ->
     /* b->episodes[tid].episode++ */
     d_step {
       entered[t] = e + 1;
#ifdef MUTATION
       parity = 0;
       uses = e + 1;
#else
       parity = e % 2;
       uses = e / 2 + 1;
#endif
       r = 0
     }
     do
     :: r < rounds ->
        /* Signal the signals[r] peers of this round. */
        i = 0;
        do
        :: i < signals[r] ->
           atomic {
             word[W(parity, r, (t + off[r * M + i]) % N)]++;
             i++
           }
        :: else -> break
        od;
        /* ompext_wait(flag_at(parity, r, t), expect(uses, signals[r])) */
        atomic {
          word[W(parity, r, t)] == uses * signals[r];
          i = 0;
          r++
        }
     :: else -> break
     od;
     /* Leaving episode e: everybody must have entered it. */
     atomic {
       i = 0;
       do
       :: i < N -> assert(entered[i] > e); i++
       :: else -> break
       od;
       i = 0;
       r = 0;
       parity = 0;
       uses = 0;
       e++
     }
  :: else -> break
  od;
  finished++
}

init {
  atomic {
    /* ompext_barrier_dissemination_init: rounds_for, then the nonzero offsets. */
    int span = 1, off_i;
    byte r, i;
    do
    :: span < N -> rounds++; span = span * (M + 1)
    :: else -> break
    od;
    assert(rounds <= MAXR);
    span = 1;
    r = 0;
    do
    :: r < rounds ->
       i = 1;
       do
       :: i <= M ->
          off_i = (i * span) % N;
          if
          :: off_i != 0 -> off[r * M + signals[r]] = off_i; signals[r]++
          :: else -> skip
          fi;
          i++
       :: else -> break
       od;
       span = span * (M + 1);
       r++
    :: else -> break
    od;
    i = 0;
    do
    :: i < N -> run thread(i); i++
    :: else -> break
    od;
    span = 0; off_i = 0; r = 0; i = 0
  }
}

ltl all_finish { <> (finished == N) }
