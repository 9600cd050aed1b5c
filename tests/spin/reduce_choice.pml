/*
 * reduce_choice.pml -- the decision word of a reduction call site
 * (omp-ext/src/reduce/reduce_choice.c): every thread of the team must take
 * the same method for the same reduction while tid 0 decides, decides
 * again, sends the site back to the tree and settles it.
 *
 * What is modelled
 *   N threads run STEPS steps of one program: a reduction at one site,
 *   then a barrier.  Each thread's clock counts the barriers it entered
 *   (ompext_reduce_clock_tick at barrier entry).
 *
 *   The word is (old, new, switch) or 0 (no decision: the tree).  A thread
 *   asking at clock now reads it and takes new when now >= switch, else
 *   old (unpack_at).  A thread that read a final word (settled, old == new,
 *   on atomics, in a team where atomics are final) keeps the method beside
 *   its clock and never reads the word again (the runtime keeps it too).
 *
 *   tid 0, after its own answer at clock now, may store (each choice left
 *   to Spin, as the timings that make it are not modelled):
 *     settle     old != new and its method is new: (new, new);
 *     recheck    a settled word off the tree, not final: (method, tree,
 *                now + 1) (tid0_schedule);
 *     decide     its method is the tree (it gathers and times): (tree, m,
 *                now + 1) for m atomics or the tree
 *                (ompext_reduce_choice_measured), as often as it likes.
 *
 * Abstractions
 *   - Sequentially consistent memory.  In C tid 0's decision stores are
 *     release and a thread's read is acquire; a thread whose clock reached
 *     the switch has passed a barrier tid 0 entered after the store, which
 *     orders the store before its read as here.  The settle store is
 *     relaxed: it reads the same as the word it replaces at every clock
 *     from its own on, and every thread's clock is there.
 *   - The barrier is a counter every thread bumps and waits on.
 *   - The switch is the clock itself (no wrap: STEPS is small).
 *
 * Properties
 *   - safety: at the end, every thread took tid 0's method at every step;
 *     invalid end states;
 *   - progress: ltl { <> (finished == N) } (weak fairness).
 *
 * Parameters: N threads, STEPS reductions, FINAL (1: atomics are final).
 *
 * Mutations:
 *   MUTATION=1  a decision switches at now, not now + 1: a thread at now
 *               that read the word before it took the old method, one
 *               after it the new;
 *   MUTATION=2  a thread keeps any settled word as final, whatever its
 *               method: tid 0 later sends the site back to the tree and
 *               the thread that kept its method does not follow.
 */

#ifndef N
#define N 2
#endif
#ifndef STEPS
#define STEPS 4
#endif
#ifndef FINAL
#define FINAL 0
#endif

#define ATOMIC 1
#define TREE 2

#if MUTATION == 1
#define SWITCH_AFTER 0
#else
#define SWITCH_AFTER 1
#endif

byte w_decided; /* 0: no decision yet (the tree) */
byte w_old;
byte w_new;
byte w_switch;
byte barrier_count;
byte took[N * STEPS]; /* ghost: the method of thread t at step s */
byte finished;        /* ghost */

/* Whether a word with method m at both halves is final. */
#if MUTATION == 2
#define IS_FINAL(m) 1
#else
#define IS_FINAL(m) (FINAL && (m) == ATOMIC)
#endif

proctype thread(byte t)
{
  byte now, m, kept;
  do
  :: now < STEPS ->
     /* ompext_reduce_choice_method */
     d_step {
       if
       :: kept -> m = ATOMIC
       :: else ->
          if
          :: !w_decided -> m = TREE
          :: else ->
             if
             :: now >= w_switch -> m = w_new
             :: else -> m = w_old
             fi;
             if
             :: w_old == w_new && IS_FINAL(m) -> kept = 1
             :: else
             fi
          fi
       fi;
       took[t * STEPS + now] = m
     }
     if
     :: t == 0 && !kept ->
        /* tid 0's stores, after its answer, within the same clock, in
           the code's order: settle or recheck (method), then a decision
           at the end of its timed gather (measured). */
        if
        :: d_step { w_decided && w_old != w_new && m == w_new ->
                    w_old = w_new }
        :: d_step { w_decided && w_old == w_new && m != TREE ->
                    w_old = m; w_new = TREE; w_switch = now + SWITCH_AFTER }
        :: skip
        fi;
        if
        :: d_step { m == TREE ->
                    w_decided = 1; w_old = TREE; w_new = ATOMIC;
                    w_switch = now + SWITCH_AFTER }
        :: d_step { m == TREE ->
                    w_decided = 1; w_old = TREE; w_new = TREE;
                    w_switch = now + SWITCH_AFTER }
        :: skip
        fi
     :: else
     fi;
     /* The barrier: the clock ticks at entry. */
     d_step { now++; barrier_count++ }
     barrier_count >= N * now
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
  finished == N;
  /* Every thread took tid 0's method at every step. */
  d_step {
    byte t, s;
    t = 1;
    do
    :: t < N ->
       s = 0;
       do
       :: s < STEPS -> assert(took[t * STEPS + s] == took[s]); s++
       :: else -> break
       od;
       t++
    :: else -> break
    od
  }
}

ltl all_finish { <> (finished == N) }
