/*
 * Validator of the topology layer (topology.c).  Single-threaded; every
 * check runs on hwloc synthetic topologies, so the result does not depend
 * on the machine:
 *   - 2 packages x 4 cores; 4 packages x 2 L3 x 2 cores (L3 domains);
 *     1 package (flat); 1 package x 4 L3 (L3 domains); packages whose PU
 *     os-indexes are interleaved; L3s without packages; cores only;
 *   - the machine's PU -> domain table matches the expected partition;
 *   - teams of many sizes, with threads mapped compact, interleaved across
 *     domains (tid 0 on domain 0, tid 1 on domain 1, ...), reversed,
 *     shuffled, oversubscribed (several tids per PU), and with one unbound
 *     (-1) or unknown PU, or none bound (both: flat);
 *   - domains: numbered by lowest tid, the expected partition;
 *   - order: a permutation with tid 0 first, rank its inverse, each domain
 *     contiguous, in increasing tid order, led by its lowest tid;
 *   - two-level tree for k_in x k_out: parents and children consistent,
 *     connected and acyclic, exactly ndomains-1 edges across domains, all
 *     between leaders, fan-outs respected, leader children listed first,
 *     every leader under tid 0 when k_out >= ndomains-1, the k_in-ary tid
 *     tree when flat, pure; with caps
 *     0..3 a prefix of the full list and nothing written past cap;
 *   - ompext_topology_order refuses badly numbered domains; the version
 *     rule; bad synthetic descriptions, and ones of more than 4096 PUs,
 *     give NULL and a reason.
 * The tree re-rooted at any tid (ompext_topology_rooted_parent / _child) is
 * checked without hwloc, on layouts made up by the harness: teams of 1..17,
 * 31 and 64 over every domain count 1..n, the domains random (uneven and
 * scattered over the tids), round robin or in blocks; k_in and k_out in 0
 * (counts as 1), 1..4 and n-1; every tid as the root:
 *   - the root's parent is -1; every child names its lister as parent;
 *   - from the root every tid is reached exactly once (a spanning tree);
 *   - exactly ndomains-1 edges cross domains, each between representatives
 *     (the root for its domain, the leader for every other), listed before
 *     the local children; with k_out >= ndomains-1 every representative
 *     hangs under the root;
 *   - at most k_out crossing and k_in local children, k_in + k_out in all;
 *   - enumeration returns -1 past the last child (and for j < 0), and for a
 *     tid or root outside the layout;
 *   - one domain: the k_in-ary tree over (t - root) mod n, the tree in tid
 *     order re-rooted; root 0: equal to ompext_topology_tree.
 * Last, the real machine's topology is loaded and printed, and the calling
 * thread's binding read back after pinning it with sched_setaffinity (any
 * Linux machine, one package or many; a machine where hwloc cannot load or
 * pinning is refused only prints why).
 *
 * Exit status 0 when every check passed, 1 otherwise.  Options: -v (print
 * each topology's layouts), -h.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getaffinity, CPU_SET */
#endif

#include "test_services.h"
#include "topology.h"

#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_N 64      /* largest team */
#define MAX_PU 64     /* largest synthetic machine */
#define BIG_CAP 160   /* above any k_in + k_out used here */
#define CANARY (-12345)

static int failures;
static int verbose;

static void fail(const char *fmt, ...) {
  if (++failures <= 30) {
    va_list ap;
    va_start(ap, fmt);
    fputs("FAIL: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
  } else if (failures == 31) {
    fputs("FAIL: (further failures not printed)\n", stderr);
  }
}

/* ---- synthetic machines -------------------------------------------------- */

typedef struct machine {
  const char *desc;
  int npu;              /* PUs, os-indexes 0..npu-1 */
  int ndomains;         /* expected */
  const char *kind;     /* expected ompext_topology_domain_kind */
  int (*group)(int pu); /* expected domain key of a PU */
} machine_t;

static int g_by4(int pu) { return pu / 4; }
static int g_by2(int pu) { return pu / 2; }
static int g_one(int pu) { (void)pu; return 0; }
/* pu:2(indexes=0,4,1,5,2,6,3,7): package 0 holds 0,4,1,5; package 1 2,6,3,7 */
static int g_interleaved(int pu) { return (pu % 4) / 2; }

static const machine_t machines[] = {
    {"package:2 l3cache:1 core:4 pu:1", 8, 2, "package", g_by4},
    {"package:4 l3cache:2 core:2 pu:1", 16, 8, "l3cache", g_by2},
    {"package:1 l3cache:1 core:4 pu:2", 8, 1, "package", g_one},
    {"package:1 l3cache:4 core:2 pu:2", 16, 4, "l3cache", g_by4},
    {"package:2 core:2 pu:2(indexes=0,4,1,5,2,6,3,7)", 8, 2, "package",
     g_interleaved},
    {"l3cache:2 core:2 pu:1", 4, 2, "l3cache", g_by2},
    {"core:4 pu:1", 4, 1, "machine", g_one},
};

/* ---- team mappings ------------------------------------------------------- */

enum mapping {
  MAP_COMPACT,     /* tid t on the t-th PU, by domain */
  MAP_INTERLEAVED, /* tid t on domain t % G */
  MAP_REVERSED,    /* tid 0 on the last PU */
  MAP_SHUFFLED,    /* a random permutation of the PUs */
  MAP_ONE_UNBOUND, /* compact, but one tid reports -1 */
  MAP_UNKNOWN,     /* compact, but one tid names a PU the machine lacks */
  MAP_UNBOUND,     /* every tid -1 */
  MAP_COUNT
};
static const char *const mapping_names[MAP_COUNT] = {
    "compact", "interleaved", "reversed", "shuffled",
    "one-unbound", "unknown-pu", "unbound"};

static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;
static unsigned rng(void) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)(rng_state >> 33);
}

