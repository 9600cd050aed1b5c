/*
 * Validator of ompext_bcast's algorithms in the plugin (bcast_sized.c and
 * its flat, tree and pipelined files) on plain threads, with the unit
 * tests' pthread services (tests/unit/test_services.h).
 *
 * For each team size, the threads run one long sequence of broadcasts whose
 * algorithm (flat; tree k=1,2,3; pipelined k=1,2 with 256-byte chunks;
 * staged, two 16 KiB stage buffers; the model's choice), size (0, 1, 63, 64, 65, chunk-1, chunk, chunk+1,
 * 3 chunks+1, 1 MiB; 16 MiB on teams of up to 4), root (first, last,
 * middle) and buffers (private; one shared; the root's shared with the even
 * tids, the odd ones private) change from call to call, every other call on
 * a made-up layout of two domains (the leaders relay).  The root fills its
 * buffer from one of four random patterns; the others poison theirs; after
 * its call each thread's buffer must equal the pattern (memcmp), and its
 * return 0.  The tests' own barrier closes each broadcast, as the runtime's
 * does.  Then the bad calls: root outside the team, a NULL buffer, bytes or
 * root disagreeing on one thread: every thread must get OMPEXT_BCAST_EINVAL
 * and keep its buffer; a good call follows each.  A lost signal ends the
 * run through the harness's timeout; payload accesses are plain, so under
 * ThreadSanitizer an unordered copy is a race.
 *
 *   -n sizes (default 1..33,64)   -z largest size in bytes (default 16 MiB)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "test_services.h"

#include "bcast_sized.h"
#include "pad.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 256
#define NPAT 4

typedef struct episode {
  ompext_bcast_sized_choice_t choice;
  int use_model; /* NULL choice: the model's */
  size_t bytes;
  int root;
  int mode;   /* 0 private, 1 shared, 2 root's shared with even tids */
  int layout; /* on the two-domain layout */
} episode_t;

typedef struct run {
  ompext_bcast_sized_t *s;
  int n;
  episode_t *ep;
  int nep;
  unsigned char **priv; /* [n] */
  unsigned char *shared;
  unsigned char *pat[NPAT];
  const ompext_topo_layout_t *layout;
  tu_barrier_t bar;
} run_t;

static size_t max_bytes = (size_t)16 << 20;

static unsigned char *buffer_of(const run_t *r, const episode_t *e, int tid) {
  if (e->mode == 1 || (e->mode == 2 && (tid == e->root || tid % 2 == 0)))
    return r->shared;
  return r->priv[tid];
}

static void bad_calls(run_t *r, int tid) {
  const int n = r->n;
  unsigned char *buf = r->priv[tid];
  for (int kind = 0; kind < 4; ++kind) {
    if (n == 1 && kind >= 2)
      break; /* one thread cannot disagree with itself */
    tu_barrier_wait(&r->bar);
    memset(buf, 0x5a + tid % 7, 128);
    ompext_bcast_request_t req = {.magic = OMPEXT_BCAST_REQUEST_MAGIC,
                                  .buf = buf, .bytes = 128, .root_buf = NULL};
    if (kind == 0)
      req.root = n;
    else if (kind == 1 && tid == n - 1)
      req.buf = NULL;
    else if (kind == 2 && tid == n - 1)
      req.bytes = 64;
    else if (kind == 3 && tid == n - 1)
      req.root = 1;
    const int rc = ompext_bcast_sized_run(r->s, tid, tid, &req, NULL,
                                          tu_spin_polls(n, (unsigned)kind),
                                          NULL);
    if (rc != OMPEXT_BCAST_EINVAL || req.status != rc)
      tu_fail("n=%d bad call %d: tid %d got %d", n, kind, tid, rc);
    for (int i = 0; i < 128; ++i)
      if (buf[i] != (unsigned char)(0x5a + tid % 7)) {
        tu_fail("n=%d bad call %d: tid %d's buffer changed", n, kind, tid);
        break;
      }
    tu_barrier_wait(&r->bar);
    /* A good call after it. */
    req = (ompext_bcast_request_t){.magic = OMPEXT_BCAST_REQUEST_MAGIC,
                                   .root = n - 1, .buf = buf, .bytes = 100,
                                   .root_buf = NULL};
    if (tid == n - 1)
      memset(buf, 0x77, 100);
    if (ompext_bcast_sized_run(r->s, tid, tid, &req, NULL, 0, NULL) != 0 ||
        buf[0] != 0x77 || buf[99] != 0x77)
      tu_fail("n=%d good call after bad call %d: tid %d", n, kind, tid);
  }
}

