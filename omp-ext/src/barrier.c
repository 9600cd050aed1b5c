/* Plain barrier dispatch (see barrier.h). */
#include "barrier.h"

#include "barrier_centralized.h"
#include "barrier_dissemination.h"
#include "barrier_tournament.h"
#include "barrier_tree.h"

size_t ompext_barrier_size(ompext_barrier_alg_t alg, int nproc, int k) {
  switch (alg) {
  case OMPEXT_BARRIER_TREE:
    return ompext_tree_size(nproc, k);
  case OMPEXT_BARRIER_TOURNAMENT:
    return ompext_tournament_size(nproc, k);
  case OMPEXT_BARRIER_CENTRALIZED:
    return ompext_centralized_size(nproc, k);
  default:
    return ompext_dissemination_size(nproc, k);
  }
}

void *ompext_barrier_init(ompext_barrier_alg_t alg, void *mem, int nproc,
                          int k) {
  switch (alg) {
  case OMPEXT_BARRIER_TREE:
    return ompext_tree_init(mem, nproc, k);
  case OMPEXT_BARRIER_TOURNAMENT:
    return ompext_tournament_init(mem, nproc, k);
  case OMPEXT_BARRIER_CENTRALIZED:
    return ompext_centralized_init(mem, nproc, k);
  default:
    return ompext_dissemination_init(mem, nproc, k);
  }
}

void ompext_barrier_wait(ompext_barrier_alg_t alg, void *barrier, int gtid,
                         int tid, unsigned spin_polls) {
  switch (alg) {
  case OMPEXT_BARRIER_TREE:
    ompext_tree_wait(barrier, gtid, tid, spin_polls);
    break;
  case OMPEXT_BARRIER_TOURNAMENT:
    ompext_tournament_wait(barrier, gtid, tid, spin_polls);
    break;
  case OMPEXT_BARRIER_CENTRALIZED:
    ompext_centralized_wait(barrier, gtid, tid, spin_polls);
    break;
  default:
    ompext_dissemination_wait(barrier, gtid, tid, spin_polls);
    break;
  }
}
