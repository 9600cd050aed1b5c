/*
 * Topology awareness (see topology.h).
 *
 * Loading walks the hwloc tree once and keeps a table PU os-index ->
 * machine-wide domain; everything after that (a team's domains, its
 * ordering, the two-level tree) is plain arithmetic on int arrays, so the
 * plugin never calls hwloc outside team set-up.
 *
 * The costly level follows the multi-leader idea (Kandalla et al., "Designing
 * Multi-Leader-Based Allgather Algorithms for Multi-Core Clusters": at most
 * one leader per socket) and the cache-coherence cost model of Ramos and
 * Hoefler, "Modelling Communications in Cache Coherent Systems" (on their
 * Sandy Bridge a modified line read from the other package costs about
 * 115 ns against about 42 ns inside the package).  So a domain is a
 * package, or each of its L3 caches when it has several: a line then moves
 * between separate L3s, the expensive hop, inside one package too.
 *
 * Build with -DOMPEXT_NO_HWLOC to get the pure functions only: the loaders
 * then return NULL ("built without hwloc") and every team stays flat.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getaffinity, CPU_ISSET */
#endif
#include "topology.h"

#include <limits.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef OMPEXT_NO_HWLOC
#include <hwloc.h>
/* The 2.x API: object types, type filters, hwloc_get_api_version(). */
#if !defined(HWLOC_API_VERSION) || HWLOC_API_VERSION < 0x00020000 ||         \
    HWLOC_API_VERSION >= 0x00030000
#error "omp-ext topology.c needs the hwloc 2.x API"
#endif
#endif

struct ompext_topology {
#ifndef OMPEXT_NO_HWLOC
  hwloc_topology_t hw;
#endif
  int npus;
  int ndomains;
  int npackages;
  int nl3;
  int ncores;
  int max_os;     /* pu_domain has max_os + 1 entries */
  int *pu_domain; /* PU os-index -> machine domain, -1 when absent */
  const char *kind;
};

/* ---- errors ------------------------------------------------------------- */

static _Thread_local char error_text[200];

static void set_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(error_text, sizeof(error_text), fmt, ap);
  va_end(ap);
}

const char *ompext_topology_error(void) { return error_text; }

int ompext_topology_api_compatible(unsigned built, unsigned running) {
  /* 0xMMmmrr: the ABI is stable within a major version. */
  return (built >> 16) == (running >> 16);
}

/* ---- loading ------------------------------------------------------------ */

#ifndef OMPEXT_NO_HWLOC

/* The object whose PUs form pu's domain. */
static hwloc_obj_t domain_object(hwloc_topology_t hw, hwloc_obj_t pu,
                                 int *split) {
  hwloc_obj_t box = hwloc_get_ancestor_obj_by_type(hw, HWLOC_OBJ_PACKAGE, pu);
  if (!box)
    box = hwloc_get_root_obj(hw);
  if (hwloc_get_nbobjs_inside_cpuset_by_type(hw, box->cpuset,
                                             HWLOC_OBJ_L3CACHE) >= 2) {
    hwloc_obj_t l3 = hwloc_get_ancestor_obj_by_type(hw, HWLOC_OBJ_L3CACHE, pu);
    if (l3) {
      *split = 1;
      return l3;
    }
  }
  return box;
}

static int count_type(hwloc_topology_t hw, hwloc_obj_type_t type) {
  int n = hwloc_get_nbobjs_by_type(hw, type);
  return n < 0 ? 0 : n;
}

