/*
 * Validator of the fork/join topology (forkjoin_tree.c).  Single-threaded:
 * the topology is a pure function of (nproc, fanout, tid).
 *
 * For every team size n = 1..200 (default) and fan-out k in 1..8 and 64
 * (the plan never passes less than 1), with the runtime's cap of 64
 * children:
 *   - tid 0 has parent -1; every other tid has exactly one parent, in
 *     [0, n) and not itself;
 *   - the children are distinct, in [0, n), never 0, never the tid itself,
 *     at most cap and at most max(k, 1) of them, and each child names this
 *     tid as its parent;
 *   - the parent of every tid != 0 lists it among its children exactly once;
 *   - following children from tid 0 reaches every tid exactly once (the
 *     graph is a tree: connected, acyclic, n - 1 edges);
 *   - the function is pure (a second call gives the same answer) and never
 *     writes past children[cap - 1].
 * With a small cap (1, 2, 3) the children returned are checked to be at
 * most cap, the first ones of the uncapped list, in the same order.
 *
 * The compiled table (what a team reads at each fork and join) is filled
 * from the same tree and must answer exactly as the function for every tid
 * with the runtime's cap; with a cap below a node's children it must refuse
 * (-1) and write nothing.  Filled with a per-node bound below the fan-out,
 * the children no longer make a tree and the fill must fail.
 */
#include "test_services.h"

#include "forkjoin_tree.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CANARY (-12345)
#define MAX_CAP 64

typedef struct node {
  int parent;
  int nchildren;
  int children[MAX_CAP];
} node_t;

/* Calls the topology with a canary after children[cap - 1]. */
static int topo(int n, int k, int tid, int cap, node_t *out) {
  int buf[MAX_CAP + 4];
  for (int i = 0; i < MAX_CAP + 4; ++i)
    buf[i] = CANARY;
  out->parent = CANARY;
  int got = ompext_forkjoin_tree(n, k, tid, &out->parent, buf, cap);
  for (int i = cap; i < MAX_CAP + 4; ++i)
    if (buf[i] != CANARY)
      tu_fail("forkjoin n=%d k=%d cap=%d tid %d: wrote children[%d]", n, k,
              cap, tid, i);
  out->nchildren = got;
  if (got < 0 || got > cap) {
    tu_fail("forkjoin n=%d k=%d cap=%d tid %d: returned %d children", n, k,
            cap, tid, got);
    out->nchildren = got < 0 ? 0 : cap;
  }
  for (int i = 0; i < out->nchildren; ++i)
    out->children[i] = buf[i];
  return out->nchildren;
}

static void check_tree(int n, int k, node_t *nodes, int *seen, int *queue) {
  const int k_eff = k;
  const int cap = MAX_CAP;
  for (int t = 0; t < n; ++t) {
    node_t again;
    topo(n, k, t, cap, &nodes[t]);
    topo(n, k, t, cap, &again);
    if (again.parent != nodes[t].parent ||
        again.nchildren != nodes[t].nchildren ||
        memcmp(again.children, nodes[t].children,
               sizeof(int) * (size_t)again.nchildren) != 0)
      tu_fail("forkjoin n=%d k=%d tid %d: two calls disagree", n, k, t);
  }
  for (int t = 0; t < n; ++t) {
    const node_t *me = &nodes[t];
    if (t == 0 ? me->parent != -1
               : me->parent < 0 || me->parent >= n || me->parent == t)
      tu_fail("forkjoin n=%d k=%d tid %d: parent %d", n, k, t, me->parent);
    if (me->nchildren > k_eff)
      tu_fail("forkjoin n=%d k=%d tid %d: %d children, fan-out %d", n, k, t,
              me->nchildren, k_eff);
    for (int i = 0; i < me->nchildren; ++i) {
      int c = me->children[i];
      if (c <= 0 || c >= n || c == t) {
        tu_fail("forkjoin n=%d k=%d tid %d: child %d", n, k, t, c);
        continue;
      }
      for (int j = 0; j < i; ++j)
        if (me->children[j] == c)
          tu_fail("forkjoin n=%d k=%d tid %d: child %d listed twice", n, k, t,
                  c);
      if (nodes[c].parent != t)
        tu_fail("forkjoin n=%d k=%d tid %d lists child %d whose parent is %d",
                n, k, t, c, nodes[c].parent);
    }
    if (t != 0 && me->parent >= 0 && me->parent < n) {
      const node_t *up = &nodes[me->parent];
      int listed = 0;
      for (int i = 0; i < up->nchildren; ++i)
        listed += up->children[i] == t;
      if (listed != 1)
        tu_fail("forkjoin n=%d k=%d tid %d: its parent %d lists it %d times",
                n, k, t, me->parent, listed);
    }
  }
  /* Breadth-first from tid 0 along the children: a tree reaches every tid
     exactly once. */
  memset(seen, 0, sizeof(int) * (size_t)n);
  int head = 0, tail = 0, edges = 0;
  queue[tail++] = 0;
  seen[0] = 1;
  while (head < tail) {
    int t = queue[head++];
    for (int i = 0; i < nodes[t].nchildren; ++i) {
      int c = nodes[t].children[i];
      if (c < 0 || c >= n)
        continue;
      ++edges;
      if (seen[c]++) {
        tu_fail("forkjoin n=%d k=%d: tid %d reached twice (a cycle or a "
                "shared child)",
                n, k, c);
        continue;
      }
      queue[tail++] = c;
    }
  }
  if (tail != n)
    tu_fail("forkjoin n=%d k=%d: %d of %d tids reachable from tid 0", n, k,
            tail, n);
  if (edges != n - 1)
    tu_fail("forkjoin n=%d k=%d: %d edges, expected %d", n, k, edges, n - 1);
}

