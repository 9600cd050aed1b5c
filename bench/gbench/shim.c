/* Benchmark shim for the omp-ext collectives (see shim.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pthread_setaffinity_np, CPU_* macros */
#endif

#include "shim.h"

#include "barrier.h"
#include "bcast_tree.h"
#include "config.h"
#include "pad.h"
#include "plan.h"
#include "pthread_services.h"
#include "reduce_tree.h"
#include "services.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GB_LINE OMPEXT_CACHE_LINE
#define GB_HANG_S 60.0          /* a single wait this long is a lost signal */
#define GB_MAX_THREADS 4096

/* ---- process-wide state --------------------------------------------------- */

static int g_ready;
static unsigned g_spin = 4096;
static _Atomic int g_pin_warned;

static void gb_fatal(const char *message) {
  fprintf(stderr, "ompext-gbench: FATAL: %s\n", message);
  fflush(stderr);
  _exit(1);
}

/* One unsuccessful poll of the shim's own waits (the services wait does the
   same): pause, or yield when oversubscribed; a hang is fatal. */
static void gb_backoff(psvc_backoff_t *b, const char *what,
                       const void *where) {
  const double waited = psvc_backoff(b);
  if (waited > psvc_timeout())
    psvc_fatal("%s at %p waited %.0f s (a lost signal or a deadlock)", what,
               where, waited);
}

/* Zeroed padded lines, from the services table. */
static void *gb_zalloc(size_t bytes) { return psvc_table()->alloc(bytes); }

/* ---- set-up ------------------------------------------------------------------ */

int gb_init(void) {
  if (g_ready)
    return 0;
  /* The pthread services, waiting as a benchmark wants: a pause on every
     poll, a yield only while the team outnumbers the CPUs. */
  psvc_set_pause_polls(ULONG_MAX);
  psvc_set_timeout(GB_HANG_S);
  psvc_set_fatal(gb_fatal);
  /* OMPEXT_SPIN as the plugin reads it (same default and range). */
  ompext_config_t cfg;
  ompext_config_parse(&cfg, stderr);
  g_spin = cfg.spin_polls;
  if (psvc_install() != 0) {
    fprintf(stderr, "ompext-gbench: the services table was refused\n");
    return -1;
  }
  g_ready = 1;
  return 0;
}

int gb_cpu_count(void) { return psvc_cpu_count(); }

unsigned gb_spin_polls(int n) { return n > psvc_cpu_count() ? 0 : g_spin; }

const char *gb_barrier_name(ompext_barrier_alg_t alg) {
  if ((int)alg < 0 || alg > OMPEXT_BARRIER_CENTRALIZED)
    return "?";
  return ompext_barrier_names[alg];
}

int gb_parse_list(const char *text, int lo, int hi, int *out, int cap) {
  return ompext_parse_int_list(text, lo, hi, out, cap);
}

/* ---- the shim's own synchronisation --------------------------------------- */

/* Centralized counter barrier for the start of a run: every arrival happens
   before every departure. */
typedef struct gb_sbar {
  alignas(GB_LINE) _Atomic unsigned arrived;
  alignas(GB_LINE) _Atomic unsigned generation;
} gb_sbar_t;

static void gb_sbar_wait(gb_sbar_t *b, int n) {
  unsigned gen = atomic_load_explicit(&b->generation, memory_order_acquire);
  unsigned before =
      atomic_fetch_add_explicit(&b->arrived, 1, memory_order_acq_rel);
  if (before + 1 == (unsigned)n) {
    atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
    atomic_fetch_add_explicit(&b->generation, 1, memory_order_release);
    return;
  }
  psvc_backoff_t s = PSVC_BACKOFF_INIT;
  while (atomic_load_explicit(&b->generation, memory_order_acquire) == gen)
    gb_backoff(&s, "the start barrier", (const void *)b);
}

/* ---- team ------------------------------------------------------------------- */

/* Per-thread data, each on its own padded lines. */
typedef struct gb_slot {
  alignas(GB_LINE) uint64_t sum; /* reduction data */
  unsigned char *buf;            /* broadcast data (bcast_bytes, padded) */
  size_t buf_bytes;
  int fresh; /* buf not yet touched by its owner */
} gb_slot_t;

struct gb_team {
  int n;
  int pin;
  pthread_t *threads;
  struct gb_thread_arg *args;
  int started;

