/*
 * bcast_chunks.pml -- the chunk protocol of ompext_bcast's pipelined
 * broadcast (omp-ext/src/bcast/bcast_sized_pipelined.c), over consecutive
 * broadcasts.
 *
 * What is modelled
 *   N threads run EPISODES broadcasts of CH chunks; episode e's root is
 *   ROOT(e) (0, then N-1: the tree changes between broadcasts).  The tree
 *   is k-ary over the rank (t - root) mod N.  At the start of a broadcast
 *   the root writes VAL(e, i) into its chunks and every other thread
 *   poisons its own (0).  For each chunk i in order, a receiver waits for
 *   its go word to count chunk i, reads its mailbox (source, parent) at the
 *   first chunk, acknowledges on its parent's acks word, copies chunk i
 *   from the source; a thread with children then, for i > 0, waits until
 *   its acks word counts every child's acknowledgement of chunk i-1, fills
 *   each child's mailbox before the first chunk and bumps each child's go.
 *   A closing barrier (the runtime's, after the copyprivate) ends each
 *   broadcast.
 *
 * Abstractions
 *   - Signals are atomic +1; a wait is a blocking guard on equality, as
 *     the runtime's wait (abi.h): a word that runs past the value waited
 *     for blocks its waiter for ever (an invalid end state).
 *   - A chunk is one value; its copy is one atomic read and write.
 *   - The closing barrier is an abstract correct barrier (a monotone count).
 *   - Sequentially consistent memory: mailbox writes precede the signal's
 *     release, reads follow the wait's acquire.
 *
 * Properties
 *   - safety: a receiver never reads a chunk its parent has not finished
 *     (the value it copies is this broadcast's); after the broadcast every
 *     thread's chunks equal the root's; invalid end states (lost or
 *     overtaking signals);
 *   - progress: ltl { <> (finished == N) } under weak fairness.
 *
 * Parameters: N threads, K fan-out, CH chunks, EPISODES broadcasts.
 *
 * Mutations
 *   -DMUTATION=1: a parent does not wait for its children's acknowledgement
 *   before the next chunk's signal; a go word can then run past the value
 *   its waiter waits for, which blocks it for ever.
 *   -DMUTATION=2: a parent signals chunk i before it has copied it; a child
 *   then copies a stale chunk and the safety assertion fails.
 */

#ifndef N
#define N 3
#endif
#ifndef K
#define K 1
#endif
#ifndef CH
#define CH 3
#endif
#ifndef EPISODES
#define EPISODES 2
#endif
#ifndef MUTATION
#define MUTATION 0
#endif

#define ROOT(e) ((e) % 2 == 0 -> 0 : N - 1)
#define VAL(e, i) ((e) * CH + (i) + 1)
#define RANK(t, r) (((t) + N - (r)) % N)
#define TID(v, r) (((v) + (r)) % N)

byte chunk[N * CH];   /* thread t's chunk i: chunk[t * CH + i] */
byte go[N];           /* sized_chunks_t.go, in bumps */
byte acks[N];         /* sized_chunks_t.acks, in bumps */
byte mb_src[N];       /* sized_chunks_t.source (a tid) */
byte mb_parent[N];    /* sized_chunks_t.parent */
byte pb_count;        /* the closing barrier: arrivals so far */
byte finished;

proctype thread(byte t)
{
  byte e, i, j, root, v, c, nch, src, par, v2;
  byte received;      /* sized_own_t.chunks, owner-only */
  byte acks_due;      /* sized_own_t.acks, owner-only */

  for (e : 0 .. EPISODES - 1) {
    root = ROOT(e);
    v = RANK(t, root);
    /* children: ranks v*K+1 .. v*K+K below N */
    nch = 0;
    for (j : 1 .. K) {
      if
      :: v * K + j < N -> nch++
      :: else -> skip
      fi
    }
    /* The caller's buffer, before its call. */
    atomic {
      for (i : 0 .. CH - 1) {
        chunk[t * CH + i] = (t == root -> VAL(e, i) : 0)
      }
    }
    for (i : 0 .. CH - 1) {
      if
      :: t != root ->
         atomic { go[t] == received + i + 1 }   /* ompext_wait: equality */
         if
         :: i == 0 -> d_step { src = mb_src[t]; par = mb_parent[t] }
         :: else -> skip
         fi;
         acks[par]++;
#if MUTATION != 2
         d_step {
           /* never a chunk its parent has not finished */
           assert(chunk[src * CH + i] == VAL(e, i));
           chunk[t * CH + i] = chunk[src * CH + i]
         }
#endif
      :: else -> skip
      fi;
      if
      :: nch > 0 && i > 0 ->
#if MUTATION != 1
         acks[t] == acks_due + nch * i   /* ompext_wait: equality */
#else
         skip
#endif
      :: else -> skip
      fi;
      for (j : 1 .. nch) {
        c = TID(v * K + j, root);
        atomic {
          if
          :: i == 0 -> mb_src[c] = t; mb_parent[c] = t
          :: else -> skip
          fi;
          go[c]++
        }
      }
#if MUTATION == 2
      /* the copy after the signal */
      if
      :: t != root ->
         d_step {
           assert(chunk[src * CH + i] == VAL(e, i));
           chunk[t * CH + i] = chunk[src * CH + i]
         }
      :: else -> skip
      fi
#endif
    }
    if
    :: t != root -> received = received + CH
    :: else -> skip
    fi;
    acks_due = acks_due + nch * CH;
    /* Every chunk equals the root's. */
    atomic {
      for (i : 0 .. CH - 1) {
        assert(chunk[t * CH + i] == VAL(e, i))
      }
    }
    /* The closing barrier. */
    pb_count++;
    pb_count >= N * (e + 1)
  }
  finished++
}

init {
  byte i;
  atomic {
    for (i : 0 .. N - 1) {
      run thread(i)
    }
  }
}

ltl all_finish { <> (finished == N) }
