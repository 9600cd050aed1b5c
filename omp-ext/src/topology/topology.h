/*
 * Topology awareness (hwloc): which threads of a team share a "domain" at
 * the costly level of the machine, and a tid ordering / two-level tree that
 * crosses that level as few times as possible (see topology.c).
 *
 * Domain: the package a PU belongs to, or its L3 cache when that package
 * holds several L3 caches (one L3 per CCX/CCD, for instance).  A machine
 * without package objects counts as one package.
 *
 * Life cycle, as the plugin uses it:
 *   1. once per process, when the runtime first asks for the plugin's
 *      operations (plugin.c; kept across runtime restarts):
 *      ompext_topology_load() (a few milliseconds; NULL means "no
 *      topology": every team stays flat);
 *   2. at each fork and join of a team until its layout is built, each
 *      thread records pu_of_tid[tid] =
 *      ompext_topology_current_domain_pu(topo) (team.c; the runtime binds a
 *      worker only after its first fork);
 *   3. once per team, by the primary at a fork with every worker parked,
 *      once every thread has reported (after a few forks without, the team
 *      stays flat): ompext_topology_layout_build(topo, pu_of_tid, &layout);
 *   4. per fork/join (compiled into a table, forkjoin_tree.h), reduction
 *      and broadcast: ompext_topology_tree / ompext_topology_rooted_child
 *      over the layout, O(k) reads of read-only arrays, no hwloc call.
 * Everything but loading and freeing is safe to call from many threads at
 * once on the same topology.
 */
#ifndef OMPEXT_TOPOLOGY_H
#define OMPEXT_TOPOLOGY_H

#include <stddef.h>

typedef struct ompext_topology ompext_topology_t;

/* ---- loading ------------------------------------------------------------ */

/* The machine this process runs on.  NULL on failure (hwloc of another major
   version at run time, load error, no memory); then
   ompext_topology_error() says why. */
ompext_topology_t *ompext_topology_load(void);
/* A synthetic topology from an hwloc synthetic description, e.g.
   "package:2 l3cache:1 core:4 pu:1".  PU os-indexes are those the
   description gives (by default 0..N-1 in logical order). */
ompext_topology_t *ompext_topology_load_synthetic(const char *desc);
void ompext_topology_free(ompext_topology_t *topo);

/* Why the last load on the calling thread returned NULL (a static or
   thread-local string; "" when none failed). */
const char *ompext_topology_error(void);

/* The version rule of the loaders: an hwloc library reporting run-time API
   version running may serve code built against API version built when both
   have the same major version.  Exposed for the tests. */
int ompext_topology_api_compatible(unsigned built, unsigned running);

/* ---- queries ------------------------------------------------------------ */

/* Whole-machine counts of a topology (for NULL: one domain, nothing else). */
typedef struct ompext_topology_counts {
  int packages, l3s, cores, pus;
  int domains; /* >= 1 */
} ompext_topology_counts_t;
ompext_topology_counts_t ompext_topology_counts(const ompext_topology_t *topo);
/* Whole-machine object counts of a topology loaded from this machine (not a
   synthetic one): 0 and the counts, else -1. */
int ompext_topology_machine_counts(const ompext_topology_t *topo,
                                   int *packages, int *cores, int *pus,
                                   int *l3s);
/* Machine-wide domain (0..ndomains-1, in logical PU order) of the PU with
   this os-index; -1 when there is no such PU. */
int ompext_topology_pu_domain(const ompext_topology_t *topo, int pu_os_index);
/* "package", "l3cache" (some package has several L3) or "machine". */
const char *ompext_topology_domain_kind(const ompext_topology_t *topo);
/* One line: counts of packages, L3 caches, cores, PUs and domains.  Returns
   what snprintf returns. */
int ompext_topology_describe(const ompext_topology_t *topo, char *buf,
                             size_t cap);

/* ---- the calling thread ------------------------------------------------- */

/* A PU that places the calling thread in its domain: the lowest os-index
   of its binding (hwloc_get_cpubind with HWLOC_CPUBIND_THREAD) when every
   PU of that binding lies in one domain (one PU; OMP_PLACES=cores with SMT;
   a place of one L3; ...); else -1 (bound across domains, no topology, or
   binding not supported).  Allocates and frees one hwloc bitmap: call it
   at forks and joins, never per barrier. */
int ompext_topology_current_domain_pu(const ompext_topology_t *topo);

/* ---- team layout (pure functions, no hwloc call) ------------------------ */

