/* Test harness for the plugin algorithms (see test_services.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pthread affinity, CPU_* macros */
#endif

#include "test_services.h"

#include "config.h" /* ompext_parse_int_list */
#include "services.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- time and failures --------------------------------------------------- */

double tu_now(void) { return psvc_now(); }

#define TU_PRINT_FAILURES 20
static _Atomic unsigned long failures;
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;

void tu_fail(const char *fmt, ...) {
  unsigned long k =
      atomic_fetch_add_explicit(&failures, 1, memory_order_relaxed);
  if (k >= TU_PRINT_FAILURES)
    return;
  va_list ap;
  va_start(ap, fmt);
  pthread_mutex_lock(&print_lock);
  fputs("VIOLATION: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  if (k + 1 == TU_PRINT_FAILURES)
    fputs("(further violations are counted, not printed)\n", stderr);
  fflush(stderr);
  pthread_mutex_unlock(&print_lock);
  va_end(ap);
}

unsigned long tu_failures(void) {
  return atomic_load_explicit(&failures, memory_order_relaxed);
}

static char context[1024];

void tu_set_context(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(context, sizeof(context), fmt, ap);
  va_end(ap);
}

_Noreturn void tu_fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  pthread_mutex_lock(&print_lock);
  fputs("FATAL: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  if (context[0])
    fprintf(stderr, "FATAL: while running %s\n", context);
  fflush(stderr);
  fflush(stdout);
  va_end(ap);
  _exit(1); /* other threads may still be spinning: do not run atexit */
}

/* ---- services -------------------------------------------------------------- */

/* The harness's fatal exit, so a hang in the services wait also names the
   configuration running. */
static void services_fatal(const char *message) { tu_fatal("%s", message); }

int tu_services_install(void) {
  const ompext_services_t *services = psvc_table();
  /* The holder must refuse tables it cannot serve. */
  ompext_services_t bad = *services;
  bad.abi_version = OMPEXT_ABI_VERSION + 1;
  if (ompext_services_install(&bad) == 0) {
    fprintf(stderr, "ompext_services_install accepted ABI version %u\n",
            bad.abi_version);
    return -1;
  }
  bad = *services;
  bad.size = sizeof(ompext_services_t) - sizeof(void *);
  if (ompext_services_install(&bad) == 0) {
    fprintf(stderr, "ompext_services_install accepted a short table\n");
    return -1;
  }
  if (ompext_services_install(NULL) == 0) {
    fprintf(stderr, "ompext_services_install accepted NULL\n");
    return -1;
  }
  psvc_set_fatal(services_fatal);
  if (psvc_install() != 0 || ompext_svc != services) {
    fprintf(stderr, "ompext_services_install refused the test table\n");
    return -1;
  }
  return 0;
}

unsigned tu_spin_polls(int n, unsigned variant) {
  if (n > psvc_cpu_count() || (variant & 1))
    return 0;
  return 1000;
}

/* ---- threads ---------------------------------------------------------------- */

typedef struct thread_start {
  tu_thread_fn fn;
  void *arg;
  int tid;
} thread_start_t;

static void *thread_main(void *p) {
  thread_start_t *s = p;
  s->fn(s->tid, s->arg);
  return NULL;
}

void tu_run_threads(int n, int pin, tu_thread_fn fn, void *arg) {
  pthread_t *threads = calloc((size_t)n, sizeof(pthread_t));
  thread_start_t *starts = calloc((size_t)n, sizeof(thread_start_t));
  if (!threads || !starts)
    tu_fatal("out of memory for %d threads", n);
  psvc_set_running(n);
  for (int t = 0; t < n; ++t) {
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    if (pin) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(psvc_cpu(t), &set);
      pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
    }
    starts[t] = (thread_start_t){fn, arg, t};
    int rc = pthread_create(&threads[t], &attr, thread_main, &starts[t]);
    pthread_attr_destroy(&attr);
    if (rc != 0)
      tu_fatal("pthread_create for tid %d of %d: %s", t, n, strerror(rc));
  }
  for (int t = 0; t < n; ++t)
    pthread_join(threads[t], NULL);
  psvc_set_running(0);
  free(starts);
  free(threads);
}

/* ---- randomness ---------------------------------------------------------------- */

uint64_t tu_mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

void tu_rng_seed(tu_rng_t *r, uint64_t seed, uint64_t a, uint64_t b) {
  r->s = tu_mix64(seed ^ tu_mix64(a ^ tu_mix64(b)));
  if (r->s == 0)
    r->s = 0x2545f4914f6cdd1dull;
}

uint64_t tu_rng_next(tu_rng_t *r) {
  uint64_t x = r->s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  r->s = x;
  return x * 0x2545f4914f6cdd1dull;
}

