/* The reduction method of each call site, chosen by the data's size (see
   reduce_choice.c). */
#ifndef OMPEXT_REDUCE_CHOICE_H
#define OMPEXT_REDUCE_CHOICE_H

#include "ompext/abi.h"
#include "pad.h"

#include <stdatomic.h>
#include <stdint.h>

/* Size classes: 1, 2, 4, ... lines. */
#define OMPEXT_REDUCE_CLASSES 17
/* Gathers tid 0 times before a site's method is decided, and the probes a
   site remembers (its latest, a ring). */
#define OMPEXT_REDUCE_PROBES 16
/* A site on the tree is timed again at one gather in this many. */
#define OMPEXT_REDUCE_REPROBE_EVERY 16
/* A site on atomics or the lock that the runtime does not keep goes back
   to the tree for OMPEXT_REDUCE_PROBES gathers after this many calls. */
#define OMPEXT_REDUCE_RECHECK_EVERY 1024
/* Call sites one team keeps apart; later ones get the one-item choice. */
#define OMPEXT_REDUCE_SITES 32

/* What the plan gives the choice, per team: for each size class the
   longest a tree combine of that class takes (the geometric mean of the
   model's T_N at its size and the next), and the best method for each set
   of methods the compiler allowed (OMPEXT_REDUCE_ALLOW_* bits). */
typedef struct ompext_reduce_sizes {
  int sized;       /* 0: every size gets one_item */
  int verbose;     /* OMPEXT_VERBOSE: one line per site per decision */
  /* The team is no larger than libomp's atomics cutoff, where stock takes
     atomics whatever the size: only there may an atomic answer be final
     (kept by the runtime, never checked again). */
  int final_atomics;
  double line_bytes;
  int one_item[4]; /* by allowed bits: the choice without a size */
  double timer_ns; /* what timing a combine adds to it */
  /* The model's read of a modified line from another core (R_R), which a
     probe's reference read takes on the machine the model was calibrated
     on; a combine is scaled by this over the reference read timed beside
     it.  0: combines are classed as timed. */
  double reference_ns;
  /* An oversubscribed team: a child that ran on tid 0's own core makes the
     reference read a cache hit, which would scale its combine up, so the
     reference may only make a combine smaller than timed. */
  int reference_shrinks_only;
  double combine_ns[OMPEXT_REDUCE_CLASSES];
  unsigned char best[OMPEXT_REDUCE_CLASSES][4];
  /* The model's cost (min, ns) of each method per size class: a site whose
     sizes change takes the method cheapest over the sizes it saw. */
  double cost[OMPEXT_REDUCE_CLASSES][4];
} ompext_reduce_sizes_t;

/* A thread's place in the team's sequence of synchronisations: how many
   the plugin saw it enter (plain barriers, forks and joins). */
typedef struct ompext_reduce_clock {
  alignas(OMPEXT_CACHE_LINE) uint64_t ticks;
  struct ompext_reduce_site *running; /* tid 0: the site being reduced */
  unsigned allowed;                   /* tid 0: its allowed methods */
  int probing;                        /* tid 0: timing its combines */
  /* The last final site this thread read: its key (0: none), the allowed
     methods it was asked with, and its method. */
  uintptr_t settled_key;
  struct ompext_reduce_site *settled_site;
  unsigned settled_allowed;
  int settled_method;
  /* The plain barriers this thread still hands back to the runtime after
     one that found tasks (team.h, ompext_team_stock_after_tasks). */
  unsigned stock_barriers_after_tasks;
} ompext_reduce_clock_t;

typedef struct ompext_reduce_site {
  alignas(OMPEXT_CACHE_LINE) _Atomic uintptr_t key; /* reduce_func; 0 free */
  _Atomic uint64_t decision; /* 0: none yet; else see reduce_choice.c */
  /* tid 0 only from here on, on lines of their own: tid 0 writes them at
     every call, which must not move the line every thread reads. */
  /* Gathers timed, all told (the ring's next entry: probes % PROBES). */
  alignas(OMPEXT_CACHE_LINE) unsigned probes;
  unsigned fresh;  /* gathers timed since the site last went to the tree */
  unsigned calls;  /* calls since the last decision or re-timing */
  int decided;     /* the method of the last decision (-1: none yet) */
  double combine_ns[OMPEXT_REDUCE_PROBES];   /* each gather's slowest
                                                combine */
  double reference_ns[OMPEXT_REDUCE_PROBES]; /* and the reference read
                                                beside it (< 0: none) */
} ompext_reduce_site_t;

typedef struct ompext_reduce_choice {
  const ompext_reduce_sizes_t *sizes;
  ompext_reduce_clock_t *clocks; /* [nproc] */
  ompext_reduce_site_t sites[OMPEXT_REDUCE_SITES];
} ompext_reduce_choice_t;

/* Every thread of the team, on entering each plain barrier the plugin runs
   and at each fork and join (where it asks for its own fork/join tree).
   Only the thread itself touches its clock. */
static inline void ompext_reduce_clock_tick(ompext_reduce_clock_t *c) {
  ++c->ticks;
}

void ompext_reduce_choice_init(ompext_reduce_choice_t *rc,
                               const ompext_reduce_sizes_t *sizes,
                               ompext_reduce_clock_t *clocks, int nproc);

/* The method (enum ompext_reduce_method) for this thread's reduction at
   site key with the compiler's allowed methods.  Every thread of the team
   gets the same answer for the same reduction.  An answer that this thread
   will get again for this key and allowed, for as long as the choice
   lives, has OMPEXT_REDUCE_METHOD_SETTLED added (see reduce_choice.c). */
int ompext_reduce_choice_method(ompext_reduce_choice_t *rc, int tid,
                                uintptr_t key, unsigned allowed);

/* tid 0 during its tree gather: whether to time its combines, and the
   slowest one it timed with the reference read beside it (ns, once per
   gather; reference_ns < 0: none).  The decision takes effect from this
   thread's next synchronisation on. */
int ompext_reduce_choice_probing(const ompext_reduce_choice_t *rc);
void ompext_reduce_choice_measured(ompext_reduce_choice_t *rc,
                                   double combine_ns, double reference_ns);

/* "stock", "atomic", "tree" or "critical" (enum ompext_reduce_method,
   OMPEXT_REDUCE_METHOD_SETTLED ignored). */
const char *ompext_reduce_method_name(int method);

#endif
