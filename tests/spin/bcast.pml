/*
 * bcast.pml -- the copyprivate broadcast (omp-ext/src/bcast/bcast_tree.c)
 * and the barrier that closes it (omp-ext/src/bcast/bcast_close.c).
 *
 * What is modelled
 *   N threads run EPISODES consecutive "single copyprivate" constructs.  In
 *   each, the first thread to claim the construct wins the single and is the
 *   root; it writes its data (the value VAL(e, root)), then the broadcast
 *   runs on a tree re-rooted at the root: tid t has rank (t - root) mod N,
 *   rank v's children are ranks v*k+1 .. v*k+k.  A sender fills the
 *   receiver's mailbox (source = the sender's data, root, root's data,
 *   fan-out, close mode) and then signals the receiver's own go word; the
 *   receiver, its word's only waiter, waits for its count of receptions,
 *   reads the mailbox, copies from the source (so relays spread the copying)
 *   and serves its own children from its own, now current, data.  Then the
 *   close: a combining tree (fan-in KC) re-rooted at the root, with the root
 *   bumping its own arrived and go words itself; or the team's plain
 *   barrier.
 *
 *   proctype thread, per episode:
 *     claim               __kmp_enter_single (the team's construct counter:
 *                         the first thread to move it wins)
 *     root branch         root_decides (fan-out, close mode) in
 *                         ompext_bcast_tree_run
 *     receiver branch     ompext_wait on slots[t].go, the mailbox reads,
 *                         cpy(data, mine->source)
 *     serve children      the re-rooted loop of fill_and_signal
 *     close (rooted)      ompext_bcast_close_take + ompext_bcast_close_wait:
 *                         the root's two relaxed self-bumps, then
 *                         ompext_barrier_tree_arrive / ompext_barrier_tree_depart over the
 *                         rotated members (index i is tid (root + i) mod N)
 *     close (plain)       the team's barrier (plain_barrier without a
 *                         pending rooted close), as an abstract barrier
 *
 * Abstractions
 *   - Signals are atomic +1 (one bump); the sleep bit is left out, waits
 *     compare the word without it (see sleep_wake.pml for wake-ups).  The
 *     root's relaxed fetch-adds on its own close words are +1 as well.
 *   - A wait is a blocking guard (word == expect).
 *   - Data: one small value per thread stands for the thread's copyprivate
 *     variable; a pointer to thread s's data is the tid s.  cpy is one
 *     atomic copy (data[t] = data[src]).  At the start of each episode every
 *     thread overwrites its own variable (user code between constructs may
 *     do so): a relay source that was released too early shows up as a
 *     wrong copy.
 *   - Filling a mailbox is one atomic step; reading it two (the episode
 *     and root data, then the source with the copy from it).  The ghost
 *     mb_full checks that a mailbox is never refilled before its owner's
 *     last read of it.  The receiver's wait and the two reads are three
 *     steps.
 *   - Flat layouts only (no topology domains); cpy != NULL (the
 *     copyprivate_light / GOMP path without cpy returns the root's pointer
 *     and copies nothing, a subset of this).
 *   - The plain close is an abstract correct barrier (a monotone ghost
 *     count): the team's own barriers are checked in dissemination.pml and
 *     tree_barrier.pml.
 *   - Which fan-out the root picks (the "copies are long" hint is read
 *     relaxed) is a nondeterministic choice between K and N-1 (flat) per
 *     episode with -DFANOUT_CHOICE, else always K.
 *   - Copying from the root (FROM_ROOT): the root sets it per episode
 *     (FROM_ROOT=1 always, 2 a nondeterministic choice); a receiver then
 *     reads the whole mailbox at once, serves its children first with the
 *     root's data as their source, and copies from the root after.
 *   - Sequentially consistent memory; the mailbox writes precede the
 *     release of the signal and the reads follow the acquire of the wait.
 *
 * Properties
 *   - safety: after its copy every receiver holds VAL(e, root of e), and the
 *     root and root data pointer it learnt are those of the winner of e; a
 *     mailbox is never refilled before it was read; no thread leaves the
 *     close of e before every thread entered it; invalid end states;
 *   - progress: ltl { <> (finished == N) } with pan -a -f (weak fairness).
 *
 * Parameters: N threads, K broadcast fan-out (>= 1), KC fan-in of the
 *   rooted close (>= 2, as ompext_barrier_tree_clamp_k), EPISODES constructs,
 *   CLOSE: 0 always the rooted close (OMPEXT_BCAST_CLOSE=rooted), 1 always
 *   the team's plain barrier, 2 the root chooses per episode (auto).
 *
 * Mutations
 *   -DMUTATION (=1): the sender signals the receiver's word before it fills
 *   the mailbox (signal before the data).  The receiver can then read the
 *   previous episode's mailbox (or an empty one): it copies stale data or
 *   learns the wrong root, and the safety assertion fails.
 *   -DMUTATION=2: the root of a rooted close does not bump its own two
 *   words.  They then lag one use behind once another thread is root, and
 *   its parent in that close waits for ever (invalid end state).
 *   -DMUTATION=3 (with FROM_ROOT): a relay serves its children before it
 *   copies but names its own data as their source: a child can copy the
 *   relay's data before the relay copied, and the safety assertion fails.
 */

