/* Counters behind OMPEXT_STATS and their public reader. */
#include "stats.h"

#include <stddef.h>

int ompext_stats_enabled = 0;
_Atomic uint64_t ompext_stat_counts[OMPEXT_STAT_COUNT];
static atomic_flag printed = ATOMIC_FLAG_INIT;

/* Each counter's field in the public struct and its name in the summary. */
static const struct {
  size_t offset;
  const char *name;
} stat_fields[OMPEXT_STAT_COUNT] = {
    [OMPEXT_STAT_PLAIN_BARRIER] = {offsetof(ompext_stats_t, plain_barriers),
                                   "plain_barriers"},
    [OMPEXT_STAT_REDUCTION] = {offsetof(ompext_stats_t, reductions),
                               "reductions"},
    [OMPEXT_STAT_BROADCAST] = {offsetof(ompext_stats_t, broadcasts),
                               "broadcasts"},
    [OMPEXT_STAT_TEAM_PREPARED] = {offsetof(ompext_stats_t, teams_prepared),
                                   "teams_prepared"},
    [OMPEXT_STAT_DOMAIN_BARRIER] = {offsetof(ompext_stats_t, domain_barriers),
                                    "domain_barriers"},
    [OMPEXT_STAT_DOMAIN_REDUCTION] = {offsetof(ompext_stats_t,
                                               domain_reductions),
                                      "domain_reductions"},
    [OMPEXT_STAT_DOMAIN_BROADCAST] = {offsetof(ompext_stats_t,
                                               domain_broadcasts),
                                      "domain_broadcasts"},
    [OMPEXT_STAT_ROOTED_CLOSE] = {offsetof(ompext_stats_t, rooted_closes),
                                  "rooted_closes"},
    [OMPEXT_STAT_STOCK_BARRIER] = {offsetof(ompext_stats_t, stock_barriers),
                                   "stock_barriers"},
    [OMPEXT_STAT_STOCK_BARRIER_AFTER_TASKS] =
        {offsetof(ompext_stats_t, stock_barriers_after_tasks),
         "stock_barriers_after_tasks"},
    [OMPEXT_STAT_ATOMIC_LOCK] = {offsetof(ompext_stats_t, atomic_locks),
                                 "atomic_locks"},
};

OMPEXT_PUBLIC void ompext_stats_read(ompext_stats_t *out) {
  for (int i = 0; i < OMPEXT_STAT_COUNT; ++i)
    /* relaxed: statistics, read after the threads that count are done */
    *(uint64_t *)((char *)out + stat_fields[i].offset) =
        atomic_load_explicit(&ompext_stat_counts[i], memory_order_relaxed);
  out->counting = ompext_stats_enabled;
}

void ompext_stats_begin(int enabled) {
  /* No thread runs plugin code while the runtime initialises. */
  ompext_stats_enabled = enabled;
  for (int i = 0; i < OMPEXT_STAT_COUNT; ++i)
    /* relaxed: the runtime's own start-up orders this before any counting */
    atomic_store_explicit(&ompext_stat_counts[i], 0, memory_order_relaxed);
  atomic_flag_clear_explicit(&printed, memory_order_relaxed);
}

void ompext_stats_print_once(FILE *out) {
  if (!ompext_stats_enabled ||
      atomic_flag_test_and_set_explicit(&printed, memory_order_relaxed))
    return;
  fputs("omp-ext: stats:", out);
  for (int i = 0; i < OMPEXT_STAT_COUNT; ++i)
    fprintf(out, " %s=%llu", stat_fields[i].name,
            (unsigned long long)atomic_load_explicit(&ompext_stat_counts[i],
                                                     memory_order_relaxed));
  fputc('\n', out);
}
