/*
 * phases: where the time of a parallel region goes, on the time-stamp
 * counter, for the floor arithmetic of make bench ("Where a region's time
 * goes" in summary.md).
 *
 * EPCC's PARALLEL and REDUCTION give one number per construct.  This splits
 * a region of a team of OMP_NUM_THREADS (at least 2) into what one thread
 * waits for from another, and measures the unit those waits are made of:
 *   handoff    one flag passed between thread 0 and the team's last
 *              thread: half a round trip of a ping-pong on one cache line,
 *              inside one region (a line transfer, as the threads see it)
 *   fork       the primary's stamp before the construct to the latest first
 *              stamp of a worker in the body (the release reaching the team)
 *   primary    the same to the primary's own first stamp in the body (the
 *              runtime's path on the primary before user code runs)
 *   join       the latest last stamp of any thread in the body to the
 *              primary's stamp after the construct (the arrival reaching
 *              the primary, the reduction's combine with it)
 *   body       the primary's first to its last stamp (its share of user
 *              code, for the overhead: total - body)
 *   total      before to after
 * for two regions: an empty body (region) and a body ending in an int
 * reduction(+) (reduction), whose combine code the compiler places after
 * the body's last stamp, so it is counted in join.  Every thread's body is
 * the same busy wait, BODY_NS long, so that the primary is usually waiting
 * at the join when the last worker arrives, as in EPCC's loop.
 *
 * The counter is read with rdtsc (one clock for all cores on the machines
 * this runs on: invariant TSC) and converted to ns against CLOCK_MONOTONIC.
 * Each phase is the median over --regions regions after a warm-up.  No
 * ratio is computed here; compare.sh runs it on stock and ext.
 */
#define _POSIX_C_SOURCE 200809L
#include <omp.h>

#include <errno.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#define LINE 64
#define MAX_THREADS 1024
#define BODY_NS 100.0
#define WARMUP 1000

/* One thread's stamps of the current region, on its own line. */
typedef struct stamps {
  alignas(LINE) uint64_t first, last;
} stamps_t;

static stamps_t stamps[MAX_THREADS];

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Counter ticks per ns, over about 50 ms. */
static double ticks_per_ns(void) {
  const double t0 = now_ns();
  const uint64_t c0 = __rdtsc();
  while (now_ns() - t0 < 50e6)
    ;
  const uint64_t c1 = __rdtsc();
  const double t1 = now_ns();
  return (double)(c1 - c0) / (t1 - t0);
}

static void busy(uint64_t from, uint64_t ticks) {
  while (__rdtsc() - from < ticks)
    ;
}

static int cmp_u64(const void *a, const void *b) {
  const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, int n) {
  qsort(v, (size_t)n, sizeof(*v), cmp_u64);
  return v[n / 2];
}

enum { FORK, PRIMARY, JOIN, BODY, TOTAL, PHASES };
static const char *const phase_names[PHASES] = {"fork", "primary", "join",
                                                "body", "total"};

/* Latest first and last stamps of the team's threads (workers only for
   first: the primary's is its own phase). */
static void team_extremes(int nthreads, uint64_t *latest_worker_first,
                          uint64_t *latest_last) {
  uint64_t f = 0, l = 0;
  for (int t = 0; t < nthreads; ++t) {
    if (t > 0 && stamps[t].first > f)
      f = stamps[t].first;
    if (stamps[t].last > l)
      l = stamps[t].last;
  }
  *latest_worker_first = f;
  *latest_last = l;
}

/* One region of the given kind; returns 0, or 1 if the reduction or the
   team was wrong. */
static int one_region(int with_reduction, int nthreads, uint64_t body,
                      uint64_t out[PHASES]) {
  int sum = 0, members = 0;
  const uint64_t before = __rdtsc();
  if (with_reduction) {
#pragma omp parallel reduction(+ : sum)
    {
      const int t = omp_get_thread_num();
      stamps[t].first = __rdtsc();
      busy(stamps[t].first, body);
      sum += 1;
      stamps[t].last = __rdtsc();
    }
    members = sum;
  } else {
#pragma omp parallel
    {
      const int t = omp_get_thread_num();
      stamps[t].first = __rdtsc();
      busy(stamps[t].first, body);
      stamps[t].last = __rdtsc();
    }
    members = nthreads;
  }
  const uint64_t after = __rdtsc();
  uint64_t worker_first, last;
  team_extremes(nthreads, &worker_first, &last);
  out[FORK] = worker_first - before;
  out[PRIMARY] = stamps[0].first - before;
  out[JOIN] = after > last ? after - last : 0;
  out[BODY] = stamps[0].last - stamps[0].first;
  out[TOTAL] = after - before;
  return members != nthreads;
}

