/*
 * Validator of the tree / flat broadcast for copyprivate (bcast_tree.c).
 *
 * For every team size n, fan-out k (1, 2, 3 and n-1, the flat broadcast),
 * and payload size S (1 B .. 4 MiB, fewer episodes for the big ones), n
 * threads run many broadcasts.  The episodes cycle through topology
 * layouts, one per domain count of -d (1: no layout, the tree in tid
 * order), made up by the harness: the tids spread over the domains at
 * random, so domains are uneven and scattered over the tids.  The
 * broadcast object carries over from one layout to the next, as a team's
 * does when its layout gets built.  The root of each episode is drawn from a
 * shared seed and the episode number, so all threads agree on it without
 * talking; it changes from episode to episode, as the single winner does.
 * Every thread owns a struct {size, stamp, bytes[S]}; the root fills its
 * bytes with a pattern unique to the episode (base[i] ^ key(e), a different
 * key each episode) and sets stamp = e.  Non-roots first poison their stamp
 * (and their bytes, for small S).
 *
 * With cpy = a memcpy of the payload, checked:
 *   - cpy runs exactly once on each non-root and never on the root, always
 *     with the caller's own data as destination, and its source already
 *     holds this episode's value (stamp == e: relays copy only from threads
 *     that have received);
 *   - the source is the caller's parent in the episode's tree: in the
 *     k-ary tree over (tid - root) mod n without a layout, in the two-level
 *     tree of ompext_topology_rooted_parent (fan-out k at both levels) with
 *     one; validate_topology checks that tree's shape.  k is the episode's:
 *     the root picks the configuration's k, or after long copies its long
 *     fan-out (n-1, or 1 when k is n-1), and every thread must learn the
 *     same k;
 *   - after the call every byte of every non-root's payload is this
 *     episode's pattern;
 *   - every thread gets the root's data pointer back.
 * With cpy == NULL (only the pointer is broadcast): cpy never runs, each
 * thread gets the root's pointer and reads this episode's value through it.
 * After each broadcast all threads pass a closing barrier (the caller's
 * guarantee); only after it are payloads rewritten.  The close follows the
 * broadcast's choice (bcast_close.c), with a mode per configuration in
 * turn: auto (rooted after copies of 1 us or more, so the big payloads and
 * the episodes with random delays mix both kinds), rooted, or barrier.
 * Checked: every thread learns the same close, rooted at this episode's
 * root, in every thread, under rooted, never under barrier, and under auto
 * on a flat layout only with the long fan-out (long copies may close with
 * the barrier too: the call site's trial, bcast_trial.c); and no thread
 * leaves the close before all arrived (tu_check_arrivals).
 * Otherwise the test's own barrier closes the broadcast.
 *
 * Each configuration runs in two batches on fresh pthreads, reusing the
 * broadcast object; the payloads of a team size and S serve every k and
 * layout.  Payload accesses are plain, so under ThreadSanitizer a
 * copy not ordered after its source's fill is a race.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "test_services.h"

#include "bcast_tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bdata {
  alignas(TU_LINE) size_t size;
  uint64_t stamp; /* the episode whose value the bytes hold; 0: poisoned */
  uint64_t magic; /* identifies the configuration */
  unsigned char *bytes;
} bdata_t;

#define DEFAULT_DOMAINS "1,2,3,5,16" /* domain counts of the layouts; 1: flat */

typedef struct run {
  ompext_bcast_tree_t *tree;
  ompext_bcast_close_t *close;
  ompext_bcast_close_mode_t close_mode;
  int *close_seen[2];  /* [n] each: what each tid learned, by episode parity */
  int *fanout_seen[2]; /* [n] each: likewise, the tree's fan-out */
  tu_arrival_t *arrivals;      /* [n]: the closing barrier's phase check */
  bdata_t *data;
  const unsigned char *base; /* [S] random, read only */
  tu_layout_cycle_t layouts; /* one per episode, in turn */
  tu_barrier_t barrier;
  int n, fanout, long_fanout, use_cpy;
  size_t size;
  char what[128]; /* the configuration, for messages */
  tu_batch_t batch; /* episodes of the current batch */
  uint64_t seed, magic;
} run_t;

