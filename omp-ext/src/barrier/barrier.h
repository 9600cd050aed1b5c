/*
 * The plain barrier a team uses: one of the algorithms below, as the plan
 * chose it (plan.c), laid out once per team.  Dispatch is a switch, so the
 * barrier call stays a direct call.
 */
#ifndef OMPEXT_BARRIER_H
#define OMPEXT_BARRIER_H

#include "config.h"

#include <stddef.h>

/* One barrier: its algorithm and that algorithm's parameter, under the
   names used from the environment to the algorithm file.  Values lie
   within bounds.h (the plan clamps). */
typedef struct ompext_barrier_plan {
  ompext_barrier_alg_t alg; /* DISSEMINATION, TREE, TOURNAMENT, CENTRALIZED */
  int dissem_m;             /* dissemination: peers per round */
  int tree_k;               /* tree: fan-in */
  int release_k;            /* tournament: release fan-out, 0: back down
                               the tournament */
} ompext_barrier_plan_t;

size_t ompext_barrier_size(const ompext_barrier_plan_t *plan, int nproc);
void *ompext_barrier_init(const ompext_barrier_plan_t *plan, void *mem,
                          int nproc);
void ompext_barrier_wait(ompext_barrier_alg_t alg, void *barrier, int gtid,
                         int tid, unsigned spin_polls);

#endif
