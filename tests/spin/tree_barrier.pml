/*
 * tree_barrier.pml -- the k-ary combining tree barrier
 * (omp-ext/src/barrier/barrier_tree.c).
 *
 * What is modelled
 *   N threads pass EPISODES consecutive barrier episodes on a K-ary heap:
 *   the children of t are K*t+1 .. K*t+K (those below N), its parent
 *   (t-1)/K.  Each tid owns two words: arrived[t] (signalled by t, waited
 *   on by its parent) and go[t] (signalled by the parent, waited on by t).
 *   In episode e (counting from 1) both words of every thread reach e
 *   bumps; they are compared with == and never reset.
 *
 *   proctype thread       ompext_barrier_tree_wait for tid t, EPISODES times:
 *     gather              ompext_barrier_tree_arrive: wait for arrived[c] == e of
 *                         each child in turn, then (t != 0) signal
 *                         arrived[t] and wait for go[t] == e
 *     release             ompext_barrier_tree_depart: signal go[c] of each child,
 *                         eldest first
 *   The per-tid episode counter (slots[t].episode) is entered[t].
 *
 * Abstractions
 *   - A signal (services release: atomic add of OMPEXT_FLAG_BUMP = 4, then
 *     a wake-up of the word's sleeping waiter) is an atomic +1; the sleep
 *     bit is left out, since a wait compares the word without it, and the
 *     count part only moves by whole bumps (+1 per bump is the C value
 *     divided by 4).  No lost wake-up is checked in sleep_wake.pml.
 *   - A wait is a blocking guard (word == expect): Spin explores every
 *     interleaving, so a word that could move past its value before its
 *     waiter looks shows up as a process blocked for ever.
 *   - The group form used by the hierarchical barrier and the rooted
 *     broadcast close (member table, count) is the same code with indices
 *     mapped; bcast.pml checks the rotated use.  Here: the whole team.
 *   - Sequentially consistent memory; in C every signal is a release
 *     fetch-add and every wait ends with an acquire load of the same word,
 *     along exactly the modelled edges.
 *   - Local steps are merged into the shared step next to them
 *     (atomic / d_step), each block touching at most one shared word.
 *
 * Properties
 *   - safety: a thread leaving episode e asserts that every thread entered
 *     episode e; invalid end states (a thread blocked for ever);
 *   - progress: ltl { <> (finished == N) } with pan -a -f (weak fairness).
 *
 * Parameters: N threads, K fan-in (>= 2, as ompext_barrier_tree_clamp_k),
 *   EPISODES consecutive barriers.
 *
 * Mutation (-DMUTATION): a non-root thread releases its children as soon as
 *   it has signalled its own arrival, before its own go arrived (the
 *   release moved up into the gather).  Its subtree then leaves while the
 *   root may still wait for another subtree: the safety assertion fails
 *   (needs a thread with a grandparent, e.g. N = 4, K = 2).
 */

#ifndef N
#define N 3
#endif
#ifndef K
#define K 2
#endif
#ifndef EPISODES
#define EPISODES 3
#endif

byte arrived[N];  /* slots[t].arrived, in bumps */
byte go[N];       /* slots[t].go, in bumps */
byte entered[N];  /* ghost, and slots[t].episode */
byte finished;    /* ghost: threads done with every episode */

proctype thread(byte t)
{
  byte e, c;

  do
  :: e < EPISODES ->
     /* ompext_barrier_tree_arrive: expect = ++episode */
     d_step { e++; entered[t] = e; c = K * t + 1 }
     /* Gather: each child's arrival in turn. */
     do
     :: c <= K * t + K && c < N ->
        atomic { arrived[c] == e -> c++ }
     :: else -> break
     od;
     if
     :: t != 0 ->
        atomic { arrived[t]++; c = K * t + 1 }
#ifdef MUTATION
        /* Wrong: the children's go before this thread's own go. */
        do
        :: c <= K * t + K && c < N -> atomic { go[c]++; c++ }
        :: else -> break
        od;
#endif
        atomic { go[t] == e -> c = K * t + 1 }
     :: else -> c = K * t + 1
     fi;
#ifndef MUTATION
     /* ompext_barrier_tree_depart: release the children, eldest first. */
     do
     :: c <= K * t + K && c < N -> atomic { go[c]++; c++ }
     :: else -> break
     od;
#endif
     /* Leaving episode e: everybody must have entered it. */
     atomic {
       c = 0;
       do
       :: c < N -> assert(entered[c] >= e); c++
       :: else -> break
       od;
       c = 0
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
