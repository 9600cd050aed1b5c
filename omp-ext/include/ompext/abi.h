/*
 * omp-ext plugin ABI: the one contract between the patched libomp and
 * libompext.so.  This is the only copy; the runtime patch includes it from
 * here (the build adds omp-ext/include to libomp's include path).
 *
 * Two tables cross the seam, each stamped with the ABI version and its own
 * size so that either side can refuse a mismatch:
 *   - services (runtime -> plugin): waiting and signalling on 64-bit flag
 *     words exactly the way libomp waits (run tasks, yield when
 *     oversubscribed, sleep after the blocktime, return at shutdown), plus
 *     allocation, three questions about how to wait (tasks among them),
 *     the stock barrier's shape, and the tool events of a reduction;
 *   - ops (plugin -> runtime): per-team context and the collectives.  Any op
 *     may be NULL, which means "stock behaviour for that path".
 *
 * Flag words: 64 bits, zero when allocated.  Bit 0 is libomp's sleep bit:
 * only the runtime's wait sets and clears it (atomically), around a sleep.
 * Bit 1 stays 0.  The count above them changes only by atomic adds of
 * OMPEXT_FLAG_BUMP: services->release (+4, then wake the waiter if it
 * sleeps), or the plugin's own fetch-add on a word nobody waits on at that
 * moment (bcast_close.c).  A word has one waiter at a time, identified by
 * its tid in the current team.  Never store into a word a thread may sleep
 * on.  The runtime patch checks these constants against libomp's own with
 * static_asserts (kmp_plugin.cpp).
 *
 * Besides the tables, ompext_env_switch below is the one parser of on/off
 * environment variables, for the runtime and the plugin alike.
 *
 * This header is C11 and C++11; it must not include any libomp header.
 */
#ifndef OMPEXT_ABI_H
#define OMPEXT_ABI_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bump on any change to the layout or meaning of the tables below.
   2: services lost blocktime_ms, shutting_down and available_procs; tree
   lost bt (and enum ompext_barrier_kind with it), reduce_gather size,
   reduce_method size, atomic_ok and tree_ok; team_prepare lost level and
   gained tree_changed; tree gained self.
   3: reduce_method gained gtid, tid, key and allowed, and may answer
   OMPEXT_REDUCE_METHOD_CRITICAL.
   4: team_prepare's tree_changed became flags, with
   OMPEXT_PREPARE_SETTLED: the runtime skips the call while it holds.
   5: bcast gained site.
   6: plain_barrier may hand a barrier back (returns 0); services gained
   stock_barrier_bits.
   7: reduce_method may add OMPEXT_REDUCE_METHOD_SETTLED to its answer.
   8: services gained tasks_pending.
   9: ops gained plain_barrier_found_tasks. */
#define OMPEXT_ABI_VERSION 10u

/* team_prepare's *flags. */
#define OMPEXT_PREPARE_TREE_CHANGED 1
#define OMPEXT_PREPARE_SETTLED 2

/* The symbol the runtime looks up in the plugin. */
#define OMPEXT_GET_OPS_SYMBOL "ompext_get_ops"

/* Flag word state layout, shared with libomp (KMP_BARRIER_SLEEP_STATE,
   KMP_BARRIER_STATE_BUMP). */
#define OMPEXT_FLAG_SLEEP_BIT 1u
#define OMPEXT_FLAG_BUMP 4u

/* A flag word.  C sees it as an atomic, C++ (libomp) as the volatile
   kmp_uint64 its kmp_flag_64 class expects; both are one aligned 8-byte word
   (kmp_plugin.cpp asserts the size). */
#ifdef __cplusplus
typedef volatile uint64_t ompext_flag_word_t;
#else
typedef _Atomic uint64_t ompext_flag_word_t;
#endif

/* Answers of ops->reduce_method. */
enum ompext_reduce_method {
  OMPEXT_REDUCE_METHOD_RUNTIME = 0, /* keep the runtime's own choice */
  OMPEXT_REDUCE_METHOD_ATOMIC = 1,  /* atomics, where the compiler emitted them */
  OMPEXT_REDUCE_METHOD_TREE = 2,    /* the tree gather, where available */
  OMPEXT_REDUCE_METHOD_CRITICAL = 3 /* libomp's lock around each combine */
};
/* Added to an atomic or critical answer of ops->reduce_method: this thread
   gets the same answer for the same key and allowed for as long as the
   context lives, so the runtime may keep it and stop asking. */
#define OMPEXT_REDUCE_METHOD_SETTLED 0x100

/* The methods the compiler made possible, as reduce_method's allowed
   (libomp's critical method always is). */
#define OMPEXT_REDUCE_ALLOW_ATOMIC 1u
#define OMPEXT_REDUCE_ALLOW_TREE 2u

