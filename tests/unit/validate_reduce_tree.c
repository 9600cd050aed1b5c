/*
 * Validator of the tree reduction gather (reduce_tree.c).
 *
 * For every team size n and list of fan-ins, the levels come from
 * ompext_plan_build (an OMPEXT_REDUCE_FANIN-style override: the last
 * fan-in repeats), and are checked: the product of the per-level fan-ins
 * covers n, one level fewer would not, and the fan-ins follow the list.
 *
 * The episodes of every configuration cycle through topology layouts, one
 * per domain count of -d (1: no layout, the flat tree), made up by the
 * harness: the tids spread over the domains at random, so domains are
 * uneven and scattered over the tids.  The tree object carries over from
 * one layout to the next, as a team's does when its layout gets built.
 *
 * Per episode e every thread fills its own data with a value v(tid, e) and
 * a count vector with a 1 at its own tid, then calls the gather; the reduce
 * function adds the values (mod 2^64) and the count vectors.  When tid 0
 * returns it checks:
 *   - the sum equals the sum of all v(t, e),
 *   - every tid contributed exactly once (count 1 at each tid < n),
 *   - the reduce function ran exactly n - 1 times this episode,
 *   - reduce never got the same object on both sides, nor a data object of
 *     another configuration,
 *   - with a layout: exactly ndomains - 1 reduce calls combined data of two
 *     domains, each from a domain's leader into another leader, and only
 *     once the sending leader's data held its whole domain.
 * Non-zero tids return as soon as their data is handed over; the contract
 * says their data must stay alive until tid 0 is done, which here is a
 * barrier of the test's own after tid 0's check, standing in for the
 * runtime's release; only after it is any data rewritten.
 *
 * All data accesses are plain, so under ThreadSanitizer any hand-over that
 * does not order the child's writes before the parent's reads is a race.
 * Each configuration runs in two batches on fresh pthreads, reusing the tree
 * object.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "test_services.h"

#include "config.h"
#include "plan.h"
#include "reduce_tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXT 256
#define DEFAULT_DOMAINS "1,2,3,5,16" /* domain counts of the layouts; 1: flat */

typedef struct rdata {
  alignas(TU_LINE) uint64_t magic; /* identifies the configuration */
  int n;
  int tid;
  uint64_t sum;
  unsigned char count[MAXT];
} rdata_t;

typedef struct run {
  ompext_reduce_tree_t *tree;
  rdata_t *data;
  tu_layout_cycle_t layouts; /* one per episode, in turn */
  tu_barrier_t barrier;
  int n;
  char what[96]; /* the configuration, for messages */
  tu_batch_t batch; /* episodes of the current batch */
  uint64_t seed, magic;
  _Atomic unsigned long reduce_calls;   /* this episode, reset by tid 0 */
  _Atomic unsigned long crossing_calls; /* of them, across two domains */
} run_t;

static run_t *current; /* the configuration running now */
/* The layout the calling thread passed in this episode (reduce runs on the
   thread that owns lhs). */
static _Thread_local const ompext_topo_layout_t *tl_layout;

/* Data crosses domains only leader to leader, once the sending leader holds
   its whole domain. */
static void check_crossing(run_t *r, const ompext_topo_layout_t *l,
                           const rdata_t *lhs, const rdata_t *rhs) {
  const int into = l->domain[lhs->tid], from = l->domain[rhs->tid];
  if (into == from)
    return;
  atomic_fetch_add_explicit(&r->crossing_calls, 1, memory_order_relaxed);
  if (ompext_topology_leader(l, into) != lhs->tid ||
      ompext_topology_leader(l, from) != rhs->tid)
    tu_fail("reduce %s (%d domains): tid %d folds in tid %d's data across "
            "domains, not leader to leader",
            r->what, l->ndomains, lhs->tid, rhs->tid);
  for (int t = 0; t < r->n; ++t)
    if (l->domain[t] == from && rhs->count[t] != 1)
      tu_fail("reduce %s (%d domains): leader %d's data crosses to tid %d "
              "with its domain's tid %d counted %d times",
              r->what, l->ndomains, rhs->tid, lhs->tid, t, rhs->count[t]);
}

static void reduce_fn(void *lhs_p, void *rhs_p) {
  rdata_t *lhs = lhs_p, *rhs = rhs_p;
  run_t *r = current;
  atomic_fetch_add_explicit(&r->reduce_calls, 1, memory_order_relaxed);
  if (lhs == rhs || lhs->magic != r->magic || rhs->magic != r->magic) {
    tu_fail("reduce %s: reduce(%p, %p) on the same or foreign data", r->what,
            lhs_p, rhs_p);
    return;
  }
  if (tl_layout)
    check_crossing(r, tl_layout, lhs, rhs);
  lhs->sum += rhs->sum;
  for (int i = 0; i < r->n; ++i)
    lhs->count[i] = (unsigned char)(lhs->count[i] + rhs->count[i]);
}

