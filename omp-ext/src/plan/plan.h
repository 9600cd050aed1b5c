/*
 * The plan: what each collective of a team runs and with which
 * parameters.  plan.c is the only code that reads the configuration
 * (config.h) and the cost model (machine.h); everything else lays out and
 * runs what a plan says.  A plan is built once per team context, when the
 * team is created; the values for domains once more, when the team's
 * layout over several domains is known.
 *
 * Names stay the same from the environment to the algorithm file:
 * OMPEXT_BARRIER_M -> dissem_m, OMPEXT_BARRIER_K -> tree_k (the
 * tournament's release_k too), OMPEXT_BCAST_FANOUT -> short_fanout and
 * long_fanout, OMPEXT_BCAST_CLOSE -> close, OMPEXT_SPIN -> spin_polls.
 */
#ifndef OMPEXT_PLAN_H
#define OMPEXT_PLAN_H

#include "barrier.h"
#include "bcast.h"
#include "config.h"
#include "machine.h"
#include "reduce_choice.h"
#include "services.h"
#include "wait.h"

/* What a plan is built from: the environment and the machine's
   parameters, fixed for the process (a runtime restart reads them again). */
typedef struct ompext_planner {
  const ompext_config_t *cfg;
  const ompext_machine_t *machine; /* NULL: fixed defaults, no model */
  int processors; /* the process may run on; 0: unknown */
  /* The runtime's own plain barrier (services' stock_barrier_bits): log2
     of its children per level, gather and release; 0: unknown. */
  int stock_gather_bits, stock_release_bits;
} ompext_planner_t;

/* The paths the plugin serves, and the process-wide switches. */
typedef struct ompext_served {
  int plain_barrier, reduce, forkjoin, bcast; /* 0: the runtime's own */
  int atomic_lock; /* the runtime's global atomic lock; 0: its own */
  ompext_hierarchy_mode_t hierarchy; /* OMPEXT_HIERARCHY; see
                                        ompext_plan_lays_out_domains */
  int verbose;   /* OMPEXT_VERBOSE: one line per decision */
  int stats;     /* OMPEXT_STATS: count calls of each path */
} ompext_served_t;

typedef struct ompext_plan {
  int nproc;
  int oversubscribed; /* more threads than processors: fewest steps */
  ompext_served_t served;
  ompext_barrier_plan_t barrier;       /* laid out even when not served;
                                          alg STOCK: served, but handed back
                                          to the runtime's own barrier */
  int reduce_tree;                     /* 1: tree gather, 0: atomics */
  int reduce_levels;                   /* tree depth d */
  int reduce_fanin[OMPEXT_MAX_LEVELS]; /* k_1 (leaves) .. k_d */
  ompext_reduce_sizes_t reduce_sizes;  /* the method by size, per site */
  ompext_bcast_plan_t bcast;
  int forkjoin_fanout; /* fork release / join gather heap (and the tree
                          inside each domain of a laid-out team) */
  int forkjoin_radix;  /* >= 2: a flat team's k-nomial tree of this radix
                          instead of the heap */
  /* The rule (plan_price.h): per collective (enum ompext_model_op), 1
     where the model predicted ext's best slower than the runtime's own and
     the plan hands it back; ext's best predicted min over stock's. */
  unsigned char to_stock[OMPEXT_MODEL_OP_COUNT];
  double stock_ratio[OMPEXT_MODEL_OP_COUNT];
  /* Once the team is laid out over several domains (plan_layout.c): 1
     where the collective follows the domains (one leader per domain), 0
     where it stays flat; per enum ompext_model_op. */
  unsigned char on_domains[OMPEXT_MODEL_OP_COUNT];
  unsigned spin_polls; /* inline polls before the services wait, where
                          ompext_plan_spin_polls allows any */
  int domain_barrier;  /* a layout over several domains may get the
                          barrier with one leader per domain */
  /* Provenance, for OMPEXT_VERBOSE only. */
  int from_model, overridden;
} ompext_plan_t;

/* The barrier of a team laid out over several domains. */
typedef struct ompext_domain_plan {
  int inside_tree_k;            /* each domain's tree, gathering its leader */
  ompext_barrier_plan_t across; /* among the leaders: dissemination or a
                                   tree rooted at tid 0 */
} ompext_domain_plan_t;

void ompext_plan_served(const ompext_planner_t *planner, ompext_served_t *out);
/* One warning on warn for each setting the rest of the environment leaves
   without effect on any team (OMPEXT_BARRIER_M under a barrier that is not
   the dissemination barrier, ...).  Returns how many. */
int ompext_plan_warn_unused(const ompext_planner_t *planner, FILE *warn);
/* oversubscribed: the team has more threads than the machine processors. */
void ompext_plan_build(const ompext_planner_t *planner, int nproc,
                       int oversubscribed, ompext_plan_t *out);
