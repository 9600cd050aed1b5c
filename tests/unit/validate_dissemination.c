/*
 * Validator of the m-ary dissemination barrier (barrier_dissemination.c).
 *
 * For every team size n and peers-per-round m, n threads run many episodes
 * of the barrier with random delays around it.  Per episode e, before the
 * barrier each thread
 *   - stores e into its own padded arrival counter (an atomic), and
 *   - stores e into a plain (non-atomic) slot of its own, slot e % 2;
 * after the barrier it reads every thread's counter and slot and checks
 *   - counter >= e      (nobody left the barrier before everyone arrived),
 *   - counter <= e + 1  (nobody got two episodes ahead),
 *   - slot == e         (the plain store is visible: the barrier orders
 *                        memory, not just control; under ThreadSanitizer a
 *                        missing happens-before shows up as a race here).
 * The plain slots alternate by parity, so a correct barrier makes every
 * access to them race-free: slot e % 2 is rewritten only in episode e + 2,
 * after its writer left episode e + 1, which needs every reader's arrival.
 *
 * Each configuration runs in two batches on fresh pthreads with the same
 * barrier object, as a team context that outlives a parallel region does.
 * Also checked: the number of rounds is ceil(log_{m+1} n), and m outside
 * 1..OMPEXT_MAX_M is clamped to the same barrier.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "test_services.h"

#include "barrier_dissemination.h"
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct run {
  ompext_barrier_dissemination_t *barrier;
  tu_arrival_t *arrivals;
  int n, m;
  char what[48]; /* "dissemination m=M", for messages */
  tu_batch_t batch; /* episodes of the current batch */
  uint64_t seed;
  _Atomic unsigned long checks;
} run_t;

static void worker(int tid, void *p) {
  run_t *r = p;
  const int n = r->n;
  tu_rng_t rng;
  tu_rng_seed(&rng, r->seed, (uint64_t)n * 64 + (uint64_t)r->m,
              (uint64_t)r->batch.first * 1024 + (uint64_t)tid);
  unsigned long checks = 0;
  for (long e = r->batch.first; e <= r->batch.last; ++e) {
    tu_random_delay(&rng, 20);
    tu_arrive(r->arrivals, tid, e);
    ompext_barrier_dissemination_wait(r->barrier, tid, tid, r->batch.spin);
    if (tu_rng_next(&rng) % 4 == 0)
      tu_random_delay(&rng, 20);
    checks += tu_check_arrivals(r->arrivals, n, tid, e, r->what);
  }
  atomic_fetch_add_explicit(&r->checks, checks, memory_order_relaxed);
}

static int expected_rounds(int n, int m) {
  int rounds = 0;
  for (long span = 1; span < n; span *= m + 1)
    ++rounds;
  return rounds;
}

int main(int argc, char **argv) {
  tu_options_t o = {.episodes = 1500, .seed = 1, .pin = 2, .timeout_s = 30};
  tu_default_threads(&o);
  const int default_m[] = {1, 2, 3, 4, 7, OMPEXT_MAX_M};
  o.nlist = (int)(sizeof(default_m) / sizeof(default_m[0]));
  for (int i = 0; i < o.nlist; ++i)
    o.list[i] = default_m[i];
  tu_parse_options(argc, argv, &o,
                   "  -k M1,M2,...     peers per round (default "
                   "1,2,3,4,7,16)\n");
  if (tu_services_install() != 0)
    return 1;
  const ompext_services_t *svc = psvc_table();
  double start = tu_now();
  unsigned long thread_episodes = 0, checks = 0;
  unsigned configs = 0;

  for (int mi = 0; mi < o.nlist; ++mi) {
    for (int ni = 0; ni < o.nthreads; ++ni) {
      const int n = o.threads[ni], m = o.list[mi];
      const int m_eff = m < 1 ? 1 : m > OMPEXT_MAX_M ? OMPEXT_MAX_M : m;
      size_t bytes = ompext_barrier_dissemination_size(n, m_eff);
      void *mem = svc->alloc(bytes);
      tu_arrival_t *arrivals = svc->alloc((size_t)n * sizeof(tu_arrival_t));
      if (!mem || !arrivals)
        tu_fatal("out of memory");
      ompext_barrier_dissemination_t *b =
          ompext_barrier_dissemination_init(mem, n, m);
      int rounds = ompext_barrier_dissemination_rounds(b);
      if (rounds != expected_rounds(n, m_eff))
        tu_fail("dissemination n=%d m=%d: %d rounds, expected %d", n, m,
                rounds, expected_rounds(n, m_eff));
      const long episodes = o.episodes;
      tu_set_context("dissemination n=%d m=%d", n, m);
      run_t r = {.barrier = b, .arrivals = arrivals, .n = n, .m = m,
                 .seed = o.seed};
      snprintf(r.what, sizeof(r.what), "dissemination m=%d", m);
      atomic_init(&r.checks, 0);
      tu_run_two_batches(n, episodes, &o, configs, worker, &r, &r.batch);
      checks += atomic_load_explicit(&r.checks, memory_order_relaxed);
      thread_episodes += (unsigned long)n * (unsigned long)episodes;
      ++configs;
      if (o.verbose)
        printf("dissemination n=%d m=%d rounds=%d episodes=%ld  (%.1f s)\n",
               n, m, rounds, episodes, tu_now() - start);
      svc->free_mem(arrivals);
      svc->free_mem(mem);
    }
  }
  unsigned long bad = tu_failures();
  printf("validate_dissemination: %u configurations, %lu thread-episodes, "
         "%lu checks, %lu violations, %.1f s\n",
         configs, thread_episodes, checks, bad, tu_now() - start);
  return bad ? 1 : 0;
}
