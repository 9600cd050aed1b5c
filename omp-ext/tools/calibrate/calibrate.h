/*
 * ompext-calibrate: measures the parameters of omp-ext's cost model
 * (omp-ext/model) on the machine it runs on.
 *
 * The method is the one of S. Ramos and T. Hoefler, "Modelling
 * Communications in Cache Coherent Systems" (2013), Chapters 1-3, with the
 * measurement hygiene of ccbench-style cache benchmarks:
 *
 *   linebench.c   cost of reading one cache line, per coherence state of the
 *                 line (M, E, S, I) and per topology distance class between
 *                 the reader and the line's holder -> R_L, R_R, R_I
 *   contention.c  n threads copy one line written by one thread at the same
 *                 instant -> T_C(n) = b + c*n (least squares)
 *   multiline.c   ping-pong of N-line messages -> T_N = o*N + q - p/N
 *
 * Support:
 *   timer.c       time stamps (TSC or clock_gettime) and their overhead
 *   pin.c         pinned thread teams (pthread_setaffinity_np)
 *   topo.c        the machine's topology (hwloc) and distance classes
 *   stats.c       sample summaries (median, p10, p90)
 *   series.c      sample series, the time budget, progress lines
 *   select.c      the model's parameters from the series
 *   fit.c         small linear least squares, plain and non-negative
 *   calfile.c     the calibration file's contents, the raw CSV, directories
 *   main.c        command line, plan, progress, parameter selection
 *
 * The machine's fingerprint, the calibration file's framing and its default
 * location are the plugin's too: they live below both, in omp-ext/calibration
 * (calibration.h), and so do the line sizes (lines.h).
 *
 * Every time is in nanoseconds unless a name says ticks.
 */
#ifndef OMPEXT_CALIBRATE_H
#define OMPEXT_CALIBRATE_H

#include "calibration.h"
#include "lines.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define CAL_VERSION "0.1.0"

/* Layout unit of the lines and multi-line messages timed: the coherence
   line of lines.h, 64 bytes, on purpose rather than the size the machine
   reports: the buffers' layout (a slot per line, a page of slots) is then
   fixed at compile time, and 64 is the line of current x86 and most ARM
   parts (on a part with longer lines, two units would share one line).
   The size the machine reports (hwloc) goes into the file as the model's
   `line`. */
#define CAL_LINE OMPEXT_COHERENCE_LINE_BYTES
/* Room of each control variable (mailboxes, per-thread results): the
   padding unit of lines.h, so that no two share a line or an adjacent-line
   prefetch pair. */
#define CAL_PAD OMPEXT_PADDING_UNIT_BYTES
#define CAL_PAGE 4096

/* ------------------------------------------------------------------------ */
/* timer.c                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct cal_timer {
  const char *name;     /* "rdtsc" or "clock_gettime" */
  double ns_per_tick;   /* 1.0 for clock_gettime */
  double ghz;           /* ticks per ns (TSC frequency in GHz) */
  double overhead_ticks;/* median cost of a begin/end pair, subtracted */
  double overhead_ns;
  double overhead_p10_ns, overhead_p90_ns;
} cal_timer_t;

/* Set by cal_timer_init; read by the inline functions below. */
extern int cal_timer_use_tsc;
extern int cal_timer_has_rdtscp;

/* Chooses the time source (the TSC when it is invariant: constant_tsc and
   nonstop_tsc in /proc/cpuinfo), measures its frequency against
   CLOCK_MONOTONIC_RAW and the overhead of a begin/end pair.  `quick`
   shortens the frequency measurement.  0, or -1 with a message. */
int cal_timer_init(cal_timer_t *t, int quick, char *err, size_t cap);

/* Nanoseconds of CLOCK_MONOTONIC_RAW (for budgets and fallbacks). */
uint64_t cal_clock_ns(void);
double cal_now_s(void);

/* A time stamp that no earlier instruction passes (begin) and that waits for
   all earlier loads to complete (end). */