static void thread_main(int tid, void *arg) {
  run_t *r = arg;
  for (int i = 0; i < r->nep; ++i) {
    const episode_t *e = &r->ep[i];
    const unsigned char *pat = r->pat[i % NPAT];
    unsigned char *buf = buffer_of(r, e, tid);
    tu_barrier_wait(&r->bar); /* closes the previous broadcast */
    if (tid == e->root)
      memcpy(buf, pat, e->bytes);
    else if (buf != buffer_of(r, e, e->root))
      memset(buf, 0xa5, e->bytes);
    ompext_bcast_request_t req = {.magic = OMPEXT_BCAST_REQUEST_MAGIC,
                                  .root = e->root, .buf = buf,
                                  .bytes = e->bytes, .status = -1,
                                  .root_buf = NULL};
    const int rc = ompext_bcast_sized_run(
        r->s, tid, tid, &req, e->layout ? r->layout : NULL,
        tu_spin_polls(r->n, (unsigned)i), e->use_model ? NULL : &e->choice);
    if (rc != 0 || req.status != 0)
      tu_fail("n=%d episode %d: tid %d returned %d", r->n, i, tid, rc);
    if (e->bytes && memcmp(buf, pat, e->bytes) != 0) {
      char what[64];
      ompext_bcast_sized_describe(&e->choice, what, sizeof(what));
      tu_fail("n=%d episode %d (%s, %zu bytes, root %d, mode %d%s): tid %d's "
              "buffer differs from the root's",
              r->n, i, e->use_model ? "model" : what, e->bytes, e->root,
              e->mode, e->layout ? ", 2 domains" : "", tid);
    }
  }
  bad_calls(r, tid);
}

static int make_episodes(int n, episode_t *out, int cap) {
  static const size_t small[] = {0,         1,     63,        64, 65,
                                 CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + 1};
  const ompext_bcast_sized_choice_t algs[] = {
      {OMPEXT_BCAST_SIZED_FLAT, n - 1, 0},
      {OMPEXT_BCAST_SIZED_TREE, 1, 0},
      {OMPEXT_BCAST_SIZED_TREE, 2, 0},
      {OMPEXT_BCAST_SIZED_TREE, 3, 0},
      {OMPEXT_BCAST_SIZED_PIPELINED, 1, CHUNK},
      {OMPEXT_BCAST_SIZED_PIPELINED, 2, CHUNK},
      {OMPEXT_BCAST_SIZED_STAGED, n - 1, OMPEXT_BCAST_SIZED_STAGE_BYTES},
      {OMPEXT_BCAST_SIZED_AUTO, 0, 0} /* the model's */
  };
  const int nalgs = (int)(sizeof(algs) / sizeof(algs[0]));
  const int roots[3] = {0, n - 1, n / 2};
  int count = 0;
  for (int a = 0; a < nalgs; ++a) {
    int variant = a;
    for (size_t si = 0; si < sizeof(small) / sizeof(small[0]) + 2; ++si) {
      size_t bytes;
      if (si < sizeof(small) / sizeof(small[0]))
        bytes = small[si];
      else if (si == sizeof(small) / sizeof(small[0]))
        bytes = (size_t)1 << 20;
      else if (n <= 4)
        bytes = (size_t)16 << 20;
      else
        continue;
      if (bytes > max_bytes)
        continue;
      /* Large messages: one root each; small ones: all three. */
      const int nroots = bytes >= ((size_t)1 << 20) ? 1 : 3;
      for (int ri = 0; ri < nroots && count < cap; ++ri, ++variant) {
        episode_t *e = &out[count++];
        e->choice = algs[a];
        e->use_model = algs[a].alg == OMPEXT_BCAST_SIZED_AUTO;
        e->bytes = bytes;
        e->root = roots[(ri + variant) % 3];
        e->mode = variant % 3;
        e->layout = n >= 2 && variant % 2;
      }
    }
  }
  return count;
}