/* Fills the PU -> domain table and the counts.  0 or -1 (error set). */
static int index_topology(ompext_topology_t *t) {
  hwloc_topology_t hw = t->hw;
  const int npu = count_type(hw, HWLOC_OBJ_PU);
  if (npu < 1) {
    set_error("hwloc found no PU");
    return -1;
  }
  int max_os = 0;
  for (int i = 0; i < npu; ++i) {
    hwloc_obj_t pu = hwloc_get_obj_by_type(hw, HWLOC_OBJ_PU, (unsigned)i);
    if (!pu || pu->os_index > (unsigned)INT_MAX / 2) {
      set_error("hwloc PU %d has no usable os-index", i);
      return -1;
    }
    if ((int)pu->os_index > max_os)
      max_os = (int)pu->os_index;
  }
  t->pu_domain = malloc(sizeof(int) * ((size_t)max_os + 1));
  hwloc_obj_t *keys = malloc(sizeof(hwloc_obj_t) * (size_t)npu);
  if (!t->pu_domain || !keys) {
    free(keys);
    set_error("out of memory");
    return -1;
  }
  for (int i = 0; i <= max_os; ++i)
    t->pu_domain[i] = -1;
  int nd = 0, split = 0;
  for (int i = 0; i < npu; ++i) {
    hwloc_obj_t pu = hwloc_get_obj_by_type(hw, HWLOC_OBJ_PU, (unsigned)i);
    hwloc_obj_t key = domain_object(hw, pu, &split);
    int d = 0;
    while (d < nd && keys[d] != key)
      ++d;
    if (d == nd)
      keys[nd++] = key;
    t->pu_domain[pu->os_index] = d;
  }
  free(keys);
  t->npus = npu;
  t->ndomains = nd;
  t->max_os = max_os;
  t->npackages = count_type(hw, HWLOC_OBJ_PACKAGE);
  t->nl3 = count_type(hw, HWLOC_OBJ_L3CACHE);
  t->ncores = count_type(hw, HWLOC_OBJ_CORE);
  t->kind = split ? "l3cache" : t->npackages > 0 ? "package" : "machine";
  return 0;
}

static ompext_topology_t *load(const char *synthetic) {
  error_text[0] = '\0';
  const unsigned running = hwloc_get_api_version();
  if (!ompext_topology_api_compatible(HWLOC_API_VERSION, running)) {
    set_error("hwloc API %u.%u at run time, built against %u.%u",
              running >> 16, (running >> 8) & 0xffu,
              (unsigned)HWLOC_API_VERSION >> 16,
              ((unsigned)HWLOC_API_VERSION >> 8) & 0xffu);
    return NULL;
  }
  ompext_topology_t *t = calloc(1, sizeof(*t));
  if (!t) {
    set_error("out of memory");
    return NULL;
  }
  if (hwloc_topology_init(&t->hw) != 0) {
    set_error("hwloc_topology_init failed");
    free(t);
    return NULL;
  }
  /* Only packages, L3 caches, cores and PUs matter here: a smaller tree
     loads faster. */
  hwloc_topology_set_cache_types_filter(t->hw, HWLOC_TYPE_FILTER_KEEP_NONE);
  hwloc_topology_set_type_filter(t->hw, HWLOC_OBJ_L3CACHE,
                                 HWLOC_TYPE_FILTER_KEEP_ALL);
  hwloc_topology_set_io_types_filter(t->hw, HWLOC_TYPE_FILTER_KEEP_NONE);
  if (synthetic && hwloc_topology_set_synthetic(t->hw, synthetic) != 0) {
    set_error("invalid hwloc synthetic description \"%s\"", synthetic);
    hwloc_topology_destroy(t->hw);
    free(t);
    return NULL;
  }
  if (hwloc_topology_load(t->hw) != 0) {
    set_error("hwloc_topology_load failed");
    hwloc_topology_destroy(t->hw);
    free(t);
    return NULL;
  }
  if (index_topology(t) != 0) {
    ompext_topology_free(t);
    return NULL;
  }
  return t;
}

ompext_topology_t *ompext_topology_load(void) { return load(NULL); }

/* Loading a synthetic topology takes time quadratic in its PUs (about 1 s
   for 4096 on a 2-core test machine, four times that per doubling), inside
   the runtime's start-up lock: larger descriptions are refused. */
#define SYNTHETIC_MAX_PUS 4096

/* The PUs a synthetic description asks for: the product of its levels'
   arities ("package:2 core:4 pu:2", or plain "2 4 2"; attributes in
   parentheses skipped), saturated at SYNTHETIC_MAX_PUS + 1; -1 when a
   level has no arity we can read (hwloc then judges the text). */
