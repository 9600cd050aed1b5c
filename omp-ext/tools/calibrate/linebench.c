/*
 * Single cache-line transfers: the cost of one read of a line, per
 * coherence state of the line and per distance class between the reader
 * and the line's holder (the paper's Chapter 1, after BenchIT/Molka et al.).
 *
 * One sample is a dependent chain of K = 32 reads (pointer chasing, so the
 * reads cannot overlap), each of a line in its own 4 KiB page (the lines'
 * offsets inside their pages differ, so they fall into different cache
 * sets; the pages defeat stride and stream prefetchers), visited in a
 * random order.  The sample is (time - timer overhead) / K.  Before every
 * sample the lines are put into the state under test:
 *
 *   M  the holder writes every line                      (M in the holder)
 *   E  every line is flushed (clflush), the holder reads it   (E in holder)
 *   S  as E, then a helper thread on a third core reads it
 *      (S in holder and helper; the helper is the forwarder on MESIF)
 *   I  every line is flushed: the read goes to memory
 *
 * The holder is the reader itself (class "local": R_L) or a thread on a PU
 * of the class under test (R_R of that class).  The reader touches another
 * line of every page before the timed chain, so the TLB is warm and only
 * the line transfers are timed.  The buffer is first touched by the main
 * thread, which is pinned to the reader's PU (the reader's NUMA node is the
 * home of the lines).
 *
 * The S state needs a third core besides the reader's and holder's; on a
 * machine without one it is not measured (reported as n/a).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "calibrate.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define K_LINES 32

typedef struct lb {
  cal_run_t *run;
  cal_series_t *series;
  char state;     /* 'M', 'E', 'S', 'I' */
  int local;      /* the reader holds the line itself */
  int owner_role; /* role of the holder thread, -1: none */
  int helper_role;/* role of the S helper, -1: none */
  cal_mailbox_t owner_mb, helper_mb;
  _Alignas(CAL_PAD) char *buf;
  void *line[K_LINES];
  void *next[K_LINES]; /* the chain: line[i] holds next[i] */
  char *tlb[K_LINES];
  void *head;
  volatile uintptr_t sink;
} lb_t;

static void lines_write(lb_t *c) {
  for (int i = 0; i < K_LINES; ++i)
    *(void *volatile *)c->line[i] = c->next[i];
  cal_full_fence();
}

static void lines_flush(lb_t *c) {
  for (int i = 0; i < K_LINES; ++i)
    cal_flush_line(c->line[i]);
  cal_full_fence();
}

static void lines_read(lb_t *c) {
  uintptr_t s = 0;
  for (int i = 0; i < K_LINES; ++i)
    s += (uintptr_t) * (void *volatile *)c->line[i];
  c->sink = s;
  cal_full_fence();
}

/* What the holder does before a sample. */
static void hold(lb_t *c) {
  switch (c->state) {
  case 'M':
    lines_write(c);
    break;
  case 'E':
  case 'S':
    lines_flush(c);
    lines_read(c);
    break;
  case 'I':
    lines_flush(c);
    break;
  }
}