/* PUs sorted by expected group (then os-index) and the group count. */
static void sorted_pus(const machine_t *m, int *pus, int *ngroups) {
  int n = 0, g = 0;
  for (int key = 0; n < m->npu; ++key) {
    int found = 0;
    for (int pu = 0; pu < m->npu; ++pu)
      if (m->group(pu) == key) {
        pus[n++] = pu;
        found = 1;
      }
    g += found;
  }
  *ngroups = g;
}

static void make_mapping(const machine_t *m, enum mapping map, int n,
                         int *pu_of_tid) {
  int pus[MAX_PU], groups;
  sorted_pus(m, pus, &groups);
  const int per = m->npu / groups;
  switch (map) {
  case MAP_INTERLEAVED:
    for (int t = 0; t < n; ++t)
      pu_of_tid[t] = pus[(t % groups) * per + (t / groups) % per];
    break;
  case MAP_REVERSED:
    for (int t = 0; t < n; ++t)
      pu_of_tid[t] = pus[m->npu - 1 - t % m->npu];
    break;
  case MAP_SHUFFLED: {
    int perm[MAX_PU];
    memcpy(perm, pus, sizeof(int) * (size_t)m->npu);
    for (int i = m->npu - 1; i > 0; --i) {
      int j = (int)(rng() % (unsigned)(i + 1)), x = perm[i];
      perm[i] = perm[j];
      perm[j] = x;
    }
    for (int t = 0; t < n; ++t)
      pu_of_tid[t] = perm[t % m->npu];
    break;
  }
  case MAP_UNBOUND:
    for (int t = 0; t < n; ++t)
      pu_of_tid[t] = -1;
    break;
  default:
    for (int t = 0; t < n; ++t)
      pu_of_tid[t] = pus[t % m->npu];
    if (map == MAP_ONE_UNBOUND)
      pu_of_tid[n / 2] = -1;
    if (map == MAP_UNKNOWN)
      pu_of_tid[n - 1] = m->npu + 1000;
    break;
  }
}

static int mapping_is_flat(enum mapping map) {
  return map == MAP_ONE_UNBOUND || map == MAP_UNKNOWN || map == MAP_UNBOUND;
}

/* ---- checks -------------------------------------------------------------- */

typedef struct ctx {
  const char *desc;
  const char *map;
  int n;
} ctx_t;

#define CFAIL(c, fmt, ...)                                                     \
  fail("[%s | %s | n=%d] " fmt, (c)->desc, (c)->map, (c)->n, __VA_ARGS__)

/* Domains: the expected partition, numbered by lowest tid. */
static int check_domains(const ctx_t *c, const machine_t *m, int flat,
                         const int *pu_of_tid, const int *domain, int nd) {
  const int n = c->n;
  int expect_nd = 1;
  if (!flat) {
    /* Distinct groups among the team. */
    expect_nd = 0;
    for (int t = 0; t < n; ++t) {
      int seen = 0;
      for (int u = 0; u < t && !seen; ++u)
        seen = m->group(pu_of_tid[u]) == m->group(pu_of_tid[t]);
      expect_nd += !seen;
    }
  }
  if (nd != expect_nd)
    CFAIL(c, "%d domains, expected %d", nd, expect_nd);
  int top = -1;
  for (int t = 0; t < n; ++t) {
    if (domain[t] < 0 || domain[t] > top + 1) {
      CFAIL(c, "tid %d: domain %d not numbered by lowest tid", t, domain[t]);
      return -1;
    }
    if (domain[t] == top + 1)
      top = domain[t];
    for (int u = 0; u < t; ++u) {
      const int same = flat || m->group(pu_of_tid[u]) == m->group(pu_of_tid[t]);
      if (same != (domain[u] == domain[t]))
        CFAIL(c, "tids %d (PU %d) and %d (PU %d): domains %d and %d", u,
              pu_of_tid[u], t, pu_of_tid[t], domain[u], domain[t]);
    }
  }
  if (top + 1 != nd)
    CFAIL(c, "domains numbered 0..%d, %d returned", top, nd);
  return nd == expect_nd && top + 1 == nd ? 0 : -1;
}