static long synthetic_pus(const char *desc) {
  long pus = 1;
  const char *p = desc;
  while (*p) {
    while (*p == ' ' || *p == '\t' || *p == '\n')
      ++p;
    if (!*p)
      break;
    /* One level: up to the next blank outside parentheses. */
    const char *digits = NULL;
    int depth = 0;
    for (; *p && (depth > 0 || (*p != ' ' && *p != '\t' && *p != '\n'));
         ++p) {
      if (*p == '(')
        ++depth;
      else if (*p == ')')
        --depth;
      else if (depth == 0 && (p == desc || p[-1] == ':' || p[-1] == ' ' ||
                              p[-1] == '\t' || p[-1] == '\n') &&
               *p >= '0' && *p <= '9')
        digits = p;
    }
    if (!digits)
      return -1;
    long arity = 0;
    while (*digits >= '0' && *digits <= '9' && arity <= SYNTHETIC_MAX_PUS)
      arity = arity * 10 + (*digits++ - '0');
    pus *= arity;
    if (pus > SYNTHETIC_MAX_PUS)
      return SYNTHETIC_MAX_PUS + 1;
  }
  return pus;
}

ompext_topology_t *ompext_topology_load_synthetic(const char *desc) {
  if (!desc) {
    set_error("no synthetic description");
    return NULL;
  }
  if (synthetic_pus(desc) > SYNTHETIC_MAX_PUS) {
    set_error("synthetic description \"%s\" has more than %d PUs", desc,
              SYNTHETIC_MAX_PUS);
    return NULL;
  }
  return load(desc);
}

void ompext_topology_free(ompext_topology_t *topo) {
  if (!topo)
    return;
  hwloc_topology_destroy(topo->hw);
  free(topo->pu_domain);
  free(topo);
}

/* The calling thread's binding, or NULL. */
static hwloc_bitmap_t current_binding(const ompext_topology_t *topo) {
  if (!topo)
    return NULL;
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  if (!set)
    return NULL;
  int failed;
  if (hwloc_topology_is_thissystem(topo->hw)) {
    failed = hwloc_get_cpubind(topo->hw, set, HWLOC_CPUBIND_THREAD) != 0;
  } else {
    /* A synthetic topology cannot query bindings: ask the OS for the
       calling thread's mask and read it against the synthetic PUs. */
    cpu_set_t mask;
    failed = sched_getaffinity(0, sizeof(mask), &mask) != 0;
    for (int cpu = 0; !failed && cpu < CPU_SETSIZE; ++cpu)
      if (CPU_ISSET(cpu, &mask))
        hwloc_bitmap_set(set, (unsigned)cpu);
  }
  if (failed || hwloc_bitmap_weight(set) < 1) { /* error, empty, infinite */
    hwloc_bitmap_free(set);
    return NULL;
  }
  return set;
}

int ompext_topology_current_domain_pu(const ompext_topology_t *topo) {
  hwloc_bitmap_t set = current_binding(topo);
  if (!set)
    return -1;
  int pu = hwloc_bitmap_first(set);
  const int d = ompext_topology_pu_domain(topo, pu);
  if (d < 0)
    pu = -1;
  for (int i = pu; i >= 0; i = hwloc_bitmap_next(set, i))
    if (ompext_topology_pu_domain(topo, i) != d) {
      pu = -1;
      break;
    }
  hwloc_bitmap_free(set);
  return pu;
}

#else /* OMPEXT_NO_HWLOC */

ompext_topology_t *ompext_topology_load(void) {
  set_error("built without hwloc");
  return NULL;
}

ompext_topology_t *ompext_topology_load_synthetic(const char *desc) {
  (void)desc;
  set_error("built without hwloc");
  return NULL;
}

void ompext_topology_free(ompext_topology_t *topo) {
  if (topo)
    free(topo->pu_domain);
  free(topo);
}

int ompext_topology_current_domain_pu(const ompext_topology_t *topo) {
  (void)topo;
  return -1;
}

#endif /* OMPEXT_NO_HWLOC */

/* ---- queries ------------------------------------------------------------ */

ompext_topology_counts_t ompext_topology_counts(const ompext_topology_t *topo) {
  if (!topo)
    return (ompext_topology_counts_t){.domains = 1};
  return (ompext_topology_counts_t){topo->npackages, topo->nl3, topo->ncores,
                                    topo->npus, topo->ndomains};
}

int ompext_topology_machine_counts(const ompext_topology_t *topo,
                                   int *packages, int *cores, int *pus,
                                   int *l3s) {
#ifndef OMPEXT_NO_HWLOC
  if (topo && hwloc_topology_is_thissystem(topo->hw)) {
    *packages = hwloc_get_nbobjs_by_type(topo->hw, HWLOC_OBJ_PACKAGE);
    *cores = hwloc_get_nbobjs_by_type(topo->hw, HWLOC_OBJ_CORE);
    *pus = hwloc_get_nbobjs_by_type(topo->hw, HWLOC_OBJ_PU);
    *l3s = hwloc_get_nbobjs_by_type(topo->hw, HWLOC_OBJ_L3CACHE);
    return 0;
  }
#else
  (void)topo, (void)packages, (void)cores, (void)pus, (void)l3s;
#endif
  return -1;
}

