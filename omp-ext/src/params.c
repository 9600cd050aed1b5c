/*
 * Parameter choice per team size (see params.h).
 *
 * Defaults until the cost model lands: a classic dissemination barrier
 * (m = 1: one peer per round, which on a 2-thread team is exactly one line
 * transfer each way), reduction and fork/join trees of fan-in 4, and a
 * binary broadcast tree.  Every value can be fixed from the environment.
 */
#include "params.h"

#include <string.h>

static int levels_for(int nproc, const int *fanin, int given) {
  int levels = 0;
  long span = 1;
  while (span < nproc && levels < OMPEXT_MAX_LEVELS) {
    span *= fanin[levels < given ? levels : given - 1];
    ++levels;
  }
  return levels;
}

void ompext_params_choose(const ompext_config_t *cfg, int nproc,
                          ompext_team_params_t *out) {
  static const int default_fanin[1] = {4};
  memset(out, 0, sizeof(*out));
  out->nproc = nproc;
  out->source = "defaults";
  int overridden = 0;

  switch (cfg->barrier) {
  case OMPEXT_BARRIER_DISSEMINATION:
    out->barrier_k = cfg->barrier_m ? cfg->barrier_m : 1;
    overridden |= cfg->barrier_m != 0;
    break;
  case OMPEXT_BARRIER_TREE:
    out->barrier_k = cfg->barrier_k ? cfg->barrier_k : 4;
    overridden |= cfg->barrier_k != 0;
    break;
  case OMPEXT_BARRIER_TOURNAMENT: /* 0: release back down the tournament */
    out->barrier_k = cfg->barrier_k;
    overridden |= cfg->barrier_k != 0;
    break;
  default:
    out->barrier_k = 0;
    break;
  }

  /* Atomics cost one contended line per thread, the tree a gather and a
     release: the tree only pays off beyond a few threads (libomp's own
     cutoff, 4, until the model decides). */
  out->reduce_tree = cfg->reduce == OMPEXT_REDUCE_TREE ||
                     (cfg->reduce == OMPEXT_REDUCE_AUTO && nproc > 4);

  const int *fanin = cfg->reduce_levels ? cfg->reduce_fanin : default_fanin;
  int given = cfg->reduce_levels ? cfg->reduce_levels : 1;
  overridden |= cfg->reduce_levels != 0;
  out->reduce_levels = levels_for(nproc, fanin, given);
  for (int l = 0; l < out->reduce_levels; ++l)
    out->reduce_fanin[l] = fanin[l < given ? l : given - 1];

  if (cfg->bcast == OMPEXT_BCAST_FLAT)
    out->bcast_fanout = nproc > 1 ? nproc - 1 : 1;
  else
    out->bcast_fanout = cfg->bcast_fanout ? cfg->bcast_fanout : 2;
  overridden |= cfg->bcast_fanout != 0;

  out->forkjoin_fanout = cfg->forkjoin_fanout ? cfg->forkjoin_fanout : 4;
  overridden |= cfg->forkjoin_fanout != 0;

  if (overridden)
    out->source = "defaults+environment";
}

int ompext_params_describe(const ompext_config_t *cfg,
                           const ompext_team_params_t *p, char *buf,
                           size_t cap) {
  char fanin[OMPEXT_MAX_LEVELS * 4 + 1] = "";
  for (int l = 0; l < p->reduce_levels; ++l) {
    size_t used = strlen(fanin);
    snprintf(fanin + used, sizeof(fanin) - used, "%s%d", l ? "," : "",
             p->reduce_fanin[l]);
  }
  char barrier[48], reduce[96], bcast[48], forkjoin[48];
  if (cfg->barrier == OMPEXT_BARRIER_DISSEMINATION)
    snprintf(barrier, sizeof(barrier), "dissemination(m=%d)", p->barrier_k);
  else if (cfg->barrier == OMPEXT_BARRIER_TREE ||
           cfg->barrier == OMPEXT_BARRIER_TOURNAMENT)
    snprintf(barrier, sizeof(barrier), "%s(k=%d)",
             ompext_barrier_names[cfg->barrier], p->barrier_k);
  else
    snprintf(barrier, sizeof(barrier), "%s",
             ompext_barrier_names[cfg->barrier]);
  if (cfg->reduce == OMPEXT_REDUCE_STOCK)
    snprintf(reduce, sizeof(reduce), "stock");
  else if (p->reduce_tree)
    snprintf(reduce, sizeof(reduce), "tree(k=%s)",
             p->reduce_levels ? fanin : "-");
  else
    snprintf(reduce, sizeof(reduce), "atomic");
  if (cfg->bcast == OMPEXT_BCAST_STOCK)
    snprintf(bcast, sizeof(bcast), "stock");
  else
    snprintf(bcast, sizeof(bcast), "%s(k=%d)", ompext_bcast_names[cfg->bcast],
             p->bcast_fanout);
  if (cfg->forkjoin == OMPEXT_FORKJOIN_TREE)
    snprintf(forkjoin, sizeof(forkjoin), "tree(k=%d)", p->forkjoin_fanout);
  else
    snprintf(forkjoin, sizeof(forkjoin), "stock");
  return snprintf(buf, cap,
                  "omp-ext: team of %d: barrier=%s reduce=%s bcast=%s "
                  "forkjoin=%s params=%s",
                  p->nproc, barrier, reduce, bcast, forkjoin, p->source);
}