static void busy_wait_us(unsigned us) {
  double until = tu_now() + 1e-6 * us;
  while (tu_now() < until)
    tu_cpu_relax();
}

void tu_random_delay(tu_rng_t *r, unsigned max_us) {
  uint64_t x = tu_rng_next(r);
  unsigned arg = (unsigned)(x >> 32);
  switch (x & 31) {
  case 0: case 1: case 2: case 3:
    for (unsigned i = arg % 64; i; --i)
      tu_cpu_relax();
    break;
  case 4: case 5:
    for (unsigned i = arg % 2048; i; --i)
      tu_cpu_relax();
    break;
  case 6: case 7:
    sched_yield();
    break;
  case 8:
    if (max_us)
      busy_wait_us(arg % (max_us + 1));
    break;
  case 9:
    if (max_us) {
      struct timespec ts = {0, (long)(arg % (max_us + 1)) * 1000};
      nanosleep(&ts, NULL);
    }
    break;
  default: /* most often: no delay at all */
    break;
  }
}

/* ---- test layouts -------------------------------------------------------- */

/* Random domain labels 0..nd-1, each used at least once: a random
   permutation of the tids (in scratch) gives each label its first tid. */
static void random_labels(int n, int nd, uint64_t seed, int *label,
                          int *scratch) {
  tu_rng_t rng;
  tu_rng_seed(&rng, seed, (uint64_t)n, (uint64_t)nd);
  for (int t = 0; t < n; ++t)
    scratch[t] = t;
  for (int i = n - 1; i > 0; --i) {
    const int j = (int)(tu_rng_next(&rng) % (uint64_t)(i + 1));
    const int x = scratch[i];
    scratch[i] = scratch[j];
    scratch[j] = x;
  }
  for (int i = 0; i < n; ++i)
    label[scratch[i]] = i < nd ? i : (int)(tu_rng_next(&rng) % (uint64_t)nd);
}

/* Labels 0..nd-1 (nd <= n) of a shape, each used at least once. */
static void shape_labels(int n, int nd, tu_layout_shape_t shape,
                         uint64_t seed, int *label, int *scratch) {
  switch (shape) {
  case TU_LAYOUT_ROUND_ROBIN:
    for (int t = 0; t < n; ++t)
      label[t] = t % nd;
    break;
  case TU_LAYOUT_BLOCKS:
    for (int t = 0; t < n; ++t)
      label[t] = (int)((long long)t * nd / n);
    break;
  default:
    random_labels(n, nd, seed, label, scratch);
    break;
  }
}

/* Renumbers labels 0..nd-1 in the order of their lowest tid. */
static void number_by_lowest_tid(int n, int nd, int *label, int *scratch) {
  for (int d = 0; d < nd; ++d)
    scratch[d] = -1;
  int next = 0;
  for (int t = 0; t < n; ++t) {
    if (scratch[label[t]] < 0)
      scratch[label[t]] = next++;
    label[t] = scratch[label[t]];
  }
}

int tu_layout_fill(ompext_topo_layout_t *l, void *mem, int n, int ndomains,
                   tu_layout_shape_t shape, uint64_t seed) {
  ompext_topology_layout_init(l, mem, n);
  if (n < 1)
    return 0;
  const int nd = ndomains < 1 ? 1 : ndomains > n ? n : ndomains;
  /* order and rank serve as scratch until ompext_topology_order fills them */
  shape_labels(n, nd, shape, seed, l->domain, l->order);
  number_by_lowest_tid(n, nd, l->domain, l->rank);
  if (ompext_topology_order(n, l->domain, nd, l->order, l->rank,
                            l->dstart) != 0)
    tu_fatal("ompext_topology_order refused a test layout of %d tids over "
             "%d domains",
             n, nd);
  l->ndomains = nd;
  return nd;
}

ompext_topo_layout_t *tu_layout_new(int n, int ndomains, uint64_t seed) {
  ompext_topo_layout_t *l =
      malloc(sizeof(*l) + ompext_topology_layout_size(n));
  if (!l)
    tu_fatal("out of memory for a layout of %d tids", n);
  tu_layout_fill(l, l + 1, n, ndomains, TU_LAYOUT_RANDOM, seed);
  return l;
}

/* Appends text to buf (cap bytes, the first used of them filled),
   truncating; returns the new length. */
static size_t append(char *buf, size_t cap, size_t used, const char *text) {
  if (used + 1 >= cap)
    return used;
  const int w = snprintf(buf + used, cap - used, "%s", text);
  if (w < 0)
    return used;
  return (size_t)w < cap - used ? used + (size_t)w : cap - 1;
}

