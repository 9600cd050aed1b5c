/*
 * Multi-line ping-pong (the paper's Section 3.1): two threads, T0 on the
 * reference PU and T1 on a PU of the primary remote class, exchange
 * messages of N contiguous cache lines; T_N is half the round trip, and the
 * fit of the medians gives T_N = o*N + q - p/N.
 *
 * Each thread owns a send buffer and a receive buffer of up to 128 lines
 * (8 KiB, as in the paper).  Before every round trip both threads put their
 * buffers into the paper's E/E state: they flush the N lines of both
 * buffers and read them back (exclusive in the owner's cache).  Then T0
 * copies its send buffer into T1's receive buffer and writes a sequence
 * number (the canary) into the last 8 bytes of the last line, with release
 * order; T1 polls only that word, then sends its own buffer back the same
 * way; T0 polls its canary.  The timed region is T0's copy up to its seeing
 * the reply.  The copy is memcpy (what a runtime uses).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "calibrate.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 128

static const int sizes_full[] = {1,  2,  3,  4,  6,  8,  12,
                                 16, 24, 32, 48, 64, 96, 128};
static const int sizes_quick[] = {1, 2, 4, 8, 16, 32, 64, 128};

typedef struct ml {
  cal_run_t *run;
  const int *sizes;
  int nsizes;
  char cpus[64];
  const char *cls;
  char *send[2], *recv[2];
  int N; /* current message size, published with mb.cmd */
  cal_mailbox_t mb;
  volatile uint64_t sink;
  int failed;
} ml_t;

static _Atomic uint64_t *canary(char *recv, int N) {
  return (_Atomic uint64_t *)(recv + (size_t)N * CAL_LINE - 8);
}

/* E state for the N lines of both of `side`'s buffers. */
static void prep(ml_t *c, int side, int N) {
  for (int i = 0; i < N; ++i) {
    cal_flush_line(c->send[side] + (size_t)i * CAL_LINE);
    cal_flush_line(c->recv[side] + (size_t)i * CAL_LINE);
  }
  cal_full_fence();
  uint64_t s = 0;
  for (int i = 0; i < N; ++i) {
    s += *(volatile uint64_t *)(c->send[side] + (size_t)i * CAL_LINE);
    s += *(volatile uint64_t *)(c->recv[side] + (size_t)i * CAL_LINE);
  }
  c->sink = s;
  cal_full_fence();
}

static void send_msg(char *dst, const char *src, int N, uint64_t seq) {
  memcpy(dst, src, (size_t)N * CAL_LINE - 8);
  atomic_store_explicit(canary(dst, N), seq, memory_order_release);
}

static void responder(ml_t *c) {
  unsigned last = 0;
  for (;;) {
    unsigned cmd;
    unsigned spins = 0;
    while ((cmd = atomic_load_explicit(&c->mb.cmd, memory_order_acquire)) ==
           last) {
      cal_cpu_relax();
      if (++spins % 4096 == 0)
        sched_yield();
    }
    if (cmd == CAL_CMD_STOP)
      return;
    last = cmd;
    int N = c->N;
    prep(c, 1, N);
    atomic_store_explicit(&c->mb.ack, cmd, memory_order_release);
    /* Polled inside the peer's timed region: no yielding here unless the
       peer is clearly gone (a descheduled peer on a busy machine). */
    _Atomic uint64_t *cn = canary(c->recv[1], N);
    spins = 0;
    while (atomic_load_explicit(cn, memory_order_acquire) != cmd) {
      cal_cpu_relax();
      if (++spins % (1u << 16) == 0)
        sched_yield();
    }
    send_msg(c->recv[0], c->send[1], N, cmd);
  }
}

static void driver(ml_t *c) {
  cal_run_t *run = c->run;
  unsigned seq = 0;
  for (int z = 0; z < c->nsizes; ++z) {
    int N = c->sizes[z];
    cal_progress(run, "multi-line ping-pong: %d line%s, state E/E (CPUs %s)",
                 N, N == 1 ? "" : "s", c->cpus);
    cal_series_t *s = cal_series_get(run, "multiline", "E/E", c->cls, c->cpus, N);
    if (!s) {
      c->failed = 1;
      break;
    }
    c->N = N;
    size_t got = 0;
    double t0 = cal_now_s();
    int hit = 0;
    for (size_t i = 0;; ++i) {
      if (i >= run->warmup && !cal_keep_sampling(run, got, t0, &hit))
        break;
      ++seq;
      prep(c, 0, N);
      atomic_store_explicit(&c->mb.cmd, seq, memory_order_release);
      cal_wait_eq(&c->mb.ack, seq);
      _Atomic uint64_t *cn = canary(c->recv[0], N);
      uint64_t a = cal_ticks_begin();
      send_msg(c->recv[1], c->send[0], N, seq);
      unsigned spins = 0;
      while (atomic_load_explicit(cn, memory_order_acquire) != seq) {
        cal_cpu_relax();
        if (++spins % (1u << 16) == 0)
          sched_yield();
      }
      uint64_t b = cal_ticks_end();
      if (i >= run->warmup) {
        cal_series_add(s, cal_elapsed_ns(&run->timer, a, b) / 2);
        ++got;
      }
    }
    s->budget_hit |= hit;
    cal_series_done(run, s);
  }
  atomic_store_explicit(&c->mb.cmd, CAL_CMD_STOP, memory_order_release);
}

static void role_main(int role, void *arg) {
  ml_t *c = arg;
  if (role == 0)
    driver(c);
  else
    responder(c);
}

int cal_multiline_steps(const cal_run_t *run) {
  if (cal_primary_class(&run->topo) < 0 || !cal_can_flush())
    return 0;
  return run->quick ? (int)(sizeof(sizes_quick) / sizeof(int))
                    : (int)(sizeof(sizes_full) / sizeof(int));
}

int cal_multiline_run(cal_run_t *run, char *err, size_t cap) {
  const cal_topo_t *t = &run->topo;
  int cls = cal_primary_class(t);
  if (cls < 0 || !cal_can_flush())
    return 0;
  ml_t *c = cal_zalloc(sizeof(ml_t));
  if (!c) {
    snprintf(err, cap, "out of memory");
    return -1;
  }
  c->run = run;
  c->sizes = run->quick ? sizes_quick : sizes_full;
  c->nsizes = cal_multiline_steps(run);
  c->cls = cal_class_name(cls);
  int pus[2] = {t->pu_os[t->ref], t->pu_os[t->class_peer[cls]]};
  snprintf(c->cpus, sizeof(c->cpus), "%d<->%d", pus[0], pus[1]);
  /* Four buffers, each in its own pages. */
  char *mem = cal_pages_alloc(4 * (size_t)MAXN * CAL_LINE);
  if (!mem) {
    free(c);
    snprintf(err, cap, "out of memory");
    return -1;
  }
  for (int side = 0; side < 2; ++side) {
    c->send[side] = mem + (size_t)(2 * side) * MAXN * CAL_LINE;
    c->recv[side] = mem + (size_t)(2 * side + 1) * MAXN * CAL_LINE;
  }
  int rc = cal_team_run(2, pus, role_main, c, err, cap);
  if (rc == 0 && c->failed) {
    snprintf(err, cap, "out of memory");
    rc = -1;
  }
  free(mem);
  free(c);
  return rc;
}
