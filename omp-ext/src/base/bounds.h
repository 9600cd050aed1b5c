/*
 * The bounds every parameter of the plugin lives within, one definition
 * each.  The plan builder (plan.c) clamps into them; the environment is
 * parsed against them (config.c); the algorithms size their fixed arrays
 * by them and take their parameters as given.
 */
#ifndef OMPEXT_BOUNDS_H
#define OMPEXT_BOUNDS_H

/* Largest fan-in or fan-out of any tree: the tree barrier, the tournament's
   release, a reduction level, the broadcast, fork/join.  The runtime's
   fork/join executor accepts as many children per node. */
#define OMPEXT_MAX_FANIN 64
/* Smallest fan-in of a combining tree: one child would be a chain. */
#define OMPEXT_MIN_TREE_K 2
/* Deepest reduction tree. */
#define OMPEXT_MAX_LEVELS 16
/* Most peers one thread signals per dissemination round. */
#define OMPEXT_MAX_M 16

#endif /* OMPEXT_BOUNDS_H */