int main(int argc, char **argv) {
  tu_options_t o = {.episodes = 1, .seed = 5, .pin = 2, .timeout_s = 60};
  for (int i = 0; i < 33; ++i)
    o.threads[i] = i + 1;
  o.threads[33] = 64;
  o.nthreads = 34;
  const char *z = NULL;
  for (int i = 1; i + 1 < argc; ++i)
    if (strcmp(argv[i], "-z") == 0) {
      z = argv[i + 1];
      for (int j = i; j + 2 <= argc; ++j)
        argv[j] = argv[j + 2];
      argc -= 2;
      break;
    }
  if (z)
    max_bytes = (size_t)strtoull(z, NULL, 10);
  tu_parse_options(argc, argv, &o,
                   "  -z BYTES         largest message (default 16777216)\n");
  if (tu_services_install() != 0)
    return 1;
  run_t r;
  tu_rng_t rng;
  tu_rng_seed(&rng, o.seed, 1, 1);
  const size_t most = max_bytes > 4096 ? max_bytes : 4096;
  for (int p = 0; p < NPAT; ++p) {
    r.pat[p] = malloc(most);
    if (!r.pat[p])
      tu_fatal("out of memory");
    for (size_t i = 0; i < most; i += 8) {
      const uint64_t v = tu_rng_next(&rng);
      memcpy(r.pat[p] + i, &v, most - i < 8 ? most - i : 8);
    }
  }
  enum { CAP = 512 };
  episode_t *ep = calloc(CAP, sizeof(*ep));
  const double start = tu_now();
  unsigned long broadcasts = 0;
  for (int ni = 0; ni < o.nthreads; ++ni) {
    const int n = o.threads[ni];
    const size_t bufsize = n <= 4 ? most : (most < ((size_t)1 << 20) ? most : ((size_t)1 << 20));
    const size_t state = ompext_bcast_sized_size(n);
    void *mem = aligned_alloc(OMPEXT_CACHE_LINE, ompext_pad_bytes(state));
    if (!mem)
      tu_fatal("out of memory");
    memset(mem, 0, ompext_pad_bytes(state));
    r.s = ompext_bcast_sized_init(mem, n, NULL, OMPEXT_BCAST_SIZED_AUTO, 0);
    r.n = n;
    r.ep = ep;
    r.nep = make_episodes(n, ep, CAP);
    r.priv = calloc((size_t)n, sizeof(*r.priv));
    for (int t = 0; t < n; ++t)
      if (!(r.priv[t] = malloc(bufsize)))
        tu_fatal("out of memory for %d x %zu bytes", n, bufsize);
    r.shared = malloc(bufsize);
    ompext_topo_layout_t *layout = n >= 2 ? tu_layout_new(n, 2, o.seed + n) : NULL;
    r.layout = layout;
    tu_barrier_init(&r.bar, n);
    tu_set_context("bcast_sized n=%d", n);
    for (long rep = 0; rep < o.episodes; ++rep)
      tu_run_threads(n, tu_pin_for(&o, (unsigned)ni), thread_main, &r);
    broadcasts += (unsigned long)r.nep * (unsigned long)o.episodes;
    for (int t = 0; t < n; ++t)
      free(r.priv[t]);
    free(r.priv);
    free(r.shared);
    free(layout);
    free(mem);
  }
  printf("validate_bcast_sized: %lu broadcasts on %d team sizes, %.1f s, %lu "
         "failures\n",
         broadcasts, o.nthreads, tu_now() - start, tu_failures());
  return tu_failures() ? 1 : 0;
}