  pthread_mutex_t lock;
  pthread_cond_t wake; /* main -> workers: a new job or quit */
  pthread_cond_t done; /* last worker -> main */
  uint64_t job_gen;    /* under lock */
  int quit;            /* under lock */
  int pending;         /* threads still in the job, under lock */

  /* The job (written under lock before job_gen moves). */
  long warmup, reps;
  uint64_t episode_base; /* first episode number of the job */

  /* The configuration (written only while the workers are parked). */
  int configured;
  gb_config_t cfg;
  void *coll;             /* barrier / reduce tree / bcast tree */
  void *after;            /* GB_BCAST: the caller's barrier */
  void *coll_mem, *after_mem; /* their allocations */
  ompext_pairfn_t cpy;
  unsigned spin;
  uint64_t seed;
  gb_slot_t *slots;

  gb_sbar_t start;
  alignas(GB_LINE) _Atomic uint64_t go; /* GB_REDUCE release, tid 0 -> all */

  /* Results of the job. */
  alignas(GB_LINE) double seconds;
  _Atomic unsigned long errors;
};

typedef struct gb_thread_arg {
  gb_team_t *team;
  int tid;
} gb_thread_arg_t;

static uint64_t gb_mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

/* The reduction's combiner: a 64-bit sum. */
static void reduce_sum(void *lhs, void *rhs) {
  *(uint64_t *)lhs += *(const uint64_t *)rhs;
}

/* Copy functions for the broadcast: a fixed size where the benchmark uses
   one (as a compiler-made copy function has), else the configured size. */
static size_t g_cpy_bytes; /* for cpy_any; set while workers are parked */
#define GB_CPY_FIXED(bytes)                                                    \
  static void cpy_##bytes(void *dst, void *src) { memcpy(dst, src, bytes); }
GB_CPY_FIXED(8)
GB_CPY_FIXED(64)
GB_CPY_FIXED(4096)
GB_CPY_FIXED(65536)
GB_CPY_FIXED(1048576)
static void cpy_any(void *dst, void *src) { memcpy(dst, src, g_cpy_bytes); }

static ompext_pairfn_t cpy_for(size_t bytes) {
  switch (bytes) {
  case 8: return cpy_8;
  case 64: return cpy_64;
  case 4096: return cpy_4096;
  case 65536: return cpy_65536;
  case 1048576: return cpy_1048576;
  default: return cpy_any;
  }
}

/* ---- the episode loops -------------------------------------------------------- */

static unsigned long run_barrier(gb_team_t *t, int tid, uint64_t first,
                                 long count) {
  (void)first;
  const ompext_barrier_alg_t alg = t->cfg.barrier_alg;
  void *b = t->coll;
  const unsigned spin = t->spin;
  for (long i = 0; i < count; ++i)
    ompext_barrier_wait(alg, b, tid, tid, spin);
  return 0;
}

static unsigned long run_reduce(gb_team_t *t, int tid, uint64_t first,
                                long count) {
  ompext_reduce_tree_t *tree = t->coll;
  const unsigned spin = t->spin;
  const uint64_t n = (uint64_t)t->n;
  const uint64_t tri = n * (n - 1) / 2;
  uint64_t *mine = &t->slots[tid].sum;
  unsigned long errors = 0;
  for (uint64_t e = first; e < first + (uint64_t)count; ++e) {
    *mine = e + (uint64_t)tid;
    ompext_reduce_tree_gather(tree, tid, tid, mine, reduce_sum, NULL, spin,
                              NULL);
    if (tid == 0) {
      errors += *mine != n * e + tri;
      /* The release: workers' data may change only after this. */
      atomic_store_explicit(&t->go, e + 1, memory_order_release);
    } else {
      psvc_backoff_t s = PSVC_BACKOFF_INIT;
      while (atomic_load_explicit(&t->go, memory_order_acquire) < e + 1)
        gb_backoff(&s, "the reduction release", (const void *)&t->go);
    }
  }
  return errors;
}

