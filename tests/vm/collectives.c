/*
 * Every collective omp-ext replaces, for each team size of a range, with
 * its results checked: fork/join (the regions themselves), barriers,
 * reductions (a scalar and a 4 KiB array), copyprivate (8 B and 64 KiB),
 * single and critical.  Run in the guests of tests/vm, where teams span
 * several packages; on stock and ext alike.
 *
 *   collectives [--threads A-B] [--rounds N] [--expect-bind=close|spread]
 *
 * --threads: team sizes A..B (default: the processor count); --rounds: how
 * many times each size runs each collective (default 100).
 * --expect-bind: each thread of a team no larger than the place list sits
 * on the place the OpenMP rules for that policy give it (thread i on place
 * i for close; on place i*P/n for spread when n divides P places).
 * Prints one line per team size; exits 1 on any wrong result.
 */
#define _GNU_SOURCE
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY 512          /* 4 KiB of longs */
#define BIG (64 * 1024)    /* copyprivate bytes */

static int failures;

static void fail(int n, const char *what, long got, long want) {
#pragma omp critical(report)
  {
    if (failures++ < 20)
      fprintf(stderr, "collectives: team of %d: %s: got %ld, want %ld\n", n,
              what, got, want);
  }
}

/* The expected place of thread t in a team of n over p places. */
static int expected_place(const char *bind, int t, int n, int p) {
  if (strcmp(bind, "spread") == 0)
    return p % n == 0 ? t * (p / n) : -1;
  return t;
}

static void team(int n, long rounds, const char *bind) {
  static long arr[ARRAY];
  long regions = 0;
  for (long r = 0; r < rounds; ++r) {
    int size = 0, arrived = 0, singles = 0, crit = 0;
    long sum = 0, loop = 0;
    memset(arr, 0, sizeof arr);
#pragma omp parallel num_threads(n) reduction(+ : sum) \
    reduction(+ : arr[:ARRAY])
    {
      int t = omp_get_thread_num();
#pragma omp single
      {
        size = omp_get_num_threads();
        ++regions;
      }
      /* Barrier: everyone's arrival is visible after it. */
#pragma omp atomic
      ++arrived;
#pragma omp barrier
      int seen;
#pragma omp atomic read
      seen = arrived;
      if (seen != n)
        fail(n, "arrivals after a barrier", seen, n);
#pragma omp barrier
      /* Reductions, scalar and array (the clause on the region). */
      sum += t + r;
      for (int i = 0; i < ARRAY; ++i)
        arr[i] += t + i;
      /* A reduction inside the region, on a worksharing loop. */
#pragma omp for reduction(+ : loop)
      for (int i = 0; i < 4 * n; ++i)
        loop += i;
      if (loop != (long)(4 * n) * (4 * n - 1) / 2)
        fail(n, "for reduction", loop, (long)(4 * n) * (4 * n - 1) / 2);
      /* copyprivate, 8 B and 64 KiB, from whichever thread wins. */
      long v;
#pragma omp single copyprivate(v)
      v = 1000 * r + t + 1;
      long v0 = v;
      /* 64 KiB by value: the runtime copies the whole array. */
      char buf[BIG];
      buf[0] = buf[BIG - 1] = 0;
#pragma omp single copyprivate(buf)
      memset(buf, (int)(r & 0x7f) + 1, BIG);
      if (buf[0] != (char)((r & 0x7f) + 1) || buf[BIG - 1] != buf[0])
        fail(n, "copyprivate of 64 KiB", buf[BIG - 1], (r & 0x7f) + 1);
      if (v0 < 1000 * r + 1 || v0 > 1000 * r + n)
        fail(n, "copyprivate value", v0, 1000 * r + 1);
#pragma omp barrier
      /* Everyone has the same value: compare with the team's first. */
#pragma omp single
      singles = (int)(v0 - 1000 * r);
      if (singles != (int)(v0 - 1000 * r))
        fail(n, "copyprivate value differs", v0 - 1000 * r, singles);
#pragma omp critical
      ++crit;
#pragma omp barrier
      if (crit != n)
        fail(n, "critical count", crit, n);
      if (bind && r == 0) {
        int p = omp_get_num_places(), want = expected_place(bind, t, n, p);
        if (n <= p && want >= 0 && omp_get_place_num() != want)
          fail(n, "place of a thread (by its tid x 1000 + place)",
               t * 1000L + omp_get_place_num(), t * 1000L + want);
      }
    }
    if (size != n)
      fail(n, "team size", size, n);
    long want = (long)n * (n - 1) / 2 + r * n;
    if (sum != want)
      fail(n, "scalar reduction", sum, want);
    for (int i = 0; i < ARRAY; ++i)
      if (arr[i] != (long)n * (n - 1) / 2 + (long)n * i) {
        fail(n, "array reduction", arr[i], (long)n * (n - 1) / 2 + (long)n * i);
        break;
      }
  }
  if (regions != rounds)
    fail(n, "regions", regions, rounds);
  printf("collectives: team of %d: %ld rounds, %s\n", n, rounds,
         failures ? "FAILED" : "ok");
}

int main(int argc, char **argv) {
  int lo = omp_get_num_procs(), hi = lo;
  long rounds = 100;
  const char *bind = NULL;
  for (int i = 1; i < argc; ++i) {
    if (strncmp(argv[i], "--threads=", 10) == 0 ||
        (strcmp(argv[i], "--threads") == 0 && i + 1 < argc)) {
      const char *s = argv[i][9] == '=' ? argv[i] + 10 : argv[++i];
      if (sscanf(s, "%d-%d", &lo, &hi) == 1)
        hi = lo;
    } else if (strncmp(argv[i], "--rounds=", 9) == 0)
      rounds = atol(argv[i] + 9);
    else if (strncmp(argv[i], "--expect-bind=", 14) == 0)
      bind = argv[i] + 14;
    else {
      fprintf(stderr, "usage: collectives [--threads=A-B] [--rounds=N] "
                      "[--expect-bind=close|spread]\n");
      return 2;
    }
  }
  if (lo < 1 || hi < lo || rounds < 1) {
    fprintf(stderr, "collectives: bad --threads or --rounds\n");
    return 2;
  }
  for (int n = lo; n <= hi; ++n)
    team(n, rounds, bind);
  return failures != 0;
}
