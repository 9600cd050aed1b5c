/* Counters behind OMPEXT_STATS and their public reader. */
#include "stats.h"

int ompext_stats_enabled = 0;
_Atomic uint64_t ompext_stat_counts[OMPEXT_STAT_COUNT];
static atomic_flag printed = ATOMIC_FLAG_INIT;

OMPEXT_PUBLIC void ompext_stats_read(ompext_stats_t *out) {
  out->plain_barriers = atomic_load_explicit(
      &ompext_stat_counts[OMPEXT_STAT_PLAIN_BARRIER], memory_order_relaxed);
  out->reductions = atomic_load_explicit(
      &ompext_stat_counts[OMPEXT_STAT_REDUCTION], memory_order_relaxed);
  out->broadcasts = atomic_load_explicit(
      &ompext_stat_counts[OMPEXT_STAT_BROADCAST], memory_order_relaxed);
  out->teams_prepared = atomic_load_explicit(
      &ompext_stat_counts[OMPEXT_STAT_TEAM_PREPARED], memory_order_relaxed);
  out->domain_barriers = atomic_load_explicit(
      &ompext_stat_counts[OMPEXT_STAT_DOMAIN_BARRIER], memory_order_relaxed);
  out->domain_reductions = atomic_load_explicit(
      &ompext_stat_counts[OMPEXT_STAT_DOMAIN_REDUCTION], memory_order_relaxed);
  out->domain_broadcasts = atomic_load_explicit(
      &ompext_stat_counts[OMPEXT_STAT_DOMAIN_BROADCAST], memory_order_relaxed);
  out->counting = ompext_stats_enabled;
}

void ompext_stats_print_once(FILE *out) {
  if (!ompext_stats_enabled ||
      atomic_flag_test_and_set_explicit(&printed, memory_order_relaxed))
    return;
  ompext_stats_t s;
  ompext_stats_read(&s);
  fprintf(out,
          "omp-ext: stats: plain_barriers=%llu reductions=%llu "
          "broadcasts=%llu teams_prepared=%llu domain_barriers=%llu "
          "domain_reductions=%llu domain_broadcasts=%llu\n",
          (unsigned long long)s.plain_barriers,
          (unsigned long long)s.reductions, (unsigned long long)s.broadcasts,
          (unsigned long long)s.teams_prepared,
          (unsigned long long)s.domain_barriers,
          (unsigned long long)s.domain_reductions,
          (unsigned long long)s.domain_broadcasts);
}
