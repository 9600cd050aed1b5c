/*
 * libompext.so entry point: the operations table handed to the patched
 * runtime.  Paths the plan does not serve (the environment set them to
 * "stock") get a NULL operation, so the runtime keeps its own code for
 * them.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "ompext/abi.h"

#include "atomic_lock.h"
#include "barrier.h"
#include "plan.h"
#include "services.h"
#include "stats.h"
#include "team.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

static ompext_config_t config;
static ompext_machine_t machine;
/* The runtime barrier's branch bits are set by plugin_init. */
static ompext_planner_t planner = {&config, &machine, 0, 0, 0};
static ompext_served_t served;
static ompext_topology_t *topology; /* NULL: every team flat */
static int topology_loaded;

/* The processors this process may run on, as the runtime counts them
   for oversubscription (its affinity mask at start); 0 when unknown. */
static int available_processors(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) != 0)
    return 0;
  return CPU_COUNT(&set);
}

static int plugin_init(const ompext_services_t *svc) {
  if (ompext_services_install(svc) != 0)
    return -1;
  svc->stock_barrier_bits(&planner.stock_gather_bits,
                          &planner.stock_release_bits);
  return 0;
}

static void plugin_fini(void) { ompext_stats_print_once(stderr); }

/* Covers processes whose runtime never reaches its orderly shutdown. */
__attribute__((destructor)) static void plugin_unload(void) {
  ompext_stats_print_once(stderr);
}

static void *plugin_team_prepare(void *old_ctx, int nproc, int *flags) {
  ompext_team_t *old = old_ctx;
  const unsigned version = old ? old->forkjoin_version : 0;
  ompext_team_t *team = ompext_team_prepare(&planner, topology, old, nproc);
  if (team != old || (team && team->forkjoin_version != version))
    *flags |= OMPEXT_PREPARE_TREE_CHANGED;
  if (team && ompext_team_settled(team))
    *flags |= OMPEXT_PREPARE_SETTLED;
  return team;
}

static void plugin_team_free(void *ctx) { ompext_team_free(ctx); }

static int plugin_plain_barrier(void *ctx, int gtid, int tid) {
  ompext_team_t *team = ctx;
  ompext_stat_add(OMPEXT_STAT_PLAIN_BARRIER);
  ompext_reduce_clock_tick(&team->clocks[tid]);
  /* The barrier closing a broadcast whose root asked for a rooted close. */
  if (team->bcast_watch &&
      ompext_bcast_close_here(team->bcast_watch, gtid, tid, team->spin_polls))
    return 1;
  /* The plan handed the team's barriers back (plan.c, barrier_steps_aside):
     the same answer for every thread, as the context is the team's. */
  if (team->barrier_alg == OMPEXT_BARRIER_STOCK) {
    ompext_stat_add(OMPEXT_STAT_STOCK_BARRIER);
    return 0;
  }
  if (team->hier) {
    ompext_stat_add(OMPEXT_STAT_DOMAIN_BARRIER);
    ompext_barrier_hier_wait(team->hier, gtid, tid, team->spin_polls);
  } else
    ompext_barrier_wait(team->barrier_alg, team->barrier, gtid, tid,
                        team->spin_polls);
  return 1;
}

static void plugin_reduce_gather(void *ctx, int gtid, int tid, void *data,
                                 ompext_pairfn_t reduce) {
  ompext_team_t *team = ctx;
  const ompext_topo_layout_t *layout = team->domains;
  ompext_stat_add(OMPEXT_STAT_REDUCTION);
  if (layout)
    ompext_stat_add(OMPEXT_STAT_DOMAIN_REDUCTION);
  /* tid 0 times its combines while its call site's size is measured. */
  const int probing = tid == 0 && ompext_reduce_choice_probing(team->reduce_choice);
  ompext_reduce_probe_t probe = {-1, -1};
  ompext_reduce_tree_gather(team->reduce, gtid, tid, data, reduce, layout,
                            team->spin_polls, probing ? &probe : NULL);
  if (probing && probe.combine_ns >= 0)
    ompext_reduce_choice_measured(team->reduce_choice, probe.combine_ns,
                                  probe.reference_ns);
}