int tu_layout_describe(const ompext_topo_layout_t *l, char *buf, size_t cap) {
  size_t used = 0;
  if (cap > 0)
    buf[0] = '\0';
  for (int r = 0; r < l->nproc; ++r) {
    const int new_domain =
        r > 0 && l->domain[l->order[r]] != l->domain[l->order[r - 1]];
    char item[24];
    snprintf(item, sizeof(item), "%s%d",
             r == 0 ? "" : new_domain ? " | " : " ", l->order[r]);
    used = append(buf, cap, used, item);
  }
  return (int)used;
}

void tu_layout_cycle_init(tu_layout_cycle_t *c, int n, const int *domains,
                          int ndomains, unsigned offset, uint64_t seed) {
  int seen[TU_MAX_LIST], nseen = 0;
  c->count = 0;
  c->offset = offset;
  for (int i = 0; i < ndomains && i < TU_MAX_LIST; ++i) {
    const int nd = domains[i] < n ? domains[i] : n;
    if (tu_first_time(seen, &nseen, nd))
      c->layout[c->count++] =
          nd > 1 ? tu_layout_new(n, nd, tu_mix64(seed + (uint64_t)nd)) : NULL;
  }
  if (c->count == 0)
    c->layout[c->count++] = NULL;
}

void tu_layout_cycle_free(tu_layout_cycle_t *c) {
  for (int i = 0; i < c->count; ++i)
    free(c->layout[i]);
  c->count = 0;
}

int tu_layout_cycle_describe(const tu_layout_cycle_t *c, char *buf,
                             size_t cap) {
  size_t used = 0;
  if (cap > 0)
    buf[0] = '\0';
  for (int i = 0; i < c->count; ++i) {
    used = append(buf, cap, used, i ? "; " : "");
    if (c->layout[i])
      used += (size_t)tu_layout_describe(c->layout[i], buf + used, cap - used);
    else
      used = append(buf, cap, used, "flat");
  }
  return (int)used;
}

/* ---- the tests' own barrier --------------------------------------------------- */

void tu_barrier_init(tu_barrier_t *b, int n) {
  atomic_init(&b->arrived, 0);
  atomic_init(&b->generation, 0);
  b->n = n;
}

void tu_barrier_wait(tu_barrier_t *b) {
  unsigned gen = atomic_load_explicit(&b->generation, memory_order_acquire);
  unsigned before = atomic_fetch_add_explicit(&b->arrived, 1,
                                              memory_order_acq_rel);
  if (before + 1 == (unsigned)b->n) {
    atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
    atomic_fetch_add_explicit(&b->generation, 1, memory_order_release);
    return;
  }
  psvc_backoff_t backoff = PSVC_BACKOFF_INIT;
  while (atomic_load_explicit(&b->generation, memory_order_acquire) == gen) {
    const double waited = psvc_backoff(&backoff);
    if (waited > 2 * psvc_timeout()) /* let a wait report first */
      tu_fatal("the test's own barrier waited %.0f s (%u of %d arrived): "
               "a thread never left the algorithm under test",
               waited, atomic_load_explicit(&b->arrived, memory_order_relaxed),
               b->n);
  }
}

/* ---- options ------------------------------------------------------------------ */

int tu_parse_list(const char *text, int lo, int *out, int cap) {
  return ompext_parse_int_list(text, lo, INT_MAX / 2, out, cap);
}

int tu_first_time(int *seen, int *nseen, int value) {
  for (int i = 0; i < *nseen; ++i)
    if (seen[i] == value)
      return 0;
  if (*nseen < TU_MAX_LIST)
    seen[(*nseen)++] = value;
  return 1;
}

void tu_default_threads(tu_options_t *o) {
  o->nthreads = 0;
  for (int n = 1; n <= 17; ++n)
    o->threads[o->nthreads++] = n;
  o->threads[o->nthreads++] = 31;
  o->threads[o->nthreads++] = 64;
}

int tu_pin_for(const tu_options_t *o, unsigned index) {
  return o->pin == 2 ? (int)(index & 1) : o->pin;
}

void tu_run_two_batches(int n, long episodes, const tu_options_t *o,
                        unsigned index, tu_thread_fn fn, void *arg,
                        tu_batch_t *batch) {
  long half = episodes / 2 > 0 ? episodes / 2 : 1;
  *batch = (tu_batch_t){.first = 1, .last = half,
                        .spin = tu_spin_polls(n, index), .second = 0};
  tu_run_threads(n, tu_pin_for(o, index), fn, arg);
  *batch = (tu_batch_t){.first = half + 1, .last = episodes,
                        .spin = tu_spin_polls(n, index + 1), .second = 1};
  if (batch->first <= batch->last)
    tu_run_threads(n, tu_pin_for(o, index + 1), fn, arg);
}