static void check_order(const ctx_t *c, const ompext_topo_layout_t *l) {
  const int n = l->nproc, nd = l->ndomains;
  int seen[MAX_N] = {0};
  if (l->order[0] != 0)
    CFAIL(c, "order[0] = %d", l->order[0]);
  for (int r = 0; r < n; ++r) {
    const int t = l->order[r];
    if (t < 0 || t >= n || seen[t]++) {
      CFAIL(c, "rank %d: tid %d out of range or repeated", r, t);
      return;
    }
    if (l->rank[t] != r)
      CFAIL(c, "rank[%d] = %d, order says %d", t, l->rank[t], r);
  }
  if (l->dstart[0] != 0 || l->dstart[nd] != n)
    CFAIL(c, "dstart[0] = %d, dstart[%d] = %d", l->dstart[0], nd,
          l->dstart[nd]);
  for (int d = 0; d < nd; ++d) {
    if (l->dstart[d + 1] <= l->dstart[d]) {
      CFAIL(c, "domain %d empty or dstart decreasing", d);
      return;
    }
    int lowest = n;
    for (int t = 0; t < n; ++t)
      if (l->domain[t] == d && t < lowest)
        lowest = t;
    if (ompext_topology_leader(l, d) != lowest)
      CFAIL(c, "domain %d: leader %d, lowest tid %d", d,
            ompext_topology_leader(l, d), lowest);
    for (int r = l->dstart[d]; r < l->dstart[d + 1]; ++r) {
      if (l->domain[l->order[r]] != d)
        CFAIL(c, "rank %d (tid %d) inside domain %d's ranks is in domain %d",
              r, l->order[r], d, l->domain[l->order[r]]);
      if (r > l->dstart[d] && l->order[r] <= l->order[r - 1])
        CFAIL(c, "domain %d: tids not increasing at rank %d", d, r);
    }
  }
  if (ompext_topology_leader(l, 0) != 0)
    CFAIL(c, "tid 0 does not lead domain 0 (%d does)",
          ompext_topology_leader(l, 0));
}

typedef struct node {
  int parent;
  int n;
  int children[BIG_CAP];
} node_t;

