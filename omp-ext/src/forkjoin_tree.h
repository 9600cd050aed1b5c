/* Fork/join tree topology for the runtime's executor (see forkjoin_tree.c). */
#ifndef OMPEXT_FORKJOIN_TREE_H
#define OMPEXT_FORKJOIN_TREE_H

/* Parent (-1 for tid 0) and up to cap children of tid in a k-ary tree over
   nproc threads; returns the number of children. */
int ompext_forkjoin_tree(int nproc, int fanout, int tid, int *parent,
                         int *children, int cap);

#endif