int ompext_topology_pu_domain(const ompext_topology_t *topo,
                              int pu_os_index) {
  if (!topo || pu_os_index < 0 || pu_os_index > topo->max_os)
    return -1;
  return topo->pu_domain[pu_os_index];
}

const char *ompext_topology_domain_kind(const ompext_topology_t *topo) {
  return topo ? topo->kind : "none";
}

int ompext_topology_describe(const ompext_topology_t *topo, char *buf,
                             size_t cap) {
  if (!topo)
    return snprintf(buf, cap, "no topology");
  const ompext_topology_counts_t c = ompext_topology_counts(topo);
  return snprintf(buf, cap,
                  "%d package(s), %d L3, %d core(s), %d PU(s); %d domain(s) "
                  "by %s",
                  c.packages, c.l3s, c.cores, c.pus, c.domains, topo->kind);
}

/* ---- team layout -------------------------------------------------------- */

int ompext_topology_domains(const ompext_topology_t *topo, int nproc,
                            const int *pu_of_tid, int *domain) {
  if (nproc < 1)
    return 0;
  int flat = topo == NULL;
  /* Machine domain g is kept as -(g + 1) until renumbered. */
  for (int t = 0; t < nproc && !flat; ++t) {
    const int g = ompext_topology_pu_domain(topo, pu_of_tid[t]);
    if (g < 0)
      flat = 1;
    else
      domain[t] = -(g + 1);
  }
  if (flat) {
    for (int t = 0; t < nproc; ++t)
      domain[t] = 0;
    return 1;
  }
  /* Number them by lowest tid: O(nproc * domains), once per team. */
  int next = 0;
  for (int t = 0; t < nproc; ++t) {
    const int g = domain[t];
    if (g >= 0)
      continue;
    for (int u = t; u < nproc; ++u)
      if (domain[u] == g)
        domain[u] = next;
    ++next;
  }
  return next;
}

int ompext_topology_order(int nproc, const int *domain, int ndomains,
                          int *order, int *rank, int *dstart) {
  if (nproc < 1 || ndomains < 1 || ndomains > nproc)
    return -1;
  int top = -1;
  for (int t = 0; t < nproc; ++t) {
    if (domain[t] < 0 || domain[t] > top + 1)
      return -1;
    if (domain[t] == top + 1)
      top = domain[t];
  }
  if (top + 1 != ndomains)
    return -1;
  /* Counting sort, stable in tid. */
  for (int d = 0; d <= ndomains; ++d)
    dstart[d] = 0;
  for (int t = 0; t < nproc; ++t)
    ++dstart[domain[t] + 1];
  for (int d = 0; d < ndomains; ++d)
    dstart[d + 1] += dstart[d];
  for (int t = 0; t < nproc; ++t)
    order[dstart[domain[t]]++] = t; /* dstart[d] runs to the end of d */
  for (int d = ndomains; d > 0; --d)
    dstart[d] = dstart[d - 1];
  dstart[0] = 0;
  for (int r = 0; r < nproc; ++r)
    rank[order[r]] = r;
  return 0;
}

size_t ompext_topology_layout_size(int nproc) {
  const size_t n = nproc < 1 ? 0 : (size_t)nproc;
  return sizeof(int) * (4 * n + 1);
}

void ompext_topology_layout_init(ompext_topo_layout_t *l, void *mem,
                                 int nproc) {
  int *p = mem;
  const int n = nproc < 1 ? 0 : nproc;
  l->nproc = n;
  l->ndomains = 1;
  l->domain = p;
  l->order = p + n;
  l->rank = p + 2 * n;
  l->dstart = p + 3 * n;
  for (int t = 0; t < n; ++t) {
    l->domain[t] = 0;
    l->order[t] = t;
    l->rank[t] = t;
  }
  l->dstart[0] = 0;
  if (n > 0)
    l->dstart[1] = n;
}