static void check_tree(const ctx_t *c, const ompext_topo_layout_t *l, int ki,
                       int ko) {
  const int n = l->nproc, nd = l->ndomains;
  const int ki1 = ki < 1 ? 1 : ki, ko1 = ko < 1 ? 1 : ko;
  static node_t nodes[MAX_N];
  char where[64];
  snprintf(where, sizeof(where), "k_in=%d k_out=%d", ki, ko);

  for (int t = 0; t < n; ++t) {
    int buf[BIG_CAP + 4];
    for (int i = 0; i < BIG_CAP + 4; ++i)
      buf[i] = CANARY;
    nodes[t].parent = CANARY;
    int got = ompext_topology_tree(l, ki, ko, t, &nodes[t].parent, buf,
                                   BIG_CAP);
    if (got < 0 || got > BIG_CAP || buf[BIG_CAP] != CANARY) {
      CFAIL(c, "%s tid %d: returned %d children", where, t, got);
      return;
    }
    nodes[t].n = got;
    memcpy(nodes[t].children, buf, sizeof(int) * (size_t)got);
    /* Pure. */
    int p2, buf2[BIG_CAP];
    int got2 = ompext_topology_tree(l, ki, ko, t, &p2, buf2, BIG_CAP);
    if (got2 != got || p2 != nodes[t].parent ||
        memcmp(buf2, buf, sizeof(int) * (size_t)got) != 0)
      CFAIL(c, "%s tid %d: two calls disagree", where, t);
    /* Caps 0..3: a prefix, nothing past cap. */
    for (int cap = 0; cap <= 3; ++cap) {
      int pc = CANARY, bc[8];
      for (int i = 0; i < 8; ++i)
        bc[i] = CANARY;
      int gc = ompext_topology_tree(l, ki, ko, t, &pc, bc, cap);
      const int want = got < cap ? got : cap;
      if (gc != want || pc != nodes[t].parent ||
          memcmp(bc, buf, sizeof(int) * (size_t)want) != 0)
        CFAIL(c, "%s tid %d cap %d: %d children, not the first %d", where, t,
              cap, gc, want);
      for (int i = cap; i < 8; ++i)
        if (bc[i] != CANARY)
          CFAIL(c, "%s tid %d cap %d: wrote children[%d]", where, t, cap, i);
    }
  }

  int cross = 0, listed[MAX_N] = {0};
  for (int t = 0; t < n; ++t) {
    const node_t *me = &nodes[t];
    const int leader = ompext_topology_leader(l, l->domain[t]) == t;
    if (t == 0 ? me->parent != -1
               : me->parent < 0 || me->parent >= n || me->parent == t) {
      CFAIL(c, "%s tid %d: parent %d", where, t, me->parent);
      return;
    }
    if (t != 0 && l->domain[me->parent] != l->domain[t]) {
      if (!leader ||
          ompext_topology_leader(l, l->domain[me->parent]) != me->parent)
        CFAIL(c, "%s tid %d: crosses to %d, not leader to leader", where, t,
              me->parent);
      if (ko1 >= nd - 1 && me->parent != 0)
        CFAIL(c, "%s leader %d under %d, not tid 0 (k_out >= %d)", where, t,
              me->parent, nd - 1);
    }
    if (t != 0 && leader && l->domain[me->parent] == l->domain[t])
      CFAIL(c, "%s leader %d has a parent in its own domain", where, t);
    int n_cross = 0, n_in = 0;
    for (int i = 0; i < me->n; ++i) {
      const int ch = me->children[i];
      if (ch <= 0 || ch >= n || ch == t) {
        CFAIL(c, "%s tid %d: child %d", where, t, ch);
        return;
      }
      for (int j = 0; j < i; ++j)
        if (me->children[j] == ch)
          CFAIL(c, "%s tid %d: child %d twice", where, t, ch);
      if (nodes[ch].parent != t)
        CFAIL(c, "%s tid %d lists %d, whose parent is %d", where, t, ch,
              nodes[ch].parent);
      if (l->domain[ch] != l->domain[t]) {
        ++n_cross;
        ++cross;
        if (n_in > 0)
          CFAIL(c, "%s tid %d: leader child %d after a local child", where,
                t, ch);
      } else {
        ++n_in;
      }
    }
    if (n_cross > (leader ? ko1 : 0) || n_in > ki1)
      CFAIL(c, "%s tid %d: %d cross + %d local children", where, t, n_cross,
            n_in);
    if (t != 0 && me->parent >= 0 && me->parent < n) {
      for (int i = 0; i < nodes[me->parent].n; ++i)
        listed[t] += nodes[me->parent].children[i] == t;
      if (listed[t] != 1)
        CFAIL(c, "%s tid %d listed %d times by its parent %d", where, t,
              listed[t], me->parent);
    }
    /* One domain: the k_in-ary tree in tid order. */
    if (nd == 1) {
      const int want_parent = t == 0 ? -1 : (t - 1) / ki1;
      int want_n = 0, same = 1;
      for (long long ch = (long long)t * ki1 + 1;
           ch <= (long long)t * ki1 + ki1 && ch < n; ++ch, ++want_n)
        if (want_n >= me->n || me->children[want_n] != (int)ch)
          same = 0;
      if (!same || me->parent != want_parent || me->n != want_n)
        CFAIL(c, "%s flat tid %d: not the %d-ary tree", where, t, ki1);
    }
  }
  if (cross != nd - 1)
    CFAIL(c, "%s: %d edges cross domains, expected %d", where, cross, nd - 1);

  /* Connected and acyclic: a walk from tid 0 meets every tid once. */
  int seen[MAX_N] = {0}, queue[MAX_N], head = 0, tail = 0;
  queue[tail++] = 0;
  seen[0] = 1;
  while (head < tail) {
    const node_t *me = &nodes[queue[head++]];
    for (int i = 0; i < me->n; ++i) {
      const int ch = me->children[i];
      if (seen[ch]++) {
        CFAIL(c, "%s: tid %d reached twice", where, ch);
        return;
      }
      queue[tail++] = ch;
    }
  }
  if (tail != n)
    CFAIL(c, "%s: %d of %d tids reachable from tid 0", where, tail, n);
}

/* Edges of the plain k-ary tid tree (ompext_forkjoin_tree) that cross. */
static int naive_cross(const ompext_topo_layout_t *l, int k) {
  int cross = 0;
  for (int t = 1; t < l->nproc; ++t)
    cross += l->domain[t] != l->domain[(t - 1) / k];
  return cross;
}

static void print_layout(const ompext_topo_layout_t *l, const int *pu) {
  printf("    tid:pu:domain");
  for (int t = 0; t < l->nproc; ++t)
    printf(" %d:%d:%d", t, pu[t], l->domain[t]);
  printf("\n    order");
  for (int r = 0; r < l->nproc; ++r)
    printf("%s%d", r > 0 && l->domain[l->order[r]] !=
                                 l->domain[l->order[r - 1]]
                       ? " | "
                       : " ",
           l->order[r]);
  printf("\n");
}

