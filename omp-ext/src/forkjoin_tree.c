/*
 * Fork/join topology.  The runtime itself executes the fork release and the
 * join gather on its own per-thread flags (so pooled workers, ICV push,
 * sleeping and task draining stay exactly stock); the plugin only says who
 * releases and gathers whom.  Here: a k-ary tree in tid order, children of
 * t being t*k+1 .. t*k+k, which the cost model will later shape per level.
 */
#include "forkjoin_tree.h"

int ompext_forkjoin_tree(int nproc, int fanout, int tid, int *parent,
                         int *children, int cap) {
  const long k = fanout < 1 ? 1 : fanout;
  int n = 0;
  *parent = tid == 0 ? -1 : (int)((tid - 1) / k);
  for (long c = tid * k + 1; c <= tid * k + k && c < nproc && n < cap; ++c)
    children[n++] = (int)c;
  return n;
}
