/*
 * A team's plugin context: the parameters chosen for its size and the state
 * of each algorithm, in one allocation.  Created and replaced by the primary
 * thread at a fork, while every worker is parked.
 */
#ifndef OMPEXT_TEAM_H
#define OMPEXT_TEAM_H

#include "bcast_tree.h"
#include "config.h"
#include "params.h"
#include "reduce_tree.h"

typedef struct ompext_team {
  void *allocation; /* what services->alloc returned (this, unaligned) */
  int nproc;
  unsigned spin_polls; /* 0 when oversubscribed or passive */
  ompext_barrier_alg_t barrier_alg;
  ompext_team_params_t params;
  void *barrier; /* see barrier.h */
  ompext_reduce_tree_t *reduce;
  ompext_bcast_tree_t *bcast;
} ompext_team_t;

/* Returns old when it still fits nproc, else a new context (old freed). */
ompext_team_t *ompext_team_prepare(const ompext_config_t *cfg,
                                   const ompext_machine_t *machine,
                                   ompext_team_t *old, int nproc);
void ompext_team_free(ompext_team_t *team);

#endif