static void run_machine(const machine_t *m) {
  ompext_topology_t *topo = ompext_topology_load_synthetic(m->desc);
  if (!topo) {
    fail("[%s] load failed: %s", m->desc, ompext_topology_error());
    return;
  }
  char line[256];
  ompext_topology_describe(topo, line, sizeof(line));
  printf("%-48s %s\n", m->desc, line);

  /* The machine's own table. */
  const ompext_topology_counts_t counts = ompext_topology_counts(topo);
  if (counts.pus != m->npu)
    fail("[%s] %d PUs, expected %d", m->desc, counts.pus, m->npu);
  if (counts.domains != m->ndomains)
    fail("[%s] %d domains, expected %d", m->desc, counts.domains, m->ndomains);
  if (strcmp(ompext_topology_domain_kind(topo), m->kind) != 0)
    fail("[%s] domains by %s, expected %s", m->desc,
         ompext_topology_domain_kind(topo), m->kind);
  for (int a = 0; a < m->npu; ++a) {
    const int da = ompext_topology_pu_domain(topo, a);
    if (da < 0 || da >= m->ndomains)
      fail("[%s] PU %d: domain %d", m->desc, a, da);
    for (int b = 0; b < a; ++b)
      if ((m->group(a) == m->group(b)) !=
          (da == ompext_topology_pu_domain(topo, b)))
        fail("[%s] PUs %d and %d: wrong partition", m->desc, b, a);
  }
  if (ompext_topology_pu_domain(topo, -1) != -1 ||
      ompext_topology_pu_domain(topo, m->npu) != -1 ||
      ompext_topology_pu_domain(topo, 1 << 20) != -1)
    fail("[%s] a PU outside the machine has a domain", m->desc);

  static const int sizes[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 13, 16, 17, 31,
                              32, 33, 48, 64};
  static const int kins[] = {0, 1, 2, 3, 4, 8, 64};
  static const int kouts[] = {1, 2, 3, 7, 64};
  int mem_ints[4 * MAX_N + 1];
  for (int map = 0; map < MAP_COUNT; ++map) {
    for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); ++s) {
      const int n = sizes[s];
      ctx_t c = {m->desc, mapping_names[map], n};
      int pu_of_tid[MAX_N], domain[MAX_N];
      make_mapping(m, (enum mapping)map, n, pu_of_tid);
      const int flat = mapping_is_flat((enum mapping)map);
      const int nd = ompext_topology_domains(topo, n, pu_of_tid, domain);
      if (check_domains(&c, m, flat, pu_of_tid, domain, nd) != 0)
        continue;

      ompext_topo_layout_t l;
      if (ompext_topology_layout_size(n) > sizeof(mem_ints)) {
        fail("layout_size(%d) too large", n);
        continue;
      }
      ompext_topology_layout_init(&l, mem_ints, n);
      if (l.ndomains != 1 || l.order[n - 1] != n - 1)
        CFAIL(&c, "%s", "layout_init is not flat");
      const int nd2 = ompext_topology_layout_build(topo, pu_of_tid, &l);
      if (nd2 != nd || l.ndomains != nd ||
          memcmp(l.domain, domain, sizeof(int) * (size_t)n) != 0) {
        CFAIL(&c, "layout_build: %d domains, ompext_topology_domains %d",
              nd2, nd);
        continue;
      }
      check_order(&c, &l);
      for (size_t a = 0; a < sizeof(kins) / sizeof(kins[0]); ++a)
        for (size_t b = 0; b < sizeof(kouts) / sizeof(kouts[0]); ++b)
          check_tree(&c, &l, kins[a], kouts[b]);

      if (n == 16 || (n == m->npu && n != 16)) {
        if (verbose || map == MAP_INTERLEAVED)
          printf("  %-11s n=%-2d domains=%d  crossing edges, k=2: "
                 "tid tree %d, two-level %d\n",
                 mapping_names[map], n, nd, naive_cross(&l, 2), nd - 1);
        if (verbose)
          print_layout(&l, pu_of_tid);
      }
    }
  }
  /* Not this system: the binding is read from the OS mask. */
  const int cur = ompext_topology_current_domain_pu(topo);
  if (verbose)
    printf("  current_domain_pu on a synthetic topology: %d\n", cur);
  ompext_topology_free(topo);
}

/* ---- the tree re-rooted at any tid, on made-up layouts ------------------- */

typedef struct rooted {
  const ompext_topo_layout_t *l;
  const char *shape;
  int ki, ko;   /* as passed */
  int ki1, ko1; /* clamped to at least 1 */
  int root;
} rooted_t;

#define RFAIL(c, fmt, ...)                                                     \
  fail("[rooted %s n=%d domains=%d k_in=%d k_out=%d root=%d] " fmt,           \
       (c)->shape, (c)->l->nproc, (c)->l->ndomains, (c)->ki, (c)->ko,         \
       (c)->root, __VA_ARGS__)

/* The tid that represents domain d in the tree rooted at c->root. */
static int representative(const rooted_t *c, int d) {
  return d == c->l->domain[c->root] ? c->root : ompext_topology_leader(c->l, d);
}

static int is_representative(const rooted_t *c, int t) {
  return representative(c, c->l->domain[t]) == t;
}

/* Reads t's parent and children; the enumeration must end with -1 and stay
   -1 past its end.  0, or -1 on a broken answer (reported). */
static int read_rooted_node(const rooted_t *c, int t, node_t *me) {
  const ompext_topo_layout_t *l = c->l;
  me->parent = ompext_topology_rooted_parent(l, c->ki, c->ko, c->root, t);
  me->n = 0;
  for (int ch; (ch = ompext_topology_rooted_child(l, c->ki, c->ko, c->root, t,
                                                  me->n)) >= 0;) {
    if (me->n == BIG_CAP) {
      RFAIL(c, "tid %d: more than %d children", t, BIG_CAP);
      return -1;
    }
    me->children[me->n++] = ch;
  }
  const int past[] = {-1, me->n + 1, me->n + 2, me->n + 1000};
  for (size_t i = 0; i < sizeof(past) / sizeof(past[0]); ++i)
    if (ompext_topology_rooted_child(l, c->ki, c->ko, c->root, t, past[i]) !=
        -1)
      RFAIL(c, "tid %d: child number %d (of %d) is not -1", t, past[i],
            me->n);
  return 0;
}

