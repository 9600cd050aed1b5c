/*
 * Contention on one line (the paper's Section 3.2): one thread (the owner,
 * on the reference PU) writes a line; n reader threads copy it into a
 * private line of their own at the same instant; the fit of the medians
 * gives T_C(n) = b + c*n.
 *
 * Every iteration uses another line of a pool of 64, each in its own 4 KiB
 * page (the paper randomizes addresses so that no directory slice or set
 * biases the result).  The owner puts the line into the state under test
 * (M: it writes the whole line; E: the line is flushed and the owner reads
 * it), then publishes the iteration with a start time a few microseconds
 * ahead (TSC deadline, as the paper synchronizes with RDTSC).  Each reader
 * spins until the deadline, copies the line (eight 8-byte loads and stores)
 * and times the copy.  The iteration's value is the slowest reader's time:
 * the time until all n readers have the line.  An iteration in which a
 * reader started more than LATE_NS after the deadline (it saw the
 * iteration late, e.g. it was descheduled) was not simultaneous and is
 * dropped (counted in the file); if fewer than MIN_ON_TIME iterations were
 * on time, the late ones are used after all and the file says so.
 *
 * Readers are placed nearest first (by distance class from the owner).  The
 * fit needs two reader counts at least: with a single PU besides the
 * owner's (a two-core machine, or --threads 2), the second point is n = 2
 * with the owner's own thread as the second reader.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "calibrate.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define POOL 64
#ifndef LATE_NS
#define LATE_NS 500.0
#endif
#define MAX_N_VALUES 16
#define MIN_ON_TIME 10

typedef struct slot {
  _Alignas(CAL_PAD) double ns;
  int late;
} slot_t;

typedef struct ct {
  cal_run_t *run;
  cal_series_t *series;
  char state;       /* 'M' or 'E' */
  int nthreads;     /* roles: 0 the owner, 1.. remote readers */
  int nreaders;     /* readers, the owner included when owner_reads */
  int owner_reads;
  uint64_t gap_ticks, late_ticks;
  char *pool;
  void *lines[POOL];
  char *recv; /* one page per role */
  struct {
    _Alignas(CAL_PAD) _Atomic uint64_t deadline;
    _Atomic uint64_t go; /* iteration number; UINT64_MAX: stop */
  } pub;
  _Alignas(CAL_PAD) atomic_uint done;
  slot_t *slots;
  volatile uint64_t sink;
} ct_t;

static void copy_line(void *dst, const void *src) {
  const volatile uint64_t *s = src;
  volatile uint64_t *d = dst;
  for (int i = 0; i < CAL_LINE / 8; ++i)
    d[i] = s[i];
}

/* The reader part of an iteration: wait for the deadline, time the copy. */
static void read_at(ct_t *c, int role, uint64_t it, uint64_t deadline) {
  void *line = c->lines[it % POOL];
  void *dst = c->recv + (size_t)role * CAL_PAGE +
              (size_t)((role * 7 + 3) % (CAL_PAGE / CAL_LINE)) * CAL_LINE;
  while (cal_ticks_now() < deadline)
    cal_cpu_relax();
  uint64_t a = cal_ticks_begin();
  copy_line(dst, line);
  uint64_t b = cal_ticks_end();
  c->slots[role].ns = cal_elapsed_ns(&c->run->timer, a, b);
  c->slots[role].late = a - deadline > c->late_ticks;
  atomic_fetch_add_explicit(&c->done, 1, memory_order_acq_rel);
}

