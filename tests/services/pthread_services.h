/*
 * The services table (ompext_services_t) on plain pthreads: what the
 * plugin's algorithms run on without libomp.  The unit validators
 * (tests/unit) and ompext-gbench (bench/gbench) both install this one
 * table; the runtime's own is in the patch (kmp_plugin.cpp).
 *
 *   wait     polls (word & ~sleep bit) == expect with acquire loads; every
 *            unsuccessful poll goes through psvc_backoff (below).  It is
 *            also a checker: a word already past expect (a duplicate or
 *            early signal: the equality can never hold again) or a wait
 *            longer than the timeout (a lost signal or a deadlock) ends the
 *            process through psvc_fatal.  final_spin is ignored: there are
 *            no tasks to run.
 *   release  atomic fetch-add of OMPEXT_FLAG_BUMP, release order; a word
 *            whose bit 1 was set (so it was not only bumped) is fatal.
 *            Nobody sleeps, so nobody is woken.
 *   oversubscribed  the threads the caller says are running
 *            (psvc_set_running) outnumber the CPUs of the affinity mask.
 *   passive_wait  0: the waits never sleep.
 *   alloc    zeroed, aligned to OMPEXT_CACHE_LINE, rounded up to whole
 *            lines; free_mem is free().
 *   reduction_event  NULL: no tool listens.
 *   stock_barrier_bits  2 and 2, libomp's defaults.
 *   tasks_pending  0: there are no tasks.
 *
 * Set-up (psvc_set_*) is for the main thread, before it starts the threads
 * that use the table.
 */
#ifndef OMPEXT_PTHREAD_SERVICES_H
#define OMPEXT_PTHREAD_SERVICES_H

#include "ompext/abi.h"

/* Reads the CPUs of the affinity mask (at the first call) and installs the
   table with ompext_services_install(); 0 on success. */
int psvc_install(void);
const ompext_services_t *psvc_table(void);

/* CPUs of the affinity mask read by psvc_install (at least 1), and the
   (i mod count)-th of them, for pinning. */
int psvc_cpu_count(void);
int psvc_cpu(int i);

/* Threads that use the table now (0 when none run); oversubscribed() is
   n > psvc_cpu_count(). */
void psvc_set_running(int n);
int psvc_oversubscribed(void);

/* Seconds a single wait may take before it counts as a hang (30 unless
   set; a value <= 0 keeps the current one). */
void psvc_set_timeout(double seconds);
double psvc_timeout(void);

/* Polls a wait spends pausing before it yields on every poll (256 unless
   set; ULONG_MAX: pause for ever).  An oversubscribed wait yields from its
   first poll whatever this says. */
void psvc_set_pause_polls(unsigned long polls);

/* Where fatal messages go: fatal(message) must not return.  Without one,
   "FATAL: message" goes to stderr and the process _exits with status 1. */
void psvc_set_fatal(void (*fatal)(const char *message));
_Noreturn void psvc_fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* CLOCK_MONOTONIC in seconds. */
double psvc_now(void);

/* One unsuccessful poll of a spin loop (the table's wait, or a caller's own
   wait): pause, or sched_yield() past the pause polls or while
   oversubscribed.  Reads the clock now and then (every 1024 yielding polls,
   every 2^20 pausing ones) and returns the seconds waited since the first
   reading, for a hang check against psvc_timeout(). */
typedef struct psvc_backoff {
  unsigned long polls, ticks;
  double start, waited;
} psvc_backoff_t;
#define PSVC_BACKOFF_INIT {0, 0, 0.0, 0.0}
double psvc_backoff(psvc_backoff_t *b);

#endif /* OMPEXT_PTHREAD_SERVICES_H */
