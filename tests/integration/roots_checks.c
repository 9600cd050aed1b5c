/*
 * Several roots forking at once (the hot team's fork and join without the
 * fork/join lock, kmp_plugin.h).
 *
 * The runtime skips its fork/join lock for a root whose hot team keeps its
 * size at the outermost level; every other fork takes it, and those take
 * threads from and give threads back to the process's pools.  Here roots of
 * both kinds run at once:
 *
 *   - steady roots (ROOTS - 1 pthreads and the main thread): region after
 *     region with their own team size, the lock-free path;
 *   - a churning root: team sizes changing at every region (num_threads,
 *     omp_set_num_threads, shrinking below its hot team and growing past
 *     it), nested regions, dyn-var switched on and off: the locked paths,
 *     moving threads through the pools while the steady roots fork.
 *
 * Every region checks that its team has the size asked for (dyn-var off),
 * that each thread number shows up exactly once, a worksharing reduction,
 * and the tasks its threads create; a nested region checks its own team.
 * A root that takes a thread another root's team holds, or loses one,
 * fails these checks or hangs (the test's timeout).
 *
 *   roots_checks [--rounds=N] [--expect-plugin=yes|no]
 *
 * --expect-plugin=yes also needs the plugin loaded with teams prepared
 * (OMPEXT_STATS=1): the unlocked path exists only on the plugin's fork/join.
 */
#define _POSIX_C_SOURCE 200809L

#include "probe.h"

#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROOTS 3      /* steady roots, the main thread included */
#define MAX_TEAM 8   /* largest team any root asks for */
#define LOOP_N 1000  /* iterations of each region's reduction loop */

static atomic_long failures;

static void fail(const char *who, long round, const char *what, long got,
                 long want) {
  /* relaxed: a count, read after every root has joined */
  if (atomic_fetch_add_explicit(&failures, 1, memory_order_relaxed) < 10)
    fprintf(stderr, "roots_checks: %s, round %ld: %s %ld, want %ld\n", who,
            round, what, got, want);
}

/* One region of `width` threads: team size, thread numbers, a reduction
   and one task per thread; with `nested`, each thread of the first two
   also runs a nested region of 2. */
static void region(const char *who, long round, int width, int nested) {
  atomic_int seen[MAX_TEAM];
  for (int i = 0; i < MAX_TEAM; ++i)
    atomic_init(&seen[i], 0);
  atomic_int tasks_run = 0;
  atomic_int nested_ok = 0;
  long sum = 0;
  int team = 0;
#pragma omp parallel num_threads(width) reduction(+ : sum)
  {
    int tid = omp_get_thread_num();
#pragma omp single
    team = omp_get_num_threads();
    if (tid >= 0 && tid < MAX_TEAM)
      /* relaxed: counts read after the region's join */
      atomic_fetch_add_explicit(&seen[tid], 1, memory_order_relaxed);
#pragma omp for
    for (long i = 1; i <= LOOP_N; ++i)
      sum += i;
#pragma omp task shared(tasks_run)
    atomic_fetch_add_explicit(&tasks_run, 1, memory_order_relaxed);
    if (nested && tid < 2) {
      int inner = 0;
#pragma omp parallel num_threads(2) reduction(+ : inner)
      inner = omp_get_num_threads() == 2 && omp_get_level() == 2;
      if (inner == 2)
        atomic_fetch_add_explicit(&nested_ok, 1, memory_order_relaxed);
    }
  }
  if (team != width)
    fail(who, round, "team size", team, width);
  for (int i = 0; i < MAX_TEAM; ++i) {
    int want = i < width;
    int got = atomic_load_explicit(&seen[i], memory_order_relaxed);
    if (got != want)
      fail(who, round, "thread number seen", got, want);
  }
  if (sum != (long)LOOP_N * (LOOP_N + 1) / 2)
    fail(who, round, "reduction", sum, (long)LOOP_N * (LOOP_N + 1) / 2);
  if (atomic_load_explicit(&tasks_run, memory_order_relaxed) != width)
    fail(who, round, "tasks run", tasks_run, width);
  if (nested && atomic_load_explicit(&nested_ok, memory_order_relaxed) !=
                    (width < 2 ? width : 2))
    fail(who, round, "nested regions of 2", nested_ok, width < 2 ? width : 2);
}

