/*
 * omp-ext plugin ABI: the one contract between the patched libomp and
 * libompext.so.  This is the only copy; the runtime patch includes it from
 * here (the build adds omp-ext/include to libomp's include path).
 *
 * Two tables cross the seam, each stamped with the ABI version and its own
 * size so that either side can refuse a mismatch:
 *   - services (runtime -> plugin): waiting and signalling on 64-bit flag
 *     words exactly the way libomp waits (run tasks, yield when
 *     oversubscribed, sleep after the blocktime, honour shutdown), plus
 *     allocation and a few queries;
 *   - ops (plugin -> runtime): per-team context and the collectives.  Any op
 *     may be NULL, which means "stock behaviour for that path".
 *
 * Flag words: 64 bits, bit 0 is libomp's sleep bit, bit 1 stays 0, and
 * they change only by atomic adds of OMPEXT_FLAG_BUMP: services->release
 * (+4, then wake a sleeping owner), or the plugin's own fetch-add on a
 * word nobody waits on at that moment.  Every word has exactly one waiter,
 * identified by its tid in the current team.  Never store into a word a
 * thread may sleep on.
 *
 * This header is C11 and C++11; it must not include any libomp header.
 */
#ifndef OMPEXT_ABI_H
#define OMPEXT_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bump on any change to the layout or meaning of the tables below. */
#define OMPEXT_ABI_VERSION 1u

/* The symbol the runtime looks up in the plugin. */
#define OMPEXT_GET_OPS_SYMBOL "ompext_get_ops"

/* Flag word state layout, shared with libomp (KMP_BARRIER_STATE_BUMP). */
#define OMPEXT_FLAG_SLEEP_BIT 1u
#define OMPEXT_FLAG_BUMP 4u

/* A flag word.  C sees it as an atomic, C++ (libomp) as the volatile
   kmp_uint64 its kmp_flag_64 class expects; both are one aligned 8-byte word. */
#ifdef __cplusplus
typedef volatile uint64_t ompext_flag_word_t;
#else
typedef _Atomic uint64_t ompext_flag_word_t;
#endif

/* Barrier kinds, equal to libomp's enum barrier_type. */
enum ompext_barrier_kind {
  OMPEXT_BT_PLAIN = 0,
  OMPEXT_BT_FORKJOIN = 1,
  OMPEXT_BT_REDUCTION = 2
};

/* Answers of ops->reduce_method. */
enum ompext_reduce_method {
  OMPEXT_REDUCE_METHOD_RUNTIME = 0, /* keep the runtime's own choice */
  OMPEXT_REDUCE_METHOD_ATOMIC = 1,  /* atomics, where the compiler emitted them */
  OMPEXT_REDUCE_METHOD_TREE = 2     /* the tree gather, where available */
};

/* The compiler's reduce_func(lhs, rhs) and copy_func(dst, src). */
typedef void (*ompext_pairfn_t)(void *dst_or_lhs, void *src_or_rhs);

typedef struct ompext_services {
  uint32_t abi_version; /* OMPEXT_ABI_VERSION of the runtime */
  uint32_t size;        /* sizeof(ompext_services_t) in the runtime */
  /* Block until (*word & ~OMPEXT_FLAG_SLEEP_BIT) == expect.  The caller
     must be the word's only waiter.  final_spin as in libomp: nonzero only
     for the release wait that may end the region's tasks.  No memory
     ordering is promised: the caller loads the word with acquire after it
     (the plugin's wait.h does). */
  void (*wait)(int gtid, ompext_flag_word_t *word, uint64_t expect,
               int final_spin);
  /* Atomically add OMPEXT_FLAG_BUMP to *word (release semantics), then
     wake waiter_tid (the word's one waiter, a tid of the caller's current
     team) if it sleeps on it. */
  void (*release)(int gtid, int waiter_tid, ompext_flag_word_t *word);
  /* Nonzero when live OpenMP threads outnumber available processors. */
  int (*oversubscribed)(void);
  /* Wait policy: blocktime in ms (INT32_MAX = infinite), passive flag. */
  int (*blocktime_ms)(void);
  int (*passive_wait)(void);
  /* Nonzero once the runtime is shutting down or aborting. */
  int (*shutting_down)(void);
  /* Zeroed memory aligned to at least 64 bytes; free with free_mem. */
  void *(*alloc)(size_t bytes);
  void (*free_mem)(void *ptr);
  /* Number of processors the runtime may use (the affinity mask). */
  int (*available_procs)(void);
  /* Tool events around each combine of a reduction (begin != 0, then 0),
     as the stock gathers report them; may be NULL. */
  void (*reduction_event)(int gtid, int begin);
} ompext_services_t;

