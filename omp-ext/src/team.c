/* Team contexts (see team.h). */
#include "team.h"

#include "barrier.h"
#include "forkjoin_tree.h"
#include "pad.h"
#include "services.h"
#include "stats.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#define VERBOSE_SIZES 4096
typedef _Atomic unsigned long seen_sizes_t[VERBOSE_SIZES / (8 * sizeof(long))];
static seen_sizes_t params_seen, oversubscribed_params_seen, topology_seen,
    hier_seen;

/* OMPEXT_VERBOSE prints each kind of line once per team size (parameters:
   once per size fitting the machine and once oversubscribed). */
static int first_time(seen_sizes_t seen, int nproc) {
  if (nproc >= VERBOSE_SIZES)
    return 1;
  const size_t bits = 8 * sizeof(long);
  unsigned long bit = 1ul << (nproc % bits);
  /* relaxed: only decides who prints; no data is published through it */
  return !(atomic_fetch_or_explicit(&seen[nproc / bits], bit,
                                    memory_order_relaxed) &
           bit);
}

static void describe_once(const ompext_planner_t *planner,
                          const ompext_team_t *t) {
  seen_sizes_t *seen =
      t->plan.oversubscribed ? &oversubscribed_params_seen : &params_seen;
  if (!t->plan.served.verbose || !first_time(*seen, t->nproc))
    return;
  char line[512];
  ompext_plan_describe(planner, &t->plan, line, sizeof(line));
  fprintf(stderr, "%s spin=%u\n", line, t->spin_polls);
}

/* Forks to wait for every thread's PU before giving up (the team stays
   flat): threads record theirs at their first fork and join. */
#define TOPOLOGY_PATIENCE 4

/* Zeroed memory starting on a padded line: the services promise 64-byte
   alignment, the layouts want whole padded lines, so round the start up
   ourselves.  *raw is what to free; NULL when the services had none. */
static char *alloc_lines(size_t bytes, void **raw) {
  *raw = ompext_svc->alloc(bytes + OMPEXT_CACHE_LINE);
  return *raw ? (char *)ompext_pad_bytes((size_t)(uintptr_t)*raw) : NULL;
}

/* The team's fork/join tree, computed (an ompext_forkjoin_tree_gen_t over the
 * team). */
static int computed_tree(const void *arg, int tid, int *parent, int *children,
                         int cap) {
  const ompext_team_t *team = arg;
  /* An oversubscribed team laid out all the same (OMPEXT_HIERARCHY=on;
     under auto it is not: ompext_plan_lays_out_domains) keeps the flat
     fork/join tree, its fewest steps: a leader relaying the release waits
     for the scheduler to run it (4 threads on 2 CPUs of 2 L3 domains: an
     empty region 1.5 times stock's time on the two-level tree, 0.97 flat). */
  if (team->domains && !team->plan.oversubscribed &&
      team->plan.on_domains[OMPEXT_MODEL_OP_FORK_JOIN]) {
    /* A leader has up to k_in + k_out children and all must fit in cap,
       or the ones left out would never be released. */
    int k_in = team->plan.forkjoin_fanout;
    int k_out = team->layout.ndomains - 1; /* every leader under tid 0 */
    if (k_in > cap - 1)
      k_in = cap - 1;
    if (k_out > cap - k_in)
      k_out = cap - k_in;
    return ompext_topology_tree(&team->layout, k_in, k_out, tid, parent,
                                children, cap);
  }
  if (team->plan.forkjoin_radix >= 2)
    return ompext_forkjoin_knomial(team->nproc, team->plan.forkjoin_radix, tid,
                                   parent, children, cap);
  return ompext_forkjoin_tree(team->nproc, team->plan.forkjoin_fanout, tid,
                              parent, children, cap);
}

/* Primary only, workers parked: whenever the tree changes, and when the
   layout is decided.  Until then each call records its thread's binding,
   so the calls go the computed way. */
static void compile_forkjoin_tree(ompext_team_t *t) {
  ++t->forkjoin_version; /* plugin.c tells the runtime the tree changed */
  const int compiled = ompext_forkjoin_table_fill(&t->forkjoin, computed_tree,
                                                  t, OMPEXT_MAX_FANIN) == 0;
  t->forkjoin_from_table = compiled && !(t->topology && !t->topology_built);
}

/* The threads of the fullest domain of a layout. */
static int largest_domain(const ompext_topo_layout_t *l) {
  int largest = 1;
  for (int d = 0; d < l->ndomains; ++d)
    if (l->dstart[d + 1] - l->dstart[d] > largest)
      largest = l->dstart[d + 1] - l->dstart[d];
  return largest;
}

/* The barrier with one leader per domain, for a team laid out over several
   whose barrier follows the domains (plan.c, plan_layout.c). */
