/* Closing a copyprivate broadcast: the team's barrier, or a barrier rooted
   at the broadcast's root when the copies are long (see bcast_close.c). */
#ifndef OMPEXT_BCAST_CLOSE_H
#define OMPEXT_BCAST_CLOSE_H

#include "config.h"

#include <stddef.h>
#include <stdint.h>

typedef struct ompext_bcast_close ompext_bcast_close_t;

size_t ompext_bcast_close_size(int nproc);
/* Lays the state out in zeroed, OMPEXT_CACHE_LINE-aligned memory.  tree_k:
   the rooted barrier's fan-in (bounds.h); long_ns: copies at least this
   long are long; lead_ns: how long a spinning receiver leaves the rooted
   close after the root (0: at once); receivers time their copies when
   time_copies is set (the close under OMPEXT_BCAST_CLOSE_AUTO, or the
   broadcast's fan-out, depends on it); verbose: print the verdicts of the
   close's trials (bcast_trial.h). */
ompext_bcast_close_t *ompext_bcast_close_init(void *mem, int nproc, int tree_k,
                                              ompext_bcast_close_mode_t mode,
                                              uint64_t long_ns,
                                              uint64_t lead_ns,
                                              int time_copies, int verbose);

/* The root, before it publishes: whether receivers' recent copies were
   long (0 while nobody times them). */
int ompext_bcast_close_copies_long(ompext_bcast_close_t *c);
/* The root, before it publishes: 1 to ask for the rooted close.  Under
   OMPEXT_BCAST_CLOSE_AUTO: when copies_long, unless auto_allowed is 0 (a
   team laid out over several domains keeps the team's barrier), and then
   as the trial of the construct's call site decides
   (bcast_trial.c). */
int ompext_bcast_close_choose(ompext_bcast_close_t *c, int copies_long,
                              int auto_allowed, uintptr_t site);
/* Every thread of the broadcast, once it knows the root and its choice;
   a receiver calls it before it copies (it may start timing the copy). */
void ompext_bcast_close_note(ompext_bcast_close_t *c, int tid, int root,
                             int rooted, int is_root);
/* At the caller's next barrier: the root whose rooted close this barrier
   must be, or -1 for the team's own barrier.  Forgets the broadcast and
   ends its copy-time sample. */
int ompext_bcast_close_take(ompext_bcast_close_t *c, int tid);
/* The rooted barrier: returns once all nproc threads have called it with
   the same root; the root returns first, and receivers that spin
   (spin_polls > 0) lead_ns after their go. */
void ompext_bcast_close_wait(ompext_bcast_close_t *c, int gtid, int tid,
                             int root, unsigned spin_polls);

#endif
