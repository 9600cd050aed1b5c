/* Fork/join tree topology for the runtime's executor (see forkjoin_tree.c). */
#ifndef OMPEXT_FORKJOIN_TREE_H
#define OMPEXT_FORKJOIN_TREE_H

#include <stddef.h>

/* Parent (-1 for tid 0) and up to cap children of tid in a k-ary tree over
   nproc threads; returns the number of children. */
int ompext_forkjoin_tree(int nproc, int fanout, int tid, int *parent,
                         int *children, int cap);

/* The same for the k-nomial tree of radix radix >= 2: tid's parent clears
   its lowest nonzero base-radix digit; its children, largest subtrees
   first. */
int ompext_forkjoin_knomial(int nproc, int radix, int tid, int *parent,
                            int *children, int cap);

/* Any tree generator of the same contract (parent, up to cap children in
   release order, their count), over an argument of its own. */
typedef int (*ompext_forkjoin_tree_gen_t)(const void *arg, int tid, int *parent,
                                          int *children, int cap);

/* A tree compiled into arrays: each fork and join then reads its node
   instead of computing it.  Written only while no thread reads it. */
typedef struct ompext_forkjoin_node {
  int parent;
  int first; /* its children are kids[first .. first + count) */
  int count;
} ompext_forkjoin_node_t;

typedef struct ompext_forkjoin_table {
  int nproc;
  ompext_forkjoin_node_t *node; /* [nproc] */
  int *kids;                    /* [nproc]: every tid but 0 once */
} ompext_forkjoin_table_t;

size_t ompext_forkjoin_table_size(int nproc);
void ompext_forkjoin_table_init(ompext_forkjoin_table_t *t, void *mem,
                                int nproc);
/* Compiles gen's tree, asking for at most max_children per node (and never
   more than OMPEXT_MAX_FANIN).  0, or -1 when the children do not add up to
   one tree's nproc - 1 edges (a node had more than that cap). */
int ompext_forkjoin_table_fill(ompext_forkjoin_table_t *t,
                               ompext_forkjoin_tree_gen_t gen, const void *arg,
                               int max_children);

/* The compiled node of tid, as ompext_forkjoin_tree returns it; -1 (nothing
   written to children) when tid has more than cap children. */
static inline int ompext_forkjoin_table_get(const ompext_forkjoin_table_t *t,
                                            int tid, int *parent,
                                            int *children, int cap) {
  const ompext_forkjoin_node_t node = t->node[tid];
  if (node.count > cap)
    return -1;
  *parent = node.parent;
  /* A node has a few children: a vectorised copy's checks and set-up took
     most of the call (about 50 instructions a fork or join for one child
     or none, callgrind). */
#if defined(__clang__)
#pragma clang loop vectorize(disable) interleave(disable) unroll(disable)
#endif
  for (int i = 0; i < node.count; ++i)
    children[i] = t->kids[node.first + i];
  return node.count;
}

#endif
