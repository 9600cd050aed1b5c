/* The services table on plain pthreads (see pthread_services.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getaffinity, CPU_* macros */
#endif

#include "pthread_services.h"

#include "pad.h"
#include "services.h"
#include "wait.h" /* ompext_cpu_relax */

#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Set by the main thread before the threads that use them start. */
static int cpu_count = 1;
static int cpu_list[CPU_SETSIZE];
static int cpus_read;
static double timeout_s = 30.0;
static unsigned long pause_polls = 256;
static void (*fatal_handler)(const char *message);

static _Atomic int running; /* threads using the table now */

/* ---- set-up ---------------------------------------------------------------- */

static void read_cpus(void) {
  cpu_set_t set;
  CPU_ZERO(&set);
  cpu_count = 0;
  if (sched_getaffinity(0, sizeof(set), &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set))
        cpu_list[cpu_count++] = c;
  if (cpu_count == 0) {
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    cpu_count = n > 0 ? (n < CPU_SETSIZE ? (int)n : CPU_SETSIZE) : 1;
    for (int c = 0; c < cpu_count; ++c)
      cpu_list[c] = c;
  }
}

int psvc_cpu_count(void) { return cpu_count; }
int psvc_cpu(int i) { return cpu_list[i % cpu_count]; }

void psvc_set_running(int n) {
  atomic_store_explicit(&running, n, memory_order_relaxed);
}

int psvc_oversubscribed(void) {
  return atomic_load_explicit(&running, memory_order_relaxed) > cpu_count;
}

void psvc_set_timeout(double seconds) {
  if (seconds > 0)
    timeout_s = seconds;
}

double psvc_timeout(void) { return timeout_s; }

void psvc_set_pause_polls(unsigned long polls) { pause_polls = polls; }

void psvc_set_fatal(void (*fatal)(const char *message)) {
  fatal_handler = fatal;
}

_Noreturn void psvc_fatal(const char *fmt, ...) {
  char message[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof(message), fmt, ap);
  va_end(ap);
  if (fatal_handler)
    fatal_handler(message);
  fprintf(stderr, "FATAL: %s\n", message);
  fflush(stderr);
  _exit(1); /* other threads may still be spinning: do not run atexit */
}

double psvc_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A yielding poll costs as much clock budget as this many pausing ones:
   the clock is read every 2^20 pausing or every 1024 yielding polls. */
#define YIELD_TICKS 1024ul
#define CLOCK_TICKS (1ul << 20)

double psvc_backoff(psvc_backoff_t *b) {
  const int yield = b->polls >= pause_polls || psvc_oversubscribed();
  ++b->polls;
  if (yield)
    sched_yield();
  else
    ompext_cpu_relax();
  b->ticks += yield ? YIELD_TICKS : 1;
  if (b->ticks >= CLOCK_TICKS) {
    b->ticks = 0;
    const double now = psvc_now();
    if (b->start == 0)
      b->start = now;
    else
      b->waited = now - b->start;
  }
  return b->waited;
}

/* ---- the table --------------------------------------------------------------- */

static void svc_wait(int gtid, ompext_flag_word_t *word, uint64_t expect,
                     int final_spin) {
  (void)final_spin;
  const uint64_t mask = ~(uint64_t)OMPEXT_FLAG_SLEEP_BIT;
  psvc_backoff_t b = PSVC_BACKOFF_INIT;
  for (;;) {
    const uint64_t v = atomic_load_explicit(word, memory_order_acquire) & mask;
    if (v == expect)
      return;
    if (v > expect)
      psvc_fatal("gtid %d waits for word %p to reach %llu but it already "
                 "holds %llu: a duplicate signal, or one from a later episode "
                 "arrived before this wait ended (the wait can never "
                 "complete)",
                 gtid, (void *)word, (unsigned long long)expect,
                 (unsigned long long)v);
    const double waited = psvc_backoff(&b);
    if (waited > timeout_s)
      psvc_fatal("gtid %d waited %.0f s for word %p to reach %llu; it holds "
                 "%llu (a lost signal or a deadlock)",
                 gtid, waited, (void *)word, (unsigned long long)expect,
                 (unsigned long long)v);
  }
}

static void svc_release(int gtid, int waiter_tid, ompext_flag_word_t *word) {
  const uint64_t old = atomic_fetch_add_explicit(word, OMPEXT_FLAG_BUMP,
                                                 memory_order_release);
  if (old & 2u)
    psvc_fatal("gtid %d released word %p (waiter tid %d) holding %llu: bit 1 "
               "must stay 0, the word was not only bumped",
               gtid, (void *)word, waiter_tid, (unsigned long long)old);
}

static int svc_oversubscribed(void) { return psvc_oversubscribed(); }
static int svc_passive_wait(void) { return 0; }

static void *svc_alloc(size_t bytes) {
  const size_t rounded = ompext_pad_bytes(bytes ? bytes : 1);
  void *p = aligned_alloc(OMPEXT_CACHE_LINE, rounded);
  if (p)
    memset(p, 0, rounded);
  return p;
}

static void svc_free(void *p) { free(p); }

/* libomp's defaults: 4 children per level, gather and release. */
static void svc_stock_barrier_bits(int *gather_bits, int *release_bits) {
  *gather_bits = 2;
  *release_bits = 2;
}

static int svc_tasks_pending(int gtid) {
  (void)gtid;
  return 0;
}

static const ompext_services_t table = {
    .abi_version = OMPEXT_ABI_VERSION,
    .size = sizeof(ompext_services_t),
    .wait = svc_wait,
    .release = svc_release,
    .oversubscribed = svc_oversubscribed,
    .passive_wait = svc_passive_wait,
    .alloc = svc_alloc,
    .free_mem = svc_free,
    .reduction_event = NULL,
    .stock_barrier_bits = svc_stock_barrier_bits,
    .tasks_pending = svc_tasks_pending,
};

const ompext_services_t *psvc_table(void) { return &table; }

int psvc_install(void) {
  if (!cpus_read) {
    read_cpus();
    cpus_read = 1;
  }
  return ompext_services_install(&table);
}