static unsigned long run_bcast(gb_team_t *t, int tid, uint64_t first,
                               long count) {
  ompext_bcast_tree_t *tree = t->coll;
  void *after = t->after;
  const unsigned spin = t->spin;
  const int n = t->n;
  const int random_root = t->cfg.bcast_random_root;
  const uint64_t seed = t->seed;
  const ompext_pairfn_t cpy = t->cpy;
  unsigned char *mine = t->slots[tid].buf;
  unsigned long errors = 0;
  for (uint64_t e = first; e < first + (uint64_t)count; ++e) {
    const int root =
        random_root ? (int)(gb_mix64(seed ^ e) % (uint64_t)n) : 0;
    const int is_root = tid == root;
    const uint64_t stamp = e + 1;
    if (is_root)
      memcpy(mine, &stamp, sizeof(stamp));
    void *got =
        ompext_bcast_tree_run(tree, tid, tid, is_root, mine, cpy, NULL, NULL,
                              NULL, spin);
    if (!is_root) {
      uint64_t seen;
      memcpy(&seen, mine, sizeof(seen));
      errors += seen != stamp;
    }
    errors += got != (void *)t->slots[root].buf;
    /* The caller's barrier: only after it may the root's data change. */
    ompext_barrier_wait(OMPEXT_BARRIER_DISSEMINATION, after, tid, tid, spin);
  }
  return errors;
}

static void run_job(gb_team_t *t, int tid, long warmup, long reps,
                    uint64_t base) {
  gb_slot_t *me = &t->slots[tid];
  if (me->fresh) { /* first touch by the owner */
    if (me->buf)
      memset(me->buf, 0, me->buf_bytes);
    me->fresh = 0;
  }
  unsigned long (*loop)(gb_team_t *, int, uint64_t, long) =
      t->cfg.op == GB_REDUCE  ? run_reduce
      : t->cfg.op == GB_BCAST ? run_bcast
                              : run_barrier;
  unsigned long errors = 0;
  gb_sbar_wait(&t->start, t->n); /* everyone set up */
  if (warmup > 0)
    errors += loop(t, tid, base, warmup);
  gb_sbar_wait(&t->start, t->n);
  double t0 = tid == 0 ? psvc_now() : 0;
  errors += loop(t, tid, base + (uint64_t)warmup, reps);
  if (tid == 0)
    t->seconds = psvc_now() - t0;
  if (errors)
    atomic_fetch_add_explicit(&t->errors, errors, memory_order_relaxed);
}

static void pin_self(int tid) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(psvc_cpu(tid), &set);
  int rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
  if (rc != 0 && !atomic_exchange(&g_pin_warned, 1))
    fprintf(stderr,
            "ompext-gbench: cannot pin tid %d to CPU %d (%s); threads that "
            "cannot be pinned run unpinned\n",
            tid, psvc_cpu(tid), strerror(rc));
}

static void *worker_main(void *p) {
  gb_thread_arg_t *a = p;
  gb_team_t *t = a->team;
  const int tid = a->tid;
  if (t->pin)
    pin_self(tid);
  uint64_t seen = 0;
  for (;;) {
    pthread_mutex_lock(&t->lock);
    while (t->job_gen == seen && !t->quit)
      pthread_cond_wait(&t->wake, &t->lock);
    if (t->quit) {
      pthread_mutex_unlock(&t->lock);
      return NULL;
    }
    seen = t->job_gen;
    const long warmup = t->warmup, reps = t->reps;
    const uint64_t base = t->episode_base;
    pthread_mutex_unlock(&t->lock);

    run_job(t, tid, warmup, reps, base);

    pthread_mutex_lock(&t->lock);
    if (--t->pending == 0)
      pthread_cond_signal(&t->done);
    pthread_mutex_unlock(&t->lock);
  }
}

static void free_layout(gb_team_t *t) {
  free(t->coll_mem);
  free(t->after_mem);
  t->coll = t->after = t->coll_mem = t->after_mem = NULL;
  for (int i = 0; i < t->n; ++i) {
    free(t->slots[i].buf);
    t->slots[i].buf = NULL;
    t->slots[i].buf_bytes = 0;
    t->slots[i].fresh = 0;
  }
  t->configured = 0;
}

