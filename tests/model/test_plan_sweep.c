/*
 * The promise "never slower", as the model predicts it: for every built-in
 * parameter set and every parameter file given on the command line (the
 * committed calibrations), every team of 2 to 256 threads on one package
 * and every team of 2 to 64 on 2 packages x 32 cores, 4 x 16 and 2
 * packages x 2 L3 caches x 16 cores, every collective at 8 B, 512 B, 4
 * KiB, 64 KiB and 1 MiB where it has a size, the plan the plugin builds
 * (plan.c, and plan_layout.c for a team spanning domains, as team.c lays
 * it out) is predicted no slower than the runtime's own on that topology
 * by the plan's rule (plan_price.h): its min is at most stock's, or it
 * hands the collective back.  Deterministic: no timing.
 *
 * Beside it, the flat shapes' walks on a topology are checked against
 * independent prices of the same trees (check_walks).
 *
 * Oversubscribed teams are outside the model and not swept.
 */
#include "config.h"
#include "plan.h"
#include "plan_price.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const ompext_model_op_t ops[] = {
    OMPEXT_MODEL_OP_BARRIER, OMPEXT_MODEL_OP_REDUCE,
    OMPEXT_MODEL_OP_COPYPRIVATE, OMPEXT_MODEL_OP_FORK_JOIN};
static const double sizes[] = {8, 512, 4096, 65536, 1048576};

/* NULL: one package. */
static const char *const topologies[] = {
    NULL, "package:2 core:32 pu:1", "package:4 core:16 pu:1",
    "package:2 l3cache:2 core:16 pu:1"};

static int failures, checked, spanning;

static void sweep(const ompext_model_params_t *params,
                  const ompext_model_topology_t *topo) {
  ompext_config_t cfg;
  ompext_machine_t machine;
  ompext_planner_t planner; /* ctest's environment: no OMPEXT_* */
  ompext_plan_offline(params, &cfg, &machine, NULL, &planner);
  const int most = topo ? topo->packages * topo->cores : 256;
  for (int n = 2; n <= most; ++n) {
    ompext_plan_t plan;
    ompext_plan_build(&planner, n, 0, &plan);
    spanning += ompext_plan_lay_out(&planner, &plan, topo);
    for (size_t o = 0; o < sizeof(ops) / sizeof(ops[0]); ++o) {
      const int sized = ops[o] == OMPEXT_MODEL_OP_REDUCE ||
                        ops[o] == OMPEXT_MODEL_OP_COPYPRIVATE;
      const size_t count = sized ? sizeof(sizes) / sizeof(sizes[0]) : 1;
      for (size_t s = 0; s < count; ++s) {
        double lines = sized ? sizes[s] / params->line_bytes : 1;
        if (lines < 1)
          lines = 1;
        ompext_plan_price_t pr;
        ++checked;
        if (ompext_plan_price_on(&planner, &plan, topo, ops[o], lines, &pr) !=
            0) {
          printf("FAIL %s: %d threads%s%s: %s not priced\n", params->name, n,
                 topo ? " on " : "", topo ? topo->kind : "",
                 ompext_model_op_names[ops[o]]);
          ++failures;
          continue;
        }
        if (!pr.stock_path && !ompext_price_no_slower(pr.ext, pr.stock)) {
          if (failures < 20)
            printf("FAIL %s: %d threads on %d %s(s): %s of %.0f B: %s min "
                   "%.1f ns against stock's %.1f (%.3fx)\n",
                   params->name, n, topo ? topo->packages : 1,
                   topo ? topo->kind : "package",
                   ompext_model_op_names[ops[o]],
                   sized ? sizes[s] : 0.0, pr.what, pr.ext.min, pr.stock.min,
                   pr.ext.min / pr.stock.min);
          ++failures;
        }
      }
    }
  }
}

/* The flat shapes' walks (placed_flat.c) against independent prices of
   the same trees: on one package the k-nomial fork/join and the gathered
   reduction equal knomial.c's equations along tid 0's levels; on a
   topology the radix-4 fork/join equals stock's hyper fork/join as
   baseline.c walks it. */