static void build_hier_barrier(const ompext_planner_t *planner,
                               ompext_team_t *t) {
  const ompext_topo_layout_t *l = &t->layout;
  const int largest = largest_domain(l);
  ompext_domain_plan_t domains;
  if (ompext_plan_domains(planner, &t->plan, largest, l->ndomains, &domains) !=
      0)
    return;
  char *mem = alloc_lines(ompext_barrier_hier_size(l, &domains.across),
                          &t->hier_allocation);
  if (!mem)
    return; /* the flat barrier goes on serving the team */
  t->hier =
      ompext_barrier_hier_init(mem, l, domains.inside_tree_k, &domains.across);
  if (t->plan.served.verbose && first_time(hier_seen, t->nproc)) {
    char line[256];
    ompext_plan_describe_domains(&t->plan, &domains, l->ndomains, line,
                                 sizeof(line));
    fprintf(stderr, "%s\n", line);
  }
}

/* The layout as the model sees it: its domains, each of at most the
   largest domain's threads, filled in tid order. */
static void model_topology(const ompext_team_t *t,
                           ompext_model_topology_t *out) {
  memset(out, 0, sizeof(*out));
  out->packages = t->layout.ndomains;
  out->cores = largest_domain(&t->layout);
  out->pus = 1;
  snprintf(out->kind, sizeof(out->kind), "%s",
           ompext_topology_domain_kind(t->topology));
}

/* Primary only, workers parked: a team over several domains takes each
   collective on the domains, flat or (the barrier) the runtime's, as the
   plan decides on the layout (plan.h ompext_plan_lay_out); the plan's
   flat parameters follow into the collectives' state. */
static void lay_out(const ompext_planner_t *planner, ompext_team_t *t) {
  ompext_model_topology_t topo;
  model_topology(t, &topo);
  t->domains = &t->layout;
  if (ompext_plan_lay_out(planner, &t->plan, &topo)) {
    ompext_reduce_tree_set_fanin(t->reduce, t->plan.reduce_fanin,
                                 t->plan.reduce_levels);
    ompext_bcast_follow(t->bcast, &t->plan.bcast);
    if (t->plan.barrier.alg == OMPEXT_BARRIER_STOCK)
      t->barrier_alg = OMPEXT_BARRIER_STOCK; /* handed back */
  }
  t->reduce_layout =
      t->plan.on_domains[OMPEXT_MODEL_OP_REDUCE] ? &t->layout : NULL;
  t->bcast_layout =
      t->plan.on_domains[OMPEXT_MODEL_OP_COPYPRIVATE] ? &t->layout : NULL;
}

/* Primary only, workers parked: once every thread's PU is known, lay the
   team out by domain.  Runs at most once per team context. */
static void build_topology(const ompext_planner_t *planner, ompext_team_t *t) {
  if (!t->topology || t->topology_built)
    return;
  for (int tid = 0; tid < t->nproc; ++tid)
    if (t->pu_of_tid[tid] == -2) {
      if (++t->forks_waiting > TOPOLOGY_PATIENCE) {
        t->topology_built = 1; /* some thread never reported: stay flat */
        compile_forkjoin_tree(t);
      }
      return;
    }
  ompext_topology_layout_build(t->topology, t->pu_of_tid, &t->layout);
  t->topology_built = 1;
  /* Leaders only pay where a domain holds several threads: with one thread
     in each, every thread is its domain's leader and the flat collectives
     are already the trees among leaders, without the domain steps (2
     threads on 2 L3 domains, 6 rounds interleaved, laid out against flat:
     barrier 0.142 against 0.134 us, single 0.142 against 0.135,
     copyprivate of 4 KiB 0.385 against 0.338). */
  const int one_per_domain = t->layout.ndomains == t->nproc;
  if (t->layout.ndomains > 1 && !one_per_domain)
    lay_out(planner, t);
  compile_forkjoin_tree(t);
  if (!t->domains) {
    if (one_per_domain && t->nproc > 1 && t->plan.served.verbose &&
        first_time(topology_seen, t->nproc))
      fprintf(stderr,
              "omp-ext: team of %d: one thread in each of %d %s domains: "
              "flat, every thread its domain's leader\n",
              t->nproc, t->layout.ndomains,
              ompext_topology_domain_kind(t->topology));
    return;
  }
  if (t->plan.served.verbose && first_time(topology_seen, t->nproc)) {
    char line[512];
    ompext_plan_describe_layout(&t->plan, line, sizeof(line));
    fprintf(stderr, "omp-ext: team of %d: %d %s domains: %s\n", t->nproc,
            t->layout.ndomains, ompext_topology_domain_kind(t->topology),
            line);
  }
  if (t->plan.on_domains[OMPEXT_MODEL_OP_BARRIER])
    build_hier_barrier(planner, t);
}

