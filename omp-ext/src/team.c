/* Team contexts (see team.h). */
#include "team.h"

#include "barrier.h"
#include "pad.h"
#include "services.h"
#include "stats.h"

#include <stdatomic.h>
#include <stdio.h>

#define VERBOSE_SIZES 4096
static _Atomic unsigned long verbose_seen[VERBOSE_SIZES / (8 * sizeof(long))];

/* OMPEXT_VERBOSE: one line the first time a team size is seen. */
static void describe_once(const ompext_config_t *cfg, const ompext_team_t *t) {
  if (!cfg->verbose)
    return;
  if (t->nproc < VERBOSE_SIZES) {
    const size_t bits = 8 * sizeof(long);
    unsigned long bit = 1ul << (t->nproc % bits);
    /* relaxed: only decides who prints; no data is published through it */
    if (atomic_fetch_or_explicit(&verbose_seen[t->nproc / bits], bit,
                                 memory_order_relaxed) & bit)
      return;
  }
  char line[512];
  ompext_params_describe(cfg, &t->params, line, sizeof(line));
  fprintf(stderr, "%s spin=%u\n", line, t->spin_polls);
}

static unsigned spin_polls_now(const ompext_config_t *cfg) {
  if (ompext_svc->oversubscribed() || ompext_svc->passive_wait())
    return 0;
  return cfg->spin_polls;
}

ompext_team_t *ompext_team_prepare(const ompext_config_t *cfg,
                                   const ompext_machine_t *machine,
                                   ompext_team_t *old, int nproc) {
  if (old && old->nproc == nproc) {
    /* Thread counts may have moved.  Store only on change: every worker
       reads this line in the fork and join, and a store at each fork would
       cost each of them a cache miss there. */
    unsigned polls = spin_polls_now(cfg);
    if (old->spin_polls != polls)
      old->spin_polls = polls;
    return old;
  }
  ompext_team_free(old);

  ompext_team_params_t params;
  ompext_params_choose(cfg, machine, nproc, &params);
  const ompext_barrier_alg_t alg = cfg->barrier == OMPEXT_BARRIER_STOCK
                                       ? OMPEXT_BARRIER_DISSEMINATION
                                       : cfg->barrier;
  const size_t head = ompext_pad_bytes(sizeof(ompext_team_t));
  const size_t barrier_bytes =
      ompext_pad_bytes(ompext_barrier_size(alg, nproc, params.barrier_k));
  const size_t reduce_bytes = ompext_pad_bytes(ompext_reduce_tree_size(nproc));
  const size_t bcast_bytes = ompext_pad_bytes(ompext_bcast_tree_size(nproc));
  /* The services promise 64-byte alignment; the layout wants whole padded
     lines, so round the start up ourselves. */
  char *raw = ompext_svc->alloc(head + barrier_bytes + reduce_bytes +
                                bcast_bytes + OMPEXT_CACHE_LINE);
  if (!raw)
    return NULL; /* the runtime runs this team on stock paths */
  char *mem = (char *)ompext_pad_bytes((size_t)(uintptr_t)raw);

  ompext_team_t *t = (ompext_team_t *)mem;
  t->allocation = raw;
  t->nproc = nproc;
  t->barrier_alg = alg;
  t->params = params;
  t->spin_polls = spin_polls_now(cfg);
  char *p = mem + head;
  t->barrier = ompext_barrier_init(alg, p, nproc, params.barrier_k);
  p += barrier_bytes;
  t->reduce = ompext_reduce_tree_init(p, nproc, params.reduce_fanin,
                                      params.reduce_levels);
  p += reduce_bytes;
  t->bcast = ompext_bcast_tree_init(p, nproc, params.bcast_fanout);
  ompext_stat_add(OMPEXT_STAT_TEAM_PREPARED);
  describe_once(cfg, t);
  return t;
}

void ompext_team_free(ompext_team_t *team) {
  if (team)
    ompext_svc->free_mem(team->allocation);
}
