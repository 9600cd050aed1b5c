/*
 * Pricing on a topology (topology.c), shared by the model's cost files:
 * which transfers cross packages, the longest path of a tree whose
 * transfers cost R_R or R_X by where their two threads sit, and the
 * collectives in which every thread touches one line.  Private to the
 * model library.
 *
 * Placement: thread t on core t, so on package t / cores (model.h).
 */
#ifndef OMPEXT_MODEL_PLACED_H
#define OMPEXT_MODEL_PLACED_H

#include "model.h"

/* One transfer between threads a and b: R_R on one package, else R_X. */
double ompext_model_placed_transfer(const ompext_model_params_t *p,
                                    const ompext_model_topology_t *t, int a,
                                    int b);

/* A tree over tids 0..n-1 by its children: children(tree, tid, level, out)
   writes the children tid waits for (gather) or releases (release) at
   level 0..levels-1, in the order it serves them (the last bears the one
   extra line of G and S, see topology.c), and returns their count (0: none
   at that level).  Every child has a larger tid than its parent.
   `arg` is the shape's own data. */
typedef struct placed_tree placed_tree_t;
struct placed_tree {
  int n, levels;
  int (*children)(const placed_tree_t *tree, int tid, int level, int *out);
  const void *arg;
  const ompext_model_topology_t *topo;
};

/* The gather's longest path over every thread: each parent, level by
   level, waits for its children's whole gathers, then reads their flags,
   G(children) with each line at its transfer's cost, and with
   combine_lines N >= 1 combines each child's N lines (T_N).
   The release's: each parent, top level first, sets its children's lines,
   S(children), and a child starts when its parent's step is done.
   {NaN, NaN} if out of memory. */
ompext_model_cost_t ompext_model_placed_gather(const ompext_model_params_t *p,
                                               const placed_tree_t *tree,
                                               double combine_lines);
ompext_model_cost_t ompext_model_placed_release(const ompext_model_params_t *p,
                                                const placed_tree_t *tree);

/* One line that all n threads touch in turn, owned on tid 0's package:
   each of the n-1 others pays R_X if on another package, else R_R. */
typedef struct placed_line {
  double others; /* the n-1 others' transfers, summed */
  double far;    /* the dearest of them: R_X if any is remote, else R_R */
  int remote;    /* how many of them are on another package */
} placed_line_t;

placed_line_t ompext_model_placed_line(const ompext_model_params_t *p,
                                       const ompext_model_topology_t *t,
                                       int n);

/* The reductions through one line (cost.c's atomic method, lock 0, and
   its lock, lock 1) with each thread's transfer of that line at its cost. */
ompext_model_cost_t ompext_model_placed_reduce_line(
    const ompext_model_params_t *p, const ompext_model_topology_t *t, int n,
    double lines, int lock);

#endif
