/*
 * A team's plugin context: the parameters chosen for its size and the state
 * of each algorithm, in one allocation.  Created and replaced by the primary
 * thread at a fork, while every worker is parked.
 */
#ifndef OMPEXT_TEAM_H
#define OMPEXT_TEAM_H

#include "barrier_hier.h"
#include "bcast_tree.h"
#include "config.h"
#include "forkjoin_tree.h"
#include "params.h"
#include "reduce_tree.h"
#include "topology.h"

typedef struct ompext_team {
  void *allocation; /* what services->alloc returned (this, unaligned) */
  int nproc;
  unsigned spin_polls; /* 0 when oversubscribed or passive */
  ompext_barrier_alg_t barrier_alg;
  ompext_team_params_t params;
  void *barrier; /* see barrier.h */
  ompext_reduce_tree_t *reduce;
  ompext_bcast_tree_t *bcast;
  ompext_bcast_close_t *bcast_close;
  /* Topology: each thread records its PU at each fork and join until the
     layout is built (pu_of_tid[tid], -2 = not yet); the primary builds the
     layout at a later fork, while every worker is parked, and only then does
     the fork/join tree change to one leader per domain. */
  const ompext_topology_t *topology; /* NULL: the team stays flat */
  int *pu_of_tid;
  int topology_built;
  int forks_waiting; /* forks since creation without every PU known */
  ompext_topo_layout_t layout;
  /* Once the layout has several domains: the barrier with one leader per
     domain (when the team's barrier is the dissemination barrier; NULL
     otherwise), in an allocation of its own made with the layout. */
  ompext_hier_t *hier;
  void *hier_allocation;
  /* The fork/join tree, compiled whenever it changes (creation, layout);
     forkjoin_from_table 0: computed at each call instead (while bindings
     are still being recorded, or if it did not compile). */
  ompext_forkjoin_table_t forkjoin;
  int forkjoin_from_table;
} ompext_team_t;

/* The layout the reduction and broadcast follow: NULL while the team is
   flat (no topology, not built yet, one domain, OMPEXT_HIERARCHY=off). */
static inline const ompext_topo_layout_t *
ompext_team_layout(const ompext_team_t *team) {
  return team->topology_built && team->layout.ndomains > 1 ? &team->layout
                                                          : NULL;
}

/* The fork/join tree of tid (see ompext_ops_t.tree): the compiled table
   where it answers, else computed (recording tid's binding while the layout
   waits for it). */
int ompext_team_forkjoin_tree_computed(ompext_team_t *team, int tid,
                                       int *parent, int *children, int cap);
static inline int ompext_team_forkjoin_tree(ompext_team_t *team, int tid,
                                            int *parent, int *children,
                                            int cap) {
  if (team->forkjoin_from_table) {
    const int n = ompext_forkjoin_table_get(&team->forkjoin, tid, parent,
                                            children, cap);
    if (n >= 0)
      return n;
  }
  return ompext_team_forkjoin_tree_computed(team, tid, parent, children, cap);
}

/* Returns old when it still fits nproc, else a new context (old freed).
   topology NULL: the team stays flat. */
ompext_team_t *ompext_team_prepare(const ompext_config_t *cfg,
                                   const ompext_machine_t *machine,
                                   const ompext_topology_t *topology,
                                   ompext_team_t *old, int nproc);
void ompext_team_free(ompext_team_t *team);

#endif