gb_team_t *gb_team_create(int n, int pin) {
  if (gb_init() != 0)
    return NULL;
  if (n < 1 || n > GB_MAX_THREADS) {
    fprintf(stderr, "ompext-gbench: team size %d not in 1..%d\n", n,
            GB_MAX_THREADS);
    return NULL;
  }
  gb_team_t *t = gb_zalloc(sizeof(*t));
  if (!t)
    goto oom;
  t->n = n;
  t->pin = pin;
  t->seed = 0x6f6d702d657874ull; /* any constant: all threads share it */
  atomic_init(&t->start.arrived, 0);
  atomic_init(&t->start.generation, 0);
  atomic_init(&t->go, 0);
  atomic_init(&t->errors, 0);
  t->slots = gb_zalloc((size_t)n * sizeof(gb_slot_t));
  t->threads = calloc((size_t)n, sizeof(pthread_t));
  t->args = calloc((size_t)n, sizeof(gb_thread_arg_t));
  if (!t->slots || !t->threads || !t->args)
    goto oom;
  pthread_mutex_init(&t->lock, NULL);
  pthread_cond_init(&t->wake, NULL);
  pthread_cond_init(&t->done, NULL);
  for (int i = 0; i < n; ++i) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    t->args[i] = (gb_thread_arg_t){t, i};
    int rc = pthread_create(&t->threads[i], &attr, worker_main, &t->args[i]);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
      fprintf(stderr, "ompext-gbench: pthread_create for tid %d of %d: %s\n",
              i, n, strerror(rc));
      t->started = i;
      gb_team_destroy(t);
      return NULL;
    }
  }
  t->started = n;
  return t;
oom:
  fprintf(stderr, "ompext-gbench: out of memory for a team of %d\n", n);
  if (t) {
    free(t->slots);
    free(t->threads);
    free(t->args);
    free(t);
  }
  return NULL;
}

int gb_team_size(const gb_team_t *t) { return t->n; }

static int config_equal(const gb_config_t *a, const gb_config_t *b) {
  if (a->op != b->op)
    return 0;
  switch (a->op) {
  case GB_BARRIER:
    return a->barrier_alg == b->barrier_alg &&
           a->barrier_param == b->barrier_param;
  case GB_REDUCE:
    return a->fanin_len == b->fanin_len &&
           !memcmp(a->fanin, b->fanin, sizeof(int) * (size_t)a->fanin_len);
  case GB_BCAST:
    return a->bcast_fanout == b->bcast_fanout &&
           a->bcast_bytes == b->bcast_bytes &&
           (a->bcast_random_root != 0) == (b->bcast_random_root != 0);
  }
  return 0;
}

static int config_check(const gb_config_t *c) {
  switch (c->op) {
  case GB_BARRIER:
    switch (c->barrier_alg) {
    case OMPEXT_BARRIER_DISSEMINATION:
      return c->barrier_param >= 1 && c->barrier_param <= OMPEXT_MAX_M;
    case OMPEXT_BARRIER_TREE:
      return c->barrier_param >= OMPEXT_MIN_TREE_K &&
             c->barrier_param <= OMPEXT_MAX_FANIN;
    case OMPEXT_BARRIER_TOURNAMENT:
      return c->barrier_param == 0 || (c->barrier_param >= OMPEXT_MIN_TREE_K &&
                                       c->barrier_param <= OMPEXT_MAX_FANIN);
    case OMPEXT_BARRIER_CENTRALIZED:
      return 1;
    default:
      return 0;
    }
  case GB_REDUCE:
    if (c->fanin_len < 1 || c->fanin_len > OMPEXT_MAX_LEVELS)
      return 0;
    for (int l = 0; l < c->fanin_len; ++l)
      if (c->fanin[l] < 2 || c->fanin[l] > OMPEXT_MAX_FANIN)
        return 0;
    return 1;
  case GB_BCAST:
    return c->bcast_fanout >= 0 && c->bcast_fanout <= OMPEXT_MAX_FANIN &&
           c->bcast_bytes >= 8 && c->bcast_bytes <= ((size_t)1 << 30);
  }
  return 0;
}

/* The benchmark's one parameter, as the algorithm names it. */
static ompext_barrier_plan_t barrier_plan(ompext_barrier_alg_t alg, int param) {
  return (ompext_barrier_plan_t){
      .alg = alg, .dissem_m = param, .tree_k = param, .release_k = param};
}