static uint64_t value_of(uint64_t seed, long e, int tid) {
  return tu_mix64(seed ^ ((uint64_t)e << 20) ^ (uint64_t)tid);
}

/* tid 0, after the gather: everything folded in exactly once. */
static void check_result(run_t *r, long e, const rdata_t *mine,
                         const ompext_topo_layout_t *layout) {
  const int n = r->n;
  uint64_t want = 0;
  for (int t = 0; t < n; ++t)
    want += value_of(r->seed, e, t);
  if (mine->sum != want)
    tu_fail("reduce %s episode %ld (%d domains): sum %llu, expected %llu",
            r->what, e, tu_layout_domains(layout),
            (unsigned long long)mine->sum, (unsigned long long)want);
  for (int t = 0; t < n; ++t)
    if (mine->count[t] != 1)
      tu_fail("reduce %s episode %ld (%d domains): tid %d contributed %d "
              "times",
              r->what, e, tu_layout_domains(layout), t, mine->count[t]);
  unsigned long calls = atomic_exchange_explicit(&r->reduce_calls, 0,
                                                 memory_order_relaxed);
  if (calls != (unsigned long)(n - 1))
    tu_fail("reduce %s episode %ld (%d domains): %lu reduce calls, expected "
            "%d",
            r->what, e, tu_layout_domains(layout), calls, n - 1);
  unsigned long crossing = atomic_exchange_explicit(&r->crossing_calls, 0,
                                                    memory_order_relaxed);
  const int want_crossing = layout ? layout->ndomains - 1 : 0;
  if (crossing != (unsigned long)want_crossing)
    tu_fail("reduce %s episode %ld (%d domains): %lu reduce calls across "
            "domains, expected %d",
            r->what, e, tu_layout_domains(layout), crossing, want_crossing);
}

static void worker(int tid, void *p) {
  run_t *r = p;
  const int n = r->n;
  rdata_t *mine = &r->data[tid];
  tu_rng_t rng;
  tu_rng_seed(&rng, r->seed, r->magic, (uint64_t)r->batch.first * 1024 + (uint64_t)tid);
  for (long e = r->batch.first; e <= r->batch.last; ++e) {
    mine->magic = r->magic;
    mine->n = n;
    mine->tid = tid;
    mine->sum = value_of(r->seed, e, tid);
    memset(mine->count, 0, (size_t)n);
    mine->count[tid] = 1;
    tl_layout = tu_layout_cycle_at(&r->layouts, e);
    tu_random_delay(&rng, 20);
    /* tid 0 times its combines every other episode */
    ompext_reduce_probe_t probe = {-1, -1};
    const int timed = tid == 0 && (e & 1);
    ompext_reduce_tree_gather(r->tree, tid, tid, mine, reduce_fn, tl_layout,
                              r->batch.spin, timed ? &probe : NULL);
    if (timed && n > 1 && (probe.combine_ns < 0 || probe.reference_ns < 0))
      tu_fail("n=%d episode %ld: tid 0 timed no combine (%g ns) or no "
              "reference read (%g ns)",
              n, e, probe.combine_ns, probe.reference_ns);
    if (tid == 0)
      check_result(r, e, mine, tl_layout);
    else if (tu_rng_next(&rng) % 4 == 0)
      tu_random_delay(&rng, 20);
    /* The runtime's release: only after it may a worker's data change. */
    tu_barrier_wait(&r->barrier);
  }
}

/* Checks the levels plan.c chose for n against the fan-in list. */
static void check_levels(int n, const int *list, int len, const char *text,
                         const ompext_plan_t *p) {
  long span = 1, below = 1;
  for (int l = 0; l < p->reduce_levels; ++l) {
    int want = list[l < len ? l : len - 1];
    if (p->reduce_fanin[l] != want)
      tu_fail("params n=%d fan-in %s: level %d has fan-in %d, expected %d",
              n, text, l + 1, p->reduce_fanin[l], want);
    below = span;
    span *= p->reduce_fanin[l];
  }
  if (span < n)
    tu_fail("params n=%d fan-in %s: %d levels cover only %ld threads", n,
            text, p->reduce_levels, span);
  if (p->reduce_levels > 0 && below >= n)
    tu_fail("params n=%d fan-in %s: %d levels, one fewer would cover n", n,
            text, p->reduce_levels);
}

