/*
 * The task team at every fork of a hot team (patch 0006).
 *
 * A team's threads find each other's tasks only while they agree on the
 * team's task state (th_task_state, which picks one of the team's two task
 * teams).  At a hot fork the primary takes the workers' state from its own
 * note of the team's last join instead of reading it from thread 1; a wrong
 * note would put the primary's tasks where no worker looks.
 *
 * Each round is one parallel region in which tid 0 creates a task and then
 * waits in user code, without a task scheduling point, until that task has
 * run: only another thread of the team can run it, from the barrier where
 * the others wait.  If they disagreed on the task team the round would never
 * end (progress_vs_stock.sh stops a run at a bound set by stock's time in
 * the same test).  Between the rounds the team changes the ways the note
 * must survive or be dropped: rounds of the same size (the unlocked hot
 * fork), a round with a nested parallel region inside, a serialized one, a
 * round of one thread more (the hot team grows and shrinks back), and
 * omp_set_num_threads(1) before a round (the hot team releases its workers,
 * thread 1 among them, to the pool).
 *
 *   task_state_checks [--rounds=N]
 *
 * Checks, any of which fails the run: every task of the outermost team ran
 * on a thread other than tid 0, and every team had the size asked for.  Prints
 * "elapsed <seconds>"; asserts no time.
 */
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static atomic_long task_ran; /* the round whose task ran, + 1 */
static atomic_long failures;

static void fail(const char *what, long round, long got, long want) {
  /* relaxed: a count, read after the regions */
  if (atomic_fetch_add_explicit(&failures, 1, memory_order_relaxed) < 10)
    fprintf(stderr, "task_state_checks: %s in round %ld: %ld, want %ld\n", what,
            round, got, want);
}

/* tid 0 hands a task to the rest of the team and waits until one of them
   ran it; the others wait at the barrier, where they run tasks. */
static void hand_a_task_over(long round, int nthreads) {
  if (omp_get_num_threads() != nthreads)
    fail("team size", round, omp_get_num_threads(), nthreads);
  if (omp_get_thread_num() == 0) {
#pragma omp task firstprivate(round)
    {
      /* Only the outermost team is a hot one; in the nested team stock too
         sometimes runs the task on its tid 0 (at the task's creation). */
      if (omp_get_level() == 1 && omp_get_thread_num() == 0)
        fail("task ran on tid", round, 0, 1);
      /* release: tid 0's acquire load below sees the task done */
      atomic_store_explicit(&task_ran, round + 1, memory_order_release);
    }
    /* acquire: pairs with the task's release store */
    while (atomic_load_explicit(&task_ran, memory_order_acquire) != round + 1)
      ;
  }
#pragma omp barrier
}

/* tid 0 of the hot team also starts a nested team, which hands its own
   task over.  Only tid 0, only around its nested region, lets two levels be
   active: a region whose max-active-levels-var is above 1 at its fork or
   join takes the fork/join lock (kmp_plugin.h, __kmp_plugin_may_nest), and
   this one's fork and join are to stay unlocked. */
static void nested_round(long round, int nthreads) {
#pragma omp parallel num_threads(nthreads)
  {
    hand_a_task_over(round, nthreads);
    if (omp_get_thread_num() == 0) {
      omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
      hand_a_task_over(round, 2);
      omp_set_max_active_levels(1);
    }
  }
}

int main(int argc, char **argv) {
  long rounds = 3000;
  for (int i = 1; i < argc; ++i) {
    if (strncmp(argv[i], "--rounds=", 9) == 0 && atol(argv[i] + 9) > 0) {
      rounds = atol(argv[i] + 9);
    } else {
      fprintf(stderr, "usage: task_state_checks [--rounds=N]\n");
      return 2;
    }
  }
  int nthreads = omp_get_num_procs();
  if (nthreads < 2)
    nthreads = 2;

  const double start = omp_get_wtime();
  for (long round = 0; round < rounds; ++round) {
    switch (round % 9) {
    case 3: /* a nested region inside: its join drops the note */
      nested_round(round, nthreads);
      break;
    case 4: /* serialized: the hot team is not forked */
#pragma omp parallel num_threads(1)
      if (omp_get_num_threads() != 1)
        fail("team size", round, omp_get_num_threads(), 1);
      break;
    case 5: /* one thread more: the hot team grows, and shrinks next round */
#pragma omp parallel num_threads(nthreads + 1)
      hand_a_task_over(round, nthreads + 1);
      break;
    case 7: /* thread 1 goes to the pool and comes back */
      omp_set_num_threads(1);
#pragma omp parallel
      if (omp_get_num_threads() != 1)
        fail("team size", round, omp_get_num_threads(), 1);
      omp_set_num_threads(nthreads);
      break;
    default: /* the same team again: the unlocked hot fork */
#pragma omp parallel num_threads(nthreads)
      hand_a_task_over(round, nthreads);
      break;
    }
  }
  const double elapsed = omp_get_wtime() - start;
  const long failed = atomic_load_explicit(&failures, memory_order_relaxed);
  if (failed) {
    fprintf(stderr, "task_state_checks: %ld failures\n", failed);
    return 1;
  }
  printf("elapsed %.6f\n", elapsed);
  return 0;
}