static void owner(ct_t *c) {
  cal_run_t *run = c->run;
  size_t got = 0, nlate = 0;
  /* Late iterations, kept in case (almost) none is on time: a machine too
     busy for simultaneous starts still gets a value, marked as such. */
  double *late_x = malloc(run->max_samples * sizeof(double));
  double t0 = cal_now_s();
  int hit = 0;
  for (uint64_t it = 1;; ++it) {
    if (it > run->warmup && !cal_keep_sampling(run, got, t0, &hit))
      break;
    volatile uint64_t *line = c->lines[it % POOL];
    if (c->state == 'M') {
      for (int i = 0; i < CAL_LINE / 8; ++i)
        line[i] = it;
    } else {
      cal_flush_line((const void *)line);
      cal_full_fence();
      c->sink = line[0];
    }
    cal_full_fence();
    atomic_store_explicit(&c->done, 0, memory_order_relaxed);
    uint64_t deadline = cal_ticks_now() + c->gap_ticks;
    atomic_store_explicit(&c->pub.deadline, deadline, memory_order_relaxed);
    atomic_store_explicit(&c->pub.go, it, memory_order_release);
    if (c->owner_reads)
      read_at(c, 0, it, deadline);
    unsigned spins = 0;
    while (atomic_load_explicit(&c->done, memory_order_acquire) !=
           (unsigned)c->nreaders) {
      cal_cpu_relax();
      if (++spins % 4096 == 0)
        sched_yield();
    }
    if (it <= run->warmup)
      continue;
    double worst = 0;
    int late = 0;
    for (int r = c->owner_reads ? 0 : 1; r < c->nthreads; ++r) {
      if (c->slots[r].ns > worst)
        worst = c->slots[r].ns;
      late |= c->slots[r].late;
    }
    if (late) {
      c->series->dropped++;
      if (late_x && nlate < run->max_samples)
        late_x[nlate++] = worst;
    } else {
      cal_series_add(c->series, worst);
      ++got;
    }
    /* Drops do not count as samples but do count against the budget. */
  }
  c->series->budget_hit |= hit;
  if (got < MIN_ON_TIME && nlate > 0) {
    for (size_t i = 0; i < nlate; ++i)
      cal_series_add(c->series, late_x[i]);
    c->series->late_included = 1;
  }
  free(late_x);
  atomic_store_explicit(&c->pub.go, UINT64_MAX, memory_order_release);
}

static void reader(ct_t *c, int role) {
  uint64_t last = 0;
  for (;;) {
    uint64_t g;
    unsigned spins = 0;
    while ((g = atomic_load_explicit(&c->pub.go, memory_order_acquire)) ==
           last) {
      cal_cpu_relax();
      if (++spins % 4096 == 0)
        sched_yield();
    }
    if (g == UINT64_MAX)
      return;
    last = g;
    uint64_t d = atomic_load_explicit(&c->pub.deadline, memory_order_relaxed);
    read_at(c, role, g, d);
  }
}

static void role_main(int role, void *arg) {
  ct_t *c = arg;
  if (role == 0)
    owner(c);
  else
    reader(c, role);
}

/* Remote PUs (indices), nearest class first. */
static int remote_order(const cal_topo_t *t, int *out) {
  int n = 0;
  for (int cls = 1; cls < CAL_NCLASSES; ++cls)
    for (int i = 0; i < t->npu; ++i)
      if (i != t->ref && t->pu_class[i] == cls)
        out[n++] = i;
  return n;
}

/* Reader counts to measure; *owner_point: the last count includes the
   owner's thread.  Returns how many. */
static int n_values(const cal_run_t *run, int *vals, int *owner_point) {
  const cal_topo_t *t = &run->topo;
  int maxr = t->npu - 1;
  if (maxr > run->max_threads - 1)
    maxr = run->max_threads - 1;
  *owner_point = 0;
  int n = 0;
  if (maxr < 1)
    return 0;
  if (maxr == 1) {
    vals[n++] = 1;
    vals[n++] = 2;
    *owner_point = 1;
    return n;
  }
  /* 1, 2, 3, 4, 6, 8, 12, 16, ... and the largest. */
  for (int v = 1; v <= maxr && n < MAX_N_VALUES - 1;) {
    vals[n++] = v;
    if (v < 4)
      v += 1;
    else if ((v & (v - 1)) == 0)
      v += v / 2;
    else
      v = v / 3 * 4;
  }
  if (vals[n - 1] != maxr)
    vals[n++] = maxr;
  return n;
}