/* What the current thread expects in cpy (set before each broadcast). */
static _Thread_local bdata_t *tl_mine;
static _Thread_local uint64_t tl_episode;
static _Thread_local unsigned tl_cpy_calls;
static _Thread_local const run_t *tl_run;
static _Thread_local int tl_source; /* the tid cpy copied from; -1: none */
static _Thread_local int tl_ndomains; /* of this episode's layout */

static int root_of(uint64_t seed, long e, int n) {
  return (int)(tu_mix64(seed * 0x9e3779b97f4a7c15ull + (uint64_t)e) %
               (uint64_t)n);
}

static unsigned char key_of(long e) {
  /* Consecutive episodes never share a key, and no key is 0. */
  return (unsigned char)(1 + (e % 2) * 128 + (e * 37) % 127);
}

/* tid's parent in the tree of fan-out k of a broadcast from root over
   layout. */
static int parent_in_tree(const run_t *r, const ompext_topo_layout_t *layout,
                          int k, int root, int tid) {
  if (layout)
    return ompext_topology_rooted_parent(layout, k, k, root, tid);
  const long v = (tid - root + r->n) % r->n;
  return (int)(((v - 1) / k + root) % r->n);
}

/* A violation in the calling thread's current broadcast. */
#define EPISODE_FAIL(fmt, ...)                                                 \
  tu_fail("bcast %s episode %llu (%d domains): " fmt, tl_run->what,           \
          (unsigned long long)tl_episode, tl_ndomains, __VA_ARGS__)

static void cpy_fn(void *dst_p, void *src_p) {
  bdata_t *dst = dst_p, *src = src_p;
  const run_t *r = tl_run;
  ++tl_cpy_calls;
  if (dst != tl_mine) {
    EPISODE_FAIL("cpy into %p, not the caller's own data %p", dst_p,
                 (void *)tl_mine);
    return;
  }
  if (src == dst || src->magic != r->magic || src->size != dst->size) {
    EPISODE_FAIL("cpy from %p, not a payload of this team", src_p);
    return;
  }
  tl_source = (int)(src - r->data); /* its parent?  Checked after the run */
  if (src->stamp != tl_episode)
    EPISODE_FAIL("cpy from a source holding episode %llu's value",
                 (unsigned long long)src->stamp);
  memcpy(dst->bytes, src->bytes, dst->size);
  dst->stamp = src->stamp;
}

/* Number of bytes of p[0..size) that differ from base ^ key. */
static size_t count_wrong(const unsigned char *p, const unsigned char *base,
                          size_t size, unsigned char key) {
  size_t wrong = 0;
  for (size_t i = 0; i < size; ++i)
    wrong += (p[i] ^ base[i]) != key;
  return wrong;
}

/* The caller's barrier after the broadcast, as the broadcast's root chose
   it (see the top). */
static void close_broadcast(run_t *r, int tid, int root, long e, int flat) {
  const int n = r->n;
  const int k = r->fanout_seen[e & 1][tid];
  const int close_root = ompext_bcast_close_take(r->close, tid);
  int *seen = r->close_seen[e & 1];
  seen[tid] = close_root;
  if ((r->close_mode == OMPEXT_BCAST_CLOSE_ROOTED && close_root != root) ||
      (r->close_mode == OMPEXT_BCAST_CLOSE_BARRIER && close_root != -1) ||
      (close_root != -1 && close_root != root))
    EPISODE_FAIL("root %d: tid %d learned the close %d under mode %s", root,
                 tid, close_root, ompext_bcast_close_names[r->close_mode]);
  if (r->close_mode == OMPEXT_BCAST_CLOSE_AUTO && flat &&
      r->long_fanout != r->fanout && close_root >= 0 &&
      k != r->long_fanout)
    EPISODE_FAIL("root %d: tid %d learned the close %d with fan-out %d "
                 "(long copies: %d)",
                 root, tid, close_root, k, r->long_fanout);
  tu_arrive(r->arrivals, tid, e);
  if (close_root < 0)
    tu_barrier_wait(&r->barrier);
  else
    ompext_bcast_close_wait(r->close, tid, tid, root, r->batch.spin);
  tu_check_arrivals(r->arrivals, n, tid, e, r->what);
  /* Written before the close, read after it; rewritten two episodes on. */
  const int next = (tid + 1) % n;
  if (seen[next] != close_root || r->fanout_seen[e & 1][next] != k)
    EPISODE_FAIL("root %d: tid %d learned the close %d and fan-out %d, "
                 "tid %d %d and %d",
                 root, tid, close_root, k, next, seen[next],
                 r->fanout_seen[e & 1][next]);
}