int gb_team_configure(gb_team_t *t, const gb_config_t *cfg) {
  if (!config_check(cfg)) {
    fprintf(stderr, "ompext-gbench: bad configuration (op %d)\n",
            (int)cfg->op);
    return -1;
  }
  if (t->configured && config_equal(&t->cfg, cfg))
    return 0;
  free_layout(t);
  t->cfg = *cfg;
  t->spin = gb_spin_polls(t->n);
  const int n = t->n;
  switch (cfg->op) {
  case GB_BARRIER: {
    const ompext_barrier_plan_t plan =
        barrier_plan(cfg->barrier_alg, cfg->barrier_param);
    t->coll_mem = gb_zalloc(ompext_barrier_size(&plan, n));
    if (!t->coll_mem)
      goto oom;
    t->coll = ompext_barrier_init(&plan, t->coll_mem, n);
    break;
  }
  case GB_REDUCE: {
    /* The levels exactly as the plugin derives them from a fan-in list. */
    ompext_config_t c;
    memset(&c, 0, sizeof(c));
    c.reduce = OMPEXT_REDUCE_TREE;
    c.reduce_levels = cfg->fanin_len;
    memcpy(c.reduce_fanin, cfg->fanin, sizeof(int) * (size_t)cfg->fanin_len);
    const ompext_planner_t planner = {&c, NULL, 0, 0, 0}; /* fixed defaults */
    ompext_plan_t p;
    ompext_plan_build(&planner, n, 0, &p);
    t->coll_mem = gb_zalloc(ompext_reduce_tree_size(n));
    if (!t->coll_mem)
      goto oom;
    t->coll = ompext_reduce_tree_init(t->coll_mem, n, p.reduce_fanin,
                                      p.reduce_levels);
    break;
  }
  case GB_BCAST: {
    int fanout = cfg->bcast_fanout ? cfg->bcast_fanout : (n > 1 ? n - 1 : 1);
    t->coll_mem = gb_zalloc(ompext_bcast_tree_size(n));
    const ompext_barrier_plan_t after =
        barrier_plan(OMPEXT_BARRIER_DISSEMINATION, 1);
    t->after_mem = gb_zalloc(ompext_barrier_size(&after, n));
    if (!t->coll_mem || !t->after_mem)
      goto oom;
    t->coll = ompext_bcast_tree_init(t->coll_mem, n, fanout, fanout);
    t->after = ompext_barrier_init(&after, t->after_mem, n);
    const size_t bytes = ompext_pad_bytes(cfg->bcast_bytes);
    for (int i = 0; i < n; ++i) {
      /* Not zeroed here: the owner touches its buffer first. */
      t->slots[i].buf = aligned_alloc(GB_LINE, bytes);
      if (!t->slots[i].buf)
        goto oom;
      t->slots[i].buf_bytes = bytes;
      t->slots[i].fresh = 1;
    }
    g_cpy_bytes = cfg->bcast_bytes;
    t->cpy = cpy_for(cfg->bcast_bytes);
    break;
  }
  }
  t->configured = 1;
  return 0;
oom:
  fprintf(stderr, "ompext-gbench: out of memory configuring a team of %d\n",
          n);
  free_layout(t);
  return -1;
}

int gb_team_run(gb_team_t *t, long warmup, long reps, gb_result_t *out) {
  if (!t->configured || warmup < 0 || reps < 0)
    return -1;
  if (t->cfg.op == GB_BCAST)
    g_cpy_bytes = t->cfg.bcast_bytes;
  psvc_set_running(t->n); /* only one team runs at a time */
  pthread_mutex_lock(&t->lock);
  t->warmup = warmup;
  t->reps = reps;
  t->seconds = 0;
  atomic_store_explicit(&t->errors, 0, memory_order_relaxed);
  t->pending = t->n;
  ++t->job_gen;
  pthread_cond_broadcast(&t->wake);
  while (t->pending > 0)
    pthread_cond_wait(&t->done, &t->lock);
  t->episode_base += (uint64_t)warmup + (uint64_t)reps;
  out->seconds = t->seconds;
  out->episodes = reps;
  out->errors = atomic_load_explicit(&t->errors, memory_order_relaxed);
  pthread_mutex_unlock(&t->lock);
  return 0;
}

void gb_team_destroy(gb_team_t *t) {
  if (!t)
    return;
  pthread_mutex_lock(&t->lock);
  t->quit = 1;
  pthread_cond_broadcast(&t->wake);
  pthread_mutex_unlock(&t->lock);
  for (int i = 0; i < t->started; ++i)
    pthread_join(t->threads[i], NULL);
  free_layout(t);
  pthread_cond_destroy(&t->done);
  pthread_cond_destroy(&t->wake);
  pthread_mutex_destroy(&t->lock);
  free(t->slots);
  free(t->threads);
  free(t->args);
  free(t);
}
