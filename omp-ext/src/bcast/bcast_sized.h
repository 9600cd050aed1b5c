/*
 * ompext_bcast's broadcast in the plugin (bcast_sized.c): a team's state,
 * and the call every thread of the team makes once per broadcast.
 */
#ifndef OMPEXT_BCAST_SIZED_H
#define OMPEXT_BCAST_SIZED_H

#include "bcast_sized_abi.h"
#include "bcast_sized_choice.h"
#include "model.h"
#include "ompext/abi.h"
#include "topology.h"

#include <stddef.h>
#include <stdio.h>

typedef struct ompext_bcast_sized ompext_bcast_sized_t;

size_t ompext_bcast_sized_size(int nproc);
/* In zeroed, OMPEXT_CACHE_LINE-aligned memory.  params: the model's (NULL:
   the built-in defaults), kept by pointer; forced: OMPEXT_BCAST_SIZED's
   algorithm (AUTO: the model's); verbose: print each new choice. */
ompext_bcast_sized_t *ompext_bcast_sized_init(
    void *mem, int nproc, const ompext_model_params_t *params,
    ompext_bcast_sized_alg_t forced, int verbose);
/* Every thread of the team, once per broadcast, with its own request;
   the caller puts a barrier after it on every thread (the runtime's after
   its copyprivate) before any buffer is reused or freed.  choice: NULL for
   the model's (cached per thread), or one to run (tests).  Sets and returns
   req->status: 0, or OMPEXT_BCAST_EINVAL on every thread, one message on
   stderr from tid 0, nothing copied. */
int ompext_bcast_sized_run(ompext_bcast_sized_t *s, int gtid, int tid,
                           ompext_bcast_request_t *req,
                           const ompext_topo_layout_t *layout,
                           unsigned spin_polls,
                           const ompext_bcast_sized_choice_t *choice);
/* OMPEXT_BCAST_SIZED (auto, flat, tree, pipelined): read once, at the
   plugin's start (one warning for another value, then auto); afterwards
   the algorithm every new team's state forces. */
void ompext_bcast_sized_configure(FILE *warn);
ompext_bcast_sized_alg_t ompext_bcast_sized_forced(void);
/* The copy function of the contract, exported by the plugin; also the
   ordinary copy from the root's request where the runtime's own
   copyprivate runs (bcast_sized_abi.h). */
void ompext_bcast_sized_copy(void *dst, void *src);

#endif