static inline uint64_t cal_ticks_begin(void) {
#if defined(__x86_64__) || defined(__i386__)
  if (cal_timer_use_tsc) {
    uint32_t lo, hi;
    __asm__ __volatile__("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
  }
#endif
  return cal_clock_ns();
}

static inline uint64_t cal_ticks_end(void) {
#if defined(__x86_64__) || defined(__i386__)
  if (cal_timer_use_tsc) {
    uint32_t lo, hi, aux;
    if (cal_timer_has_rdtscp) {
      __asm__ __volatile__("rdtscp\n\tlfence"
                           : "=a"(lo), "=d"(hi), "=c"(aux)
                           :
                           : "memory");
    } else {
      __asm__ __volatile__("mfence\n\tlfence\n\trdtsc\n\tlfence"
                           : "=a"(lo), "=d"(hi)
                           :
                           : "memory");
      aux = 0;
    }
    (void)aux;
    return ((uint64_t)hi << 32) | lo;
  }
#endif
  return cal_clock_ns();
}

/* A cheap time stamp for deadlines (no fences). */
static inline uint64_t cal_ticks_now(void) {
#if defined(__x86_64__) || defined(__i386__)
  if (cal_timer_use_tsc) {
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
    return ((uint64_t)hi << 32) | lo;
  }
#endif
  return cal_clock_ns();
}

/* Elapsed ticks of one timed region, less the timer overhead, in ns. */
static inline double cal_elapsed_ns(const cal_timer_t *t, uint64_t t0,
                                    uint64_t t1) {
  return ((double)(t1 - t0) - t->overhead_ticks) * t->ns_per_tick;
}

/* ------------------------------------------------------------------------ */
/* Cache and spin primitives (timer.c holds the non-inline parts)           */
/* ------------------------------------------------------------------------ */

/* 1 if this build can flush a line from all caches (x86 clflush, AArch64
   dc civac); the E, S and I states need it. */
int cal_can_flush(void);

static inline void cal_flush_line(const void *p) {
#if defined(__x86_64__) || defined(__i386__)
  __asm__ __volatile__("clflush (%0)" : : "r"(p) : "memory");
#elif defined(__aarch64__)
  __asm__ __volatile__("dc civac, %0" : : "r"(p) : "memory");
#else
  (void)p;
#endif
}

/* Orders the flushes and stores before it against everything after. */
static inline void cal_full_fence(void) {
#if defined(__x86_64__) || defined(__i386__)
  __asm__ __volatile__("mfence" : : : "memory");
#elif defined(__aarch64__)
  __asm__ __volatile__("dsb ish" : : : "memory");
#else
  atomic_thread_fence(memory_order_seq_cst);
#endif
}

static inline void cal_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __asm__ __volatile__("pause" : : : "memory");
#elif defined(__aarch64__)
  __asm__ __volatile__("yield" : : : "memory");
#endif
}

/* Spins until *v == want; yields the CPU now and then (outside timed
   regions only: a loaded machine must not deadlock on two vCPUs). */
void cal_wait_eq(atomic_uint *v, unsigned want);
void cal_wait_u64_eq(_Atomic uint64_t *v, uint64_t want);

/* ------------------------------------------------------------------------ */
/* stats.c                                                                  */
/* ------------------------------------------------------------------------ */

typedef struct cal_summary {
  size_t n;
  double median, p10, p90, min, max, mean;
} cal_summary_t;

/* Summary of x[0..n-1] (x is not modified).  0, or -1 if n == 0. */
int cal_summarize(const double *x, size_t n, cal_summary_t *out);
/* Percentile q in [0,1] of sorted[0..n-1], linear interpolation. */
double cal_percentile_sorted(const double *sorted, size_t n, double q);

/* ------------------------------------------------------------------------ */
/* fit.c                                                                    */
/* ------------------------------------------------------------------------ */

#define CAL_FIT_MAXK 6

/* Minimizes ||X*beta - y||^2 (X is m x k, row-major) by Householder QR with
   column scaling.  rss (optional) gets the residual sum of squares.  0, or
   -1 if k is out of range, m < k, or X does not have full column rank. */
int cal_lsq(const double *X, const double *y, size_t m, int k, double *beta,
            double *rss);

/* The same with beta >= 0 (exact: the best of the least-squares solutions
   over all sets of free coefficients that come out non-negative).  held
   (optional) gets bit j set when beta[j] was held at 0.  0, or -1. */
int cal_nnls(const double *X, const double *y, size_t m, int k, double *beta,
             double *rss, unsigned *held);

/* T_C(n) = b + c*n from points (n[i], t[i]).  nonneg: b, c >= 0. */
int cal_fit_contention(const double *n, const double *t, size_t m, int nonneg,
                       double *b, double *c, unsigned *held);

