/*
 * Time stamps and their cost.
 *
 * The time source is the TSC when the kernel reports it invariant
 * (constant_tsc and nonstop_tsc): it is read with "lfence; rdtsc" before a
 * timed region and "rdtscp; lfence" after it, so that the region's loads
 * are complete before the second stamp.  Its frequency is measured against
 * CLOCK_MONOTONIC_RAW.  Elsewhere clock_gettime(CLOCK_MONOTONIC_RAW) is the
 * source (ticks are then nanoseconds).
 *
 * The overhead of a begin/end pair with nothing between is measured many
 * times; its median is subtracted from every timed region.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "calibrate.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

int cal_timer_use_tsc = 0;
int cal_timer_has_rdtscp = 0;

uint64_t cal_clock_ns(void) {
  struct timespec ts;
#ifdef CLOCK_MONOTONIC_RAW
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
#else
  clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

double cal_now_s(void) { return (double)cal_clock_ns() * 1e-9; }

int cal_can_flush(void) {
#if defined(__x86_64__) || defined(__i386__) || defined(__aarch64__)
  return 1;
#else
  return 0;
#endif
}

void cal_wait_eq(atomic_uint *v, unsigned want) {
  unsigned spins = 0;
  while (atomic_load_explicit(v, memory_order_acquire) != want) {
    cal_cpu_relax();
    if (++spins % 4096 == 0)
      sched_yield();
  }
}

void cal_wait_u64_eq(_Atomic uint64_t *v, uint64_t want) {
  unsigned spins = 0;
  while (atomic_load_explicit(v, memory_order_acquire) != want) {
    cal_cpu_relax();
    if (++spins % 4096 == 0)
      sched_yield();
  }
}

/* Whether /proc/cpuinfo's first "flags" line has every word of `need`. */
static int cpuinfo_has_flags(const char *const *need, int nneed) {
  FILE *f = fopen("/proc/cpuinfo", "r");
  if (!f)
    return 0;
  char line[8192];
  int ok = 0;
  while (fgets(line, sizeof(line), f)) {
    if (strncmp(line, "flags", 5) != 0)
      continue;
    ok = 1;
    for (int i = 0; i < nneed && ok; ++i) {
      size_t len = strlen(need[i]);
      const char *s = line;
      int found = 0;
      while ((s = strstr(s, need[i])) != NULL) {
        char before = s == line ? ' ' : s[-1];
        char after = s[len];
        if ((before == ' ' || before == '\t') &&
            (after == ' ' || after == '\n' || after == '\0')) {
          found = 1;
          break;
        }
        s += len;
      }
      ok = found;
    }
    break;
  }
  fclose(f);
  return ok;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* TSC ticks per ns: three windows of `ms` milliseconds, the median ratio. */
static double tsc_ghz(int ms) {
  double r[3];
  for (int i = 0; i < 3; ++i) {
    uint64_t c0 = cal_clock_ns();
    uint64_t t0 = cal_ticks_now();
    struct timespec d = {0, (long)ms * 1000000L};
    nanosleep(&d, NULL);
    uint64_t c1 = cal_clock_ns();
    uint64_t t1 = cal_ticks_now();
    r[i] = (double)(t1 - t0) / (double)(c1 - c0);
  }
  qsort(r, 3, sizeof(r[0]), cmp_double);
  return r[1];
}

int cal_timer_init(cal_timer_t *t, int quick, char *err, size_t cap) {
  memset(t, 0, sizeof(*t));
  cal_timer_use_tsc = 0;
  cal_timer_has_rdtscp = 0;
#if defined(__x86_64__) || defined(__i386__)
  static const char *const invariant[] = {"constant_tsc", "nonstop_tsc"};
  if (cpuinfo_has_flags(invariant, 2)) {
    unsigned a, b, c, d;
    if (__get_cpuid(0x80000001u, &a, &b, &c, &d))
      cal_timer_has_rdtscp = (d >> 27) & 1u;
    cal_timer_use_tsc = 1;
  }
#endif
  if (cal_timer_use_tsc) {
    t->name = "rdtsc";
    t->ghz = tsc_ghz(quick ? 20 : 100);
    if (!(t->ghz > 0.01 && t->ghz < 100)) {
      snprintf(err, cap, "implausible TSC frequency %.4g GHz", t->ghz);
      return -1;
    }
    t->ns_per_tick = 1.0 / t->ghz;
  } else {
    t->name = "clock_gettime";
    t->ghz = 1.0;
    t->ns_per_tick = 1.0;
  }

  /* Overhead of an empty timed region. */
  enum { NOVH = 20000 };
  double *d = malloc(NOVH * sizeof(double));
  if (!d) {
    snprintf(err, cap, "out of memory");
    return -1;
  }
  for (int i = 0; i < 1000; ++i) { /* warm-up */
    uint64_t a = cal_ticks_begin();
    uint64_t b = cal_ticks_end();
    (void)a;
    (void)b;
  }
  for (int i = 0; i < NOVH; ++i) {
    uint64_t a = cal_ticks_begin();
    uint64_t b = cal_ticks_end();
    d[i] = (double)(b - a);
  }
  cal_summary_t s;
  cal_summarize(d, NOVH, &s);
  free(d);
  t->overhead_ticks = s.median;
  t->overhead_ns = s.median * t->ns_per_tick;
  t->overhead_p10_ns = s.p10 * t->ns_per_tick;
  t->overhead_p90_ns = s.p90 * t->ns_per_tick;
  return 0;
}