int ompext_topology_layout_build(const ompext_topology_t *topo,
                                 const int *pu_of_tid,
                                 ompext_topo_layout_t *l) {
  const int n = l->nproc;
  if (n < 1)
    return 0;
  int nd = ompext_topology_domains(topo, n, pu_of_tid, l->domain);
  if (ompext_topology_order(n, l->domain, nd, l->order, l->rank,
                            l->dstart) != 0) {
    /* Cannot happen with ompext_topology_domains' numbering: stay flat. */
    ompext_topology_layout_init(l, l->domain, n);
    nd = 1;
  }
  l->ndomains = nd;
  return nd;
}

/* Where tid sits in the two-level tree rooted at root. */
typedef struct rooted_pos {
  long long ki, ko;  /* fan-outs, at least 1 */
  int d, droot, nd;  /* tid's domain, the root's, how many */
  long long base;    /* first rank of domain d */
  long long size;    /* threads in domain d */
  long long rep;     /* index of domain d's representative in it */
  long long v;       /* tid's index relative to the representative */
  long long dv;      /* domain d relative to the root's domain */
} rooted_pos_t;

static void rooted_pos(const ompext_topo_layout_t *l, int k_in, int k_out,
                       int root, int tid, rooted_pos_t *p) {
  p->ki = k_in < 1 ? 1 : k_in;
  p->ko = k_out < 1 ? 1 : k_out;
  p->nd = l->ndomains;
  p->d = l->domain[tid];
  p->droot = l->domain[root];
  p->base = l->dstart[p->d];
  p->size = l->dstart[p->d + 1] - p->base;
  /* The root represents its own domain; a leader every other one. */
  p->rep = p->d == p->droot ? l->rank[root] - p->base : 0;
  p->v = (l->rank[tid] - p->base - p->rep + p->size) % p->size;
  p->dv = (p->d - p->droot + p->nd) % p->nd;
}

/* tid of the representative of the domain dv places after the root's. */
static int rooted_rep(const ompext_topo_layout_t *l, const rooted_pos_t *p,
                      long long dv, int root) {
  int d = (int)((dv + p->droot) % p->nd);
  return d == p->droot ? root : ompext_topology_leader(l, d);
}

/* tid of the member with index v relative to the representative. */
static int rooted_member(const ompext_topo_layout_t *l, const rooted_pos_t *p,
                         long long v) {
  return l->order[p->base + (v + p->rep) % p->size];
}

static int in_layout(const ompext_topo_layout_t *l, int tid) {
  return tid >= 0 && tid < l->nproc;
}

int ompext_topology_rooted_parent(const ompext_topo_layout_t *l, int k_in,
                                  int k_out, int root, int tid) {
  if (!in_layout(l, tid) || !in_layout(l, root) || tid == root)
    return -1;
  rooted_pos_t p;
  rooted_pos(l, k_in, k_out, root, tid, &p);
  if (p.v == 0) /* a representative: its parent represents another domain */
    return rooted_rep(l, &p, (p.dv - 1) / p.ko, root);
  return rooted_member(l, &p, (p.v - 1) / p.ki);
}

int ompext_topology_rooted_child(const ompext_topo_layout_t *l, int k_in,
                                 int k_out, int root, int tid, int j) {
  if (!in_layout(l, tid) || !in_layout(l, root) || j < 0)
    return -1;
  rooted_pos_t p;
  rooted_pos(l, k_in, k_out, root, tid, &p);
  long long c;
  if (p.v == 0) {
    /* Representatives of other domains first (release order: the longest
       subtrees start first), then the own domain. */
    const long long first = p.dv * p.ko + 1;
    long long across = p.nd - first;
    if (across > p.ko)
      across = p.ko;
    if (across < 0)
      across = 0;
    if (j < across)
      return rooted_rep(l, &p, first + j, root);
    j -= (int)across;
  }
  c = p.v * p.ki + 1 + j;
  if (j >= p.ki || c >= p.size)
    return -1;
  return rooted_member(l, &p, c);
}

int ompext_topology_tree(const ompext_topo_layout_t *l, int k_in, int k_out,
                         int tid, int *parent, int *children, int cap) {
  int n = 0;
  *parent = ompext_topology_rooted_parent(l, k_in, k_out, 0, tid);
  for (int c; n < cap &&
              (c = ompext_topology_rooted_child(l, k_in, k_out, 0, tid, n)) >= 0;)
    children[n++] = c;
  return n;
}