/* T_N = o*N + q - p/N from points (N[i], t[i]).  nonneg: o, q, p >= 0. */
int cal_fit_multiline(const double *N, const double *t, size_t m, int nonneg,
                      double *o, double *q, double *p, unsigned *held);

/* ------------------------------------------------------------------------ */
/* topo.c                                                                   */
/* ------------------------------------------------------------------------ */

/* Distance classes between two PUs, nearest first. */
enum {
  CAL_CLASS_LOCAL = 0,   /* the same PU */
  CAL_CLASS_SMT = 1,     /* same core, another hardware thread */
  CAL_CLASS_L2 = 2,      /* different cores sharing an L1/L2 cache */
  CAL_CLASS_L3 = 3,      /* sharing a level-3 (or deeper) cache */
  CAL_CLASS_PACKAGE = 4, /* same package, no shared cache */
  CAL_CLASS_MACHINE = 5, /* another package */
  CAL_NCLASSES = 6
};

const char *cal_class_name(int cls);

typedef struct cal_topo {
  void *hw;          /* hwloc_topology_t */
  int npu;           /* usable PUs: in hwloc's topology and our affinity */
  int *pu_os;        /* their OS indices, hwloc logical order */
  int ref;           /* index (into pu_os) of the reference PU: the first */
  int *pu_class;     /* class of each usable PU relative to the reference */
  int class_peer[CAL_NCLASSES]; /* first PU index of that class, or -1 */
  int class_count[CAL_NCLASSES];
  ompext_calibration_counts_t counts; /* whole machine (fingerprint) */
  int numa;
  int line_bytes;
} cal_topo_t;

int cal_topo_load(cal_topo_t *t, char *err, size_t cap);
void cal_topo_free(cal_topo_t *t);
/* Class of two usable PUs (indices into pu_os). */
int cal_topo_class(const cal_topo_t *t, int a, int b);
/* A usable PU on a core other than the cores of a and b (a third cache for
   the S state), or -1. */
int cal_topo_helper(const cal_topo_t *t, int a, int b);

/* ------------------------------------------------------------------------ */
/* pin.c                                                                    */
/* ------------------------------------------------------------------------ */

/* Pins the calling thread to OS PU `os_pu`.  0, or -1 with a message. */
int cal_pin_self(int os_pu, char *err, size_t cap);

/* Runs fn(role, arg) on n new threads, thread `role` pinned to OS PU
   pus[role], and waits for all.  No fn runs unless every thread was created
   and pinned: on a failure, 0 threads run fn and -1 comes back with a
   message naming the PU. */
typedef void (*cal_role_fn)(int role, void *arg);
int cal_team_run(int n, const int *pus, cal_role_fn fn, void *arg, char *err,
                 size_t cap);

/* A mailbox between a driver and one worker thread, on its own lines. */
typedef struct cal_mailbox {
  _Alignas(CAL_PAD) atomic_uint cmd;
  _Alignas(CAL_PAD) atomic_uint ack;
} cal_mailbox_t;

#define CAL_CMD_STOP 0xffffffffu

/* Allocation of whole pages (zeroed), 4 KiB-aligned; NULL on failure. */
void *cal_pages_alloc(size_t bytes);
/* Zeroed memory aligned to CAL_PAD (for structures with padded members). */
void *cal_zalloc(size_t bytes);

/* ------------------------------------------------------------------------ */
/* Measurements and the run                                                 */
/* ------------------------------------------------------------------------ */

/* One series of samples: one benchmark, one state, one placement, one size. */
typedef struct cal_series {
  char bench[16];   /* "line", "contention", "multiline" */
  char state[8];    /* "M", "E", "S", "I", "E/E", ... */
  char cls[16];     /* distance class name, or "memory" */
  char cpus[64];    /* the PUs used, e.g. "0<-1" or "0,1" */
  int param;        /* lines per sample, readers, message lines */
  double *x;        /* samples, ns (per line for "line") */
  size_t n, cap;
  size_t dropped;   /* samples discarded (e.g. a late contention start) */
  int budget_hit;   /* a round stopped by the time budget (max_samples not
                       reached) */
  int late_included;/* contention: too few on-time starts, late ones used */
  cal_summary_t sum;
} cal_series_t;