static void worker(int tid, void *p) {
  run_t *r = p;
  const int n = r->n;
  bdata_t *mine = &r->data[tid];
  tu_rng_t rng;
  tu_rng_seed(&rng, r->seed, r->magic, (uint64_t)r->batch.first * 1024 + (uint64_t)tid);
  tl_run = r;
  tl_mine = mine;
  for (long e = r->batch.first; e <= r->batch.last; ++e) {
    const int root = root_of(r->seed ^ r->magic, e, n);
    const unsigned char key = key_of(e);
    const int is_root = tid == root;
    if (is_root) {
      for (size_t i = 0; i < r->size; ++i)
        mine->bytes[i] = r->base[i] ^ key;
      mine->stamp = (uint64_t)e;
    } else {
      mine->stamp = 0;
      if (r->size <= 4096)
        memset(mine->bytes, 0, r->size);
    }
    const ompext_topo_layout_t *layout = tu_layout_cycle_at(&r->layouts, e);
    tl_ndomains = tu_layout_domains(layout);
    tl_episode = (uint64_t)e;
    tl_cpy_calls = 0;
    tl_source = -1;
    tu_random_delay(&rng, 20);
    void *got = ompext_bcast_tree_run(r->tree, tid, tid, is_root, mine,
                                      r->use_cpy ? cpy_fn : NULL, r, layout,
                                      r->close, r->batch.spin);
    const int k = ompext_bcast_tree_last_fanout(r->tree, tid);
    if (k != r->fanout && k != r->long_fanout)
      EPISODE_FAIL("root %d: tid %d's tree has fan-out %d, neither %d nor %d",
                   root, tid, k, r->fanout, r->long_fanout);
    r->fanout_seen[e & 1][tid] = k;
    if (!is_root && r->use_cpy) {
      /* Relaying: from the parent; copying from the root: from the root. */
      const int from_root = ompext_bcast_tree_last_from_root(r->tree, tid);
      const int parent =
          from_root ? root : parent_in_tree(r, layout, k, root, tid);
      if (tl_source != parent)
        EPISODE_FAIL("root %d: tid %d copies from tid %d, not from %s %d in "
                     "the tree of fan-out %d",
                     root, tid, tl_source, from_root ? "the root" : "its parent",
                     parent, k);
    }
    bdata_t *root_data = &r->data[root];
    if (got != root_data)
      EPISODE_FAIL("root %d: tid %d got %p, not the root's data %p", root,
                   tid, got, (void *)root_data);
    unsigned want_calls = r->use_cpy && !is_root ? 1 : 0;
    if (tl_cpy_calls != want_calls)
      EPISODE_FAIL("root %d: tid %d ran cpy %u times, expected %u", root, tid,
                   tl_cpy_calls, want_calls);
    if (!is_root) {
      /* With cpy: my copy.  Without: the root's value, through its pointer. */
      const bdata_t *view = r->use_cpy ? mine : root_data;
      size_t wrong = count_wrong(view->bytes, r->base, r->size, key);
      if (view->stamp != (uint64_t)e || wrong)
        EPISODE_FAIL("root %d: tid %d sees stamp %llu and %zu wrong bytes",
                     root, tid, (unsigned long long)view->stamp, wrong);
    }
    if (tu_rng_next(&rng) % 4 == 0)
      tu_random_delay(&rng, 20);
    close_broadcast(r, tid, root, e, tl_ndomains <= 1);
  }
}

