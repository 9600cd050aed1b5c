/*
 * Progress after a collective, oversubscribed (issue "No stalls, ever").
 *
 * The shape of LLVM's kmp_sch_simd_guided test: right after a collective,
 * tid 0 publishes a value, while the other threads wait for it in user
 * code, first spinning (up to SPIN_POLLS polls), then sleeping 10 us at a
 * time; a second collective follows, after which tid 0 clears the value.
 * A team of twice the processors (at least 4) is oversubscribed.  If the
 * collective lets workers leave before tid 0, tid 0 waits for a processor
 * while the workers spin: a scheduler slice per round.  The runtime's own
 * collectives let tid 0 leave first.
 *
 *   progress_checks --construct=barrier|copyprivate|reduction|parallel
 *                   [--rounds=N]
 *
 * parallel: each round is a parallel region, and tid 0 publishes as the
 * region starts, so the fork's release is the collective.
 *
 * Checks, any of which fails the run: every worker sees the value tid 0
 * published in its round, copyprivate delivers the single's value, the
 * reduction its sum, and the team has the size asked for.  Prints
 * "elapsed <seconds>" on stdout: progress_vs_stock.sh compares that with
 * the stock runtime's in the same test; this program asserts no time.
 */
#define _POSIX_C_SOURCE 200809L

#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SPIN_POLLS 1000000

enum construct { BARRIER, COPYPRIVATE, REDUCTION, PARALLEL };

static atomic_int published; /* round + 1 once tid 0 is done; 0 between */
static long failures;

static void fail(const char *what, long round, long got, long want) {
  /* relaxed: a count, read after the parallel region */
  if (__atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED) < 10)
    fprintf(stderr, "progress_checks: %s in round %ld: %ld, want %ld\n", what,
            round, got, want);
}

/* The user code of the test: spin, then sleep, until tid 0 published. */
static void wait_for_tid0(long round) {
  int value = 0;
  /* acquire: pairs with tid 0's release store of the round */
  for (int i = 0; i < SPIN_POLLS; ++i)
    if ((value = atomic_load_explicit(&published, memory_order_acquire)))
      break;
  const struct timespec ten_us = {0, 10000};
  while (!(value = atomic_load_explicit(&published, memory_order_acquire)))
    nanosleep(&ten_us, NULL);
  if (value != round + 1)
    fail("published value", round, value, round + 1);
}

/* The collective under test, run by every thread of the team. */
static void collective(enum construct c, long round, int nthreads) {
  switch (c) {
  case BARRIER: {
#pragma omp barrier
    break;
  }
  case COPYPRIVATE: {
    long value = 0;
#pragma omp single copyprivate(value)
    value = round * 7 + 1;
    if (value != round * 7 + 1)
      fail("copyprivate value", round, value, round * 7 + 1);
    break;
  }
  default: {
    /* Totals over the reductions of each parity: a thread can be one
       reduction ahead of another, never two, so the total it reads after
       the construct's barrier is complete and nobody adds to it yet. */
    static long total[2];
    static _Thread_local long calls, want[2];
    const int parity = (int)(calls++ & 1);
#pragma omp for reduction(+ : total[parity]) schedule(static)
    for (int i = 0; i < nthreads; ++i)
      total[parity] += i + round;
    want[parity] += (long)nthreads * (nthreads - 1) / 2 + round * nthreads;
    if (total[parity] != want[parity])
      fail("reduction total", round, total[parity], want[parity]);
    break;
  }
  }
}

/* tid 0 publishes the round; every other thread waits for it. */
static void publish_or_wait(long round) {
  if (omp_get_thread_num() == 0)
    /* release: pairs with the workers' acquire loads */
    atomic_store_explicit(&published, (int)round + 1, memory_order_release);
  else
    wait_for_tid0(round);
}

static const char *const construct_names[] = {"barrier", "copyprivate",
                                              "reduction", "parallel", NULL};

int main(int argc, char **argv) {
  int c = -1;
  long rounds = 20000;
  for (int i = 1; i < argc; ++i) {
    if (strncmp(argv[i], "--construct=", 12) == 0) {
      for (int k = 0; construct_names[k]; ++k)
        if (strcmp(argv[i] + 12, construct_names[k]) == 0)
          c = k;
    } else if (strncmp(argv[i], "--rounds=", 9) == 0 && atol(argv[i] + 9) > 0)
      rounds = atol(argv[i] + 9);
    else
      c = -1, i = argc;
  }
  if (c < 0) {
    fprintf(stderr, "usage: progress_checks "
                    "--construct=barrier|copyprivate|reduction|parallel "
                    "[--rounds=N]\n");
    return 2;
  }
  int nthreads = 2 * omp_get_num_procs();
  if (nthreads < 4)
    nthreads = 4;

  int team = nthreads;
  const double start = omp_get_wtime();
  if (c == PARALLEL) {
    for (long round = 0; round < rounds; ++round) {
#pragma omp parallel num_threads(nthreads)
      {
        publish_or_wait(round);
        if (omp_get_thread_num() == 0 && omp_get_num_threads() != nthreads)
          team = omp_get_num_threads();
      }
      atomic_store_explicit(&published, 0, memory_order_relaxed);
    }
  } else {
#pragma omp parallel num_threads(nthreads)
    {
#pragma omp master
      team = omp_get_num_threads();
      for (long round = 0; round < rounds; ++round) {
        collective((enum construct)c, round, nthreads);
        publish_or_wait(round);
        collective((enum construct)c, round, nthreads);
        /* relaxed: the next round's first collective orders it before the
           workers' next loads */
        if (omp_get_thread_num() == 0)
          atomic_store_explicit(&published, 0, memory_order_relaxed);
      }
    }
  }
  const double elapsed = omp_get_wtime() - start;
  if (team != nthreads) {
    fprintf(stderr, "progress_checks: team of %d, asked for %d\n", team,
            nthreads);
    return 1;
  }
  if (failures) {
    fprintf(stderr, "progress_checks: %ld failures\n", failures);
    return 1;
  }
  printf("elapsed %.6f\n", elapsed);
  return 0;
}