typedef struct cal_run {
  /* options */
  int quick, verbose, max_threads;
  /* the machine */
  cal_topo_t topo;
  cal_timer_t timer;
  /* The plan runs `rounds` times, each series getting up to max_samples
     per round, so that a slow drift of the machine (another load, a virtual
     CPU moved by the host) spreads over all series instead of spoiling
     one.  Budgets are per series and round. */
  int rounds, round;
  double series_budget_s; /* soft: stop sampling after this */
  double series_hard_s;   /* hard: stop even below min_samples */
  size_t min_samples, max_samples, warmup;
  /* progress */
  int steps_total, steps_done;
  double t_start;
  /* results */
  cal_series_t **series;
  size_t nseries, capseries;
} cal_run_t;

/* The series of that key (bench, state, cls, cpus, param), appended to run
   with room for rounds * max_samples when new; NULL on OOM.  Every round of
   the plan adds to the same series. */
cal_series_t *cal_series_get(cal_run_t *run, const char *bench,
                             const char *state, const char *cls,
                             const char *cpus, int param);
void cal_series_add(cal_series_t *s, double v);
/* Summarizes s, prints it with --verbose, advances the progress. */
void cal_series_done(cal_run_t *run, cal_series_t *s);
/* Finds a series (param < 0: any); NULL if none or it has no samples. */
const cal_series_t *cal_series_find(const cal_run_t *run, const char *bench,
                                    const char *state, const char *cls,
                                    int param);
/* Whether the sampling loop of a series should go on after i samples of
   this round (warm-up excluded) that started at t0 (cal_now_s). */
int cal_keep_sampling(const cal_run_t *run, size_t i, double t0,
                      int *budget_hit);

/* Progress line on stderr: "[ 42%] what". */
void cal_progress(cal_run_t *run, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* linebench.c: single-line transfers.  Appends "line" series. */
int cal_linebench_steps(const cal_run_t *run);
int cal_linebench_run(cal_run_t *run, char *err, size_t cap);

/* contention.c: appends "contention" series (param = readers). */
int cal_contention_steps(const cal_run_t *run);
int cal_contention_run(cal_run_t *run, char *err, size_t cap);

/* multiline.c: appends "multiline" series (param = lines per message). */
int cal_multiline_steps(const cal_run_t *run);
int cal_multiline_run(cal_run_t *run, char *err, size_t cap);

/* The primary remote class: the farthest class inside the reference PU's
   package, else the nearest remote class; -1 if there is no remote PU. */
int cal_primary_class(const cal_topo_t *t);

/* ------------------------------------------------------------------------ */
/* calfile.c                                                                */
/* ------------------------------------------------------------------------ */

/* The model's parameters and where they came from. */
typedef struct cal_params {
  double r_l, r_r, r_i, a, b, c, o, q, p;
  int line;
  char r_l_src[160], r_r_src[160], r_i_src[160], tc_src[256], tn_src[256];
  unsigned tc_held, tn_held;   /* coefficients held at 0 by the fits */
  double tc_rss, tn_rss;
  int tc_points, tn_points;
  char warning[320]; /* a doubt about the measurements, or empty */
  /* The line reads measured below one tick of the timer and held at one
     tick ("R_L -3.33 ns, ..."), or empty. */
  char held_reads[160];
} cal_params_t;

/* select.c: fills *p from run's series.  0, or -1 with a message (a
   measurement the model needs is missing). */
int cal_choose_params(const cal_run_t *run, cal_params_t *p, char *err,
                      size_t cap);

/* mkdir -p of the directory part of `path`.  0, or -1 with a message. */
int cal_mkdirs_for(const char *path, char *err, size_t cap);

/* Accepts or refuses the calibration file written at a temporary path,
   before it takes its name: 0, or -1 with a message. */
typedef int (*cal_file_check_fn)(const char *tmp_path, char *err,
                                 size_t cap);

/* Writes the calibration file (atomically: a temporary file renamed),
   framed by ompext_calibration_write_header and _end.  With a check (may
   be NULL), a file it refuses is removed and never takes the name: an
   earlier file at path stays as it was. */
int cal_write_calfile(const char *path, const cal_run_t *run,
                      const ompext_calibration_fingerprint_t *fp,
                      const cal_params_t *prm, cal_file_check_fn check,
                      char *err, size_t cap);
/* Writes all raw samples as CSV. */
int cal_write_raw_csv(const char *path, const cal_run_t *run, char *err,
                      size_t cap);

#endif /* OMPEXT_CALIBRATE_H */
