/*
 * ompext_bcast in the plugin: agreement, then one of the algorithms.
 *
 * Agreement first, so that a bad call is an error on every thread and never
 * a hang or a copy past a buffer: the threads run a dissemination exchange
 * (round r: thread t mails its running summary to t + 2^r mod n and combines
 * the one it gets from t - 2^r) of the minimum and maximum of bytes and of
 * root, whether a buffer is NULL, and the buffer of whichever thread is its
 * own root.  After ceil(log2 n) rounds every thread holds the same summary,
 * so all take the same decision; and each thread's request, written before
 * its first mail, is ordered before everything that follows on every
 * thread.  For small messages that exchange is the whole synchronisation:
 * the flat broadcast then copies straight from the root's buffer.
 *
 * Then the choice (bcast_sized_choice.c; cached per thread for the last
 * size) runs: flat, tree (bcast_tree.c, the copyprivate tree, with a copy
 * function of the request's bytes) or pipelined (bcast_sized_pipelined.c).
 * The caller's barrier closes the broadcast (see bcast_sized.h), so no
 * mailbox is refilled before it was read.
 */
#include "bcast_sized_impl.h"

#include "wait.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ompext_bcast_sized_alg_t forced_alg;

void ompext_bcast_sized_configure(FILE *warn) {
  const char *text = getenv("OMPEXT_BCAST_SIZED");
  forced_alg = OMPEXT_BCAST_SIZED_AUTO;
  if (text && *text &&
      ompext_bcast_sized_alg_lookup(text, &forced_alg) != 0 && warn)
    fprintf(warn,
            "omp-ext: warning: OMPEXT_BCAST_SIZED='%s' is not one of auto, "
            "flat, tree, pipelined, staged; using auto\n",
            text);
}

ompext_bcast_sized_alg_t ompext_bcast_sized_forced(void) { return forced_alg; }

static int rounds_for(int n) {
  int r = 0;
  while (r < OMPEXT_BCAST_SIZED_MAX_ROUNDS && (1L << r) < n)
    ++r;
  return r;
}

static int tree_kmax(int n) {
  return n - 1 < OMPEXT_BCAST_SIZED_TREE_KMAX ? n - 1
                                              : OMPEXT_BCAST_SIZED_TREE_KMAX;
}

size_t ompext_bcast_sized_size(int nproc) {
  size_t bytes = ompext_pad_bytes(sizeof(ompext_bcast_sized_t)) +
                 (size_t)nproc * (size_t)rounds_for(nproc) *
                     sizeof(sized_round_t) +
                 (size_t)nproc * (sizeof(sized_chunks_t) + sizeof(sized_own_t) +
                                  sizeof(sized_stage_in_t)) +
                 sizeof(sized_stage_t);
  for (int k = 1; k <= tree_kmax(nproc); ++k)
    bytes += ompext_pad_bytes(ompext_bcast_tree_size(nproc));
  return bytes;
}

ompext_bcast_sized_t *ompext_bcast_sized_init(
    void *mem, int nproc, const ompext_model_params_t *params,
    ompext_bcast_sized_alg_t forced, int verbose) {
  static ompext_model_params_t defaults;
  static int have_defaults;
  if (!params) {
    /* Written once, before any team exists (init, or a test's set-up). */
    if (!have_defaults)
      have_defaults = ompext_model_params_builtin("default", &defaults) == 0;
    params = &defaults;
  }
  ompext_bcast_sized_t *s = mem;
  char *p = (char *)mem + ompext_pad_bytes(sizeof(*s));
  s->nproc = nproc;
  s->rounds = rounds_for(nproc);
  s->forced = forced;
  s->verbose = verbose;
  s->params = params;
  s->round = (sized_round_t *)p;
  p += (size_t)nproc * (size_t)s->rounds * sizeof(sized_round_t);
  s->chunks = (sized_chunks_t *)p;
  p += (size_t)nproc * sizeof(sized_chunks_t);
  s->own = (sized_own_t *)p;
  p += (size_t)nproc * sizeof(sized_own_t);
  s->stage_in = (sized_stage_in_t *)p;
  p += (size_t)nproc * sizeof(sized_stage_in_t);
  s->stage = (sized_stage_t *)p;
  p += sizeof(sized_stage_t);
  for (int k = 1; k <= tree_kmax(nproc); ++k) {
    s->trees[k] = ompext_bcast_tree_init(p, nproc, k, k);
    p += ompext_pad_bytes(ompext_bcast_tree_size(nproc));
  }
  return s;
}

static void combine(sized_summary_t *into, const sized_summary_t *from) {
  if (from->min_bytes < into->min_bytes)
    into->min_bytes = from->min_bytes;
  if (from->max_bytes > into->max_bytes)
    into->max_bytes = from->max_bytes;
  if (from->min_root < into->min_root)
    into->min_root = from->min_root;
  if (from->max_root > into->max_root)
    into->max_root = from->max_root;
  into->null_buf |= from->null_buf;
  if (!into->root_buf)
    into->root_buf = from->root_buf;
}

