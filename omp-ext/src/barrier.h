/*
 * The plain barrier a team uses: one of the algorithms below, chosen by
 * OMPEXT_BARRIER and laid out once per team size.  Dispatch is a switch, so
 * the barrier call stays a direct call.
 */
#ifndef OMPEXT_BARRIER_H
#define OMPEXT_BARRIER_H

#include "config.h"

#include <stddef.h>

/* k: dissemination m, tree fan-in, tournament release fan-out (0: back down
   the tournament); ignored by the centralized barrier. */
size_t ompext_barrier_size(ompext_barrier_alg_t alg, int nproc, int k);
void *ompext_barrier_init(ompext_barrier_alg_t alg, void *mem, int nproc,
                          int k);
void ompext_barrier_wait(ompext_barrier_alg_t alg, void *barrier, int gtid,
                         int tid, unsigned spin_polls);

#endif