/* domain[t] for each tid t of a team of nproc threads, whose PUs (os-index,
   or -1 for unbound/unknown) are pu_of_tid[t].  Domains are numbered in
   the order of their lowest tid: domain[0] == 0, and scanning tids upwards
   each domain not seen yet takes the next number.  Any tid with PU -1, or a
   PU the topology lacks, or topo == NULL, makes the team flat: every
   domain[t] = 0.  Returns the number of domains (1 when flat; 0 when
   nproc < 1). */
int ompext_topology_domains(const ompext_topology_t *topo, int nproc,
                            const int *pu_of_tid, int *domain);

/* Groups the tids by domain.  domain[] must be numbered as
   ompext_topology_domains numbers it, with ndomains domains.  Writes
   order[r] (rank r -> tid; tids of domain d at ranks dstart[d] ..
   dstart[d+1]-1, in increasing tid order, so order[0] == 0 and each
   domain's first rank holds its leader, its lowest tid), rank[t] (the
   inverse) and dstart[0..ndomains].  Returns 0, or -1 (nothing written
   reliably) when domain[] is not numbered that way. */
int ompext_topology_order(int nproc, const int *domain, int ndomains,
                          int *order, int *rank, int *dstart);

/* A team's layout: the arrays above, in memory the caller owns. */
typedef struct ompext_topo_layout {
  int nproc;
  int ndomains;
  int *domain; /* [nproc]     tid -> domain */
  int *order;  /* [nproc]     rank -> tid */
  int *rank;   /* [nproc]     tid -> rank */
  int *dstart; /* [nproc + 1] domain -> first rank; [ndomains] == nproc */
} ompext_topo_layout_t;

/* Bytes of the arrays of a layout for nproc threads. */
size_t ompext_topology_layout_size(int nproc);
/* Points the arrays into mem (ompext_topology_layout_size(nproc) bytes,
   int-aligned) and fills the flat layout: one domain, order = identity. */
void ompext_topology_layout_init(ompext_topo_layout_t *l, void *mem,
                                 int nproc);
/* ompext_topology_domains + ompext_topology_order into an initialised
   layout of l->nproc threads.  Returns the number of domains. */
int ompext_topology_layout_build(const ompext_topology_t *topo,
                                 const int *pu_of_tid,
                                 ompext_topo_layout_t *l);

/* Leader (lowest tid) of domain d. */
static inline int ompext_topology_leader(const ompext_topo_layout_t *l,
                                         int d) {
  return l->order[l->dstart[d]];
}

/* The two-level tree over a layout, with the contract of
   ompext_forkjoin_tree: writes the parent of tid (-1 for tid 0) and up to
   cap of its children; returns the number written.
     - inside each domain, a k_in-ary tree over the domain's ranks, rooted at
       its leader (children of local index i: i*k_in+1 .. i*k_in+k_in);
     - across domains, a k_out-ary tree over the domain numbers among the
       leaders (children of domain d: d*k_out+1 .. d*k_out+k_out), rooted at
       tid 0; with k_out >= ndomains-1 every other leader is a child of tid 0.
   A leader lists its leader children first (release order: the longest
   subtrees start first), then its own domain's children.  Exactly
   ndomains-1 edges cross domains, all between leaders.  k_in and k_out
   below 1 count as 1.  The tree is complete when cap >= k_in + k_out.  With
   one domain it is the k_in-ary tree of ompext_forkjoin_tree in tid order. */
int ompext_topology_tree(const ompext_topo_layout_t *l, int k_in, int k_out,
                         int tid, int *parent, int *children, int cap);

/* The same two-level tree re-rooted at any tid, for the broadcast (whose
   root is whichever thread won the single): the root represents its own
   domain and the leader every other one; inside a domain, the k_in-ary tree
   over indices relative to the representative (v = (i - rep) mod size);
   across domains, the k_out-ary tree over domain numbers relative to the
   root's.  Still exactly ndomains-1 edges cross domains.  With root 0 it is
   ompext_topology_tree.  Both return -1 when there is no such node: the
   root's parent, a j-th child beyond the last (children are numbered from
   j = 0, representatives first), or a tid or root outside the layout.
   O(1) each, no allocation. */
int ompext_topology_rooted_parent(const ompext_topo_layout_t *l, int k_in,
                                  int k_out, int root, int tid);
int ompext_topology_rooted_child(const ompext_topo_layout_t *l, int k_in,
                                 int k_out, int root, int tid, int j);

#endif /* OMPEXT_TOPOLOGY_H */
