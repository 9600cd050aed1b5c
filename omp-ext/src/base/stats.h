/* Optional counters behind OMPEXT_STATS (public view: ompext/stats.h). */
#ifndef OMPEXT_STATS_INTERNAL_H
#define OMPEXT_STATS_INTERNAL_H

#include "ompext/stats.h"

#include <stdatomic.h>
#include <stdio.h>

/* The plugin builds with hidden visibility; these few symbols are its
   interface (ompext_get_ops for the runtime, ompext_stats_read for tests). */
#define OMPEXT_PUBLIC __attribute__((visibility("default")))

typedef enum {
  OMPEXT_STAT_PLAIN_BARRIER,
  OMPEXT_STAT_REDUCTION,
  OMPEXT_STAT_BROADCAST,
  OMPEXT_STAT_TEAM_PREPARED,
  OMPEXT_STAT_DOMAIN_BARRIER,
  OMPEXT_STAT_DOMAIN_REDUCTION,
  OMPEXT_STAT_DOMAIN_BROADCAST,
  OMPEXT_STAT_ROOTED_CLOSE,
  OMPEXT_STAT_STOCK_BARRIER,
  OMPEXT_STAT_STOCK_BARRIER_AFTER_TASKS,
  OMPEXT_STAT_ATOMIC_LOCK,
  OMPEXT_STAT_COUNT
} ompext_stat_t;

extern int ompext_stats_enabled;
extern _Atomic uint64_t ompext_stat_counts[OMPEXT_STAT_COUNT];

static inline void ompext_stat_add(ompext_stat_t which) {
  if (ompext_stats_enabled)
    /* relaxed: a statistic, read only after the threads are done */
    atomic_fetch_add_explicit(&ompext_stat_counts[which], 1,
                              memory_order_relaxed);
}

/* Starts a runtime's life: counting on or off, counters at zero, its summary
   line not printed yet.  A runtime that shuts down and starts again
   (omp_pause_resource_all(omp_pause_hard)) asks for the plugin's operations
   again, so each life gets its own counters and its own line. */
void ompext_stats_begin(int enabled);

/* Prints the summary line of this life once (at runtime shutdown or at
   process exit, whichever comes first). */
void ompext_stats_print_once(FILE *out);

#endif