typedef struct totals {
  unsigned configs;
  unsigned long thread_episodes;
} totals_t;

/* One fan-in list and team size, over the layouts of o->domains. */
static void run_config(const tu_options_t *o, const char *text,
                       const int *fanin, int len, int n, totals_t *t) {
  const ompext_services_t *svc = psvc_table();
  ompext_config_t cfg;
  memset(&cfg, 0, sizeof(cfg));
  cfg.reduce = OMPEXT_REDUCE_TREE;
  cfg.reduce_levels = len;
  memcpy(cfg.reduce_fanin, fanin, sizeof(int) * (size_t)len);
  const ompext_planner_t planner = {&cfg, NULL, 0, 0, 0};
  ompext_plan_t params;
  ompext_plan_build(&planner, n, 0, &params);
  check_levels(n, fanin, len, text, &params);

  void *mem = svc->alloc(ompext_reduce_tree_size(n));
  rdata_t *data = svc->alloc((size_t)n * sizeof(rdata_t));
  run_t *r = calloc(1, sizeof(run_t));
  if (!mem || !data || !r)
    tu_fatal("out of memory");
  r->tree = ompext_reduce_tree_init(mem, n, params.reduce_fanin,
                                    params.reduce_levels);
  r->data = data;
  r->n = n;
  r->seed = o->seed;
  r->magic = tu_mix64(o->seed + t->configs + 1);
  tu_layout_cycle_init(&r->layouts, n, o->domains, o->ndomains, t->configs,
                       r->magic);
  snprintf(r->what, sizeof(r->what), "n=%d fan-in %s", n, text);
  atomic_init(&r->reduce_calls, 0);
  atomic_init(&r->crossing_calls, 0);
  tu_barrier_init(&r->barrier, n);
  current = r;
  char tids[800];
  tu_layout_cycle_describe(&r->layouts, tids, sizeof(tids));
  tu_set_context("reduce %s (levels %d; layouts, tids by domain: %s)",
                 r->what, params.reduce_levels, tids);
  const long episodes = o->episodes;
  const double start = tu_now();
  tu_run_two_batches(n, episodes, o, t->configs, worker, r, &r->batch);
  t->thread_episodes += (unsigned long)n * (unsigned long)episodes;
  ++t->configs;
  if (o->verbose)
    printf("reduce %s levels=%d layouts=%d episodes=%ld  %.2f s\n",
           r->what, params.reduce_levels, r->layouts.count, episodes,
           tu_now() - start);
  current = NULL;
  tu_layout_cycle_free(&r->layouts);
  free(r);
  svc->free_mem(data);
  svc->free_mem(mem);
}

int main(int argc, char **argv) {
  tu_options_t o = {.episodes = 1800, .seed = 2, .pin = 2, .timeout_s = 30,
                    .text = "2/4/3,2/8/2,3,4/64"};
  tu_default_threads(&o);
  o.ndomains = tu_parse_list(DEFAULT_DOMAINS, 1, o.domains, TU_MAX_LIST);
  tu_parse_options(argc, argv, &o,
                   "  -f L1/L2/...     fan-in lists, each k1,k2,... "
                   "(default 2/4/3,2/8/2,3,4/64)\n"
                   "  -d D1,D2,...     domain counts of the layouts the "
                   "episodes cycle\n"
                   "                   through, 1 = flat (default "
                   DEFAULT_DOMAINS ")\n");
  if (tu_services_install() != 0)
    return 1;
  for (int i = 0; i < o.nthreads; ++i)
    if (o.threads[i] > MAXT)
      tu_fatal("team size %d: at most %d", o.threads[i], MAXT);
  double start = tu_now();
  totals_t t = {0};

  char *lists = strdup(o.text);
  for (char *save = NULL, *text = strtok_r(lists, "/", &save); text;
       text = strtok_r(NULL, "/", &save)) {
    int fanin[OMPEXT_MAX_LEVELS];
    int len = tu_parse_list(text, 2, fanin, OMPEXT_MAX_LEVELS);
    if (len <= 0)
      tu_fatal("bad fan-in list '%s'", text);
    for (int ni = 0; ni < o.nthreads; ++ni)
      run_config(&o, text, fanin, len, o.threads[ni], &t);
  }
  free(lists);
  unsigned long bad = tu_failures();
  printf("validate_reduce_tree: %u configurations, %lu thread-episodes, "
         "%lu violations, %.1f s\n",
         t.configs, t.thread_episodes, bad, tu_now() - start);
  return bad ? 1 : 0;
}
