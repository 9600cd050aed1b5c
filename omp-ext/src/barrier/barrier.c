/* Plain barrier dispatch (see barrier.h). */
#include "barrier.h"

#include "barrier_centralized.h"
#include "barrier_dissemination.h"
#include "barrier_tournament.h"
#include "barrier_tree.h"

size_t ompext_barrier_size(const ompext_barrier_plan_t *plan, int nproc) {
  switch (plan->alg) {
  case OMPEXT_BARRIER_TREE:
    return ompext_barrier_tree_size(nproc);
  case OMPEXT_BARRIER_TOURNAMENT:
    return ompext_barrier_tournament_size(nproc);
  case OMPEXT_BARRIER_CENTRALIZED:
    return ompext_barrier_centralized_size(nproc);
  default:
    return ompext_barrier_dissemination_size(nproc, plan->dissem_m);
  }
}

void *ompext_barrier_init(const ompext_barrier_plan_t *plan, void *mem,
                          int nproc) {
  switch (plan->alg) {
  case OMPEXT_BARRIER_TREE:
    return ompext_barrier_tree_init(mem, nproc, plan->tree_k);
  case OMPEXT_BARRIER_TOURNAMENT:
    return ompext_barrier_tournament_init(mem, nproc, plan->release_k);
  case OMPEXT_BARRIER_CENTRALIZED:
    return ompext_barrier_centralized_init(mem, nproc);
  default:
    return ompext_barrier_dissemination_init(mem, nproc, plan->dissem_m);
  }
}

void ompext_barrier_wait(ompext_barrier_alg_t alg, void *barrier, int gtid,
                         int tid, unsigned spin_polls) {
  switch (alg) {
  case OMPEXT_BARRIER_TREE:
    ompext_barrier_tree_wait(barrier, gtid, tid, spin_polls);
    break;
  case OMPEXT_BARRIER_TOURNAMENT:
    ompext_barrier_tournament_wait(barrier, gtid, tid, spin_polls);
    break;
  case OMPEXT_BARRIER_CENTRALIZED:
    ompext_barrier_centralized_wait(barrier, gtid, tid, spin_polls);
    break;
  default:
    ompext_barrier_dissemination_wait(barrier, gtid, tid, spin_polls);
    break;
  }
}