static long episodes_for(long base, size_t size) {
  long e = base;
  if (size > 4096)
    e = base / 20;
  if (size > 65536)
    e = base / 200;
  if (size > (1u << 20))
    e = 2;
  return e < 2 ? 2 : e;
}

typedef struct totals {
  unsigned configs;
  unsigned long thread_episodes;
} totals_t;

/* The payloads of n threads, size bytes each. */
static bdata_t *payloads_new(int n, size_t size) {
  const ompext_services_t *svc = psvc_table();
  bdata_t *data = svc->alloc((size_t)n * sizeof(bdata_t));
  if (!data)
    tu_fatal("out of memory");
  for (int t = 0; t < n; ++t) {
    data[t].size = size;
    data[t].bytes = svc->alloc(size);
    if (!data[t].bytes)
      tu_fatal("out of memory for %d x %zu bytes", n, size);
  }
  return data;
}

static void payloads_free(bdata_t *data, int n) {
  for (int t = 0; t < n; ++t)
    psvc_table()->free_mem(data[t].bytes);
  psvc_table()->free_mem(data);
}

/* One team size, fan-out and payload size (data: n payloads of that
   size), over the layouts of o->domains. */
static void run_config(const tu_options_t *o, bdata_t *data,
                       const unsigned char *base, int n, int k, int use_cpy,
                       totals_t *t) {
  const ompext_services_t *svc = psvc_table();
  void *mem = svc->alloc(ompext_bcast_tree_size(n));
  void *close_mem = svc->alloc(ompext_bcast_close_size(n));
  tu_arrival_t *arrivals = svc->alloc((size_t)n * sizeof(tu_arrival_t));
  run_t *r = calloc(1, sizeof(run_t));
  int *seen = calloc(4 * (size_t)n, sizeof(int));
  if (!mem || !close_mem || !arrivals || !r || !seen)
    tu_fatal("out of memory");
  static const ompext_bcast_close_mode_t modes[] = {
      OMPEXT_BCAST_CLOSE_AUTO, OMPEXT_BCAST_CLOSE_ROOTED,
      OMPEXT_BCAST_CLOSE_BARRIER};
  r->close_mode = modes[t->configs % 3];
  /* fan-in 2 or 3, from the configuration; auto: copies of >= 1 us */
  const int long_fanout = k == n - 1 || n < 2 ? 1 : n - 1;
  /* Short and long copies relay or copy from the root, in turn. */
  const int from_root = (int)(t->configs / 3 % 4);
  const int short_from_root = from_root & 1, long_from_root = from_root >> 1;
  /* Receivers time their copies when the close or the fan-out depends on
     them (as bcast.c decides for a team). */
  r->close = ompext_bcast_close_init(
      close_mem, n, 2 + (int)(t->configs % 2), r->close_mode, 1000,
      (t->configs % 4) * 50,
      long_fanout != k || short_from_root != long_from_root ||
          r->close_mode == OMPEXT_BCAST_CLOSE_AUTO,
      0);
  r->arrivals = arrivals;
  for (int i = 0; i < 2; ++i) {
    r->close_seen[i] = seen + i * n;
    r->fanout_seen[i] = seen + (2 + i) * n;
  }
  r->magic = tu_mix64(o->seed * 31 + t->configs + 1);
  for (int i = 0; i < n; ++i)
    data[i].magic = r->magic;
  tu_layout_cycle_init(&r->layouts, n, o->domains, o->ndomains, t->configs,
                       r->magic);
  r->tree = ompext_bcast_tree_init(mem, n, k, long_fanout);
  ompext_bcast_tree_copy_from_root(r->tree, short_from_root, long_from_root);
  r->data = data;
  r->base = base;
  r->n = n;
  r->fanout = k;
  r->long_fanout = long_fanout;
  r->use_cpy = use_cpy;
  r->size = data[0].size;
  r->seed = o->seed;
  snprintf(r->what, sizeof(r->what),
           "n=%d k=%d%s (long: %d%s) S=%zu cpy=%s close=%s", n, k,
           short_from_root ? " from root" : "", long_fanout,
           long_from_root ? " from root" : "", r->size,
           use_cpy ? "memcpy" : "NULL",
           ompext_bcast_close_names[r->close_mode]);
  tu_barrier_init(&r->barrier, n);
  char tids[800];
  tu_layout_cycle_describe(&r->layouts, tids, sizeof(tids));
  tu_set_context("bcast %s (roots from seed %llu; layouts, tids by domain: "
                 "%s)",
                 r->what, (unsigned long long)o->seed, tids);
  const long episodes = episodes_for(o->episodes, r->size);
  const double start = tu_now();
  tu_run_two_batches(n, episodes, o, t->configs, worker, r, &r->batch);
  t->thread_episodes += (unsigned long)n * (unsigned long)episodes;
  ++t->configs;
  if (o->verbose)
    printf("bcast %s layouts=%d episodes=%ld  %.2f s\n", r->what,
           r->layouts.count, episodes, tu_now() - start);
  tu_layout_cycle_free(&r->layouts);
  free(seen);
  free(r);
  svc->free_mem(arrivals);
  svc->free_mem(close_mem);
  svc->free_mem(mem);
}

