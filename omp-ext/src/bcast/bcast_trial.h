/* Which close a copyprivate call site runs once its copies are long: the
   rooted one or the team's barrier, chosen by timing both (bcast_trial.c). */
#ifndef OMPEXT_BCAST_TRIAL_H
#define OMPEXT_BCAST_TRIAL_H

#include <stdint.h>

/* Call sites one team tells apart; more share the rooted close. */
#define OMPEXT_TRIAL_SITES 8
/* Blocks of each close a trial times, and rounds it takes from each. */
#define OMPEXT_TRIAL_BLOCKS 2
#define OMPEXT_TRIAL_SAMPLES 6

typedef struct ompext_bcast_site {
  uintptr_t key;   /* the construct's call site (never 0) */
  int used;        /* the entry belongs to key */
  int verdict;     /* -1 until its trial ends; then 1 rooted, 0 barrier */
  unsigned count;  /* the site's broadcasts since its trial began */
  uint64_t last_publish_ns;                 /* of its previous broadcast */
  unsigned taken[2]; /* rounds by close: 0 barrier, 1 rooted */
  uint64_t round_ns[2][OMPEXT_TRIAL_BLOCKS * OMPEXT_TRIAL_SAMPLES];
} ompext_bcast_site_t;

/* Written by each broadcast's root only, before it publishes: the
   broadcast and its close order one root after the next, so plain fields
   do. */
typedef struct ompext_bcast_trial {
  ompext_bcast_site_t sites[OMPEXT_TRIAL_SITES];
  int verbose;     /* print each verdict (OMPEXT_VERBOSE) */
  int active;      /* the site whose trial runs; -1 none */
  unsigned others; /* other sites' broadcasts since its last one */
} ompext_bcast_trial_t;

/* verbose: print each site's verdict and its rounds on stderr. */
void ompext_bcast_trial_init(ompext_bcast_trial_t *t, int verbose);

/* The root of a broadcast with long copies, just before it publishes: 1 to
   close it rooted, 0 with the team's barrier.  site: the construct's call
   site (0, unknown: always rooted); clock: the time in ns, read only while
   the site's trial runs. */
int ompext_bcast_trial_rooted(ompext_bcast_trial_t *t, uintptr_t site,
                              uint64_t (*clock)(void));

/* The site's verdict: -1 while its trial runs (or it has no entry), else 1
   rooted, 0 the team's barrier. */
int ompext_bcast_trial_verdict(const ompext_bcast_trial_t *t, uintptr_t site);

#endif
