/*
 * Fork/join topology.  The runtime itself executes the fork release and the
 * join gather on its own per-thread flags (so pooled workers, ICV push,
 * sleeping and task draining stay exactly stock); the plugin only says who
 * releases and gathers whom.  Here: a k-ary tree in tid order, children of
 * t being t*k+1 .. t*k+k; a k-nomial (hypercube-embedded) tree of radix r,
 * the shape of the runtime's own hyper barrier, which reaches r^d threads
 * in d levels where the heap reaches fewer; the shape and its parameter
 * from plan.c; and the table that holds a team's tree (one of these or the
 * topology's) so that a fork or join costs a few loads, not a division and
 * a walk, on every thread.
 */
#include "forkjoin_tree.h"

#include "bounds.h"
#include "pad.h"

#include <assert.h>
#include <string.h>

int ompext_forkjoin_tree(int nproc, int fanout, int tid, int *parent,
                         int *children, int cap) {
  assert(fanout >= 1); /* the plan's bounds (bounds.h) */
  const long k = fanout;
  int n = 0;
  *parent = tid == 0 ? -1 : (int)((tid - 1) / k);
  for (long c = tid * k + 1; c <= tid * k + k && c < nproc && n < cap; ++c)
    children[n++] = (int)c;
  return n;
}

int ompext_forkjoin_knomial(int nproc, int radix, int tid, int *parent,
                            int *children, int cap) {
  assert(radix >= 2); /* the plan's bounds (bounds.h) */
  const long r = radix;
  /* tid leads the levels below the one of its lowest nonzero base-r digit;
     its parent clears that digit. */
  long stride = 1;
  while (tid % (stride * r) == 0 && stride < nproc)
    stride *= r;
  *parent = tid == 0 ? -1 : (int)(tid - tid % (stride * r));
  /* Top level first: the largest subtrees are released first, as the
     runtime's hyper release does. */
  int n = 0;
  for (long s = stride / r; s >= 1 && n < cap; s /= r)
    for (long j = 1; j < r && tid + j * s < nproc && n < cap; ++j)
      children[n++] = (int)(tid + j * s);
  return n;
}

size_t ompext_forkjoin_table_size(int nproc) {
  return ompext_pad_bytes((size_t)nproc * sizeof(ompext_forkjoin_node_t)) +
         ompext_pad_bytes((size_t)nproc * sizeof(int));
}

void ompext_forkjoin_table_init(ompext_forkjoin_table_t *t, void *mem,
                                int nproc) {
  t->nproc = nproc;
  t->node = mem;
  t->kids = (int *)((char *)mem + ompext_pad_bytes((size_t)nproc *
                                                   sizeof(*t->node)));
}

int ompext_forkjoin_table_fill(ompext_forkjoin_table_t *t,
                               ompext_forkjoin_tree_gen_t gen, const void *arg,
                               int max_children) {
  int buf[OMPEXT_MAX_FANIN];
  const int cap = max_children < OMPEXT_MAX_FANIN ? max_children
                                                  : OMPEXT_MAX_FANIN;
  int used = 0;
  for (int tid = 0; tid < t->nproc; ++tid) {
    ompext_forkjoin_node_t *node = &t->node[tid];
    const int count = gen(arg, tid, &node->parent, buf, cap);
    if (count < 0 || count > cap || count > t->nproc - used)
      return -1;
    node->first = used;
    node->count = count;
    memcpy(t->kids + used, buf, (size_t)count * sizeof(int));
    used += count;
  }
  /* A tree has nproc - 1 edges; fewer means some node had more children
     than cap, and those would never be released. */
  return used == t->nproc - 1 ? 0 : -1;
}