static void build_chain(lb_t *c) {
  int order[K_LINES];
  for (int i = 0; i < K_LINES; ++i) {
    order[i] = i;
    int slot = (i * 5) % (CAL_PAGE / CAL_LINE);
    int tslot = (slot + (CAL_PAGE / CAL_LINE) / 2) % (CAL_PAGE / CAL_LINE);
    c->line[i] = c->buf + (size_t)i * CAL_PAGE + (size_t)slot * CAL_LINE;
    c->tlb[i] = c->buf + (size_t)i * CAL_PAGE + (size_t)tslot * CAL_LINE;
  }
  /* Fixed-seed shuffle (xorshift): the same chain on every run. */
  uint32_t x = 0x9e3779b9u;
  for (int i = K_LINES - 1; i > 0; --i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    int j = (int)(x % (uint32_t)(i + 1));
    int t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  for (int j = 0; j < K_LINES; ++j) {
    int from = order[j], to = order[(j + 1) % K_LINES];
    c->next[from] = c->line[to];
    *(void **)c->line[from] = c->line[to];
  }
  c->head = c->line[order[0]];
}

static void *chase(void *p) {
  for (int i = 0; i < K_LINES; ++i)
    p = *(void *volatile *)p;
  return p;
}

static void ask(cal_mailbox_t *mb, unsigned seq) {
  atomic_store_explicit(&mb->cmd, seq, memory_order_release);
  cal_wait_eq(&mb->ack, seq);
}

static void worker(lb_t *c, cal_mailbox_t *mb, int is_helper) {
  unsigned last = 0;
  for (;;) {
    unsigned cmd;
    unsigned spins = 0;
    while ((cmd = atomic_load_explicit(&mb->cmd, memory_order_acquire)) ==
           last) {
      cal_cpu_relax();
      if (++spins % 4096 == 0)
        sched_yield();
    }
    if (cmd == CAL_CMD_STOP)
      return;
    if (is_helper)
      lines_read(c);
    else
      hold(c);
    last = cmd;
    atomic_store_explicit(&mb->ack, cmd, memory_order_release);
  }
}

static void reader(lb_t *c) {
  cal_run_t *run = c->run;
  build_chain(c);
  cal_full_fence();
  size_t got = 0;
  double t0 = cal_now_s();
  int hit = 0;
  for (unsigned seq = 1;; ++seq) {
    if (seq > run->warmup && !cal_keep_sampling(run, got, t0, &hit))
      break;
    /* Put the lines into the state under test. */
    if (c->owner_role >= 0)
      ask(&c->owner_mb, seq);
    else
      hold(c);
    if (c->helper_role >= 0)
      ask(&c->helper_mb, seq);
    /* Warm the TLB with another line of every page. */
    uintptr_t s = 0;
    for (int i = 0; i < K_LINES; ++i)
      s += (uintptr_t) * (volatile char *)c->tlb[i];
    c->sink = s;
    cal_full_fence();

    uint64_t a = cal_ticks_begin();
    void *p = chase(c->head);
    uint64_t b = cal_ticks_end();
    c->sink = (uintptr_t)p;
    if (seq > run->warmup) {
      cal_series_add(c->series,
                     cal_elapsed_ns(&run->timer, a, b) / (double)K_LINES);
      ++got;
    }
  }
  c->series->budget_hit |= hit;
  if (c->owner_role >= 0)
    atomic_store_explicit(&c->owner_mb.cmd, CAL_CMD_STOP,
                          memory_order_release);
  if (c->helper_role >= 0)
    atomic_store_explicit(&c->helper_mb.cmd, CAL_CMD_STOP,
                          memory_order_release);
}

static void role_main(int role, void *arg) {
  lb_t *c = arg;
  if (role == 0)
    reader(c);
  else if (role == c->owner_role)
    worker(c, &c->owner_mb, 0);
  else if (role == c->helper_role)
    worker(c, &c->helper_mb, 1);
}

/* One series: state st, reader = reference PU, holder = PU index `holder`
   (the reader's own for the local class), helper for S. */
static int one(cal_run_t *run, char st, int cls, int holder, int helper,
               char *err, size_t cap) {
  const cal_topo_t *t = &run->topo;
  lb_t *c = cal_zalloc(sizeof(lb_t));
  if (!c) {
    snprintf(err, cap, "out of memory");
    return -1;
  }
  c->run = run;
  c->state = st;
  c->local = holder == t->ref;
  c->owner_role = -1;
  c->helper_role = -1;
  int pus[3], n = 0;
  pus[n++] = t->pu_os[t->ref];
  if (!c->local && st != 'I') {
    c->owner_role = n;
    pus[n++] = t->pu_os[holder];
  }
  if (st == 'S') {
    c->helper_role = n;
    pus[n++] = t->pu_os[helper];
  }
  char cpus[64];
  if (st == 'I')
    snprintf(cpus, sizeof(cpus), "%d", pus[0]);
  else if (c->local)
    snprintf(cpus, sizeof(cpus), "%d<-%d", pus[0], pus[0]);
  else
    snprintf(cpus, sizeof(cpus), "%d<-%d", pus[0], pus[c->owner_role]);
  if (st == 'S') {
    size_t l = strlen(cpus);
    snprintf(cpus + l, sizeof(cpus) - l, " helper %d", pus[c->helper_role]);
  }
  char sname[2] = {st, 0};
  const char *cname = st == 'I' ? "memory" : cal_class_name(cls);
  cal_progress(run, "single line: state %s, class %s (CPUs %s)", sname, cname,
               cpus);
  c->series = cal_series_get(run, "line", sname, cname, cpus, K_LINES);
  c->buf = cal_pages_alloc((size_t)K_LINES * CAL_PAGE);
  if (!c->series || !c->buf) {
    free(c->buf);
    free(c);
    snprintf(err, cap, "out of memory");
    return -1;
  }
  int rc = cal_team_run(n, pus, role_main, c, err, cap);
  if (rc == 0)
    cal_series_done(run, c->series);
  free(c->buf);
  free(c);
  return rc;
}

/* Calls f for every series of the plan; returns the count. */
typedef int (*plan_fn)(cal_run_t *run, char st, int cls, int holder,
                       int helper, char *err, size_t cap);

static int plan(cal_run_t *run, plan_fn f, char *err, size_t cap) {
  const cal_topo_t *t = &run->topo;
  int count = 0;
  int flush = cal_can_flush();
  for (int cls = 0; cls < CAL_NCLASSES; ++cls) {
    int holder = t->class_peer[cls];
    if (holder < 0)
      continue;
    const char *states = flush ? "MES" : "M";
    for (const char *s = states; *s; ++s) {
      int helper = -1;
      if (*s == 'S') {
        helper = cal_topo_helper(t, t->ref, holder);
        int threads = cls == CAL_CLASS_LOCAL ? 2 : 3;
        if (helper < 0 || threads > run->max_threads)
          continue;
      }
      if (f && f(run, *s, cls, holder, helper, err, cap) != 0)
        return -1;
      ++count;
    }
  }
  if (flush) {
    if (f && f(run, 'I', CAL_CLASS_LOCAL, t->ref, -1, err, cap) != 0)
      return -1;
    ++count;
  }
  return count;
}

int cal_linebench_steps(const cal_run_t *run) {
  return plan((cal_run_t *)run, NULL, NULL, 0);
}

int cal_linebench_run(cal_run_t *run, char *err, size_t cap) {
  return plan(run, one, err, cap) < 0 ? -1 : 0;
}
