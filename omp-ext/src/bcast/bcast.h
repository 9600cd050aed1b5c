/*
 * Copyprivate broadcast, the one entry plugin.c calls: the tree (or flat)
 * broadcast of bcast_tree.c and the choice of how it is closed of
 * bcast_close.c, laid out together from the team's plan.
 */
#ifndef OMPEXT_BCAST_H
#define OMPEXT_BCAST_H

#include "config.h"
#include "ompext/abi.h"
#include "topology.h"

#include <stddef.h>
#include <stdint.h>

/* The broadcast as the plan chose it (plan.c); values within bounds.h. */
typedef struct ompext_bcast_plan {
  int short_fanout; /* the tree's fan-out for short copies (nproc-1: flat) */
  int long_fanout;  /* the same once receivers' copies are long */
  int short_from_root, long_from_root; /* receivers copy from the root, the
                                          tree carries the notification */
  ompext_bcast_close_mode_t close; /* AUTO only where the rooted close may
                                      stand in for the team's barrier */
  int close_tree_k;                /* the rooted close's fan-in */
  uint64_t long_ns;                /* copies at least this long are long */
  uint64_t lead_ns; /* the root's lead out of a rooted close (0: none) */
  int verbose;      /* print the close trials' verdicts */
} ompext_bcast_plan_t;

typedef struct ompext_bcast ompext_bcast_t;

size_t ompext_bcast_size(int nproc);
/* Lays the broadcast out in zeroed, OMPEXT_CACHE_LINE-aligned memory. */
ompext_bcast_t *ompext_bcast_init(void *mem, int nproc,
                                  const ompext_bcast_plan_t *plan);
/* The tree's fan-outs and copies from the root as the plan now has them
   (a team laid out later: plan.h ompext_plan_lay_out), while no broadcast
   runs; the close keeps its own settings. */
void ompext_bcast_follow(ompext_bcast_t *b, const ompext_bcast_plan_t *plan);
/* Whether the team's plain barriers must ask ompext_bcast_close_here:
   receivers time their copies, or the root may ask for a rooted close.
   Otherwise a barrier needs to know nothing of broadcasts. */
int ompext_bcast_watches_barriers(const ompext_bcast_plan_t *plan);
/* See ompext_ops_t.bcast and ompext_bcast_tree_run. */
void *ompext_bcast_run(ompext_bcast_t *b, int gtid, int tid, int is_root,
                       void *data, ompext_pairfn_t cpy, const void *site,
                       const ompext_topo_layout_t *layout, unsigned spin_polls);
/* At each plain barrier (when the plan watches them): 1 when this barrier
   closed a broadcast whose root asked for the rooted close (the close has
   then run), 0 when the caller must run the team's barrier. */
int ompext_bcast_close_here(ompext_bcast_t *b, int gtid, int tid,
                            unsigned spin_polls);

#endif