/* t's own links: parent, children, fan-outs, crossing edges.  Returns the
   number of crossing edges below t, or -1 when the links are unusable. */
static int check_rooted_links(const rooted_t *c, const node_t *nodes, int t) {
  const ompext_topo_layout_t *l = c->l;
  const int n = l->nproc;
  const node_t *me = &nodes[t];
  if (t == c->root ? me->parent != -1
                   : me->parent < 0 || me->parent >= n || me->parent == t) {
    RFAIL(c, "tid %d: parent %d", t, me->parent);
    return -1;
  }
  int n_cross = 0, n_local = 0;
  for (int i = 0; i < me->n; ++i) {
    const int ch = me->children[i];
    if (ch < 0 || ch >= n || ch == t || ch == c->root) {
      RFAIL(c, "tid %d: child %d", t, ch);
      return -1;
    }
    if (nodes[ch].parent != t)
      RFAIL(c, "tid %d lists %d, whose parent is %d", t, ch, nodes[ch].parent);
    if (l->domain[ch] == l->domain[t]) {
      ++n_local;
      continue;
    }
    ++n_cross;
    if (!is_representative(c, t) || !is_representative(c, ch))
      RFAIL(c, "edge %d -> %d crosses domains, not between representatives",
            t, ch);
    if (n_local > 0)
      RFAIL(c, "tid %d: crossing child %d listed after a local child", t, ch);
  }
  if (n_cross > (is_representative(c, t) ? c->ko1 : 0) || n_local > c->ki1 ||
      me->n > c->ki1 + c->ko1)
    RFAIL(c, "tid %d: %d crossing + %d local children", t, n_cross, n_local);
  if (t != c->root && is_representative(c, t) &&
      c->ko1 >= l->ndomains - 1 && me->parent != c->root)
    RFAIL(c, "representative %d under %d, not the root (k_out >= %d)", t,
          me->parent, l->ndomains - 1);
  return n_cross;
}

/* From the root, every tid exactly once. */
static void check_rooted_spanning(const rooted_t *c, const node_t *nodes) {
  const int n = c->l->nproc;
  int seen[MAX_N] = {0}, queue[MAX_N], head = 0, tail = 0;
  queue[tail++] = c->root;
  seen[c->root] = 1;
  while (head < tail) {
    const node_t *me = &nodes[queue[head++]];
    for (int i = 0; i < me->n; ++i) {
      const int ch = me->children[i];
      if (seen[ch]++) {
        RFAIL(c, "tid %d reached twice", ch);
        return;
      }
      queue[tail++] = ch;
    }
  }
  if (tail != n)
    RFAIL(c, "%d of %d tids reachable from the root", tail, n);
}

/* One domain: the k_in-ary tree over v = (t - root) mod n. */
static void check_rooted_flat(const rooted_t *c, const node_t *nodes) {
  const int n = c->l->nproc, k = c->ki1, root = c->root;
  for (int t = 0; t < n; ++t) {
    const long long v = (t - root + n) % n;
    const int want_parent = v == 0 ? -1 : (int)(((v - 1) / k + root) % n);
    int same = nodes[t].parent == want_parent, want_n = 0;
    for (long long w = v * k + 1; w <= v * k + k && w < n; ++w, ++want_n)
      same &= want_n < nodes[t].n &&
              nodes[t].children[want_n] == (int)((w + root) % n);
    if (!same || nodes[t].n != want_n)
      RFAIL(c, "tid %d: not the re-rooted %d-ary tid tree", t, k);
  }
}

/* Root 0: what ompext_topology_tree answers. */
static void check_rooted_is_tree(const rooted_t *c, const node_t *nodes) {
  for (int t = 0; t < c->l->nproc; ++t) {
    int parent, children[BIG_CAP];
    const int got = ompext_topology_tree(c->l, c->ki, c->ko, t, &parent,
                                         children, BIG_CAP);
    if (parent != nodes[t].parent || got != nodes[t].n ||
        memcmp(children, nodes[t].children, sizeof(int) * (size_t)got) != 0)
      RFAIL(c, "tid %d: ompext_topology_tree disagrees", t);
  }
}

static void check_rooted(const rooted_t *c) {
  static node_t nodes[MAX_N];
  const int n = c->l->nproc;
  for (int t = 0; t < n; ++t)
    if (read_rooted_node(c, t, &nodes[t]) != 0)
      return;
  int cross = 0;
  for (int t = 0; t < n; ++t) {
    const int below = check_rooted_links(c, nodes, t);
    if (below < 0)
      return;
    cross += below;
  }
  if (cross != c->l->ndomains - 1)
    RFAIL(c, "%d edges cross domains, expected %d", cross,
          c->l->ndomains - 1);
  check_rooted_spanning(c, nodes);
  if (c->l->ndomains == 1)
    check_rooted_flat(c, nodes);
  if (c->root == 0)
    check_rooted_is_tree(c, nodes);
}