static void check_walks(const ompext_model_params_t *p,
                        const ompext_model_topology_t *topo) {
  const ompext_model_topology_t one = {1, 4096, 1, "package"};
  const int most = topo ? topo->packages * topo->cores : 256;
  for (int n = 2; n <= most; ++n) {
    for (int r = 2; r <= 8; ++r) {
      const ompext_model_cost_t walked =
          ompext_model_placed_forkjoin_knomial(p, &one, n, r);
      const ompext_model_cost_t eq = ompext_model_forkjoin_knomial(p, n, r);
      const ompext_model_cost_t gw =
          ompext_model_placed_reduce_gathered(p, &one, n, &r, 1, 4);
      const ompext_model_cost_t ge =
          ompext_model_reduce_gathered(p, n, &r, 1, 4);
      ++checked;
      if (fabs(walked.min - eq.min) > 1e-6 * eq.min ||
          fabs(walked.max - eq.max) > 1e-6 * eq.max ||
          fabs(gw.min - ge.min) > 1e-6 * ge.min ||
          fabs(gw.max - ge.max) > 1e-6 * ge.max) {
        printf("FAIL %s: %d threads, radix %d: walked %.1f/%.1f and "
               "%.1f/%.1f, equations %.1f/%.1f and %.1f/%.1f\n",
               p->name, n, r, walked.min, walked.max, gw.min, gw.max,
               eq.min, eq.max, ge.min, ge.max);
        ++failures;
      }
    }
    if (!topo)
      continue;
    ompext_model_baseline_cost_t stock;
    const ompext_model_cost_t four =
        ompext_model_placed_forkjoin_knomial(p, topo, n, 4);
    ++checked;
    if (ompext_model_baseline_cost_placed(p, topo, OMPEXT_MODEL_BASELINE_STOCK,
                                          OMPEXT_MODEL_OP_FORK_JOIN, n, 1,
                                          &stock) != 0 ||
        fabs(four.min - stock.cost.min) > 1e-6 * stock.cost.min ||
        fabs(four.max - stock.cost.max) > 1e-6 * stock.cost.max) {
      printf("FAIL %s: %d threads on %s: radix-4 fork/join %.1f/%.1f, "
             "stock's %.1f/%.1f\n",
             p->name, n, topo->kind, four.min, four.max, stock.cost.min,
             stock.cost.max);
      ++failures;
    }
  }
}

static void sweep_topologies(const ompext_model_params_t *params) {
  for (size_t t = 0; t < sizeof(topologies) / sizeof(topologies[0]); ++t) {
    ompext_model_topology_t topo;
    char err[256];
    if (topologies[t] &&
        ompext_model_topology_parse(topologies[t], &topo, err, sizeof(err))) {
      printf("FAIL: topology %s: %s\n", topologies[t], err);
      ++failures;
      continue;
    }
    sweep(params, topologies[t] ? &topo : NULL);
    check_walks(params, topologies[t] ? &topo : NULL);
  }
}

int main(int argc, char **argv) {
  char err[512];
  for (int i = 0; ompext_model_builtin_names[i]; ++i) {
    ompext_model_params_t p;
    if (ompext_model_params_builtin(ompext_model_builtin_names[i], &p) != 0) {
      printf("FAIL: built-in set %s\n", ompext_model_builtin_names[i]);
      return 1;
    }
    sweep_topologies(&p);
  }
  for (int i = 1; i < argc; ++i) {
    ompext_model_params_t p;
    if (ompext_model_params_load_file(argv[i], &p, err, sizeof(err)) != 0) {
      printf("FAIL: %s\n", err);
      return 1;
    }
    sweep_topologies(&p);
  }
  printf("%d plans and sizes checked (%d teams laid out over several "
         "domains), %d predicted slower than stock\n",
         checked, spanning, failures);
  /* The topologies must have been priced as such, not as one package. */
  return failures || spanning == 0 ? 1 : 0;
}
