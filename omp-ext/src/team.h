/*
 * A team's plugin context: the state of each collective, laid out from the
 * team's plan (plan.h) in one allocation.  Created and replaced by the
 * primary thread at a fork, while every worker is parked.
 *
 * The first line holds what the collectives read, and nothing written while
 * workers run, except after a barrier that found tasks (see
 * ompext_team_stock_after_tasks): a plain barrier reads only that line of
 * the context (its first nine fields, within even a 64-byte line), and with
 * 128-byte lines so do forks and joins.  The plan and the topology bookkeeping
 * follow on lines of their own.
 */
#ifndef OMPEXT_TEAM_H
#define OMPEXT_TEAM_H

#include "barrier_hier.h"
#include "bcast.h"
#include "bcast_sized.h"
#include "forkjoin_tree.h"
#include "pad.h"
#include "plan.h"
#include "reduce_choice.h"
#include "reduce_tree.h"
#include "services.h"
#include "topology.h"

#include <stdatomic.h>
#include <stddef.h>

typedef struct ompext_team {
  /* ---- the hot line ---- */
  alignas(OMPEXT_CACHE_LINE) int nproc;
  unsigned spin_polls; /* ompext_plan_spin_polls, as of the last fork */
  ompext_barrier_alg_t barrier_alg;
  int forkjoin_from_table;     /* 0: the fork/join tree is computed at each
                                  call (bindings still being recorded, or the
                                  table did not compile) */
  /* Nonzero: barrier_alg is OMPEXT_BARRIER_STOCK because the team found
     tasks, and each thread counts its barriers handed back
     (ompext_team_stock_after_tasks); plan.barrier.alg is the team's own.
     Atomic: every thread reads it at its fork and join (plugin.c,
     plugin_tree) while the primary may clear it at its join. */
  atomic_int stock_after_tasks;
  void *barrier;               /* see barrier.h */
  ompext_barrier_hier_t *hier; /* once laid out over several domains, the
                                  barrier with one leader per domain */
  ompext_bcast_t *bcast_watch; /* the broadcast, when its close must see
                                  each plain barrier (bcast.h); else NULL */
  ompext_reduce_clock_t *clocks; /* [nproc], ticked at each plain barrier,
                                    fork and join (reduce_choice.h) */
  ompext_reduce_choice_t *reduce_choice;
  ompext_reduce_tree_t *reduce;
  ompext_bcast_t *bcast;
  const ompext_topo_layout_t *domains; /* the team's layout over several
                                          domains; NULL: flat */
  /* The layout the reduction and the broadcasts follow (the plan's
     on_domains); NULL: flat. */
  const ompext_topo_layout_t *reduce_layout, *bcast_layout;
  ompext_forkjoin_table_t forkjoin;    /* compiled whenever the tree changes */

  /* ---- cold: written by the primary at forks, read to build ---- */
  alignas(OMPEXT_CACHE_LINE) void *allocation; /* what services->alloc
                                                  returned (this, unaligned) */
  ompext_plan_t plan;
  /* Topology: each thread records its PU at each fork and join until the
     layout is built (pu_of_tid[tid], -2 = not yet); the primary builds the
     layout at a later fork, while every worker is parked, and only then does
     the fork/join tree change to one leader per domain. */
  const ompext_topology_t *topology; /* NULL: the team stays flat */
  int *pu_of_tid;
  int topology_built;
  int forks_waiting; /* forks since creation without every PU known */
  ompext_topo_layout_t layout;
  void *hier_allocation;     /* the domain barrier's own allocation */
  unsigned forkjoin_version; /* counts compile_forkjoin_tree calls */
  ompext_bcast_sized_t *sized; /* ompext_bcast's state (bcast_sized.h) */
} ompext_team_t;

_Static_assert(offsetof(ompext_team_t, clocks) + sizeof(void *) <=
                   OMPEXT_COHERENCE_LINE_BYTES,
               "a plain barrier reads one line of the context");

/* The fork/join tree of tid (see ompext_ops_t.tree): the compiled table
   where it answers, else computed.  self: the caller is tid, whose binding
   is then recorded while the layout waits for it. */
int ompext_team_forkjoin_tree_computed(ompext_team_t *team, int tid, int self,
                                       int *parent, int *children, int cap);