static void check_small_cap(int n, int k, const node_t *nodes) {
  static const int caps[] = {1, 2, 3};
  for (size_t ci = 0; ci < sizeof(caps) / sizeof(caps[0]); ++ci) {
    const int cap = caps[ci];
    for (int t = 0; t < n; ++t) {
      node_t small;
      int got = topo(n, k, t, cap, &small);
      int want = nodes[t].nchildren < cap ? nodes[t].nchildren : cap;
      if (small.parent != nodes[t].parent)
        tu_fail("forkjoin n=%d k=%d cap=%d tid %d: parent %d, %d uncapped", n,
                k, cap, t, small.parent, nodes[t].parent);
      if (got != want ||
          memcmp(small.children, nodes[t].children, sizeof(int) * (size_t)got))
        tu_fail("forkjoin n=%d k=%d cap=%d tid %d: %d children, not the first "
                "%d of the uncapped list",
                n, k, cap, t, got, want);
    }
  }
}

typedef struct kary {
  int n, k;
} kary_t;

static int kary_gen(const void *arg, int tid, int *parent, int *children,
                    int cap) {
  const kary_t *a = arg;
  return ompext_forkjoin_tree(a->n, a->k, tid, parent, children, cap);
}

static void check_table(int n, int k, const node_t *nodes, void *mem) {
  ompext_forkjoin_table_t table;
  kary_t arg = {n, k};
  ompext_forkjoin_table_init(&table, mem, n);
  if (ompext_forkjoin_table_fill(&table, kary_gen, &arg, MAX_CAP) != 0) {
    tu_fail("table n=%d k=%d: fill failed", n, k);
    return;
  }
  for (int t = 0; t < n; ++t) {
    int parent = CANARY, buf[MAX_CAP + 1];
    for (int i = 0; i <= MAX_CAP; ++i)
      buf[i] = CANARY;
    int got = ompext_forkjoin_table_get(&table, t, &parent, buf, MAX_CAP);
    if (got != nodes[t].nchildren || parent != nodes[t].parent ||
        memcmp(buf, nodes[t].children, sizeof(int) * (size_t)(got > 0 ? got : 0)))
      tu_fail("table n=%d k=%d tid %d: %d children (parent %d), the function "
              "says %d (parent %d)",
              n, k, t, got, parent, nodes[t].nchildren, nodes[t].parent);
    if (buf[got > 0 ? got : 0] != CANARY)
      tu_fail("table n=%d k=%d tid %d: wrote past its children", n, k, t);
    const int small = nodes[t].nchildren - 1;
    if (small >= 0) {
      buf[0] = CANARY;
      if (ompext_forkjoin_table_get(&table, t, &parent, buf, small) != -1 ||
          buf[0] != CANARY)
        tu_fail("table n=%d k=%d tid %d: cap %d below %d children not "
                "refused",
                n, k, t, small, nodes[t].nchildren);
    }
  }
  const int k_eff = k;
  if (n > k_eff + 1 && k_eff > 1 &&
      ompext_forkjoin_table_fill(&table, kary_gen, &arg, k_eff - 1) == 0)
    tu_fail("table n=%d k=%d: fill with %d children per node accepted a "
            "truncated tree",
            n, k, k_eff - 1);
}

int main(int argc, char **argv) {
  tu_options_t o = {.episodes = 1, .seed = 4, .pin = 0, .timeout_s = 30};
  o.nthreads = 1;
  o.threads[0] = 200; /* the largest team size; all 1..N are checked */
  const int default_k[] = {1, 2, 3, 4, 5, 6, 7, 8, 64};
  tu_parse_options(argc, argv, &o,
                   "  N                check team sizes 1..N (default 200)\n"
                   "  -k K1,K2,...     fan-outs >= 1 (default 1..8,64)\n");
  if (o.nlist == 0) {
    o.nlist = (int)(sizeof(default_k) / sizeof(default_k[0]));
    memcpy(o.list, default_k, sizeof(default_k));
  }
  int max_n = 1;
  for (int i = 0; i < o.nthreads; ++i)
    if (o.threads[i] > max_n)
      max_n = o.threads[i];
  node_t *nodes = calloc((size_t)max_n, sizeof(node_t));
  int *seen = calloc((size_t)max_n, sizeof(int));
  int *queue = calloc((size_t)max_n + 1, sizeof(int));
  void *table_mem = malloc(ompext_forkjoin_table_size(max_n));
  if (!nodes || !seen || !queue || !table_mem)
    tu_fatal("out of memory");
  double start = tu_now();
  unsigned long trees = 0;
  for (int ki = 0; ki < o.nlist; ++ki) {
    for (int n = 1; n <= max_n; ++n) {
      check_tree(n, o.list[ki], nodes, seen, queue);
      check_small_cap(n, o.list[ki], nodes);
      check_table(n, o.list[ki], nodes, table_mem);
      ++trees;
    }
  }
  free(table_mem);
  free(queue);
  free(seen);
  free(nodes);
  unsigned long bad = tu_failures();
  printf("validate_forkjoin_tree: %lu trees (n = 1..%d, %d fan-outs), %lu "
         "violations, %.2f s\n",
         trees, max_n, o.nlist, bad, tu_now() - start);
  return bad ? 1 : 0;
}
