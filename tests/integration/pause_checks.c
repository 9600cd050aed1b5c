/*
 * A runtime shut down by omp_pause_resource_all(omp_pause_hard) starts again
 * at the next parallel region and asks for the plugin's operations again.
 * Each of its lives must give right results, run the plugin's barrier and
 * broadcast, count them from zero, and print its own OMPEXT_STATS line; the
 * topology is loaded once for the process.
 *   --expect-plugin=yes|no   yes needs OMPEXT_STATS=1 and OMPEXT_VERBOSE=1
 */
#define _GNU_SOURCE
#include "probe.h"

#include <omp.h>
#include <stdio.h>
#include <string.h>

enum { LIVES = 4, BARRIERS = 40, COPIES = 30 };

static int failures;

static void check(int ok, const char *what, int life) {
  if (!ok) {
    ++failures;
    if (life > 0)
      printf("FAIL: %s (life %d)\n", what, life);
    else
      printf("FAIL: %s\n", what);
  }
}

__attribute__((constructor)) static void capture_early(void) {
  probe_capture_stderr();
}

/* Barriers only, so that the plugin's barrier count of this life is exact:
   after barrier r every thread has counted r arrivals, and none r + 2. */
static int barrier_counts(void) {
  long arrivals = 0;
  int bad = 0, team = 0;
#pragma omp parallel reduction(+ : bad)
  {
    const long n = omp_get_num_threads();
#pragma omp master
    team = (int)n;
    for (long r = 1; r <= BARRIERS; ++r) {
#pragma omp atomic
      arrivals++;
#pragma omp barrier
      long seen;
#pragma omp atomic read
      seen = arrivals;
      bad += seen < n * r || seen >= n * (r + 1);
    }
  }
  return bad == 0 ? team : -1;
}

/* Copyprivate of a value the single computes, and a reduction. */
static int copies_and_sum(int team) {
  int bad = 0;
  long sum = 0;
#pragma omp parallel reduction(+ : bad, sum)
  {
    for (int c = 0; c < COPIES; ++c) {
      long v;
#pragma omp single copyprivate(v)
      v = 1000L * c + 7;
      bad += v != 1000L * c + 7;
      sum += c;
    }
  }
  return bad == 0 && sum == (long)team * COPIES * (COPIES - 1) / 2;
}

int main(int argc, char **argv) {
  int expect_plugin = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--expect-plugin=yes") == 0)
      expect_plugin = 1;
    else if (strcmp(argv[i], "--expect-plugin=no") != 0) {
      fprintf(stderr, "pause_checks: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  for (int life = 1; life <= LIVES; ++life) {
    const int team = barrier_counts();
    check(team > 0, "barrier arrival counts", life);
    ompext_stats_t stats;
    const int loaded = probe_plugin_stats(&stats);
    if (expect_plugin) {
      check(loaded && stats.counting, "plugin loaded and counting", life);
      check(loaded && stats.plain_barriers == (unsigned long long)team *
                                                  BARRIERS,
            "this life's barriers counted from zero", life);
      check(loaded && stats.broadcasts == 0, "no broadcast yet", life);
    } else
      check(!loaded, "plugin not loaded", life);
    check(copies_and_sum(team), "copyprivate values and reduction", life);
    if (expect_plugin) {
      probe_plugin_stats(&stats);
      check(stats.broadcasts == (unsigned long long)team * COPIES,
            "this life's broadcasts counted from zero", life);
    }
    check(omp_pause_resource_all(omp_pause_hard) == 0, "hard pause", life);
  }
  const char *err = probe_captured_stderr();
  if (expect_plugin) {
    check(probe_count_lines(err, "omp-ext: loaded plugin") == LIVES,
          "the plugin is asked for again in every life", 0);
    check(probe_count_lines(err, "omp-ext: stats:") == LIVES,
          "one stats line per life", 0);
    check(probe_count_lines(err, "omp-ext: topology:") == 1,
          "the topology is loaded once", 0);
  }
  printf("pause_checks: lives=%d failures=%d\n", LIVES, failures);
  return failures ? 1 : 0;
}