static inline int ompext_team_forkjoin_tree(ompext_team_t *team, int tid,
                                            int self, int *parent,
                                            int *children, int cap) {
  if (team->forkjoin_from_table) {
    const int n = ompext_forkjoin_table_get(&team->forkjoin, tid, parent,
                                            children, cap);
    if (n >= 0)
      return n;
  }
  return ompext_team_forkjoin_tree_computed(team, tid, self, parent, children,
                                            cap);
}

/* The wait policy may have moved since the last fork.  Store only on
   change: every worker reads this line in the fork and join, and a store at
   each fork would cost each of them a cache miss there. */
static inline void ompext_team_refresh_polls(ompext_team_t *team) {
  const unsigned polls = ompext_plan_spin_polls(&team->plan);
  if (team->spin_polls != polls)
    team->spin_polls = polls;
}

/* After tasks.  A plain barrier of the team's found tasks (plugin.c): every
   thread of the team calls this after it, before the runtime's release lets
   any worker on, and hands its next `count` plain barriers of the team back
   to the runtime; the primary switches the team's barriers to the runtime's
   (so the plugin's barrier path reads no count while it has none), which
   every worker reads before its next barrier. */
static inline void ompext_team_stock_after_tasks(ompext_team_t *team, int tid,
                                                 unsigned count) {
  team->clocks[tid].stock_barriers_after_tasks = count;
  if (tid == 0) {
    team->barrier_alg = OMPEXT_BARRIER_STOCK;
    /* Relaxed: workers read it at barriers after the runtime's release,
       which orders this store before them, or at forks and joins, where
       either value is right (only the primary acts on it there). */
    atomic_store_explicit(&team->stock_after_tasks, 1, memory_order_relaxed);
  }
}

/* Whether this barrier is one of them: counts it down.  Every thread of the
   team gets the same answer, as each counts the same barriers since the
   same one; once the count is out, each runs the plan's barrier. */
static inline int ompext_team_stock_barrier_after_tasks(ompext_team_t *team,
                                                        int tid) {
  unsigned *left = &team->clocks[tid].stock_barriers_after_tasks;
  if (!*left)
    return 0;
  --*left;
  return 1;
}

/* The primary at a fork or a join, where no worker decides a plain barrier
   of the team: once the count is out (the primary's is everyone's), the
   team's barriers are the plan's again. */
static inline void ompext_team_after_tasks_settle(ompext_team_t *team) {
  if (team->clocks[0].stock_barriers_after_tasks)
    return;
  team->barrier_alg = team->plan.barrier.alg;
  /* Relaxed: as in ompext_team_stock_after_tasks; the next fork's release
     orders it before the workers' next barriers. */
  atomic_store_explicit(&team->stock_after_tasks, 0, memory_order_relaxed);
}

/* ompext_team_prepare's other cases: a new context, or the layout still
   to be built. */
ompext_team_t *ompext_team_rebuild(const ompext_planner_t *planner,
                                   const ompext_topology_t *topology,
                                   ompext_team_t *old, int nproc,
                                   int oversubscribed);

/* Whether ompext_team_prepare returns this context as it is for as long as
   the team keeps its size, its side of the processor count and its wait
   policy: once the layout is built (or the team is flat), nothing else in
   it changes at a fork. */
static inline int ompext_team_settled(const ompext_team_t *team) {
  return !team->topology || team->topology_built;
}

/* Returns old when it still fits nproc, else a new context (old freed).
   topology NULL: the team stays flat.  Inline, and a context that still
   fits first: the primary calls this before releasing any worker, at each
   fork until the context is settled and then whenever the wait policy or
   the oversubscription moves (see "A hot team's fork" in
   docs/ARCHITECTURE.md). */
static inline ompext_team_t *ompext_team_prepare(
    const ompext_planner_t *planner, const ompext_topology_t *topology,
    ompext_team_t *old, int nproc) {
  /* The plan depends on whether the team outnumbers the processors
     (plan.h): when that changes, the team gets a new context. */
  const int oversubscribed = ompext_svc->oversubscribed() != 0;
  if (old && old->nproc == nproc &&
      old->plan.oversubscribed == oversubscribed && ompext_team_settled(old)) {
    ompext_team_refresh_polls(old);
    return old;
  }
  return ompext_team_rebuild(planner, topology, old, nproc, oversubscribed);
}
void ompext_team_free(ompext_team_t *team);

#endif
