/*
 * Checks of the plan on a layout (plan_layout.c).  Single-threaded: the
 * decision is a pure function of the plan, the machine and the topology.
 *
 *   - A team within one domain, a team without the model and any team
 *     under OMPEXT_HIERARCHY=on keep every collective on the domains, an
 *     oversubscribed team (never laid out under auto) every collective
 *     flat; the rule does not run for them.
 *   - For every built-in set, teams spanning 2 x 8, 2 x 32, 4 x 16 and 2 x
 *     2 L3 x 16: the layout line names each collective once, says "the
 *     runtime's" with the predicted ratio (above 1) exactly for a barrier
 *     handed back (alg STOCK), and "leaders" for a collective on the
 *     domains; a flat reduction's fan-ins are one fan-in to the top, and
 *     the method by size is the cheapest on the topology.
 *   - Spelled out: with the default parameters a team of 10 on 2 packages
 *     of 8 cores hands its barrier back, and the line says why.
 *   - Settings from the environment win: a barrier, reduction fan-in,
 *     broadcast fan-out or fork/join fan-out given is never changed.
 */
#include "test_services.h"

#include "plan.h"
#include "plan_price.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void auto_config(ompext_config_t *cfg) {
  memset(cfg, 0, sizeof(*cfg));
  cfg->barrier = OMPEXT_BARRIER_AUTO;
  cfg->reduce = OMPEXT_REDUCE_AUTO;
  cfg->bcast = OMPEXT_BCAST_TREE;
  cfg->bcast_close = OMPEXT_BCAST_CLOSE_AUTO;
  cfg->forkjoin = OMPEXT_FORKJOIN_TREE;
  cfg->hierarchy = OMPEXT_HIERARCHY_AUTO;
}

static void topology(const char *desc, ompext_model_topology_t *t) {
  char err[256];
  if (ompext_model_topology_parse(desc, t, err, sizeof(err)) != 0)
    tu_fatal("topology %s: %s", desc, err);
}

static int all_on_domains(const ompext_plan_t *p, int on) {
  for (int op = 0; op < OMPEXT_MODEL_OP_COUNT; ++op)
    if (p->on_domains[op] != on)
      return 0;
  return 1;
}

static void check_rule_stays_out(const ompext_machine_t *machine) {
  ompext_model_topology_t t;
  topology("package:2 core:8 pu:1", &t);
  static const struct {
    const char *what;
    int n, oversubscribed;
    ompext_hierarchy_mode_t hierarchy;
    int model, on_domains;
  } cases[] = {
      {"a team within one package", 8, 0, OMPEXT_HIERARCHY_AUTO, 1, 1},
      {"an oversubscribed team", 16, 1, OMPEXT_HIERARCHY_AUTO, 1, 0},
      {"OMPEXT_HIERARCHY=on", 16, 0, OMPEXT_HIERARCHY_ON, 1, 1},
      {"OMPEXT_HIERARCHY=off", 16, 0, OMPEXT_HIERARCHY_OFF, 1, 0},
      {"no model", 16, 0, OMPEXT_HIERARCHY_AUTO, 0, 1}};
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    ompext_config_t cfg;
    auto_config(&cfg);
    cfg.hierarchy = cases[i].hierarchy;
    const ompext_planner_t planner = {
        &cfg, cases[i].model ? machine : NULL, 0, 0, 0};
    ompext_plan_t p, before;
    ompext_plan_build(&planner, cases[i].n, cases[i].oversubscribed, &p);
    before = p;
    if (ompext_plan_lay_out(&planner, &p, &t) != 0)
      tu_fail("%s: the rule decided", cases[i].what);
    if (!all_on_domains(&p, cases[i].on_domains))
      tu_fail("%s: want every collective %s", cases[i].what,
              cases[i].on_domains ? "on the domains" : "flat");
    if (memcmp(&p.barrier, &before.barrier, sizeof(p.barrier)) != 0 ||
        p.forkjoin_radix != before.forkjoin_radix ||
        memcmp(p.reduce_fanin, before.reduce_fanin,
               sizeof(p.reduce_fanin)) != 0)
      tu_fail("%s: the plan changed", cases[i].what);
  }
}