/* A tid or root outside the layout gets -1. */
static void check_rooted_outside(const ompext_topo_layout_t *l) {
  const int n = l->nproc, bad[] = {-1, n, n + 7};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i)
    if (ompext_topology_rooted_parent(l, 2, 2, 0, bad[i]) != -1 ||
        ompext_topology_rooted_parent(l, 2, 2, bad[i], 0) != -1 ||
        ompext_topology_rooted_child(l, 2, 2, 0, bad[i], 0) != -1 ||
        ompext_topology_rooted_child(l, 2, 2, bad[i], 0, 0) != -1)
      fail("[rooted n=%d domains=%d] tid or root %d outside the layout "
           "answered",
           n, l->ndomains, bad[i]);
}

/* Fan-outs 0 (counts as 1), 1..4 and n-1, without repeats. */
static int rooted_fanouts(int n, int *k) {
  int count = 0;
  for (int v = 0; v <= 4; ++v)
    k[count++] = v;
  if (n - 1 > 4)
    k[count++] = n - 1;
  return count;
}

static void run_rooted_layouts(void) {
  static const char *const shape_names[TU_LAYOUT_SHAPES] = {
      "random", "round-robin", "blocks"};
  static const int sizes[] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                              11, 12, 13, 14, 15, 16, 17, 31, 64};
  int mem_ints[4 * MAX_N + 1];
  unsigned long trees = 0;
  const int before = failures;
  for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); ++s) {
    const int n = sizes[s];
    int ks[8];
    const int nk = rooted_fanouts(n, ks);
    for (int nd = 1; nd <= n; ++nd) {
      for (int shape = 0; shape < TU_LAYOUT_SHAPES; ++shape) {
        ompext_topo_layout_t l;
        tu_layout_fill(&l, mem_ints, n, nd, (tu_layout_shape_t)shape,
                       (uint64_t)n * 1000 + (uint64_t)nd);
        check_order(&(ctx_t){shape_names[shape], "made up", n}, &l);
        check_rooted_outside(&l);
        for (int a = 0; a < nk; ++a)
          for (int b = 0; b < nk; ++b)
            for (int root = 0; root < n; ++root, ++trees)
              check_rooted(&(rooted_t){&l, shape_names[shape], ks[a], ks[b],
                                       ks[a] < 1 ? 1 : ks[a],
                                       ks[b] < 1 ? 1 : ks[b], root});
      }
    }
  }
  printf("rooted trees: %lu (layout, k_in, k_out, root) checked, %d "
         "failure(s)\n",
         trees, failures - before);
}

static void run_api_checks(void) {
  if (!ompext_topology_api_compatible(0x00020800u, 0x00020800u) ||
      !ompext_topology_api_compatible(0x00020800u, 0x00020b00u) ||
      !ompext_topology_api_compatible(0x00020800u, 0x00020000u) ||
      ompext_topology_api_compatible(0x00020800u, 0x00030000u) ||
      ompext_topology_api_compatible(0x00020800u, 0x00010b00u))
    fail("the version rule is not 'same major version'");

  /* The last three ask for more than 4096 PUs: refused before hwloc
     spends seconds (quadratic in the PUs) loading them. */
  const char *bad[] = {"nonsense:3",
                       "package:2 core:",
                       "",
                       "100000",
                       "package:64 core:64 pu:2",
                       "numa:2(memory=1GB) core:4097 pu:1"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i) {
    ompext_topology_t *t = ompext_topology_load_synthetic(bad[i]);
    if (t) {
      fail("synthetic \"%s\" accepted", bad[i]);
      ompext_topology_free(t);
    } else if (ompext_topology_error()[0] == '\0') {
      fail("synthetic \"%s\" refused without a reason", bad[i]);
    }
  }
  if (ompext_topology_load_synthetic(NULL) != NULL)
    fail("synthetic NULL accepted");
  const char *large[] = {"4096", "package:2 l3cache:2 core:16 pu:2"};
  for (size_t i = 0; i < sizeof(large) / sizeof(large[0]); ++i) {
    ompext_topology_t *t = ompext_topology_load_synthetic(large[i]);
    if (!t)
      fail("synthetic \"%s\" refused: %s", large[i], ompext_topology_error());
    ompext_topology_free(t);
  }

  /* NULL topology: flat. */
  int pu[5] = {0, 1, 2, 3, 4}, dom[5] = {9, 9, 9, 9, 9};
  if (ompext_topology_domains(NULL, 5, pu, dom) != 1 || dom[0] || dom[4])
    fail("no topology is not flat");
  if (ompext_topology_domains(NULL, 0, pu, dom) != 0)
    fail("an empty team has domains");
  if (ompext_topology_current_domain_pu(NULL) != -1)
    fail("no topology gives a current PU");

  /* Badly numbered domains are refused. */
  int order[4], rank[4], dstart[5];
  const int bad1[] = {1, 0, 0, 1}; /* tid 0 not in domain 0 */
  const int bad2[] = {0, 2, 1, 1}; /* 2 before 1 */
  const int good[] = {0, 1, 0, 1};
  if (ompext_topology_order(4, bad1, 2, order, rank, dstart) != -1 ||
      ompext_topology_order(4, bad2, 3, order, rank, dstart) != -1 ||
      ompext_topology_order(4, good, 3, order, rank, dstart) != -1 ||
      ompext_topology_order(4, good, 1, order, rank, dstart) != -1 ||
      ompext_topology_order(0, good, 1, order, rank, dstart) != -1)
    fail("ompext_topology_order accepted badly numbered domains");
  if (ompext_topology_order(4, good, 2, order, rank, dstart) != 0 ||
      order[0] != 0 || order[1] != 2 || order[2] != 1 || order[3] != 3 ||
      dstart[0] != 0 || dstart[1] != 2 || dstart[2] != 4 || rank[2] != 1)
    fail("ompext_topology_order of {0,1,0,1} is wrong");
}

