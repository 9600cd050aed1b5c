/*
 * forkjoin.pml -- the fork release and the join gather that the patched
 * runtime runs on its own flags with the plugin's tree
 * (patches/0001-omp-ext-plugin-loader-services-and-team-context.patch,
 * kmp_plugin.cpp: __kmp_plugin_forkjoin_release and
 * __kmp_plugin_forkjoin_gather; the tree is ompext_forkjoin_tree).
 *
 * What is modelled
 *   A team of N threads runs EPISODES consecutive parallel regions.  The
 *   threads form a K-ary tree over tids: the children of t are
 *   K*t+1 .. K*t+K (those below N), its parent (t-1)/K (the plugin's tree,
 *   and also the runtime's fallback with 2^branch_bits children).
 *   Each thread owns two words of the fork/join barrier: b_go (fork) and
 *   b_arrived (join); the team has one more, the team's b_arrived, written
 *   by the primary only.
 *
 *   proctype primary (tid 0), per region e:
 *     fork                __kmp_plugin_forkjoin_release for the primary:
 *                         snapshot its ICVs, then for each child copy the
 *                         ICVs next to the child's b_go and release it
 *     join                __kmp_plugin_forkjoin_gather for the primary:
 *                         new_state = team b_arrived + BUMP, wait for each
 *                         child's b_arrived == new_state, then store the
 *                         team's b_arrived = new_state
 *   proctype worker (tid t > 0), per region e:
 *     fork                wait for its own b_go == BUMP, reset b_go to
 *                         KMP_INIT_BARRIER_STATE (0) with a plain store,
 *                         then copy the ICVs to and release each child,
 *                         then set up its implicit task from its own ICVs
 *     join                if it has children: new_state = team b_arrived +
 *                         BUMP and wait for each child's b_arrived ==
 *                         new_state; then release its own b_arrived (add)
 *                         to its parent
 *
 * Abstractions
 *   - BUMP (4) is 1 and the sleep bit is left out: waits compare the word
 *     without it, and sleep_wake.pml checks the wake-up protocol, including
 *     a word reset by a plain store after each wait (its -DRESET form is
 *     this b_go).  A worker's b_arrived starts equal to the team's b_arrived
 *     (what the runtime sets when a thread joins a team); both start at 0.
 *   - A wait is a blocking guard (word == expect).  After its last region a
 *     worker stops instead of parking on b_go for the next fork, so that
 *     Spin's end-state check applies.
 *   - The ICVs are one value per thread: the region number the primary
 *     snapshots at its fork.  The team pointer, the tid lookup and the
 *     implicit task set-up are not modelled (plain data published by the
 *     primary before the fork, as the ICVs are).
 *   - A fixed team (no resize between regions, no pooled threads that leave
 *     or join the team), no reaping (g_done), no cancellation.
 *   - Sequentially consistent memory; in the runtime each release is an
 *     atomic add after the data it publishes and each wait ends with a load
 *     of the same word (plus the KMP_MB after the reset).
 *
 * Properties
 *   - safety: a worker starts region e only once the primary has forked e
 *     (forked == e), and with the ICVs of region e; the primary leaves the
 *     join of e only after every worker arrived at the join of e
 *     (joined[w] == e for all w); invalid end states;
 *   - progress: ltl { <> (finished == N) } with pan -a -f (weak fairness).
 *
 * Parameters: N threads, K tree fan-out (>= 1), EPISODES regions.
 *
 * Mutations
 *   -DMUTATION (=1): a parent does not wait for its last child's arrival in
 *   the join (the primary then leaves the join before that subtree arrived:
 *   the safety assertion fails).
 *   -DMUTATION=2: a worker resets its b_go only after its join release
 *   instead of right after its fork wait.  The parent's next fork can then
 *   bump b_go before the reset, whose plain store wipes the bump: the
 *   worker waits for ever (invalid end state).  (Moving the reset after
 *   the release of the children instead is harmless: nobody bumps b_go
 *   again before this worker's join release, which is all the reset must
 *   precede.)
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
#ifndef MUTATION
#define MUTATION 0
#endif

#define FIRST_CHILD(t) (K * (t) + 1)
#define IS_CHILD(t, c) ((c) <= K * (t) + K && (c) < N)
#if MUTATION == 1
/* Wrong: the last child is not waited for. */
#define GATHERS(t, c) ((c) < K * (t) + K && (c) < N - 1)
#else
#define GATHERS(t, c) IS_CHILD(t, c)
#endif

