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
#include <stdatomic.h>
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

/* With tasks, the runtime closes the plugin's whole barrier with its own
   release, and the primary first waits until every worker, back in one of
   the runtime's waits, has found no task left: two line transfers after the
   last arrival where the runtime's own barrier needs one, its workers
   draining tasks while they wait for that release (pattern task-handoff, a
   task handed to a waiting thread in each region: 1.06 of stock on the AMD
   machine, 15 of 20 rounds).  Whether a barrier has tasks is known only once
   every thread is in it, so a team that found some expects more: its next
   OMPEXT_STOCK_BARRIERS_AFTER_TASKS (ompext/stats.h) plain barriers, in
   this region or the next ones, are the runtime's (team.h,
   ompext_team_stock_after_tasks).  The plain barrier's own path gains
   nothing: it already asks whether its team's barriers are the runtime's,
   and only then reads the count. */

/* The team's own barrier, as algorithm alg (or with one leader per domain,
   where laid out so). */
static inline int run_own_barrier(ompext_team_t *team,
                                  ompext_barrier_alg_t alg, int gtid,
                                  int tid) {
  if (team->hier) {
    ompext_stat_add(OMPEXT_STAT_DOMAIN_BARRIER);
    ompext_barrier_hier_wait(team->hier, gtid, tid, team->spin_polls);
  } else
    ompext_barrier_wait(alg, team->barrier, gtid, tid, team->spin_polls);
  return 1;
}

static int plugin_plain_barrier(void *ctx, int gtid, int tid) {
  ompext_team_t *team = ctx;
  ompext_stat_add(OMPEXT_STAT_PLAIN_BARRIER);
  ompext_reduce_clock_tick(&team->clocks[tid]);
  /* The barrier closing a broadcast whose root asked for a rooted close. */
  if (team->bcast_watch &&
      ompext_bcast_close_here(team->bcast_watch, gtid, tid, team->spin_polls))
    return 1;
  /* The plan handed the team's barriers back (plan.c, barrier_steps_aside),
     or the team found tasks: the same answer for every thread, as the
     context is the team's and each thread counts the same barriers. */
  if (team->barrier_alg == OMPEXT_BARRIER_STOCK) {
    /* Relaxed: the barrier that set it, or the fork that cleared it, is
       ordered before this one by the runtime's release. */
    if (!atomic_load_explicit(&team->stock_after_tasks, memory_order_relaxed)) {
      ompext_stat_add(OMPEXT_STAT_STOCK_BARRIER);
      return 0;
    }
    if (ompext_team_stock_barrier_after_tasks(team, tid)) {
      ompext_stat_add(OMPEXT_STAT_STOCK_BARRIER_AFTER_TASKS);
      return 0;
    }
    /* The count ran out: the plan's barrier until the primary's next fork
       or join makes it the team's again. */
    return run_own_barrier(team, team->plan.barrier.alg, gtid, tid);
  }
  return run_own_barrier(team, team->barrier_alg, gtid, tid);
}

static void plugin_plain_barrier_found_tasks(void *ctx, int gtid, int tid) {
  (void)gtid;
  ompext_team_stock_after_tasks(ctx, tid,
                                OMPEXT_STOCK_BARRIERS_AFTER_TASKS);
}

static void plugin_reduce_gather(void *ctx, int gtid, int tid, void *data,
                                 ompext_pairfn_t reduce) {
  ompext_team_t *team = ctx;
  const ompext_topo_layout_t *layout = team->reduce_layout;
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
  /* The primary's fork or join: every worker is parked or past the
     region's last plain barrier.  Relaxed: only the primary writes the
     flag and acts on it here. */
  if (__builtin_expect(atomic_load_explicit(&team->stock_after_tasks,
                                            memory_order_relaxed),
                       0) &&
      self && tid == 0)
    ompext_team_after_tasks_settle(team);
  return ompext_team_forkjoin_tree(team, tid, self, parent, children, cap);
}

static void *plugin_bcast(void *ctx, int gtid, int tid, int is_root,
                          void *data, ompext_pairfn_t cpy, const void *site) {
  ompext_team_t *team = ctx;
  const ompext_topo_layout_t *layout = team->bcast_layout;
  /* ompext_bcast, through the runtime's copyprivate (bcast_sized_abi.h). */
  if (cpy == ompext_bcast_sized_copy) {
    ompext_bcast_sized_run(team->sized, gtid, tid, data, layout,
                           team->spin_polls, NULL);
    return data;
  }
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

/* For libompext_bcast.so (bcast_sized_abi.h): whether the runtime took this
   plugin's copyprivate broadcast, through which ompext_bcast reaches it. */
OMPEXT_PUBLIC int ompext_bcast_sized_served(void) {
  return ompext_svc != NULL && ops.bcast != NULL;
}

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
  ompext_bcast_sized_configure(stderr);
  ops = (ompext_ops_t){
      .abi_version = OMPEXT_ABI_VERSION,
      .size = sizeof(ompext_ops_t),
      .name = "omp-ext " OMPEXT_VERSION,
      .init = plugin_init,
      .fini = plugin_fini,
      .team_prepare = plugin_team_prepare,
      .team_free = plugin_team_free,
      .plain_barrier = served.plain_barrier ? plugin_plain_barrier : NULL,
      /* Only the plugin's fork and join take the barriers back. */
      .plain_barrier_found_tasks = served.plain_barrier && served.forkjoin
                                       ? plugin_plain_barrier_found_tasks
                                       : NULL,
      .reduce_gather = served.reduce ? plugin_reduce_gather : NULL,
      .tree = served.forkjoin ? plugin_tree : NULL,
      .bcast = served.bcast ? plugin_bcast : NULL,
      .reduce_method = served.reduce ? plugin_reduce_method : NULL,
      .atomic_acquire = served.atomic_lock ? ompext_atomic_lock_acquire : NULL,
      .atomic_release = served.atomic_lock ? ompext_atomic_lock_release : NULL,
  };
  return &ops;
}