/* The real machine: load, print, and read back a pinned binding. */
static void run_real_machine(void) {
  ompext_topology_t *topo = ompext_topology_load();
  if (!topo) {
    printf("real machine: no topology (%s); the plugin would stay flat\n",
           ompext_topology_error());
    return;
  }
  char line[256];
  ompext_topology_describe(topo, line, sizeof(line));
  printf("real machine: %s\n", line);
  printf("  PU:domain");
  int shown = 0;
  const ompext_topology_counts_t counts = ompext_topology_counts(topo);
  for (int pu = 0; shown < counts.pus && pu < 1 << 16; ++pu) {
    const int d = ompext_topology_pu_domain(topo, pu);
    if (d < 0)
      continue;
    if (shown++ < 32)
      printf(" %d:%d", pu, d);
  }
  printf("%s\n", shown > 32 ? " ..." : "");
  if (counts.domains < 1)
    fail("real machine: %d domains", counts.domains);

  cpu_set_t saved, one;
  CPU_ZERO(&saved);
  if (sched_getaffinity(0, sizeof(saved), &saved) != 0) {
    printf("  binding: sched_getaffinity refused; not checked\n");
    ompext_topology_free(topo);
    return;
  }
  const int ncpu = CPU_COUNT(&saved);
  int first = -1;
  for (int i = 0; i < CPU_SETSIZE && first < 0; ++i)
    if (CPU_ISSET(i, &saved))
      first = i;
  /* Unpinned: the lowest allowed CPU when all lie in one domain. */
  int one_domain = first >= 0;
  for (int i = first + 1; i < CPU_SETSIZE && one_domain; ++i)
    if (CPU_ISSET(i, &saved) && ompext_topology_pu_domain(topo, i) !=
                                    ompext_topology_pu_domain(topo, first))
      one_domain = 0;
  const int unpinned_dom = ompext_topology_current_domain_pu(topo);
  printf("  this thread: %d CPU(s) allowed, current_domain_pu %d\n", ncpu,
         unpinned_dom);
  if (unpinned_dom != (one_domain ? first : -1))
    fail("real machine: current_domain_pu %d with %d CPU(s) allowed in %s",
         unpinned_dom, ncpu, one_domain ? "one domain" : "several domains");
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  if (first < 0 || sched_setaffinity(0, sizeof(one), &one) != 0) {
    printf("  binding: pinning refused; not checked\n");
  } else {
    const int pinned_dom = ompext_topology_current_domain_pu(topo);
    printf("  pinned to CPU %d: current_domain_pu %d\n", first, pinned_dom);
    if (pinned_dom != first)
      fail("real machine: pinned to %d, read back %d", first, pinned_dom);
    if (sched_setaffinity(0, sizeof(saved), &saved) != 0)
      fail("real machine: could not restore the affinity mask");
  }
  ompext_topology_free(topo);
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "-v") == 0) {
      verbose = 1;
    } else {
      printf("usage: %s [-v]\n  -v  print the layouts\n", argv[0]);
      return strcmp(argv[i], "-h") == 0 ? 0 : 2;
    }
  }
#ifdef OMPEXT_NO_HWLOC
  (void)machines;
  (void)run_machine;
  (void)run_real_machine;
  if (ompext_topology_load() != NULL || !ompext_topology_error()[0])
    fail("built without hwloc, but a topology loaded");
  printf("built without hwloc: synthetic and real-machine checks skipped\n");
#else
  for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); ++i)
    run_machine(&machines[i]);
  run_real_machine();
#endif
  run_rooted_layouts();
  run_api_checks();
  if (failures) {
    fprintf(stderr, "validate_topology: %d check(s) failed\n", failures);
    return 1;
  }
  printf("validate_topology: all checks passed\n");
  return 0;
}
