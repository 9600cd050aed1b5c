/*
 * ompext-model --plan: the plan the plugin builds (plan.c, the same code
 * and the same OMPEXT_* environment) for each team size, each collective
 * priced by the model against the runtime's own (plan_price.c).  Linked
 * into ompext-model by the full build, which has the plugin's sources.
 */
#include "model_plan.h"

#include "config.h"
#include "plan.h"

#include <stdio.h>
#include <string.h>

static const ompext_model_op_t plan_ops[] = {
    OMPEXT_MODEL_OP_BARRIER, OMPEXT_MODEL_OP_REDUCE,
    OMPEXT_MODEL_OP_COPYPRIVATE, OMPEXT_MODEL_OP_FORK_JOIN};

/* The sizes a whole plan is shown at, for the ops with data. */
static const long plan_bytes[] = {8, 4096, 65536};

/* The algorithm's name alone: "what" up to its parameters or its close. */
static void algorithm_of(const char *what, char *buf, size_t cap) {
  size_t i = 0;
  for (; what[i] && what[i] != '(' && what[i] != ',' && i + 1 < cap; ++i)
    buf[i] = what[i];
  buf[i] = '\0';
}

/* CSV: the columns of --compare (threads, op, algorithm, parameters, ...),
   the parameters being what runs in full, quoted (it may hold commas); a
   whole plan names each op with its size, e.g. "reduce:4096". */
static void print_price(int csv, int has_op, int n, ompext_model_op_t op,
                        long bytes, const ompext_plan_price_t *pr) {
  const char *name = ompext_model_op_names[op];
  if (csv) {
    char alg[40];
    algorithm_of(pr->what, alg, sizeof(alg));
    if (has_op || bytes == 0)
      printf("%d,%s,", n, name);
    else
      printf("%d,%s:%ld,", n, name, bytes);
    printf("%s,\"%s\",%.3f,%.3f,stock,%.3f,%.3f,%.4f,%.4f\n", alg, pr->what,
           pr->ext.min, pr->ext.max, pr->stock.min, pr->stock.max,
           pr->ext.min / pr->stock.min, pr->ext.max / pr->stock.max);
    return;
  }
  printf("%7d  %-11s  %8ld  %-48s  %9.1f  %9.1f  %9.1f  %9.1f  %9.3f  "
         "%9.3f%s\n",
         n, name, bytes, pr->what, pr->ext.min, pr->ext.max, pr->stock.min,
         pr->stock.max, pr->ext.min / pr->stock.min,
         pr->ext.max / pr->stock.max,
         pr->stock_path ? "  (handed back to stock)" : "");
}

int ompext_model_print_plan(const ompext_model_params_t *params, int has_op,
                            ompext_model_op_t op, int lo, int hi, long bytes,
                            int csv, const ompext_model_topology_t *topology) {
  ompext_config_t cfg;
  ompext_machine_t machine;
  ompext_planner_t planner;
  ompext_plan_offline(params, &cfg, &machine, stderr, &planner);
  if (has_op && (op == OMPEXT_MODEL_OP_BCAST || op >= OMPEXT_MODEL_OP_COUNT)) {
    fprintf(stderr, "ompext-model: --plan prices barrier, reduce, "
                    "copyprivate and fork_join\n");
    return 2;
  }
  if (csv)
    printf("threads,op,algorithm,parameters,min_ns,max_ns,baseline,"
           "baseline_min_ns,baseline_max_ns,ratio_min,ratio_max\n");
  else
    printf("# the plugin's plan (plan.c) with parameters %s%s, priced "
           "against stock (ratio = ext / stock)\n%7s  %-11s  %8s  %-48s  %9s  "
           "%9s  %9s  %9s  %9s  %9s\n",
           params->name,
           topology ? ", teams spanning domains laid out (plan_layout.c)" : "",
           "threads", "op", "bytes", "ext runs", "min_ns",
           "max_ns", "stock_min", "stock_max", "ratio_min", "ratio_max");
  for (int n = lo; n <= hi; ++n) {
    ompext_plan_t plan;
    ompext_plan_build(&planner, n, 0, &plan);
    /* A team spanning the topology's domains, laid out as team.c does,
       and the line the plugin prints for it under OMPEXT_VERBOSE. */
    if (ompext_model_topology_spans(topology, n)) {
      ompext_plan_lay_out(&planner, &plan, topology);
      char line[512];
      ompext_plan_describe_layout(&plan, line, sizeof(line));
      if (!csv)
        printf("# team of %d: %d %s domains: %s\n", n,
               (n + topology->cores - 1) / topology->cores, topology->kind,
               line);
    }
    for (size_t o = 0; o < sizeof(plan_ops) / sizeof(plan_ops[0]); ++o) {
      const ompext_model_op_t this_op = plan_ops[o];
      if (has_op && this_op != op)
        continue;
      const int sized = this_op == OMPEXT_MODEL_OP_REDUCE ||
                        this_op == OMPEXT_MODEL_OP_COPYPRIVATE;
      const size_t count =
          !sized ? 1 : has_op ? 1 : sizeof(plan_bytes) / sizeof(plan_bytes[0]);
      for (size_t b = 0; b < count; ++b) {
        const long size = !sized ? 0 : has_op ? bytes : plan_bytes[b];
        double lines = size / params->line_bytes;
        if (lines < 1)
          lines = 1;
        ompext_plan_price_t pr;
        if (ompext_plan_price_on(&planner, &plan, topology, this_op, lines,
                                 &pr) != 0) {
          fprintf(stderr, "ompext-model: no price for %s at %d threads\n",
                  ompext_model_op_names[this_op], n);
          return 1;
        }
        print_price(csv, has_op, n, this_op, size, &pr);
      }
    }
  }
  return 0;
}