typedef struct ompext_ops {
  uint32_t abi_version; /* OMPEXT_ABI_VERSION of the plugin */
  uint32_t size;        /* sizeof(ompext_ops_t) in the plugin */
  const char *name;     /* for messages, e.g. "ompext 0.1" */

  /* Called once at runtime start-up, before any team exists, under the
     runtime's init lock: must not call omp_* functions.  0 means OK; any
     other value makes the runtime fall back to stock everywhere. */
  int (*init)(const ompext_services_t *svc);
  /* Called once at runtime shutdown. */
  void (*fini)(void);

  /* Master thread only, with every worker parked (start of each fork).
     Returns the context for a team of nproc threads at the given nesting
     level; may return old_ctx unchanged, a new context (old_ctx is then the
     plugin's to free), or NULL to refuse the team (all paths go stock). */
  void *(*team_prepare)(void *old_ctx, int nproc, int level);
  void (*team_free)(void *ctx);

  /* (a) Plain barrier: returns once every thread of the team has called it
     for this episode.  All nproc threads call it. */
  void (*plain_barrier)(void *ctx, int gtid, int tid);

  /* (b) Reduction gather: every thread passes its reduce_data; when tid 0
     returns, its data holds the combination of all threads' data, combined
     with reduce(lhs, rhs).  A worker may return once it has signalled its
     arrival: the runtime's release that follows keeps its data alive until
     tid 0 has finished combining. */
  void (*reduce_gather)(void *ctx, int gtid, int tid, void *data,
                        size_t size, ompext_pairfn_t reduce);

  /* (c) Topology of a runtime-executed tree for barrier kind bt (fork
     release and join gather use OMPEXT_BT_FORKJOIN).  Writes the parent
     (-1 for tid 0) and up to cap children, in wait/release order; returns
     the number of children.  Must be a pure function of (ctx, bt, tid). */
  int (*tree)(void *ctx, int bt, int tid, int *parent, int *children,
              int cap);

  /* (d) Broadcast for copyprivate.  Every thread of the team calls it once
     per construct; exactly one, the root (the thread that won the single),
     passes is_root != 0 and its data.  If cpy != NULL the plugin copies into
     each non-root's data with cpy(my_data, src), where src may be any
     thread's data that already holds the value (tree relay).  Returns the
     root's data pointer on every thread.  The caller guarantees a barrier
     after the broadcast before the root's data (or a relay's) dies. */
  void *(*bcast)(void *ctx, int gtid, int tid, int is_root, void *data,
                 ompext_pairfn_t cpy);

  /* (e) Reduction method for a team: one of enum ompext_reduce_method.
     atomic_ok/tree_ok say which methods the compiler made possible; size is
     the reduction data's size in bytes.  Must be a pure function of its
     arguments: every thread of the team asks. */
  int (*reduce_method)(void *ctx, size_t size, int atomic_ok, int tree_ok);
} ompext_ops_t;

/* The single symbol the plugin exports for the runtime.  Returns NULL when
   the plugin cannot serve a runtime of this ABI version. */
typedef const ompext_ops_t *(*ompext_get_ops_fn)(uint32_t runtime_abi);
const ompext_ops_t *ompext_get_ops(uint32_t runtime_abi);

#ifdef __cplusplus
}
#endif

#endif /* OMPEXT_ABI_H */