/* How many times needle occurs in hay. */
static int occurrences(const char *hay, const char *needle) {
  int count = 0;
  for (const char *s = strstr(hay, needle); s; s = strstr(s + 1, needle))
    ++count;
  return count;
}

static void check_line(const char *set, int n, const char *desc,
                       const ompext_plan_t *p) {
  char line[512];
  ompext_plan_describe_layout(p, line, sizeof(line));
  static const char *const names[] = {"barrier ", "reduction ",
                                      "copyprivate ", "fork/join "};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i)
    if (occurrences(line, names[i]) != 1)
      tu_fail("%s, %d on %s: '%s' not named once in '%s'", set, n, desc,
              names[i], line);
  const int handed = p->barrier.alg == OMPEXT_BARRIER_STOCK;
  char want[96];
  snprintf(want, sizeof(want), "barrier the runtime's (ext predicted %.2f of",
           p->stock_ratio[OMPEXT_MODEL_OP_BARRIER]);
  if (handed != (strstr(line, want) != NULL) ||
      handed != p->to_stock[OMPEXT_MODEL_OP_BARRIER] ||
      (handed && !(p->stock_ratio[OMPEXT_MODEL_OP_BARRIER] > 1)))
    tu_fail("%s, %d on %s: barrier handed back %d, ratio %.3f, line '%s'",
            set, n, desc, handed, p->stock_ratio[OMPEXT_MODEL_OP_BARRIER],
            line);
  if (p->on_domains[OMPEXT_MODEL_OP_REDUCE] !=
      (strstr(line, "reduction leaders") != NULL))
    tu_fail("%s, %d on %s: reduction on the domains %d, line '%s'", set, n,
            desc, p->on_domains[OMPEXT_MODEL_OP_REDUCE], line);
  if (!p->on_domains[OMPEXT_MODEL_OP_REDUCE])
    for (int l = 1; l < p->reduce_levels; ++l)
      if (p->reduce_fanin[l] != p->reduce_fanin[0])
        tu_fail("%s, %d on %s: flat fan-ins differ by level", set, n, desc);
}

/* The method by size is the cheapest of the three on the topology. */
static void check_methods(const char *set, int n, const char *desc,
                          const ompext_planner_t *planner,
                          const ompext_plan_t *p,
                          const ompext_model_topology_t *t) {
  const unsigned all = OMPEXT_REDUCE_ALLOW_ATOMIC | OMPEXT_REDUCE_ALLOW_TREE;
  for (int c = 0; c < OMPEXT_REDUCE_CLASSES; ++c) {
    const double lines = (double)(1L << c);
    const int chosen = p->reduce_sizes.best[c][all];
    const double mine =
        ompext_price_reduce_placed(planner, p, t, chosen, lines).min;
    static const int methods[] = {OMPEXT_REDUCE_METHOD_ATOMIC,
                                  OMPEXT_REDUCE_METHOD_TREE,
                                  OMPEXT_REDUCE_METHOD_CRITICAL};
    for (size_t m = 0; m < sizeof(methods) / sizeof(methods[0]); ++m) {
      const double other =
          ompext_price_reduce_placed(planner, p, t, methods[m], lines).min;
      if (other < mine * (1 - 1e-9))
        tu_fail("%s, %d on %s: %g lines: method %d (%.1f ns) where %d "
                "costs %.1f",
                set, n, desc, lines, chosen, mine, methods[m], other);
    }
  }
}

