/*
 * Validator of the tree / flat broadcast for copyprivate (bcast_tree.c).
 *
 * For every team size n, fan-out k (1, 2, 3 and n-1, the flat broadcast)
 * and payload size S (1 B .. 4 MiB, fewer episodes for the big ones), n
 * threads run many broadcasts.  The root of each episode is drawn from a
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
 *   - after the call every byte of every non-root's payload is this
 *     episode's pattern;
 *   - every thread gets the root's data pointer back.
 * With cpy == NULL (only the pointer is broadcast): cpy never runs, each
 * thread gets the root's pointer and reads this episode's value through it.
 * After each broadcast all threads pass a barrier of the test's own (the
 * caller's guarantee); only after it are payloads rewritten.
 *
 * Each configuration runs in two batches on fresh pthreads, reusing the
 * broadcast object.  Payload accesses are plain, so under ThreadSanitizer a
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

typedef struct run {
  ompext_bcast_tree_t *tree;
  bdata_t *data;
  const unsigned char *base; /* [S] random, read only */
  tu_barrier_t barrier;
  int n, fanout, use_cpy;
  size_t size;
  tu_batch_t batch; /* episodes of the current batch */
  uint64_t seed, magic;
} run_t;

/* What the current thread expects in cpy (set before each broadcast). */
static _Thread_local bdata_t *tl_mine;
static _Thread_local uint64_t tl_episode;
static _Thread_local unsigned tl_cpy_calls;
static _Thread_local const run_t *tl_run;

static int root_of(uint64_t seed, long e, int n) {
  return (int)(tu_mix64(seed * 0x9e3779b97f4a7c15ull + (uint64_t)e) %
               (uint64_t)n);
}

static unsigned char key_of(long e) {
  /* Consecutive episodes never share a key, and no key is 0. */
  return (unsigned char)(1 + (e % 2) * 128 + (e * 37) % 127);
}