int ompext_team_forkjoin_tree_computed(ompext_team_t *team, int tid, int self,
                                       int *parent, int *children, int cap) {
  /* Until the layout is built, each fork and join re-reads the binding: the
     runtime binds a worker to its place only after its first fork release,
     so the join's reading is the one that counts.  Only tid's own calls
     tell where tid runs: the runtime's check asks for every tid from the
     primary. */
  if (self && team->topology && !team->topology_built)
    team->pu_of_tid[tid] = ompext_topology_current_domain_pu(team->topology);
  return computed_tree(team, tid, parent, children, cap);
}

ompext_team_t *ompext_team_rebuild(const ompext_planner_t *planner,
                                   const ompext_topology_t *topology,
                                   ompext_team_t *old, int nproc,
                                   int oversubscribed) {
  if (old && old->nproc == nproc &&
      old->plan.oversubscribed == oversubscribed) {
    build_topology(planner, old);
    ompext_team_refresh_polls(old);
    return old;
  }
  ompext_team_free(old);

  ompext_plan_t plan;
  ompext_plan_build(planner, nproc, oversubscribed, &plan);
  const size_t head = ompext_pad_bytes(sizeof(ompext_team_t));
  const size_t barrier_bytes =
      ompext_pad_bytes(ompext_barrier_size(&plan.barrier, nproc));
  const size_t reduce_bytes = ompext_pad_bytes(ompext_reduce_tree_size(nproc));
  const size_t choice_bytes =
      ompext_pad_bytes(sizeof(ompext_reduce_choice_t)) +
      ompext_pad_bytes((size_t)nproc * sizeof(ompext_reduce_clock_t));
  const size_t bcast_bytes = ompext_pad_bytes(ompext_bcast_size(nproc));
  const size_t topo_bytes = ompext_pad_bytes(
      (size_t)nproc * sizeof(int) + ompext_topology_layout_size(nproc));
  const size_t forkjoin_bytes =
      ompext_pad_bytes(ompext_forkjoin_table_size(nproc));
  const size_t sized_bytes = ompext_pad_bytes(ompext_bcast_sized_size(nproc));
  void *raw;
  char *mem = alloc_lines(head + barrier_bytes + reduce_bytes + choice_bytes +
                              bcast_bytes + topo_bytes + forkjoin_bytes +
                              sized_bytes,
                          &raw);
  if (!mem)
    return NULL; /* the runtime runs this team on stock paths */

  ompext_team_t *t = (ompext_team_t *)mem;
  t->allocation = raw;
  t->nproc = nproc;
  t->plan = plan;
  t->barrier_alg = plan.barrier.alg;
  t->spin_polls = ompext_plan_spin_polls(&plan);
  char *p = mem + head;
  t->barrier = ompext_barrier_init(&plan.barrier, p, nproc);
  p += barrier_bytes;
  t->reduce =
      ompext_reduce_tree_init(p, nproc, plan.reduce_fanin, plan.reduce_levels);
  p += reduce_bytes;
  t->reduce_choice = (ompext_reduce_choice_t *)p;
  t->clocks = (ompext_reduce_clock_t *)(p + ompext_pad_bytes(
                                               sizeof(ompext_reduce_choice_t)));
  ompext_reduce_choice_init(t->reduce_choice, &t->plan.reduce_sizes,
                            t->clocks, nproc);
  p += choice_bytes;
  t->bcast = ompext_bcast_init(p, nproc, &plan.bcast);
  /* Unless the plugin broadcasts, no barrier closes a broadcast. */
  t->bcast_watch =
      plan.served.bcast && ompext_bcast_watches_barriers(&plan.bcast) ? t->bcast
                                                                      : NULL;
  p += bcast_bytes;
  t->topology = ompext_plan_lays_out_domains(&plan) ? topology : NULL;
  t->hier = NULL;
  t->hier_allocation = NULL;
  t->domains = t->reduce_layout = t->bcast_layout = NULL;
  t->pu_of_tid = (int *)p;
  for (int tid = 0; tid < nproc; ++tid)
    t->pu_of_tid[tid] = -2;
  ompext_topology_layout_init(&t->layout, p + (size_t)nproc * sizeof(int),
                              nproc);
  p += topo_bytes;
  ompext_forkjoin_table_init(&t->forkjoin, p, nproc);
  p += forkjoin_bytes;
  /* ompext_bcast's broadcast: the model's parameters, the team's size. */
  t->sized = ompext_bcast_sized_init(
      p, nproc, planner->machine ? &planner->machine->params : NULL,
      ompext_bcast_sized_forced(), planner->cfg->verbose);
  compile_forkjoin_tree(t);
  ompext_stat_add(OMPEXT_STAT_TEAM_PREPARED);
  describe_once(planner, t);
  return t;
}

void ompext_team_free(ompext_team_t *team) {
  if (!team)
    return;
  if (team->hier_allocation)
    ompext_svc->free_mem(team->hier_allocation);
  ompext_svc->free_mem(team->allocation);
}