#ifndef N
#define N 3
#endif
#ifndef K
#define K 1
#endif
#ifndef KC
#define KC 2
#endif
#ifndef EPISODES
#define EPISODES 3
#endif
#ifndef CLOSE
#define CLOSE 0
#endif
#ifndef MUTATION
#define MUTATION 0
#endif
#ifndef FROM_ROOT
#define FROM_ROOT 0
#endif

/* The value the root of episode e writes into its data. */
#define VAL(e, r) ((e) * N + (r) + 1)

byte construct;          /* team->t.t_construct: singles claimed so far */
byte data[N];            /* each thread's copyprivate variable */

/* Broadcast slots (bcast_slot_t), by tid. */
byte bgo[N];             /* go: receptions so far, in bumps */
byte mb_src[N];          /* source: whose data to copy */
byte mb_root[N];         /* episode.root */
byte mb_rootdata[N];     /* root_data: whose data every thread returns */
byte mb_fanout[N];       /* episode.fanout */
bit mb_rooted[N];        /* episode.rooted_close */
bit mb_fromroot[N];      /* episode.from_root */

/* Rooted close slots (ompext_barrier_tree_slot_t), by tid. */
byte carr[N];            /* arrived */
byte cgo[N];             /* go */

byte pb_count;           /* the abstract plain barrier: arrivals so far */

/* Ghosts. */
byte root_of[EPISODES];  /* winner of each single */
bit mb_full[N];          /* mailbox filled and not yet read */
byte closing[N];         /* closes entered by each thread */
byte finished;