/* Half the median round trip of a flag between thread 0 and thread
   nthreads - 1, in ticks. */
static uint64_t handoff_ticks(int nthreads, int rounds) {
  static alignas(LINE) _Atomic unsigned flag;
  uint64_t *trip = malloc((size_t)rounds * sizeof(*trip));
  if (!trip)
    return 0;
  atomic_store_explicit(&flag, 0, memory_order_relaxed);
#pragma omp parallel
  {
    const int t = omp_get_thread_num();
    const int peer = nthreads - 1;
    for (int r = 0; r < rounds && (t == 0 || t == peer); ++r) {
      const unsigned ping = 2u * (unsigned)r + 1u, pong = ping + 1u;
      if (t == 0) {
        const uint64_t start = __rdtsc();
        /* Release/acquire: each side's next step comes after the other's;
           the counter is all the data. */
        atomic_store_explicit(&flag, ping, memory_order_release);
        while (atomic_load_explicit(&flag, memory_order_acquire) != pong)
          ;
        trip[r] = __rdtsc() - start;
      } else {
        while (atomic_load_explicit(&flag, memory_order_acquire) != ping)
          ;
        atomic_store_explicit(&flag, pong, memory_order_release);
      }
    }
  }
  const uint64_t m = median(trip, rounds) / 2;
  free(trip);
  return m;
}

static void usage(FILE *to, const char *prog) {
  fprintf(to,
          "Usage: %s [--regions N]\n"
          "Splits a parallel region into fork, primary, join, body and total "
          "on the\ntime-stamp counter, with and without an int reduction, "
          "beside one line handoff between\nthreads (see the comment at the "
          "top of bench/floor/phases.c).  Team size from\nOMP_NUM_THREADS, "
          "2 up to the processors.  Prints CSV: kind,phase,threads,median_ns.\n"
          "Exit status: 0 ok, 1 a region's team or reduction was wrong, 2 "
          "usage error.\n",
          prog);
}

int main(int argc, char **argv) {
  long regions = 20000;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--help")) {
      usage(stdout, argv[0]);
      return 0;
    }
    if (!strcmp(argv[i], "--regions") && i + 1 < argc) {
      char *end;
      errno = 0;
      regions = strtol(argv[++i], &end, 10);
      if (errno || *end || regions < 1 || regions > 10000000) {
        fprintf(stderr, "%s: --regions: '%s' is not in 1..10000000\n",
                argv[0], argv[i]);
        return 2;
      }
      continue;
    }
    usage(stderr, argv[0]);
    return 2;
  }
  /* At most one thread per processor: the handoff's two threads spin on
     each other and must both be running. */
  const int nthreads = omp_get_max_threads();
  const int limit = omp_get_num_procs() < MAX_THREADS ? omp_get_num_procs()
                                                      : MAX_THREADS;
  if (nthreads < 2 || nthreads > limit) {
    fprintf(stderr,
            "%s: needs a team of 2..%d threads (OMP_NUM_THREADS; at most "
            "one per processor)\n",
            argv[0], limit);
    return 2;
  }
  const double tpn = ticks_per_ns();
  const uint64_t body = (uint64_t)(BODY_NS * tpn);
  uint64_t *samples = malloc((size_t)regions * PHASES * sizeof(*samples));
  uint64_t *column = malloc((size_t)regions * sizeof(*column));
  if (!samples || !column) {
    fprintf(stderr, "%s: out of memory\n", argv[0]);
    return 2;
  }
  int wrong = 0;
  printf("kind,phase,threads,median_ns\n");
  printf("handoff,line,%d,%.1f\n", nthreads,
         (double)handoff_ticks(nthreads, (int)(regions < 100000 ? regions
                                                                : 100000)) /
             tpn);
  for (int kind = 0; kind < 2; ++kind) {
    uint64_t out[PHASES];
    for (int r = 0; r < WARMUP; ++r)
      wrong |= one_region(kind, nthreads, body, out);
    for (long r = 0; r < regions; ++r) {
      wrong |= one_region(kind, nthreads, body, out);
      memcpy(samples + r * PHASES, out, sizeof(out));
    }
    for (int p = 0; p < PHASES; ++p) {
      for (long r = 0; r < regions; ++r)
        column[r] = samples[r * PHASES + p];
      printf("%s,%s,%d,%.1f\n", kind ? "reduction" : "region", phase_names[p],
             nthreads, (double)median(column, (int)regions) / tpn);
    }
  }
  free(samples);
  free(column);
  if (wrong)
    fprintf(stderr, "%s: a region's team or reduction was wrong\n", argv[0]);
  return wrong;
}
