/*
 * The plugin's environment: which paths it serves and fixed parameters that
 * override the choices of the plan (plan.c, the only reader of this
 * struct besides the parser).  Parsed once, when the runtime asks for
 * the plugin's operations; a bad value gives one warning naming the variable
 * and the accepted values, then the default.
 */
#ifndef OMPEXT_CONFIG_H
#define OMPEXT_CONFIG_H

#include "bounds.h"

#include <stdio.h>

/* AUTO: chosen per team (plan.c): dissemination while the team fits the
   processors, the combining tree rooted at tid 0 when oversubscribed, or
   the runtime's own barrier where that tree takes no fewer steps. */
typedef enum {
  OMPEXT_BARRIER_STOCK,
  OMPEXT_BARRIER_DISSEMINATION,
  OMPEXT_BARRIER_TREE,
  OMPEXT_BARRIER_TOURNAMENT,
  OMPEXT_BARRIER_CENTRALIZED,
  OMPEXT_BARRIER_AUTO
} ompext_barrier_alg_t;
/* AUTO: the plugin's gather, atomics or tree chosen per team size. */
typedef enum {
  OMPEXT_REDUCE_STOCK,
  OMPEXT_REDUCE_TREE,
  OMPEXT_REDUCE_ATOMIC,
  OMPEXT_REDUCE_AUTO
} ompext_reduce_alg_t;
typedef enum { OMPEXT_BCAST_STOCK, OMPEXT_BCAST_TREE, OMPEXT_BCAST_FLAT } ompext_bcast_alg_t;
/* How a broadcast is closed (bcast_close.c): AUTO, rooted after long
   copies; ROOTED, always; BARRIER, always the team's barrier. */
typedef enum {
  OMPEXT_BCAST_CLOSE_AUTO,
  OMPEXT_BCAST_CLOSE_ROOTED,
  OMPEXT_BCAST_CLOSE_BARRIER
} ompext_bcast_close_mode_t;
typedef enum { OMPEXT_FORKJOIN_STOCK, OMPEXT_FORKJOIN_TREE } ompext_forkjoin_alg_t;
/* The runtime's global atomic lock (atomic_lock.c): TTAS, the plugin's. */
typedef enum { OMPEXT_ATOMIC_LOCK_STOCK, OMPEXT_ATOMIC_LOCK_TTAS } ompext_atomic_lock_alg_t;
/* One leader per domain (OMPEXT_HIERARCHY): OFF, never; ON, wherever the
   team's threads span domains; AUTO, there unless the team is
   oversubscribed.  OFF and ON are the on/off switch's 0 and 1. */
typedef enum {
  OMPEXT_HIERARCHY_OFF,
  OMPEXT_HIERARCHY_ON,
  OMPEXT_HIERARCHY_AUTO
} ompext_hierarchy_mode_t;

typedef struct ompext_config {
  ompext_barrier_alg_t barrier;
  int dissem_m; /* OMPEXT_BARRIER_M, peers per dissemination round; 0: the
                   plan's choice */
  int tree_k;   /* OMPEXT_BARRIER_K, fan-in of every combining tree barrier
                   (the plain tree, the rooted close, a domain's tree) and
                   the tournament's release fan-out; 0: the plan's choice */
  ompext_reduce_alg_t reduce;
  int reduce_levels; /* 0: chosen per team size */
  int reduce_fanin[OMPEXT_MAX_LEVELS];
  ompext_bcast_alg_t bcast;
  int bcast_fanout; /* 0: chosen per team size */
  ompext_bcast_close_mode_t bcast_close;
  ompext_forkjoin_alg_t forkjoin;
  int forkjoin_fanout; /* 0: chosen per team size */
  ompext_hierarchy_mode_t hierarchy;
  ompext_atomic_lock_alg_t atomic_lock;
  unsigned spin_polls; /* inline polls before the services wait */
  int verbose;
  int stats;
} ompext_config_t;

/* Reads the OMPEXT_* variables; warnings go to `warn`. */
void ompext_config_parse(ompext_config_t *cfg, FILE *warn);

/* Parses "k1,k2,..." (each in [lo, hi]) into out; returns the count, or -1. */
int ompext_parse_int_list(const char *text, int lo, int hi, int *out, int cap);

extern const char *const ompext_barrier_names[];
extern const char *const ompext_reduce_names[];
extern const char *const ompext_bcast_names[];
extern const char *const ompext_bcast_close_names[];
extern const char *const ompext_forkjoin_names[];
extern const char *const ompext_atomic_lock_names[];

#endif /* OMPEXT_CONFIG_H */