struct root_args {
  char name[32];
  int width; /* steady team size; 0: churning */
  long rounds;
};

static void *steady_root(void *arg) {
  const struct root_args *a = arg;
  omp_set_dynamic(0);
  for (long r = 0; r < a->rounds; ++r)
    region(a->name, r, a->width, 0);
  return NULL;
}

static void *churning_root(void *arg) {
  const struct root_args *a = arg;
  static const int widths[] = {4, 2, 1, 3, 6, 2, 2, 5};
  const int n = sizeof widths / sizeof widths[0];
  omp_set_max_active_levels(2);
  for (long r = 0; r < a->rounds; ++r) {
    int width = widths[r % n];
    omp_set_dynamic(0);
    if (r % 3 == 0)
      omp_set_num_threads(width); /* shrinks or grows the hot team itself */
    region(a->name, r, width, r % 4 == 1);
    if (r % 16 == 7) {
      /* dyn-var on: the runtime may give fewer threads; only the
         reduction and the numbering are checked */
      omp_set_dynamic(1);
      long sum = 0;
#pragma omp parallel num_threads(3) reduction(+ : sum)
      sum += 1;
      if (sum < 1 || sum > 3)
        fail(a->name, r, "dynamic team size", sum, 3);
    }
  }
  return NULL;
}

int main(int argc, char **argv) {
  long rounds = 3000;
  int expect_plugin = -1; /* not checked */
  for (int i = 1; i < argc; ++i) {
    if (strncmp(argv[i], "--rounds=", 9) == 0)
      rounds = strtol(argv[i] + 9, NULL, 10);
    else if (strcmp(argv[i], "--expect-plugin=yes") == 0)
      expect_plugin = 1;
    else if (strcmp(argv[i], "--expect-plugin=no") == 0)
      expect_plugin = 0;
    else {
      fprintf(stderr,
              "usage: roots_checks [--rounds=N] [--expect-plugin=yes|no]\n");
      return 2;
    }
  }
  struct root_args steady[ROOTS], churn;
  pthread_t threads[ROOTS];
  for (int i = 0; i < ROOTS; ++i) {
    snprintf(steady[i].name, sizeof steady[i].name, "steady root %d", i);
    steady[i].width = 2 + i % 2;
    steady[i].rounds = rounds;
  }
  snprintf(churn.name, sizeof churn.name, "churning root");
  churn.width = 0;
  churn.rounds = rounds / 2;
  /* The main thread is a root too: its first region makes its hot team
     before the others start, then it runs with them. */
  region("main root", -1, steady[0].width, 0);
  for (int i = 1; i < ROOTS; ++i)
    if (pthread_create(&threads[i], NULL, steady_root, &steady[i]) != 0)
      fail("main", -1, "pthread_create", 1, 0);
  if (pthread_create(&threads[0], NULL, churning_root, &churn) != 0)
    fail("main", -1, "pthread_create", 1, 0);
  steady_root(&steady[0]);
  for (int i = 0; i < ROOTS; ++i)
    pthread_join(threads[i], NULL);
  ompext_stats_t stats;
  const int loaded = probe_plugin_stats(&stats);
  if (expect_plugin >= 0 && loaded != expect_plugin)
    fail("main", -1, "plugin loaded", loaded, expect_plugin);
  if (expect_plugin == 1 && loaded && stats.teams_prepared == 0)
    fail("main", -1, "teams prepared by the plugin", 0, 1);
  long f = atomic_load(&failures); /* seq_cst: after every join */
  printf("roots_checks: %d steady roots x %ld regions, churning root %ld: "
         "%ld failures\n",
         ROOTS, rounds, churn.rounds, f);
  return f ? 1 : 0;
}
