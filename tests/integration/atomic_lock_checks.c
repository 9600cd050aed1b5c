/*
 * The runtime's global atomic lock, which the plugin may serve: GCC takes it
 * around an array reduction's combine and around an atomic update of a type
 * it cannot update atomically (long double); every other entry point to the
 * same lock (__kmpc_atomic_start/end, the locked __kmpc_atomic_* routines in
 * the runtime's GCC-compatible mode) must exclude those.  Each check makes
 * an unguarded read-modify-write race-prone enough to lose updates without
 * mutual exclusion, and counts them all.
 */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "checks.h"

#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>

#define LOCK_ROUNDS 20000
#define ARRAY_REGIONS 500
#define ARRAY_LENGTH 64

typedef void (*entry_fn)(void);
typedef int (*global_thread_num_fn)(void *loc);
typedef void (*float10_add_fn)(void *loc, int gtid, long double *lhs,
                               long double rhs);

/* An update slow enough that two unguarded threads overlap in it. */
static void slow_increment(volatile long *counter) {
  long v = *counter;
  for (volatile int spin = 0; spin < 20; ++spin)
    ;
  *counter = v + 1;
}

/* GCC's own use: an atomic long double and an array reduction's combine
   (clang makes the first a libatomic call and the second a runtime
   reduction, neither of which takes the lock). */
static void compiler_paths(void) {
  int nthreads = 1;
#pragma omp parallel
#pragma omp single
  nthreads = omp_get_num_threads();
#ifndef __clang__
  long double sum = 0.0L;
#pragma omp parallel
  for (int i = 0; i < LOCK_ROUNDS / 10; ++i) {
#pragma omp atomic
    sum += 1.0L;
  }
  check(sum == (long double)nthreads * (LOCK_ROUNDS / 10),
        "atomic long double: no update lost");
#endif

  double totals[ARRAY_LENGTH] = {0};
  for (int r = 0; r < ARRAY_REGIONS; ++r) {
#pragma omp parallel reduction(+ : totals)
    for (int k = 0; k < ARRAY_LENGTH; ++k)
      totals[k] += 1.0;
  }
  int bad = 0;
  for (int k = 0; k < ARRAY_LENGTH; ++k)
    bad += totals[k] != (double)ARRAY_REGIONS * nthreads;
  check(bad == 0, "array reduction over regions: every combine counted");
}

/* The runtime's entry points to the one lock, taken in turn by the threads
   of a team, so that each kind of holder meets each other kind. */
static void entry_points(void) {
  entry_fn gomp_start = (entry_fn)dlsym(RTLD_DEFAULT, "GOMP_atomic_start");
  entry_fn gomp_end = (entry_fn)dlsym(RTLD_DEFAULT, "GOMP_atomic_end");
  entry_fn kmpc_start = (entry_fn)dlsym(RTLD_DEFAULT, "__kmpc_atomic_start");
  entry_fn kmpc_end = (entry_fn)dlsym(RTLD_DEFAULT, "__kmpc_atomic_end");
  float10_add_fn float10_add =
      (float10_add_fn)dlsym(RTLD_DEFAULT, "__kmpc_atomic_float10_add");
  global_thread_num_fn gtid_of =
      (global_thread_num_fn)dlsym(RTLD_DEFAULT, "__kmpc_global_thread_num");
  if (!gomp_start || !gomp_end || !kmpc_start || !kmpc_end || !float10_add ||
      !gtid_of) {
    check(0, "the runtime exports GOMP_atomic_start/end, "
             "__kmpc_atomic_start/end, __kmpc_atomic_float10_add");
    return;
  }
  static char location[64]; /* an ident_t the runtime only reads */
  volatile long counter = 0;
  long double guarded = 0.0L; /* both under GOMP_atomic_start and float10 */
  long float10_calls = 0, gomp_calls = 0;
  int nthreads = 1;
#pragma omp parallel reduction(+ : float10_calls, gomp_calls)
  {
#pragma omp single
    nthreads = omp_get_num_threads();
    const int tid = omp_get_thread_num();
    const int gtid = gtid_of(location);
    for (int i = 0; i < LOCK_ROUNDS; ++i) {
      switch ((i + tid) % 3) {
      case 0:
        gomp_start();
        slow_increment(&counter);
        guarded += 1.0L;
        gomp_end();
        ++gomp_calls;
        break;
      case 1:
        kmpc_start();
        slow_increment(&counter);
        kmpc_end();
        break;
      default:
        float10_add(location, gtid, &guarded, 1.0L);
        ++float10_calls;
      }
    }
  }
  const long locked = (long)nthreads * LOCK_ROUNDS - float10_calls;
  check(counter == locked,
        "GOMP_atomic_start and __kmpc_atomic_start exclude each other");
  check(guarded == (long double)(gomp_calls + float10_calls),
        "GOMP_atomic_start and __kmpc_atomic_float10_add exclude each other");
  printf("atomic lock: %d threads, %ld guarded increments, %ld locked adds\n",
         nthreads, counter, float10_calls);
}

void atomic_lock_exclusion(void) {
  compiler_paths();
  entry_points();
}