int main(int argc, char **argv) {
  tu_options_t o = {.episodes = 400, .seed = 3, .pin = 2, .timeout_s = 30,
                    .text = "1,8,100,4096,65536,1048576,4194304"};
  tu_default_threads(&o);
  const int default_k[] = {1, 2, 3, 0};
  o.nlist = 4;
  memcpy(o.list, default_k, sizeof(default_k));
  o.ndomains = tu_parse_list(DEFAULT_DOMAINS, 1, o.domains, TU_MAX_LIST);
  tu_parse_options(argc, argv, &o,
                   "  -k K1,K2,...     fan-outs, 0 = n-1 (flat) "
                   "(default 1,2,3,0)\n"
                   "  -f S1,S2,...     payload sizes in bytes (default "
                   "1,8,100,4096,65536,1048576,4194304)\n"
                   "  -d D1,D2,...     domain counts of the layouts the "
                   "episodes cycle\n"
                   "                   through, 1 = flat (default "
                   DEFAULT_DOMAINS ")\n");
  int sizes[TU_MAX_LIST];
  int nsizes = tu_parse_list(o.text, 1, sizes, TU_MAX_LIST);
  if (nsizes <= 0)
    tu_fatal("bad size list '%s'", o.text);
  if (tu_services_install() != 0)
    return 1;
  size_t max_size = 1;
  for (int i = 0; i < nsizes; ++i)
    if ((size_t)sizes[i] > max_size)
      max_size = (size_t)sizes[i];
  unsigned char *base = malloc(max_size);
  if (!base)
    tu_fatal("out of memory");
  tu_rng_t brng;
  tu_rng_seed(&brng, o.seed, 7, 7);
  for (size_t i = 0; i < max_size; ++i)
    base[i] = (unsigned char)(tu_rng_next(&brng) >> 56);

  double start = tu_now();
  totals_t t = {0};
  /* Modes: cpy with every size, then cpy == NULL with the smallest. */
  for (int mode = 0; mode < 2; ++mode) {
    for (int si = 0; si < (mode ? 1 : nsizes); ++si) {
      for (int ni = 0; ni < o.nthreads; ++ni) {
        const int n = o.threads[ni];
        bdata_t *data = payloads_new(n, (size_t)sizes[si]);
        int ks[TU_MAX_LIST], nks = 0;
        for (int ki = 0; ki < o.nlist; ++ki) {
          int k = o.list[ki] == 0 ? n - 1 : o.list[ki];
          if (k < 1)
            k = 1;
          if (tu_first_time(ks, &nks, k))
            run_config(&o, data, base, n, k, !mode, &t);
        }
        payloads_free(data, n);
      }
    }
  }
  free(base);
  unsigned long bad = tu_failures();
  printf("validate_bcast_tree: %u configurations, %lu thread-episodes, "
         "%lu violations, %.1f s\n",
         t.configs, t.thread_episodes, bad, tu_now() - start);
  return bad ? 1 : 0;
}
