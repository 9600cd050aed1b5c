/*
 * Per-team-size parameters of every algorithm.  ompext_params_choose is the
 * one place where they are decided: from the cost model (with the
 * machine's parameters) or fixed defaults, then the environment overrides
 * of config.h, which always win (see params.c).
 */
#ifndef OMPEXT_PARAMS_H
#define OMPEXT_PARAMS_H

#include "config.h"
#include "machine.h"

typedef struct ompext_team_params {
  int nproc;
  ompext_barrier_alg_t barrier_alg; /* the plain barrier: never AUTO, and
                                       DISSEMINATION (unused) for STOCK */
  int barrier_k;                 /* the barrier's parameter (m, k) */
  int reduce_tree;               /* 1: tree gather, 0: atomics */
  int reduce_levels;             /* tree depth d */
  int reduce_fanin[OMPEXT_MAX_LEVELS]; /* k_1 (leaves) .. k_d */
  int bcast_fanout;              /* tree broadcast fan-out (nproc-1: flat) */
  int bcast_long_fanout;         /* the same once copies are long */
  int forkjoin_fanout;           /* fork release / join gather tree */
  int tree_k;                    /* k-ary combining tree barrier fan-in
                                    (also a domain's tree when the barrier
                                    has one leader per domain) */
  int oversubscribed;            /* chosen for more threads than processors */
  ompext_bcast_close_mode_t bcast_close; /* AUTO only where the rooted
                                            close can serve (params.c) */
  double bcast_close_long_ns;    /* copies this long get the rooted close
                                    under OMPEXT_BCAST_CLOSE=auto */
  char source[352];              /* where the numbers came from */
} ompext_team_params_t;

/* machine may be NULL: fixed defaults instead of the cost model.
   oversubscribed: the team has more threads than the machine processors
   (then every collective takes its fewest steps). */
void ompext_params_choose(const ompext_config_t *cfg,
                          const ompext_machine_t *machine, int nproc,
                          int oversubscribed, ompext_team_params_t *out);

/* One line naming each active path and its parameters, for OMPEXT_VERBOSE. */
int ompext_params_describe(const ompext_config_t *cfg,
                           const ompext_team_params_t *p, char *buf,
                           size_t cap);

#endif /* OMPEXT_PARAMS_H */