static _Noreturn void usage_exit(const char *argv0, const char *usage,
                                 int status) {
  fprintf(status ? stderr : stdout,
          "usage: %s [options] [N ...]\n"
          "  N, -n N1,N2,...  team sizes (default 1..17,31,64 unless below)\n"
          "  -e EPISODES      base episodes per configuration\n"
          "  -s SEED          random seed\n"
          "  -p 0|1|2         pin threads to CPUs: never, always, alternate\n"
          "  -t SECONDS       a single wait longer than this is a hang\n"
          "  -v               one line per configuration\n"
          "%s",
          argv0, usage ? usage : "");
  exit(status);
}

/* A list option's value into out[] (each >= lo); *count gets how many. */
static void list_option(const char *val, int lo, int *out, int *count,
                        const char *argv0, const char *usage) {
  *count = tu_parse_list(val, lo, out, TU_MAX_LIST);
  if (*count <= 0)
    usage_exit(argv0, usage, 2);
}

void tu_parse_options(int argc, char **argv, tu_options_t *o,
                      const char *usage) {
  int bare = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    const char *val = NULL;
    if (a[0] == '-' && a[1] && a[2] == '\0' && strchr("nekfsptdm", a[1])) {
      if (i + 1 >= argc)
        usage_exit(argv[0], usage, 2);
      val = argv[++i];
    }
    char *end;
    if (a[0] != '-') {
      int v[TU_MAX_LIST];
      int k = tu_parse_list(a, 1, v, TU_MAX_LIST);
      if (k <= 0)
        usage_exit(argv[0], usage, 2);
      if (!bare)
        o->nthreads = 0;
      bare = 1;
      for (int j = 0; j < k && o->nthreads < TU_MAX_LIST; ++j)
        o->threads[o->nthreads++] = v[j];
    } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage_exit(argv[0], usage, 0);
    } else if (!strcmp(a, "-v")) {
      o->verbose = 1;
    } else if (!strcmp(a, "-n")) {
      list_option(val, 1, o->threads, &o->nthreads, argv[0], usage);
    } else if (!strcmp(a, "-k")) {
      list_option(val, 0, o->list, &o->nlist, argv[0], usage);
    } else if (!strcmp(a, "-d")) {
      list_option(val, 1, o->domains, &o->ndomains, argv[0], usage);
    } else if (!strcmp(a, "-m")) {
      list_option(val, 0, o->mlist, &o->nmlist, argv[0], usage);
    } else if (!strcmp(a, "-f")) {
      o->text = val;
    } else if (!strcmp(a, "-e")) {
      o->episodes = strtol(val, &end, 10);
      if (*end || o->episodes < 1)
        usage_exit(argv[0], usage, 2);
    } else if (!strcmp(a, "-s")) {
      o->seed = strtoull(val, &end, 0);
      if (*end)
        usage_exit(argv[0], usage, 2);
    } else if (!strcmp(a, "-p")) {
      o->pin = (int)strtol(val, &end, 10);
      if (*end || o->pin < 0 || o->pin > 2)
        usage_exit(argv[0], usage, 2);
    } else if (!strcmp(a, "-t")) {
      o->timeout_s = strtod(val, &end);
      if (*end || o->timeout_s <= 0)
        usage_exit(argv[0], usage, 2);
    } else {
      usage_exit(argv[0], usage, 2);
    }
  }
  psvc_set_timeout(o->timeout_s);
}

/* ---- checking a barrier under test -------------------------------------- */

void tu_arrive(tu_arrival_t *arrivals, int tid, long e) {
  /* relaxed: the barrier under test is what must order it */
  atomic_store_explicit(&arrivals[tid].counter, (uint64_t)e,
                        memory_order_relaxed);
  arrivals[tid].plain[e & 1] = (uint64_t)e;
}

unsigned long tu_check_arrivals(const tu_arrival_t *arrivals, int n, int tid,
                                long e, const char *what) {
  for (int u = 0; u < n; ++u) {
    uint64_t c =
        atomic_load_explicit(&arrivals[u].counter, memory_order_relaxed);
    uint64_t s = arrivals[u].plain[e & 1];
    if (c < (uint64_t)e || c > (uint64_t)e + 1)
      tu_fail("%s n=%d episode %ld: tid %d left the barrier while tid %d's "
              "arrival counter is %llu",
              what, n, e, tid, u, (unsigned long long)c);
    if (s != (uint64_t)e)
      tu_fail("%s n=%d episode %ld: tid %d sees tid %d's plain slot %llu, "
              "expected %ld",
              what, n, e, tid, u, (unsigned long long)s, e);
  }
  return (unsigned long)n;
}