static void check_spanning(const char *set, const ompext_machine_t *machine) {
  static const char *const descs[] = {
      "package:2 core:8 pu:1", "package:2 core:32 pu:1",
      "package:4 core:16 pu:1", "package:2 l3cache:2 core:16 pu:1"};
  for (size_t d = 0; d < sizeof(descs) / sizeof(descs[0]); ++d) {
    ompext_model_topology_t t;
    topology(descs[d], &t);
    ompext_config_t cfg;
    auto_config(&cfg);
    const ompext_planner_t planner = {&cfg, machine, 0, 0, 0};
    for (int n = t.cores + 1; n <= t.packages * t.cores; ++n) {
      ompext_plan_t p;
      ompext_plan_build(&planner, n, 0, &p);
      if (ompext_plan_lay_out(&planner, &p, &t) != 1) {
        tu_fail("%s, %d on %s: the rule did not decide", set, n, descs[d]);
        continue;
      }
      check_line(set, n, descs[d], &p);
      check_methods(set, n, descs[d], &planner, &p, &t);
    }
  }
}

static void check_spelled_out(void) {
  ompext_model_params_t params;
  if (ompext_model_params_builtin("default", &params) != 0)
    tu_fatal("built-in set default missing");
  ompext_config_t unused;
  ompext_machine_t machine;
  ompext_planner_t offline;
  ompext_plan_offline(&params, &unused, &machine, NULL, &offline);
  ompext_model_topology_t t;
  topology("package:2 core:8 pu:1", &t);
  ompext_config_t cfg;
  auto_config(&cfg);
  const ompext_planner_t planner = {&cfg, &machine, 0, 0, 0};
  ompext_plan_t p;
  ompext_plan_build(&planner, 10, 0, &p);
  ompext_plan_lay_out(&planner, &p, &t);
  char line[512];
  ompext_plan_describe_layout(&p, line, sizeof(line));
  if (p.barrier.alg != OMPEXT_BARRIER_STOCK ||
      !strstr(line, "barrier the runtime's (ext predicted 1."))
    tu_fail("default, 10 on 2 x 8: want the barrier handed back with its "
            "ratio, got '%s'",
            line);
}

static void check_environment_wins(const ompext_machine_t *machine) {
  ompext_model_topology_t t;
  topology("package:2 core:32 pu:1", &t);
  ompext_config_t cfg;
  auto_config(&cfg);
  cfg.barrier = OMPEXT_BARRIER_DISSEMINATION;
  cfg.reduce_levels = 1;
  cfg.reduce_fanin[0] = 5;
  cfg.bcast_fanout = 3;
  cfg.forkjoin_fanout = 6;
  const ompext_planner_t planner = {&cfg, machine, 0, 0, 0};
  for (int n = 33; n <= 64; ++n) {
    ompext_plan_t p, before;
    ompext_plan_build(&planner, n, 0, &p);
    before = p;
    ompext_plan_lay_out(&planner, &p, &t);
    if (p.barrier.alg != before.barrier.alg || p.reduce_fanin[0] != 5 ||
        p.bcast.short_fanout != before.bcast.short_fanout ||
        p.bcast.long_fanout != before.bcast.long_fanout ||
        p.forkjoin_fanout != 6 || p.forkjoin_radix != before.forkjoin_radix)
      tu_fail("%d on 2 x 32: a setting from the environment changed", n);
  }
}

int main(void) {
  unsigned long sets = 0;
  check_spelled_out();
  for (int i = 0; ompext_model_builtin_names[i]; ++i) {
    ompext_model_params_t params;
    if (ompext_model_params_builtin(ompext_model_builtin_names[i], &params))
      tu_fatal("built-in set %s missing", ompext_model_builtin_names[i]);
    /* The machine as ompext-model --plan has it; the configurations are
       each check's own. */
    ompext_config_t unused;
    ompext_machine_t machine;
    ompext_planner_t offline;
    ompext_plan_offline(&params, &unused, &machine, NULL, &offline);
    check_rule_stays_out(&machine);
    check_spanning(params.name, &machine);
    check_environment_wins(&machine);
    ++sets;
  }
  unsigned long bad = tu_failures();
  printf("check_plan_layout: teams spanning 4 topologies over %lu parameter "
         "sets, %lu violations\n",
         sets, bad);
  return bad ? 1 : 0;
}
