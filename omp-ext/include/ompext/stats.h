/*
 * omp-ext public statistics: how often each plugin path ran.
 *
 * Counting is off unless OMPEXT_STATS=1 is set in the environment (it costs
 * one relaxed atomic add per call).  With OMPEXT_STATS=1 the plugin also
 * prints one summary line to stderr when the runtime shuts down.
 *
 * A program can read the counters without linking against the plugin:
 *   void *h = dlopen("libompext.so", RTLD_NOW | RTLD_NOLOAD);
 *   ompext_stats_read_fn f = h ? (ompext_stats_read_fn)dlsym(h, "ompext_stats_read") : NULL;
 * A NULL handle means the plugin is not loaded in this process.
 */
#ifndef OMPEXT_STATS_H
#define OMPEXT_STATS_H

#include <stdint.h>

/* Plain barriers a team hands back to the runtime's own after one of the
   plugin's found tasks (counted as stock_barriers_after_tasks). */
#define OMPEXT_STOCK_BARRIERS_AFTER_TASKS 16

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ompext_stats {
  uint64_t plain_barriers; /* per thread: calls of the plain barrier */
  uint64_t reductions;     /* per thread: calls of the reduction gather */
  uint64_t broadcasts;     /* per thread: calls of the copyprivate broadcast */
  uint64_t teams_prepared; /* team contexts created for a new team size */
  /* per thread: of the calls above, those that ran with one leader per
     domain (threads bound across packages or L3 domains) */
  uint64_t domain_barriers;
  uint64_t domain_reductions;
  uint64_t domain_broadcasts;
  /* per thread: plain barriers that closed a broadcast as a barrier rooted
     at its root (OMPEXT_BCAST_CLOSE) */
  uint64_t rooted_closes;
  /* per thread: plain barriers handed back to the runtime's own barrier
     (an oversubscribed team whose plan steps aside, see OMPEXT_VERBOSE) */
  uint64_t stock_barriers;
  /* per thread: plain barriers handed back to the runtime's own because
     one of the plugin's before them, in the same team, found tasks (the
     next OMPEXT_STOCK_BARRIERS_AFTER_TASKS of the team after each) */
  uint64_t stock_barriers_after_tasks;
  /* acquisitions of the runtime's global atomic lock that the plugin
     served (OMPEXT_ATOMIC_LOCK), by any thread */
  uint64_t atomic_locks;
  int counting;            /* nonzero when OMPEXT_STATS enabled counting */
} ompext_stats_t;

typedef void (*ompext_stats_read_fn)(ompext_stats_t *out);
void ompext_stats_read(ompext_stats_t *out);

#ifdef __cplusplus
}
#endif

#endif /* OMPEXT_STATS_H */