proctype thread(byte t)
{
  byte e;                /* episode */
  bit is_root;
  byte received;         /* slots[t].received, owner-only */
  byte cep;              /* close slots[t].episode, owner-only */
  byte pbu;              /* plain barriers passed */
  byte root, rdata, fan, src, c, idx;
  bit rooted, fromroot;

  do
  :: e < EPISODES ->
     /* User code, then the single: the first to claim construct e wins. */
     atomic {
       if
       :: construct == e ->
          construct++;
          is_root = 1;
          root_of[e] = t;
          data[t] = VAL(e, t)
       :: else ->
          is_root = 0;
          data[t] = 0     /* the variable holds anything before the copy */
       fi
     }

     /* ompext_bcast_tree_run */
     if
     :: is_root ->
        /* root_decides */
        atomic {
          root = t;
          rdata = t;
#ifdef FANOUT_CHOICE
          if
          :: fan = K
          :: fan = N - 1
          fi;
#else
          fan = K;
#endif
#if CLOSE == 0
          rooted = 1;
#elif CLOSE == 1
          rooted = 0;
#else
          if
          :: rooted = 1
          :: rooted = 0
          fi;
#endif
#if FROM_ROOT == 2
          if
          :: fromroot = 1
          :: fromroot = 0
          fi;
#else
          fromroot = FROM_ROOT;
#endif
          c = ((t + N - root) % N) * fan + 1
        }
     :: else ->
        /* ompext_wait(&mine->go, expect(++received, 1)) */
        atomic { bgo[t] == received + 1 -> received++ }
        /* episode = mine->episode; root_data = mine->root_data */
        d_step {
          root = mb_root[t];
          rdata = mb_rootdata[t];
          fan = mb_fanout[t];
          rooted = mb_rooted[t];
          fromroot = mb_fromroot[t];
          assert(root == root_of[e] && rdata == root_of[e]);
          if
          :: fromroot ->    /* the mailbox is read: the copy waits */
             mb_full[t] = 0;
             c = ((t + N - root) % N) * fan + 1
          :: else -> skip
          fi
        }
        /* cpy(data, mine->source): the last read of the mailbox (a refill
           before it fails the sender's assertion), and the copy.  data[t]
           is written by t only, so the check can go with the copy. */
        if
        :: !fromroot ->
           d_step {
             src = mb_src[t];
             mb_full[t] = 0;
             data[t] = data[src];
             src = 0;
             assert(data[t] == VAL(e, root_of[e]));
             c = ((t + N - root) % N) * fan + 1
           }
        :: else -> skip
        fi
     fi;

     /* Serve the children of rank (t - root) mod N (c set above). */
     do
     :: c <= ((t + N - root) % N) * fan + fan && c < N ->
#if MUTATION == 1
        /* Wrong: the signal before the mailbox. */
        bgo[(c + root) % N]++;
#endif
        /* fill_and_signal: the mailbox ... */
        d_step {
          assert(!mb_full[(c + root) % N]);
#if MUTATION == 3
          mb_src[(c + root) % N] = t;
#else
          mb_src[(c + root) % N] = (fromroot -> rdata : t);
#endif
          mb_root[(c + root) % N] = root;
          mb_rootdata[(c + root) % N] = rdata;
          mb_fanout[(c + root) % N] = fan;
          mb_rooted[(c + root) % N] = rooted;
          mb_fromroot[(c + root) % N] = fromroot;
          mb_full[(c + root) % N] = 1
        }
#if MUTATION != 1
        /* ... then the signal. */
        bgo[(c + root) % N]++;
#endif
        c++
     :: else -> break
     od;

     /* Copying from the root: after serving the children. */
     if
     :: fromroot && !is_root ->
        d_step {
#if MUTATION == 3
          data[t] = data[mb_src[t]];
#else
          data[t] = data[rdata];
#endif
          assert(data[t] == VAL(e, root_of[e]))
        }
     :: else -> skip
     fi;

     /* The caller's barrier: ompext_bcast_close_take, then the close. */
     atomic {
       closing[t] = e + 1;
       rdata = 0;
       fan = 0;
       /* ompext_barrier_tree_arrive's ++episode, kept apart from the shared steps */
       if
       :: rooted -> idx = (t + N - root) % N; cep++; c = idx * KC + 1
       :: else -> c = 0
       fi
     }
     if
     :: rooted ->
        /* ompext_bcast_close_wait(root) */
        if
        :: idx == 0 ->
           /* The root bumps its own words, relaxed, unobserved. */
#if MUTATION != 2
           carr[t]++;
           cgo[t]++
#else
           skip   /* Wrong: the root's words fall behind. */
#endif
        :: else -> skip
        fi;
        /* ompext_barrier_tree_arrive over the rotated members */
        do
        :: c <= idx * KC + KC && c < N ->
           atomic { carr[(root + c) % N] == cep -> c++ }
        :: else -> break
        od;
        if
        :: idx != 0 ->
           carr[t]++;
           atomic { cgo[t] == cep -> c = idx * KC + 1 }
        :: else -> c = idx * KC + 1
        fi;
        /* ompext_barrier_tree_depart */
        do
        :: c <= idx * KC + KC && c < N ->
           atomic { cgo[(root + c) % N]++; c++ }
        :: else -> break
        od
     :: else ->
        /* The team's plain barrier, abstract. */
        atomic { pb_count++; pbu++ }
        pb_count >= N * pbu
     fi;

     /* Leaving the close of e: everybody must have entered it. */
     atomic {
       c = 0;
       do
       :: c < N -> assert(closing[c] > e); c++
       :: else -> break
       od;
       c = 0;
       idx = 0;
       root = 0;
       rooted = 0;
       fromroot = 0;
       is_root = 0;
       e++
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