/* Whether a team of this plan gets one leader per domain where its threads
   span several.  Under auto an oversubscribed team stays flat: a leader
   waits for the scheduler to run its domain's threads and then must itself
   be run to pass a signal on, where the flat trees take the fewest steps
   (8 threads on 2 CPUs of 2 L3 domains, 16 interleaved syncbench rounds,
   per-round ext/stock with leaders against flat: BARRIER 1.054 / 0.722,
   SINGLE 1.052 / 0.699, copyprivate of 8 B 0.546 / 0.392). */
static inline int ompext_plan_lays_out_domains(const ompext_plan_t *plan) {
  return plan->served.hierarchy == OMPEXT_HIERARCHY_ON ||
         (plan->served.hierarchy == OMPEXT_HIERARCHY_AUTO &&
          !plan->oversubscribed);
}

/* For a team of this plan laid out over ndomains domains of at most
   largest threads: 0 and the domain barrier, or -1 when the plan keeps
   the flat barrier. */
int ompext_plan_domains(const ompext_planner_t *planner,
                        const ompext_plan_t *plan, int largest, int ndomains,
                        ompext_domain_plan_t *out);
/* The spin polls to use now: none when oversubscribed or when the runtime
   waits passively (which a program may change between regions).  Inline:
   a hot team's primary asks at every fork, before it releases anyone. */
static inline unsigned ompext_plan_spin_polls(const ompext_plan_t *plan) {
  return ompext_spin_budget(plan->oversubscribed, plan->spin_polls);
}

/* The model's price of what the plan runs for op (barrier, reduce,
   copyprivate, fork_join) on data of so many lines, and of the runtime's
   own collective: the same code path the plugin takes (plan_price.c).  0,
   or -1 without machine parameters, for an oversubscribed team (outside
   the model) or a path the plugin does not serve. */
typedef struct ompext_plan_price {
  ompext_model_cost_t ext, stock;
  int stock_path; /* the plan hands this collective to the runtime */
  char what[96];  /* what runs, e.g. "dissemination(m=2)" */
} ompext_plan_price_t;
int ompext_plan_price(const ompext_planner_t *planner,
                      const ompext_plan_t *plan, ompext_model_op_t op,
                      double lines, ompext_plan_price_t *out);
/* The same on a topology: for a team spanning topo's domains, each
   collective as the team runs it there (plan->on_domains) against the
   runtime's own on that topology; elsewhere ompext_plan_price.  -1 also
   for a team larger than topo's cores. */
int ompext_plan_price_on(const ompext_planner_t *planner,
                         const ompext_plan_t *plan,
                         const ompext_model_topology_t *topo,
                         ompext_model_op_t op, double lines,
                         ompext_plan_price_t *out);

/* A team of this plan laid out over topo's domains, as the model sees the
   layout (plan_layout.c): per collective, on the domains, flat, or the
   runtime's own (the barrier), by the rule (docs/ARCHITECTURE.md, "Never
   slower"), priced on topo; the plan's parameters follow (the flat trees'
   radix and fan-in, the reduction's method by size).  Under
   OMPEXT_HIERARCHY=on, without the model, for an oversubscribed team or a
   team within one domain every collective stays on the domains; returns
   1 when the rule decided, else 0. */
int ompext_plan_lay_out(const ompext_planner_t *planner, ompext_plan_t *plan,
                        const ompext_model_topology_t *topo);
/* The layout's decisions in words, for OMPEXT_VERBOSE. */
int ompext_plan_describe_layout(const ompext_plan_t *plan, char *buf,
                                size_t cap);
/* The method by size of plan_reduce_sizes for class c, from the methods'
   predicted mins (by enum ompext_reduce_method); plan_layout.c's too. */
void ompext_plan_reduce_pick(ompext_reduce_sizes_t *z, int c,
                             const double *cost, int oversubscribed);

/* A planner outside the plugin (ompext-model --plan, the tests): cfg from
   the environment (warnings on warn, may be NULL), machine from params,
   the runtime's plain barrier as libomp ships it (radix 4 both ways). */
void ompext_plan_offline(const ompext_model_params_t *params,
                         ompext_config_t *cfg, ompext_machine_t *machine,
                         FILE *warn, ompext_planner_t *out);

/* One line naming each active path and its parameters, for OMPEXT_VERBOSE. */
int ompext_plan_describe(const ompext_planner_t *planner,
                         const ompext_plan_t *plan, char *buf, size_t cap);
/* A barrier plan in words, e.g. "dissemination(m=2)". */
void ompext_plan_describe_barrier(const ompext_barrier_plan_t *b, char *buf,
                                  size_t cap);
/* The line for a domain barrier. */
int ompext_plan_describe_domains(const ompext_plan_t *plan,
                                 const ompext_domain_plan_t *domains,
                                 int ndomains, char *buf, size_t cap);

#endif /* OMPEXT_PLAN_H */