static int plugin_reduce_method(void *ctx, int gtid, int tid, const void *key,
                                unsigned allowed) {
  ompext_team_t *team = ctx;
  (void)gtid;
  return ompext_reduce_choice_method(team->reduce_choice, tid, (uintptr_t)key,
                                     allowed);
}

static int plugin_tree(void *ctx, int tid, int self, int *parent, int *children,
                       int cap) {
  ompext_team_t *team = ctx;
  if (self) /* each thread asks once at each fork and once at each join */
    ompext_reduce_clock_tick(&team->clocks[tid]);
  return ompext_team_forkjoin_tree(team, tid, self, parent, children, cap);
}

static void *plugin_bcast(void *ctx, int gtid, int tid, int is_root,
                          void *data, ompext_pairfn_t cpy, const void *site) {
  ompext_team_t *team = ctx;
  const ompext_topo_layout_t *layout = team->domains;
  ompext_stat_add(OMPEXT_STAT_BROADCAST);
  if (layout)
    ompext_stat_add(OMPEXT_STAT_DOMAIN_BROADCAST);
  return ompext_bcast_run(team->bcast, gtid, tid, is_root, data, cpy, site,
                          layout, team->spin_polls);
}

/* The machine's topology, or OMPEXT_TOPOLOGY (an hwloc synthetic
   description, for tests and what-if runs): loaded once, kept for the
   process.  Without it every team is flat. */
static ompext_topology_t *load_topology(void) {
  const char *synthetic = getenv("OMPEXT_TOPOLOGY");
  ompext_topology_t *t = synthetic && *synthetic
                             ? ompext_topology_load_synthetic(synthetic)
                             : ompext_topology_load();
  if (!t && (served.verbose || (synthetic && *synthetic)))
    fprintf(stderr,
            "omp-ext: warning: no topology (%s); every team is flat\n",
            ompext_topology_error());
  if (t && served.verbose) {
    char text[256];
    ompext_topology_describe(t, text, sizeof(text));
    fprintf(stderr, "omp-ext: topology: %s\n", text);
  }
  return t;
}

static ompext_ops_t ops;

OMPEXT_PUBLIC const ompext_ops_t *ompext_get_ops(uint32_t runtime_abi) {
  if (runtime_abi != OMPEXT_ABI_VERSION)
    return NULL;
  ompext_config_parse(&config, stderr);
  ompext_plan_served(&planner, &served);
  ompext_plan_warn_unused(&planner, stderr);
  /* A runtime restarted after omp_pause_resource_all(omp_pause_hard) asks
     again; the machine has not changed, so the topology stays. */
  if (!topology_loaded) {
    topology = load_topology();
    topology_loaded = 1;
  }
  ompext_machine_load(&machine, topology, stderr);
  planner.processors = available_processors();
  ompext_stats_begin(served.stats);
  ompext_atomic_lock_set_spin(config.spin_polls);
  ops = (ompext_ops_t){
      .abi_version = OMPEXT_ABI_VERSION,
      .size = sizeof(ompext_ops_t),
      .name = "omp-ext " OMPEXT_VERSION,
      .init = plugin_init,
      .fini = plugin_fini,
      .team_prepare = plugin_team_prepare,
      .team_free = plugin_team_free,
      .plain_barrier = served.plain_barrier ? plugin_plain_barrier : NULL,
      .reduce_gather = served.reduce ? plugin_reduce_gather : NULL,
      .tree = served.forkjoin ? plugin_tree : NULL,
      .bcast = served.bcast ? plugin_bcast : NULL,
      .reduce_method = served.reduce ? plugin_reduce_method : NULL,
      .atomic_acquire = served.atomic_lock ? ompext_atomic_lock_acquire : NULL,
      .atomic_release = served.atomic_lock ? ompext_atomic_lock_release : NULL,
  };
  return &ops;
}