/* The compiler's reduce_func(lhs, rhs) and copy_func(dst, src). */
typedef void (*ompext_pairfn_t)(void *dst_or_lhs, void *src_or_rhs);

typedef struct ompext_services {
  uint32_t abi_version; /* OMPEXT_ABI_VERSION of the runtime */
  uint32_t size;        /* sizeof(ompext_services_t) in the runtime */
  /* Block until (*word & ~OMPEXT_FLAG_SLEEP_BIT) == expect, or return
     early once the runtime is shutting down.  The caller must be the
     word's only waiter.  final_spin as in libomp: nonzero only for the
     release wait that may end the region's tasks.  No memory ordering is
     promised: the caller loads the word with acquire after it (the
     plugin's wait.h does). */
  void (*wait)(int gtid, ompext_flag_word_t *word, uint64_t expect,
               int final_spin);
  /* Atomically add OMPEXT_FLAG_BUMP to *word (at least release
     semantics), then wake waiter_tid (the word's one waiter, a tid of the
     caller's current team) if it sleeps on it. */
  void (*release)(int gtid, int waiter_tid, ompext_flag_word_t *word);
  /* Nonzero when live OpenMP threads outnumber available processors. */
  int (*oversubscribed)(void);
  /* Nonzero under the passive wait policy (OMP_WAIT_POLICY=passive). */
  int (*passive_wait)(void);
  /* Zeroed memory aligned to at least 64 bytes; free with free_mem. */
  void *(*alloc)(size_t bytes);
  void (*free_mem)(void *ptr);
  /* Tool events around each combine of a reduction (begin != 0, then 0),
     as the stock gathers report them; may be NULL. */
  void (*reduction_event)(int gtid, int begin);
  /* The runtime's own plain barrier, the one a plain_barrier that returns 0
     hands over to: log2 of its children per level in the gather and in the
     release (libomp's hyper barrier; 0: not a tree of this kind). */
  void (*stock_barrier_bits)(int *gather_bits, int *release_bits);
  /* Nonzero when the calling thread's team has tasks that the runtime's
     wait would run (libomp: the thread's task team found tasks).  A few
     loads, no lock: a plugin that spins on its own polls this now and then
     and hands the wait over to wait() once it answers yes. */
  int (*tasks_pending)(int gtid);
} ompext_services_t;