static void cpy_fn(void *dst_p, void *src_p) {
  bdata_t *dst = dst_p, *src = src_p;
  const run_t *r = tl_run;
  ++tl_cpy_calls;
  if (dst != tl_mine) {
    tu_fail("bcast n=%d k=%d S=%zu episode %llu: cpy into %p, not the "
            "caller's own data %p",
            r->n, r->fanout, r->size, (unsigned long long)tl_episode, dst_p,
            (void *)tl_mine);
    return;
  }
  if (src == dst || src->magic != r->magic || src->size != dst->size) {
    tu_fail("bcast n=%d k=%d S=%zu episode %llu: cpy from %p, not a payload "
            "of this team",
            r->n, r->fanout, r->size, (unsigned long long)tl_episode, src_p);
    return;
  }
  if (src->stamp != tl_episode)
    tu_fail("bcast n=%d k=%d S=%zu episode %llu: cpy from a source holding "
            "episode %llu's value",
            r->n, r->fanout, r->size, (unsigned long long)tl_episode,
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
    tl_episode = (uint64_t)e;
    tl_cpy_calls = 0;
    tu_random_delay(&rng, 20);
    void *got = ompext_bcast_tree_run(r->tree, tid, tid, is_root, mine,
                                      r->use_cpy ? cpy_fn : NULL, NULL,
                                      r->batch.spin);
    bdata_t *root_data = &r->data[root];
    if (got != root_data)
      tu_fail("bcast n=%d k=%d S=%zu cpy=%d episode %ld root %d: tid %d got "
              "%p, not the root's data %p",
              n, r->fanout, r->size, r->use_cpy, e, root, tid, got,
              (void *)root_data);
    unsigned want_calls = r->use_cpy && !is_root ? 1 : 0;
    if (tl_cpy_calls != want_calls)
      tu_fail("bcast n=%d k=%d S=%zu cpy=%d episode %ld root %d: tid %d ran "
              "cpy %u times, expected %u",
              n, r->fanout, r->size, r->use_cpy, e, root, tid, tl_cpy_calls,
              want_calls);
    if (!is_root) {
      /* With cpy: my copy.  Without: the root's value, through its pointer. */
      const bdata_t *view = r->use_cpy ? mine : root_data;
      size_t wrong = count_wrong(view->bytes, r->base, r->size, key);
      if (view->stamp != (uint64_t)e || wrong)
        tu_fail("bcast n=%d k=%d S=%zu cpy=%d episode %ld root %d: tid %d "
                "sees stamp %llu and %zu wrong bytes",
                n, r->fanout, r->size, r->use_cpy, e, root, tid,
                (unsigned long long)view->stamp, wrong);
    }
    if (tu_rng_next(&rng) % 4 == 0)
      tu_random_delay(&rng, 20);
    /* The caller's barrier after the broadcast. */
    tu_barrier_wait(&r->barrier);
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

int main(int argc, char **argv) {
  tu_options_t o = {.episodes = 300, .seed = 3, .pin = 2, .timeout_s = 30,
                    .text = "1,8,100,4096,65536,1048576,4194304"};
  tu_default_threads(&o);
  const int default_k[] = {1, 2, 3, 0};
  o.nlist = 4;
  memcpy(o.list, default_k, sizeof(default_k));
  tu_parse_options(argc, argv, &o,
                   "  -k K1,K2,...     fan-outs, 0 = n-1 (flat) "
                   "(default 1,2,3,0)\n"
                   "  -f S1,S2,...     payload sizes in bytes (default "
                   "1,8,100,4096,65536,1048576,4194304)\n");
  int sizes[TU_MAX_LIST];
  int nsizes = tu_parse_list(o.text, 1, sizes, TU_MAX_LIST);
  if (nsizes <= 0)
    tu_fatal("bad size list '%s'", o.text);
  if (tu_services_install() != 0)
    return 1;
  const ompext_services_t *svc = tu_services();
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
  unsigned long thread_episodes = 0;
  unsigned configs = 0;
  /* Modes: cpy with every size, then cpy == NULL with the smallest. */
  for (int mode = 0; mode < 2; ++mode) {
    for (int si = 0; si < (mode ? 1 : nsizes); ++si) {
      const size_t size = (size_t)sizes[si];
      for (int ni = 0; ni < o.nthreads; ++ni) {
        const int n = o.threads[ni];
        int done[TU_MAX_LIST], ndone = 0;
        for (int ki = 0; ki < o.nlist; ++ki) {
          int k = o.list[ki] == 0 ? n - 1 : o.list[ki];
          if (k < 1)
            k = 1;
          int seen = 0;
          for (int j = 0; j < ndone; ++j)
            seen |= done[j] == k;
          if (seen)
            continue;
          done[ndone++] = k;

          void *mem = svc->alloc(ompext_bcast_tree_size(n));
          bdata_t *data = svc->alloc((size_t)n * sizeof(bdata_t));
          run_t *r = calloc(1, sizeof(run_t));
          if (!mem || !data || !r)
            tu_fatal("out of memory");
          r->magic = tu_mix64(o.seed * 31 + configs + 1);
          for (int t = 0; t < n; ++t) {
            data[t].size = size;
            data[t].magic = r->magic;
            data[t].bytes = svc->alloc(size);
            if (!data[t].bytes)
              tu_fatal("out of memory for %d x %zu bytes", n, size);
          }
          r->tree = ompext_bcast_tree_init(mem, n, k);
          r->data = data;
          r->base = base;
          r->n = n;
          r->fanout = k;
          r->use_cpy = !mode;
          r->size = size;
          r->seed = o.seed;
          tu_barrier_init(&r->barrier, n);
          tu_set_context("bcast n=%d k=%d S=%zu cpy=%s (roots from seed "
                         "%llu)",
                         n, k, size, r->use_cpy ? "memcpy" : "NULL",
                         (unsigned long long)o.seed);
          const long episodes = episodes_for(o.episodes, size);
          tu_run_two_batches(n, episodes, &o, configs, worker, r, &r->batch);
          thread_episodes += (unsigned long)n * (unsigned long)episodes;
          ++configs;
          if (o.verbose)
            printf("bcast n=%d k=%d S=%zu cpy=%d episodes=%ld  (%.1f s)\n", n,
                   k, size, r->use_cpy, episodes, tu_now() - start);
          for (int t = 0; t < n; ++t)
            svc->free_mem(data[t].bytes);
          free(r);
          svc->free_mem(data);
          svc->free_mem(mem);
        }
      }
    }
  }
  free(base);
  unsigned long bad = tu_failures();
  printf("validate_bcast_tree: %u configurations, %lu thread-episodes, "
         "%lu violations, %.1f s\n",
         configs, thread_episodes, bad, tu_now() - start);
  return bad ? 1 : 0;
}