static const char *states(const cal_run_t *run) {
  if (!cal_can_flush())
    return "M";
  return run->quick ? "M" : "ME";
}

int cal_contention_steps(const cal_run_t *run) {
  int vals[MAX_N_VALUES], op;
  return n_values(run, vals, &op) * (int)strlen(states(run));
}

int cal_contention_run(cal_run_t *run, char *err, size_t cap) {
  const cal_topo_t *t = &run->topo;
  int vals[MAX_N_VALUES], owner_point;
  int nv = n_values(run, vals, &owner_point);
  if (nv < 2)
    return 0;
  int *order = calloc((size_t)t->npu, sizeof(int));
  int *pus = calloc((size_t)t->npu + 1, sizeof(int));
  ct_t *c = cal_zalloc(sizeof(ct_t));
  if (!order || !pus || !c) {
    free(order);
    free(pus);
    free(c);
    snprintf(err, cap, "out of memory");
    return -1;
  }
  remote_order(t, order);
  int rc = 0;
  for (const char *st = states(run); *st && rc == 0; ++st) {
    for (int v = 0; v < nv && rc == 0; ++v) {
      int owner_reads = owner_point && v == nv - 1;
      int remote = owner_reads ? vals[v] - 1 : vals[v];
      memset(c, 0, sizeof(*c));
      c->run = run;
      c->state = *st;
      c->owner_reads = owner_reads;
      c->nthreads = 1 + remote;
      c->nreaders = vals[v];
      double gap_ns = 5000.0 + 500.0 * vals[v];
      c->gap_ticks = (uint64_t)(gap_ns / run->timer.ns_per_tick);
      c->late_ticks = (uint64_t)(LATE_NS / run->timer.ns_per_tick);
      pus[0] = t->pu_os[t->ref];
      int far = CAL_CLASS_LOCAL;
      for (int r = 0; r < remote; ++r) {
        pus[1 + r] = t->pu_os[order[r]];
        if (t->pu_class[order[r]] > far)
          far = t->pu_class[order[r]];
      }
      char cpus[64];
      int len = snprintf(cpus, sizeof(cpus), "%d->", pus[0]);
      for (int r = 0; r <= remote; ++r) {
        int pu = r < remote ? pus[1 + r] : pus[0];
        if (r == remote && !owner_reads)
          break;
        if (len > (int)sizeof(cpus) - 16) {
          snprintf(cpus + len, sizeof(cpus) - (size_t)len, ",...");
          break;
        }
        len += snprintf(cpus + len, sizeof(cpus) - (size_t)len, "%s%d",
                        r ? "," : "", pu);
      }
      char sname[2] = {*st, 0};
      cal_progress(run, "contention: state %s, %d reader%s (CPUs %s)", sname,
                   vals[v], vals[v] == 1 ? "" : "s", cpus);
      c->series = cal_series_get(run, "contention", sname, cal_class_name(far),
                                 cpus, vals[v]);
      c->pool = cal_pages_alloc((size_t)POOL * CAL_PAGE);
      c->recv = cal_pages_alloc((size_t)c->nthreads * CAL_PAGE);
      c->slots = cal_zalloc((size_t)c->nthreads * sizeof(slot_t));
      if (!c->series || !c->pool || !c->recv || !c->slots) {
        snprintf(err, cap, "out of memory");
        rc = -1;
      } else {
        for (int i = 0; i < POOL; ++i)
          c->lines[i] = c->pool + (size_t)i * CAL_PAGE +
                        (size_t)((i * 5) % (CAL_PAGE / CAL_LINE)) * CAL_LINE;
        rc = cal_team_run(c->nthreads, pus, role_main, c, err, cap);
        if (rc == 0)
          cal_series_done(run, c->series);
      }
      free(c->pool);
      free(c->recv);
      free(c->slots);
    }
  }
  free(order);
  free(pus);
  free(c);
  return rc;
}