typedef struct ompext_ops {
  uint32_t abi_version; /* OMPEXT_ABI_VERSION of the plugin */
  uint32_t size;        /* sizeof(ompext_ops_t) in the plugin */
  const char *name;     /* for messages, e.g. "omp-ext 0.1.0" */

  /* Called at runtime start-up, before any team exists, under the
     runtime's init lock: must not call omp_* functions.  0 means OK; any
     other value makes the runtime fall back to stock everywhere.  A
     runtime restarted after omp_pause_resource_all(omp_pause_hard) calls
     ompext_get_ops and init again. */
  int (*init)(const ompext_services_t *svc);
  /* Called at each runtime shutdown (also the one of a hard pause). */
  void (*fini)(void);

  /* Master thread only, with every worker parked (start of each fork;
     never for teams-construct or hidden helper teams).  Returns the context
     for a team of nproc threads, nested or not; may return
     old_ctx unchanged, a new context (old_ctx is then the plugin's to
     free), or NULL to refuse the team: its barriers, reductions and
     broadcasts then go stock, and its fork and join run on the runtime's
     own fallback tree.  *flags (0 on entry) may get:
     - OMPEXT_PREPARE_TREE_CHANGED: the answers of tree() for the returned
       context may differ from those before this call; the runtime then
       checks the whole tree (every tid), and runs the team's fork and join
       on its own fallback tree, with one warning per process, if it does
       not span the team;
     - OMPEXT_PREPARE_SETTLED: this call would return the same context with
       the same tree for as long as the team keeps its size and the
       services' oversubscribed() and passive_wait() keep their answers;
       the runtime then skips the call at the team's forks until one of the
       three changes (a hot team's fork asks nothing of the plugin). */
  void *(*team_prepare)(void *old_ctx, int nproc, int *flags);
  /* Frees a context team_prepare returned, when the runtime reaps the team
     (or stops giving it a context). */
  void (*team_free)(void *ctx);

  /* (a) Plain barrier: returns nonzero once every thread of the team has
     called it for this episode.  All nproc threads call it.  Returns 0 at
     once, having waited for nobody, to hand this episode to the runtime's
     own barrier (gather and release); every thread of the team must then
     get 0 for the same episode. */
  int (*plain_barrier)(void *ctx, int gtid, int tid);
  /* Called by every thread of the team right after a plain_barrier that
     returned nonzero, when the runtime finds that the episode had tasks
     (libomp: the task team found some; the runtime then closes the episode
     with its own release, in which the workers drain tasks).  Every thread
     of the team gets this call for the same episodes.  May be NULL. */
  void (*plain_barrier_found_tasks)(void *ctx, int gtid, int tid);

  /* (b) Reduction gather: every thread passes its reduce_data; when tid 0
     returns, its data holds the combination of all threads' data, combined
     with reduce(lhs, rhs).  A worker may return once it has signalled its
     arrival: the runtime's release that follows keeps its data alive until
     tid 0 has finished combining. */
  void (*reduce_gather)(void *ctx, int gtid, int tid, void *data,
                        ompext_pairfn_t reduce);

  /* (c) Topology of the fork/join tree, which the runtime executes on its
     own flags (fork release and join gather).  Writes the parent (-1 for
     tid 0) and up to cap children, in wait/release order; returns the
     number of children.  The answers must be a pure function of (ctx, tid)
     between two team_prepare calls.  self: nonzero when the calling
     thread is tid itself (the fork/join executor), which the plugin may
     use to learn where tid runs; 0 when the runtime inspects the node of
     another tid (its check after team_prepare).  The tree must span the
     team: every tid other than 0 is listed exactly once, by the parent it
     reports, and reaches tid 0 through its parents (team_prepare says what
     the runtime does otherwise). */
  int (*tree)(void *ctx, int tid, int self, int *parent, int *children,
              int cap);

  /* (d) Broadcast for copyprivate.  Every thread of the team calls it once
     per construct; exactly one, the root (the thread that won the single),
     passes is_root != 0 and its data.  If cpy != NULL the plugin copies into
     each non-root's data with cpy(my_data, src), where src may be any
     thread's data that already holds the value (tree relay).  Returns the
     root's data pointer on every thread.  The caller guarantees a barrier
     after the broadcast before the root's data (or a relay's) dies.  site:
     the construct's call site as the runtime saw it (its entry point's
     return address; NULL if unknown), the same for every call of one
     construct by one thread, so the plugin may keep per-construct state. */
  void *(*bcast)(void *ctx, int gtid, int tid, int is_root, void *data,
                 ompext_pairfn_t cpy, const void *site);

  /* (e) Reduction method: one of enum ompext_reduce_method, for the
     reduction of thread tid at the call site key (the compiler's
     reduce_func, NULL if none), allowed the OMPEXT_REDUCE_ALLOW_* methods
     the compiler emitted.  Every thread of the team asks once per
     reduction, and the plugin must give all of them the same answer for the
     same reduction.  The runtime takes the answer only where the compiler
     made that method possible, and keeps its own choice otherwise.  An
     answer with OMPEXT_REDUCE_METHOD_SETTLED added is final for this
     thread, key and allowed while ctx lives (see above); any other answer
     is asked for again at the next reduction. */
  int (*reduce_method)(void *ctx, int gtid, int tid, const void *key,
                       unsigned allowed);

  /* (f) The runtime's global atomic lock (__kmp_atomic_lock): the lock of
     GOMP_atomic_start/GOMP_atomic_end, which GCC calls around an update it
     cannot make atomic (an array reduction's combine, a long double), of
     __kmpc_atomic_start/__kmpc_atomic_end, and of the runtime's locked
     atomics in its GCC-compatible mode.  Both or neither: the runtime takes
     them at load, when nobody holds the lock, and from then on every
     acquire and release of that lock is the plugin's until the runtime
     shuts down.  Any thread may call them, inside a team or not; a release
     follows its thread's acquire. */
  void (*atomic_acquire)(int gtid);
  void (*atomic_release)(int gtid);
} ompext_ops_t;

/* The single symbol the plugin exports for the runtime.  Returns NULL when
   the plugin cannot serve a runtime of this ABI version. */
typedef const ompext_ops_t *(*ompext_get_ops_fn)(uint32_t runtime_abi);
const ompext_ops_t *ompext_get_ops(uint32_t runtime_abi);

/* On/off environment variables (OMPEXT, OMPEXT_VERBOSE, OMPEXT_STATS,
   OMPEXT_HIERARCHY): 1 for one of the on words, 0 for one of the off
   words, -1 for anything else, NULL and "" included (the caller then
   applies its default, and warns about a value it did not understand).
   Exact, case-sensitive matches. */
#define OMPEXT_ENV_SWITCH_WORDS "on|off, 1|0, true|false, yes|no"
static inline int ompext_env_switch(const char *text) {
  static const char *const on[] = {"on", "1", "true", "yes"};
  static const char *const off[] = {"off", "0", "false", "no"};
  for (size_t i = 0; text && i < sizeof(on) / sizeof(on[0]); ++i) {
    if (strcmp(text, on[i]) == 0)
      return 1;
    if (strcmp(text, off[i]) == 0)
      return 0;
  }
  return -1;
}

#ifdef __cplusplus
}
#endif

#endif /* OMPEXT_ABI_H */