byte b_go[N];            /* th_bar[forkjoin].bb.b_go, in bumps */
byte b_arrived[N];       /* th_bar[forkjoin].bb.b_arrived, in bumps */
byte team_arrived;       /* team->t.t_bar[forkjoin].b_arrived */
byte icvs[N];            /* th_bar[forkjoin].bb.th_fixed_icvs */

/* Ghosts. */
byte forked;             /* regions the primary has forked */
byte joined[N];          /* joins each thread has arrived at */
byte finished;

proctype primary()
{
  byte e, c, new_state;

  do
  :: e < EPISODES ->
     /* __kmp_plugin_forkjoin_release, primary: snapshot the ICVs. */
     atomic { e++; forked = e; icvs[0] = e; c = FIRST_CHILD(0) }
     do
     :: IS_CHILD(0, c) ->
        /* The ICVs next to the child's go flag, then its release. */
        icvs[c] = icvs[0];
        atomic { b_go[c]++; c++ }
     :: else -> break
     od;

     /* The region of the primary. */

     /* __kmp_plugin_forkjoin_gather, primary */
     atomic { joined[0] = e; new_state = team_arrived + 1; c = FIRST_CHILD(0) }
     do
     :: GATHERS(0, c) -> atomic { b_arrived[c] == new_state -> c++ }
     :: else -> break
     od;
     team_arrived = new_state;
     /* Leaving the join of e: every worker arrived at it. */
     atomic {
       c = 1;
       do
       :: c < N -> assert(joined[c] == e); c++
       :: else -> break
       od;
       c = 0;
       new_state = 0
     }
  :: else -> break
  od;
  finished++
}

proctype worker(byte t)
{
  byte e, c, new_state;

  do
  :: e < EPISODES ->
     /* __kmp_plugin_forkjoin_release, worker: its own go flag. */
     atomic { b_go[t] == 1 -> e++ }
#if MUTATION != 2
     /* TCW_4(thr_bar->b_go, KMP_INIT_BARRIER_STATE); KMP_MB() */
     b_go[t] = 0;
#endif
     c = FIRST_CHILD(t);
     do
     :: IS_CHILD(t, c) ->
        icvs[c] = icvs[t];
        atomic { b_go[c]++; c++ }
     :: else -> break
     od;
     /* __kmp_init_implicit_task + copy_icvs from its own ICVs, then the
        region: the primary must have forked this very region. */
     atomic {
       assert(icvs[t] == e);
       assert(forked == e);
       c = 0
     }

     /* The region of this worker. */

     /* __kmp_plugin_forkjoin_gather, worker */
     joined[t] = e;
     if
     :: IS_CHILD(t, FIRST_CHILD(t)) ->
        atomic { new_state = team_arrived + 1; c = FIRST_CHILD(t) }
        do
        :: GATHERS(t, c) -> atomic { b_arrived[c] == new_state -> c++ }
        :: else -> break
        od
     :: else -> skip
     fi;
     /* Release to the parent: after this the primary may end the team. */
     atomic { b_arrived[t]++; c = 0; new_state = 0 }
#if MUTATION == 2
     /* Wrong: the reset of b_go comes too late. */
     b_go[t] = 0
#endif
  :: else -> break
  od;
  finished++
}

init {
  atomic {
    byte i = 1;
    run primary();
    do
    :: i < N -> run worker(i); i++
    :: else -> break
    od;
    i = 0
  }
}

ltl all_finish { <> (finished == N) }