/* The dissemination exchange (see the top). */
static void agree(ompext_bcast_sized_t *s, int gtid, int tid,
                  const ompext_bcast_request_t *req, unsigned spin_polls,
                  sized_summary_t *sum) {
  const int n = s->nproc;
  *sum = (sized_summary_t){req->bytes, req->bytes, req->root, req->root,
                           req->buf == NULL && req->bytes > 0,
                           req->root == tid ? req->buf : NULL};
  const uint64_t episode = ++s->own[tid].episodes;
  for (int r = 0; r < s->rounds; ++r) {
    const int to = (int)((tid + (1L << r)) % n);
    sized_round_t *out = &s->round[(size_t)to * (size_t)s->rounds + (size_t)r];
    out->mail = *sum; /* ordered before the signal by its release */
    ompext_signal(gtid, to, &out->go);
    sized_round_t *in = &s->round[(size_t)tid * (size_t)s->rounds + (size_t)r];
    ompext_wait(gtid, &in->go, ompext_expect(episode, 1), spin_polls);
    combine(sum, &in->mail);
  }
}

/* The team's verdict on the summary; tid 0 says why, once. */
static int judge(const ompext_bcast_sized_t *s, int tid,
                 const sized_summary_t *sum) {
  char why[160];
  if (sum->min_bytes != sum->max_bytes)
    snprintf(why, sizeof(why), "threads disagree on bytes (%zu to %zu)",
             sum->min_bytes, sum->max_bytes);
  else if (sum->min_root != sum->max_root)
    snprintf(why, sizeof(why), "threads disagree on the root (%d to %d)",
             sum->min_root, sum->max_root);
  else if (sum->min_root < 0 || sum->min_root >= s->nproc)
    snprintf(why, sizeof(why), "root %d outside the team of %d threads",
             sum->min_root, s->nproc);
  else if (sum->null_buf)
    snprintf(why, sizeof(why), "a NULL buffer with %zu bytes",
             sum->min_bytes);
  else
    return 0;
  if (tid == 0)
    fprintf(stderr, "omp-ext: ompext_bcast: %s; nothing copied\n", why);
  return OMPEXT_BCAST_EINVAL;
}

/* Once per size, for the team's first OMPEXT_BCAST_SIZED_PRINTED sizes. */
static void print_choice(ompext_bcast_sized_t *s, size_t bytes,
                         const ompext_bcast_sized_choice_t *c) {
  for (int i = 0; i < s->nprinted; ++i)
    if (s->printed[i] == bytes)
      return;
  if (s->nprinted == OMPEXT_BCAST_SIZED_PRINTED)
    return;
  s->printed[s->nprinted++] = bytes;
  char text[96];
  ompext_bcast_sized_describe(c, text, sizeof(text));
  fprintf(stderr, "omp-ext: team of %d: ompext_bcast of %zu bytes: %s%s\n",
          s->nproc, bytes, text,
          s->nprinted == OMPEXT_BCAST_SIZED_PRINTED
              ? " (further sizes not shown)"
              : "");
}

static const ompext_bcast_sized_choice_t *
choice_for(ompext_bcast_sized_t *s, int tid, size_t bytes) {
  sized_own_t *own = &s->own[tid];
  if (!own->cached || own->cached_bytes != bytes) {
    ompext_bcast_sized_choose(s->params, s->nproc, bytes, s->forced,
                              &own->choice);
    own->cached_bytes = bytes;
    own->cached = 1;
    if (s->verbose && tid == 0)
      print_choice(s, bytes, &own->choice);
  }
  return &own->choice;
}

int ompext_bcast_sized_run(ompext_bcast_sized_t *s, int gtid, int tid,
                           ompext_bcast_request_t *req,
                           const ompext_topo_layout_t *layout,
                           unsigned spin_polls,
                           const ompext_bcast_sized_choice_t *choice) {
  sized_summary_t sum;
  agree(s, gtid, tid, req, spin_polls, &sum);
  req->status = judge(s, tid, &sum);
  if (req->status || req->bytes == 0 || s->nproc == 1)
    return req->status; /* nothing to copy */
  /* A thread that shares the root's buffer copies nothing, whoever its
     parent is: its bytes are the root's already. */
  req->root_buf = sum.root_buf;
  if (!choice)
    choice = choice_for(s, tid, req->bytes);
  switch (choice->alg) {
  case OMPEXT_BCAST_SIZED_TREE:
    ompext_bcast_sized_tree(s, gtid, tid, req, choice->k, layout, spin_polls);
    break;
  case OMPEXT_BCAST_SIZED_PIPELINED:
    ompext_bcast_sized_pipelined(s, gtid, tid, req, choice->k, choice->chunk,
                                 layout, spin_polls);
    break;
  case OMPEXT_BCAST_SIZED_STAGED:
    ompext_bcast_sized_staged(s, gtid, tid, req, spin_polls);
    break;
  default:
    ompext_bcast_sized_flat(s, tid, req, sum.root_buf);
    break;
  }
  return 0;
}

OMPEXT_PUBLIC_BCAST void ompext_bcast_sized_copy(void *dst, void *src) {
  ompext_bcast_request_t *d = dst;
  const ompext_bcast_request_t *r = src;
  /* The runtime's own copyprivate: only the receiver's view of the root's
     request, so only its own call can be refused. */
  if (r->magic != OMPEXT_BCAST_REQUEST_MAGIC || r->bytes != d->bytes ||
      r->root != d->root || (d->bytes && (!d->buf || !r->buf))) {
    fprintf(stderr, "omp-ext: ompext_bcast: this thread's bytes or root "
                    "disagree with the root's; nothing copied\n");
    d->status = OMPEXT_BCAST_EINVAL;
    return;
  }
  if (d->bytes && d->buf != r->buf)
    memcpy(d->buf, r->buf, d->bytes);
}
