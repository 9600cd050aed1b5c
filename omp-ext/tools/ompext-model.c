/*
 * ompext-model: the analytical cost model of omp-ext on the command line.
 *
 * For each team size of a range it prints the best algorithm of a collective
 * (or every algorithm's best, or one given configuration) with its
 * parameters and its predicted min and max cost, from the min-max model of
 * Ramos and Hoefler (see omp-ext/model/model.h), and can plot the predicted
 * cost against the team size with gnuplot.  With --compare it puts a
 * baseline runtime's cost (libomp as shipped, libgomp; baseline.c) and the
 * ratio ext/baseline beside each row.  With --topology (or OMPEXT_TOPOLOGY)
 * a team that spans packages is priced on them: omp-ext as the plugin runs
 * it there, one leader per package, and the baseline topology-unaware, each
 * transfer between packages at R_X (hier.c, baseline.c).
 *
 * Exit status: 0 success, 1 a runtime failure (gnuplot missing or failing,
 * a file not writable), 2 bad usage or input.
 */
#define _POSIX_C_SOURCE 200809L

#include "model.h"
#ifdef OMPEXT_MODEL_PLAN
#include "model_plan.h"
#endif

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_THREADS 4096
#define MAX_SETS 64

static const char *progname = "ompext-model";

static void usage(FILE *f) {
  fprintf(f,
"ompext-model: what the cost model predicts and chooses for a collective.\n"
"example: ompext-model --op barrier --threads 2-16 --compare stock\n"
"\n"
"usage: ompext-model [--params NAME|FILE] [--set NAME=VALUE ...]\n"
"                    --op barrier|bcast|reduce|copyprivate|fork_join\n"
"                    --threads A-B [--compare BASELINE]\n"
"                    [--topology DESCRIPTION]\n"
"                    [--bytes N] [--rounds paper|algorithm]\n"
"                    [--criterion min|max] [--all | --algorithm NAME\n"
"                    [--fix PARAMS]] [--max-m M] [--max-k K] [--max-depth D]\n"
"                    [--format table|csv] [--plot FILE.png]\n"
"       ompext-model [--params NAME|FILE] [--set NAME=VALUE ...] "
"--print-params\n"
"       ompext-model [--params NAME|FILE] [--set NAME=VALUE ...] --plan\n"
"                    [--threads A-B] [--op OP [--bytes N]] [--format csv]\n"
"                    [--topology DESCRIPTION]\n"
"       ompext-model --list-params | --help\n"
"\n"
"Predicts the cost (ns) of omp-ext's collectives with the min-max model of\n"
"Ramos and Hoefler and picks, per team size, the best algorithm and its\n"
"parameters.\n"
"\n"
"  --params NAME|FILE  built-in set (xeon-phi-5110p, sandy-bridge-e5-2670,\n"
"                      default) or a file of 'key value' lines ('#'\n"
"                      comments; 'base NAME' first to start from a set other\n"
"                      than default); default: default\n"
"  --set NAME=VALUE    override one parameter: R_L R_R R_I R_X a b c o q p\n"
"                      line (R_R alone: R_X keeps its ratio to R_R)\n"
"  --op OP             barrier, bcast (the broadcast alone), reduce,\n"
"                      copyprivate (broadcast, then the team's barrier) or\n"
"                      fork_join (fork and join of an empty region)\n"
"  --threads A-B       team sizes A..B (or one size N), 2 <= A <= B <= %d\n"
"  --bytes N           bcast/copyprivate message or reduce data size in bytes\n"
"                      (default 8: one item; a reduction of more than one\n"
"                      line is an array of 8-byte items)\n"
"  --rounds R          dissemination rounds: algorithm = ceil(log_{m+1} n),\n"
"                      what the runtime runs (default); paper =\n"
"                      ceil(log_m n), as printed in the paper (Table B.2)\n"
"  --criterion C       minimise the min cost (default, as the paper) or max\n"
"  --all               every algorithm's best, not only the overall best\n"
"  --algorithm NAME    only this algorithm: barrier: dissemination, tree,\n"
"                      tournament, centralized; bcast and copyprivate: tree,\n"
"                      flat, pipelined; reduce: tree, atomic, critical;\n"
"                      fork_join: tree\n"
"  --fix PARAMS        evaluate this configuration of --algorithm instead of\n"
"                      optimising: m=4, k=4 (barrier tree; tournament: k=0\n"
"                      is its own release), k=4,4,3 (k_1 first), chunk=BYTES\n"
"  --max-m, --max-k, --max-depth  bound the search (default: n-1, n-1, %d)\n"
"  --topology D        the machine as OMPEXT_TOPOLOGY gives it to the\n"
"                      plugin (default: that variable; unset: one package),\n"
"                      an hwloc synthetic description, e.g. \"package:2\n"
"                      core:32 pu:1\"; thread t runs on core t, so teams\n"
"                      are at most packages x cores (more PUs per core add\n"
"                      no thread).  A team spanning packages is priced with\n"
"                      R_X between them: omp-ext as the plugin's one leader\n"
"                      per package, the baselines topology-unaware; barrier,\n"
"                      reduce, copyprivate and fork_join only, without --all,\n"
"                      --algorithm\n"
"  --plan              the plan the plugin builds (the same code, the same\n"
"                      OMPEXT_* environment) for each team that fits the\n"
"                      machine, each collective priced against stock; a\n"
"                      collective the plan hands back to the runtime is\n"
"                      marked (default teams 2-64; every collective at 8 B,\n"
"                      4 KiB and 64 KiB, or --op at --bytes); with\n"
"                      --topology a team spanning its domains is laid out\n"
"                      as the plugin lays it out (each collective on the\n"
"                      leaders, flat or the runtime's), priced there, and\n"
"                      the plugin's OMPEXT_VERBOSE line for it is printed\n"
"                      (\"# team of N: ...\")\n"
"  --compare BASELINE  also price the baseline runtime per team size, and\n"
"                      the ratios ext/baseline (min/min, max/max): stock\n"
"                      (libomp as shipped, hyper barriers), stock-tree,\n"
"                      stock-linear (libomp's other barrier patterns) or\n"
"                      libgomp; any op but bcast\n"
"  --format F          table (default) or csv: threads,op,algorithm,\n"
"                      parameters,min_ns,max_ns (with --compare also\n"
"                      baseline,baseline_min_ns,baseline_max_ns,ratio_min,\n"
"                      ratio_max)\n"
"  --plot FILE.png     also plot cost vs team size per algorithm; with\n"
"                      --compare ext's best and the baseline (log scale;\n"
"                      every algorithm too with --all); writes the gnuplot\n"
"                      script next to it and runs gnuplot\n"
"  --print-params      print the parameter set in the file format\n"
"  --list-params       list the built-in parameter sets\n"
"\n"
"Exit status: 0 success, 1 runtime failure, 2 bad usage or input.\n",
          MAX_THREADS, OMPEXT_MODEL_MAX_LEVELS);
}

static int fail_usage(const char *fmt, const char *arg) {
  fprintf(stderr, "%s: ", progname);
  fprintf(stderr, fmt, arg);
  fputs("\n", stderr);
  usage(stderr);
  return 2;
}

/* Whole decimal number in [lo, hi]. */
static int parse_long(const char *s, long lo, long hi, long *out) {
  if (!s || !*s)
    return -1;
  for (const char *t = s; *t; ++t)
    if (*t < '0' || *t > '9')
      return -1;
  errno = 0;
  char *end;
  long v = strtol(s, &end, 10);
  if (errno || *end || v < lo || v > hi)
    return -1;
  *out = v;
  return 0;
}

static int parse_range(const char *s, int *a, int *b) {
  const char *dash = strchr(s, '-');
  long lo, hi;
  if (!dash) {
    if (parse_long(s, 0, LONG_MAX, &lo))
      return -1;
    hi = lo;
  } else {
    char first[32];
    size_t len = (size_t)(dash - s);
    if (len == 0 || len >= sizeof(first))
      return -1;
    memcpy(first, s, len);
    first[len] = '\0';
    if (parse_long(first, 0, LONG_MAX, &lo) ||
        parse_long(dash + 1, 0, LONG_MAX, &hi))
      return -1;
  }
  if (lo < 2 || hi < lo || hi > MAX_THREADS)
    return -1;
  *a = (int)lo;
  *b = (int)hi;
  return 0;
}

/* One CSV field, quoted when it holds a comma or a quote. */
static void csv_field(FILE *f, const char *s) {
  if (!strpbrk(s, ",\"")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; ++s) {
    if (*s == '"')
      fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

/* One row of ext's: team size, op, algorithm, parameters, cost; `base`
   (NULL without --compare) adds the baseline's cost and the ratios
   ext/baseline. */
typedef struct row {
  int n;
  const char *op, *alg, *config;
  ompext_model_cost_t cost;
} row_t;

static void print_row(FILE *f, int csv, const row_t *r,
                      const ompext_model_baseline_cost_t *base) {
  const ompext_model_cost_t c = r->cost;
  if (csv) {
    fprintf(f, "%d,%s,%s,", r->n, r->op, r->alg);
    csv_field(f, r->config);
    fprintf(f, ",%.3f,%.3f", c.min, c.max);
    if (base) {
      fputc(',', f);
      csv_field(f, base->method);
      fprintf(f, ",%.3f,%.3f,%.4f,%.4f", base->cost.min, base->cost.max,
              c.min / base->cost.min, c.max / base->cost.max);
    }
    fputc('\n', f);
  } else {
    fprintf(f, "%7d  %-11s  %-13s  %-14s  %10.1f  %10.1f", r->n, r->op,
            r->alg, r->config, c.min, c.max);
    if (base)
      fprintf(f, "  %-20s  %10.1f  %10.1f  %9.3f  %9.3f", base->method,
              base->cost.min, base->cost.max, c.min / base->cost.min,
              c.max / base->cost.max);
    fputc('\n', f);
  }
}

/* The row of one configuration the optimizer chose or was given. */
static void print_choice(FILE *f, int csv, const ompext_model_params_t *p,
                         const ompext_model_choice_t *c,
                         const ompext_model_baseline_cost_t *base) {
  char config[512];
  ompext_model_format_config(p, c, config, sizeof(config));
  const row_t r = {c->n, ompext_model_op_names[ompext_model_alg_op(c->alg)],
                   ompext_model_alg_name(c->alg), config, c->cost};
  print_row(f, csv, &r, base);
}

/* The topology of --topology, else of OMPEXT_TOPOLOGY (empty: unset, as
   the plugin takes it).  1 and *t set, 0 without one, 2 after a message
   for a description that does not parse. */
static int read_topology(const char *arg, ompext_model_topology_t *t,
                         const char **text) {
  const char *env = getenv("OMPEXT_TOPOLOGY");
  *text = arg ? arg : env && *env ? env : NULL;
  if (!*text)
    return 0;
  char err[256];
  if (ompext_model_topology_parse(*text, t, err, sizeof(err)) == 0)
    return 1;
  fprintf(stderr, "%s: bad %s '%s': %s\n", progname,
          arg ? "--topology" : "OMPEXT_TOPOLOGY", *text, err);
  return 2;
}

/* read_topology, then refused (2, with a message) when a team of hi
   threads does not fit it: the model runs one thread per core. */
static int read_topology_for(const char *arg, int hi,
                             ompext_model_topology_t *t, const char **text) {
  const int have = read_topology(arg, t, text);
  if (have == 1 && hi > t->packages * t->cores) {
    fprintf(stderr,
            "%s: a team of %d threads does not fit topology '%s': %d %s(s) "
            "x %d cores (the model runs one thread per core; a larger team "
            "is oversubscribed, outside the model)\n",
            progname, hi, *text, t->packages, t->kind, t->cores);
    return 2;
  }
  return have;
}

/* gnuplot single-quoted string: a quote is doubled. */
static void gp_string(FILE *f, const char *s) {
  fputc('\'', f);
  for (; *s; ++s) {
    if (*s == '\'')
      fputc('\'', f);
    fputc(*s, f);
  }
  fputc('\'', f);
}

/* Absolute path of `prog` on PATH, or NULL. */
static char *find_on_path(const char *prog) {
  const char *path = getenv("PATH");
  if (!path || !*path)
    return NULL;
  const char *at = path;
  for (;;) {
    const char *colon = strchr(at, ':');
    size_t len = colon ? (size_t)(colon - at) : strlen(at);
    char *cand = malloc(len + strlen(prog) + 3);
    if (!cand)
      return NULL;
    if (len == 0)
      sprintf(cand, "./%s", prog);
    else
      sprintf(cand, "%.*s/%s", (int)len, at, prog);
    if (access(cand, X_OK) == 0)
      return cand;
    free(cand);
    if (!colon)
      return NULL;
    at = colon + 1;
  }
}

typedef struct plot_series {
  ompext_model_alg_t alg;
  const char *label; /* gnuplot name and title; NULL: the algorithm's name */
  int count;
  ompext_model_choice_t *points; /* [count] */
} plot_series_t;

/* The baseline's points for the plot (count 0: no --compare). */
typedef struct plot_baseline {
  const char *name;
  int count;
  const int *n;                             /* [count] */
  const ompext_model_baseline_cost_t *cost; /* [count] */
} plot_baseline_t;

static int write_plot(const char *png, const ompext_model_params_t *p,
                      const ompext_model_options_t *o, ompext_model_op_t op,
                      long bytes, plot_series_t *series, int nseries,
                      const plot_baseline_t *base) {
  /* The script beside the image: FILE.png -> FILE.gp */
  size_t len = strlen(png);
  char *script = malloc(len + 4);
  if (!script) {
    fprintf(stderr, "%s: out of memory\n", progname);
    return 1;
  }
  strcpy(script, png);
  if (len > 4 && strcmp(png + len - 4, ".png") == 0)
    strcpy(script + len - 4, ".gp");
  else
    strcat(script, ".gp");

  FILE *f = fopen(script, "w");
  if (!f) {
    fprintf(stderr, "%s: cannot write %s: %s\n", progname, script,
            strerror(errno));
    free(script);
    return 1;
  }
  fprintf(f, "# Written by ompext-model: predicted cost vs team size.\n");
  fprintf(f, "# Solid lines: best case (min); dashed: worst case (max).\n");
  fprintf(f, "if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
             "  set terminal pngcairo size 1000,650 noenhanced\n"
             "} else {\n"
             "  set terminal png size 1000,650 noenhanced\n"
             "}\n");
  fprintf(f, "set output ");
  gp_string(f, png);
  fprintf(f, "\n");
  char title[512], versus[96] = "";
  if (base->count > 0)
    snprintf(versus, sizeof(versus), ", vs %s", base->name);
  if (op == OMPEXT_MODEL_OP_BCAST || op == OMPEXT_MODEL_OP_COPYPRIVATE ||
      op == OMPEXT_MODEL_OP_REDUCE)
    snprintf(title, sizeof(title),
             "omp-ext model: %s of %ld bytes, parameters %s, best %s cost%s",
             ompext_model_op_names[op], bytes, p->name,
             o->criterion == OMPEXT_MODEL_CRITERION_MAX ? "max" : "min",
             versus);
  else
    snprintf(title, sizeof(title),
             "omp-ext model: %s, parameters %s, best %s cost%s%s",
             ompext_model_op_names[op], p->name,
             o->criterion == OMPEXT_MODEL_CRITERION_MAX ? "max" : "min",
             op == OMPEXT_MODEL_OP_BARRIER &&
                     o->rounds == OMPEXT_MODEL_ROUNDS_PAPER
                 ? " (paper rounds)"
                 : "",
             versus);
  fprintf(f, "set title ");
  gp_string(f, title);
  fprintf(f, "\nset xlabel 'threads'\nset ylabel 'predicted time (ns)'\n"
             "set key top left\nset grid\n");
  if (base->count > 0) /* ext and the baseline apart by a ratio */
    fprintf(f, "set logscale y\n");
  for (int s = 0; s < nseries; ++s) {
    fprintf(f, "$%s << EOD\n", series[s].label
                                    ? series[s].label
                                    : ompext_model_alg_name(series[s].alg));
    for (int i = 0; i < series[s].count; ++i)
      fprintf(f, "%d %.3f %.3f\n", series[s].points[i].n,
              series[s].points[i].cost.min, series[s].points[i].cost.max);
    fprintf(f, "EOD\n");
  }
  if (base->count > 0) {
    fprintf(f, "$baseline << EOD\n");
    for (int i = 0; i < base->count; ++i)
      fprintf(f, "%d %.3f %.3f\n", base->n[i], base->cost[i].cost.min,
              base->cost[i].cost.max);
    fprintf(f, "EOD\n");
  }
  fprintf(f, "plot ");
  int first = 1;
  for (int s = 0; s < nseries; ++s) {
    if (series[s].count == 0)
      continue;
    const char *name = series[s].label ? series[s].label
                                       : ompext_model_alg_name(series[s].alg);
    fprintf(f,
            "%s$%s using 1:2 with linespoints lc %d pt 7 ps 0.5 dt 1 "
            "title '%s (min)', \\\n     $%s using 1:3 with lines lc %d dt 2 "
            "title '%s (max)'",
            first ? "" : ", \\\n     ", name, s + 1, name, name, s + 1, name);
    first = 0;
  }
  if (base->count > 0) {
    /* Black, thicker: the line the others are measured against. */
    fprintf(f,
            "%s$baseline using 1:2 with linespoints lc rgb 'black' lw 2 pt 5 "
            "ps 0.5 dt 1 title ",
            first ? "" : ", \\\n     ");
    char label[128];
    snprintf(label, sizeof(label), "%s (min)", base->name);
    gp_string(f, label);
    fprintf(f, ", \\\n     $baseline using 1:3 with lines lc rgb 'black' "
               "lw 2 dt 2 title ");
    snprintf(label, sizeof(label), "%s (max)", base->name);
    gp_string(f, label);
    first = 0;
  }
  if (first)
    fprintf(f, "NaN notitle");
  fprintf(f, "\n");
  if (fclose(f) != 0) {
    fprintf(stderr, "%s: cannot write %s\n", progname, script);
    free(script);
    return 1;
  }

  char *gnuplot = find_on_path("gnuplot");
  if (!gnuplot) {
    fprintf(stderr,
            "%s: --plot needs gnuplot, which was not found on PATH (Debian: "
            "apt-get install gnuplot-nox); the script is in %s\n",
            progname, script);
    free(script);
    return 1;
  }
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "%s: fork: %s\n", progname, strerror(errno));
    free(gnuplot);
    free(script);
    return 1;
  }
  if (pid == 0) {
    char *argv[] = {"gnuplot", script, NULL};
    execv(gnuplot, argv);
    fprintf(stderr, "%s: cannot run %s: %s\n", progname, gnuplot,
            strerror(errno));
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      fprintf(stderr, "%s: waitpid: %s\n", progname, strerror(errno));
      free(gnuplot);
      free(script);
      return 1;
    }
  int rc = 0;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "%s: gnuplot failed on %s\n", progname, script);
    rc = 1;
  }
  free(gnuplot);
  free(script);
  return rc;
}

/* --plan: the plugin's own plan (model_plan.c), where the build has it. */
static int print_plan(const ompext_model_params_t *params, const char *op_arg,
                      const char *threads_arg, const char *bytes_arg,
                      const char *format_arg, const char *topology_arg) {
  ompext_model_op_t op = OMPEXT_MODEL_OP_BARRIER;
  if (op_arg && ompext_model_op_lookup(op_arg, &op))
    return fail_usage("unknown op '%s'", op_arg);
  int lo = 2, hi = 64;
  if (threads_arg && parse_range(threads_arg, &lo, &hi))
    return fail_usage("bad thread range '%s'", threads_arg);
  long bytes = 8;
  if (bytes_arg && parse_long(bytes_arg, 1, 1L << 40, &bytes))
    return fail_usage("bad --bytes '%s'", bytes_arg);
  const int csv = format_arg && strcmp(format_arg, "csv") == 0;
  ompext_model_topology_t topology;
  const char *topology_text;
  const int have_topology =
      read_topology_for(topology_arg, hi, &topology, &topology_text);
  if (have_topology == 2)
    return 2;
#ifdef OMPEXT_MODEL_PLAN
  return ompext_model_print_plan(params, op_arg != NULL, op, lo, hi, bytes,
                                 csv, have_topology ? &topology : NULL);
#else
  (void)params, (void)csv, (void)have_topology;
  fprintf(stderr, "%s: --plan needs the plugin's sources: build the whole "
                  "project\n", progname);
  return 2;
#endif
}

int main(int argc, char **argv) {
  const char *params_arg = "default";
  const char *sets[MAX_SETS];
  int nsets = 0;
  const char *op_arg = NULL, *threads_arg = NULL, *bytes_arg = NULL;
  const char *rounds_arg = NULL, *criterion_arg = NULL, *format_arg = NULL;
  const char *plot_arg = NULL, *alg_arg = NULL, *fix_arg = NULL;
  const char *maxm_arg = NULL, *maxk_arg = NULL, *maxd_arg = NULL;
  const char *compare_arg = NULL, *topology_arg = NULL;
  int all = 0, print_params = 0, want_plan = 0;

  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    const char **slot = NULL;
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--list-params") == 0) {
      for (int s = 0; ompext_model_builtin_names[s]; ++s)
        printf("%s\n", ompext_model_builtin_names[s]);
      return 0;
    } else if (strcmp(a, "--all") == 0) {
      all = 1;
      continue;
    } else if (strcmp(a, "--print-params") == 0) {
      print_params = 1;
      continue;
    } else if (strcmp(a, "--plan") == 0) {
      want_plan = 1;
      continue;
    } else if (strcmp(a, "--set") == 0) {
      if (i + 1 >= argc)
        return fail_usage("%s needs a value", a);
      if (nsets == MAX_SETS)
        return fail_usage("too many %s options", a);
      sets[nsets++] = argv[++i];
      continue;
    }
    /* Options with a value: name -> targets[index]. */
    static const struct {
      const char *name;
      size_t index;
    } opts[] = {{"--params", 0},    {"--op", 1},        {"--threads", 2},
                {"--bytes", 3},     {"--rounds", 4},    {"--criterion", 5},
                {"--format", 6},    {"--plot", 7},      {"--algorithm", 8},
                {"--fix", 9},       {"--max-m", 10},    {"--max-k", 11},
                {"--max-depth", 12}, {"--compare", 13},
                {"--topology", 14}};
    const char **targets[] = {&params_arg, &op_arg,   &threads_arg,
                              &bytes_arg,  &rounds_arg, &criterion_arg,
                              &format_arg, &plot_arg, &alg_arg,
                              &fix_arg,    &maxm_arg, &maxk_arg,
                              &maxd_arg,   &compare_arg,
                              &topology_arg};
    for (size_t o = 0; o < sizeof(opts) / sizeof(opts[0]); ++o)
      if (strcmp(a, opts[o].name) == 0)
        slot = targets[opts[o].index];
    if (!slot)
      return fail_usage("unknown option '%s'", a);
    if (i + 1 >= argc)
      return fail_usage("%s needs a value", a);
    *slot = argv[++i];
  }

  /* Parameters. */
  ompext_model_params_t params;
  char err[512];
  if (ompext_model_params_resolve(params_arg, &params, err, sizeof(err))) {
    fprintf(stderr, "%s: %s\n", progname, err);
    return 2;
  }
  if (ompext_model_params_assign_all(&params, sets, nsets, err,
                                     sizeof(err))) {
    fprintf(stderr, "%s: --set: %s\n", progname, err);
    return 2;
  }
  if (ompext_model_params_validate(&params, err, sizeof(err))) {
    fprintf(stderr, "%s: %s\n", progname, err);
    return 2;
  }
  if (print_params) {
    ompext_model_params_write(stdout, &params);
    return 0;
  }

  if (want_plan)
    return print_plan(&params, op_arg, threads_arg, bytes_arg, format_arg,
                      topology_arg);

  /* The question. */
  if (!op_arg)
    return fail_usage("%s", "--op is required (barrier, bcast, reduce, "
                            "copyprivate or fork_join)");
  ompext_model_op_t op;
  if (ompext_model_op_lookup(op_arg, &op))
    return fail_usage("unknown op '%s' (barrier, bcast, reduce, copyprivate "
                      "or fork_join)", op_arg);
  ompext_model_baseline_t baseline = OMPEXT_MODEL_BASELINE_STOCK;
  if (compare_arg) {
    if (ompext_model_baseline_lookup(compare_arg, &baseline)) {
      char names[256] = "";
      for (int i = 0; ompext_model_baseline_names[i]; ++i) {
        strcat(names, i ? ", " : "");
        strcat(names, ompext_model_baseline_names[i]);
      }
      fprintf(stderr, "%s: unknown baseline '%s' for --compare (%s)\n",
              progname, compare_arg, names);
      return 2;
    }
    if (!ompext_model_baseline_has_op(baseline, op)) {
      fprintf(stderr,
              "%s: --compare %s: the baseline has no %s of its own (a "
              "runtime broadcasts only inside copyprivate: use --op "
              "copyprivate)\n", progname, compare_arg, op_arg);
      return 2;
    }
  }
  if (!threads_arg)
    return fail_usage("%s", "--threads A-B is required");
  int lo, hi;
  if (parse_range(threads_arg, &lo, &hi)) {
    fprintf(stderr,
            "%s: bad thread range '%s' (expected A-B or N with 2 <= A <= B "
            "<= %d)\n", progname, threads_arg, MAX_THREADS);
    return 2;
  }
  ompext_model_topology_t topology;
  const char *topology_text;
  const int have_topology =
      read_topology_for(topology_arg, hi, &topology, &topology_text);
  if (have_topology == 2)
    return 2;
  const ompext_model_topology_t *placed = have_topology ? &topology : NULL;
  const int spans = ompext_model_topology_spans(placed, hi);
  if (spans && op == OMPEXT_MODEL_OP_BCAST) {
    fprintf(stderr,
            "%s: --op %s is not priced on a topology: teams of more than %d "
            "threads span packages of '%s' (barrier, reduce, copyprivate and "
            "fork_join are)\n",
            progname, op_arg, topology.cores, topology_text);
    return 2;
  }
  if (spans && (all || alg_arg || fix_arg)) {
    fprintf(stderr,
            "%s: --all, --algorithm and --fix price flat algorithms; teams "
            "of more than %d threads span packages of '%s', where omp-ext "
            "runs its plan of one leader per package\n",
            progname, topology.cores, topology_text);
    return 2;
  }
  long bytes = 8;
  if (bytes_arg) {
    if (op == OMPEXT_MODEL_OP_BARRIER || op == OMPEXT_MODEL_OP_FORK_JOIN)
      return fail_usage("--bytes applies to --op bcast, reduce and "
                        "copyprivate only (the %s model has no message "
                        "size)", op_arg);
    if (parse_long(bytes_arg, 1, 1L << 40, &bytes))
      return fail_usage("bad --bytes '%s' (a whole number of bytes >= 1)",
                        bytes_arg);
  }
  const long lines = ompext_model_lines_for_bytes(&params, bytes);

  ompext_model_options_t opts;
  ompext_model_options_default(&opts);
  if (rounds_arg) {
    if (strcmp(rounds_arg, "paper") == 0)
      opts.rounds = OMPEXT_MODEL_ROUNDS_PAPER;
    else if (strcmp(rounds_arg, "algorithm") == 0)
      opts.rounds = OMPEXT_MODEL_ROUNDS_ALGORITHM;
    else
      return fail_usage("bad --rounds '%s' (paper or algorithm)", rounds_arg);
  }
  if (criterion_arg) {
    if (strcmp(criterion_arg, "min") == 0)
      opts.criterion = OMPEXT_MODEL_CRITERION_MIN;
    else if (strcmp(criterion_arg, "max") == 0)
      opts.criterion = OMPEXT_MODEL_CRITERION_MAX;
    else
      return fail_usage("bad --criterion '%s' (min or max)", criterion_arg);
  }
  long bound;
  if (maxm_arg) {
    if (parse_long(maxm_arg, 1, MAX_THREADS, &bound))
      return fail_usage("bad --max-m '%s' (>= 1)", maxm_arg);
    opts.max_m = (int)bound;
  }
  if (maxk_arg) {
    if (parse_long(maxk_arg, 1, MAX_THREADS, &bound))
      return fail_usage("bad --max-k '%s' (>= 1)", maxk_arg);
    opts.max_k = (int)bound;
  }
  if (maxd_arg) {
    if (parse_long(maxd_arg, 1, OMPEXT_MODEL_MAX_LEVELS, &bound)) {
      char msg[64];
      snprintf(msg, sizeof(msg), "bad --max-depth '%%s' (1..%d)",
               OMPEXT_MODEL_MAX_LEVELS);
      return fail_usage(msg, maxd_arg);
    }
    opts.max_depth = (int)bound;
  }
  int csv = 0;
  if (format_arg) {
    if (strcmp(format_arg, "csv") == 0)
      csv = 1;
    else if (strcmp(format_arg, "table") != 0)
      return fail_usage("bad --format '%s' (table or csv)", format_arg);
  }

  ompext_model_alg_t algs[OMPEXT_MODEL_ALG_COUNT];
  int nalgs = ompext_model_op_algs(op, algs);
  if (alg_arg) {
    ompext_model_alg_t alg;
    if (ompext_model_alg_lookup(op, alg_arg, &alg)) {
      char names[256] = "";
      for (int i = 0; i < nalgs; ++i) {
        strcat(names, i ? ", " : "");
        strcat(names, ompext_model_alg_name(algs[i]));
      }
      fprintf(stderr, "%s: unknown %s algorithm '%s' (%s)\n", progname,
              op_arg, alg_arg, names);
      return 2;
    }
    algs[0] = alg;
    nalgs = 1;
    all = 1;
  } else if (fix_arg) {
    return fail_usage("%s", "--fix needs --algorithm");
  }

  /* Compute: series[a] holds algorithm a's best (or fixed) configuration per
     team size; `best` the overall best per team size. */
  const int count = hi - lo + 1;
  int rc = 0;
  plot_series_t series[OMPEXT_MODEL_ALG_COUNT];
  memset(series, 0, sizeof(series));
  ompext_model_choice_t *best = calloc((size_t)count, sizeof(*best));
  int *have_best = calloc((size_t)count, sizeof(*have_best));
  /* With --compare: the baseline per team size. */
  ompext_model_baseline_cost_t *base = calloc((size_t)count, sizeof(*base));
  int *base_n = calloc((size_t)count, sizeof(*base_n));
  /* With a topology: the plan of each team that spans packages. */
  ompext_model_plan_cost_t *plan = calloc((size_t)count, sizeof(*plan));
  int *have_plan = calloc((size_t)count, sizeof(*have_plan));
  if (!best || !have_best || !base || !base_n || !plan || !have_plan) {
    fprintf(stderr, "%s: out of memory\n", progname);
    rc = 1;
    goto done;
  }
  for (int a = 0; a < nalgs; ++a) {
    series[a].alg = algs[a];
    series[a].count = 0;
    series[a].points = calloc((size_t)count, sizeof(ompext_model_choice_t));
    if (!series[a].points) {
      fprintf(stderr, "%s: out of memory\n", progname);
      rc = 1;
      goto done;
    }
    for (int n = lo; n <= hi; ++n) {
      ompext_model_choice_t c;
      if (fix_arg) {
        memset(&c, 0, sizeof(c));
        c.alg = algs[a];
        c.n = n;
        c.lines = lines;
        if (ompext_model_parse_config(&params, fix_arg, &c, err,
                                      sizeof(err))) {
          fprintf(stderr, "%s: --fix: %s\n", progname, err);
          rc = 2;
          goto done;
        }
        if (ompext_model_evaluate(&params, &opts, &c)) {
          fprintf(stderr,
                  "%s: --fix %s is not a valid %s configuration for %d "
                  "threads%s\n", progname, fix_arg, alg_arg, n,
                  algs[a] == OMPEXT_MODEL_BCAST_TREE ||
                          algs[a] == OMPEXT_MODEL_REDUCE_TREE
                      ? " (the tree must reach n threads with its last "
                        "level needed, each k_i <= n-1)"
                      : "");
          rc = 2;
          goto done;
        }
      } else if (ompext_model_best_config(&params, &opts, algs[a], n, lines,
                                          &c)) {
        continue; /* no valid configuration (pipelined: lines < n-1) */
      }
      series[a].points[series[a].count++] = c;
      const int at = n - lo;
      if (!have_best[at] || ompext_model_compare(&opts, &c, &best[at]) < 0) {
        best[at] = c;
        have_best[at] = 1;
      }
    }
  }

  /* A team spanning packages: the plugin's plan instead (hier.c). */
  for (int n = lo; spans && n <= hi; ++n) {
    const int at = n - lo;
    if (!ompext_model_topology_spans(placed, n))
      continue;
    if (ompext_model_ext_placed(&params, &opts, placed, op, n, lines,
                                &plan[at])) {
      fprintf(stderr, "%s: no %s plan for %d threads on '%s'\n", progname,
              op_arg, n, topology_text);
      rc = 2;
      goto done;
    }
    have_plan[at] = have_best[at] = 1;
    best[at].n = n;
    best[at].cost = plan[at].cost;
  }

  if (compare_arg)
    for (int n = lo; n <= hi; ++n) {
      base_n[n - lo] = n;
      if (ompext_model_baseline_cost_placed(&params, placed, baseline, op, n,
                                            lines, &base[n - lo])) {
        fprintf(stderr, "%s: --compare %s: no %s cost for %d threads\n",
                progname, compare_arg, op_arg, n);
        rc = 2;
        goto done;
      }
    }

  /* Print. */
  if (csv) {
    printf("threads,op,algorithm,parameters,min_ns,max_ns%s\n",
           compare_arg ? ",baseline,baseline_min_ns,baseline_max_ns,"
                         "ratio_min,ratio_max"
                       : "");
  } else {
    printf("# parameters %s; criterion %s", params.name,
           opts.criterion == OMPEXT_MODEL_CRITERION_MAX ? "max" : "min");
    if (op == OMPEXT_MODEL_OP_BARRIER)
      printf("; rounds %s",
             opts.rounds == OMPEXT_MODEL_ROUNDS_PAPER ? "paper" : "algorithm");
    if (op != OMPEXT_MODEL_OP_BARRIER && op != OMPEXT_MODEL_OP_FORK_JOIN)
      printf("; %ld bytes (%ld line%s)", bytes, lines, lines == 1 ? "" : "s");
    if (placed)
      printf("; topology %d %s(s) x %d cores (%s)", topology.packages,
             topology.kind, topology.cores, topology_text);
    if (compare_arg)
      printf("; compared with %s (ratio = ext / baseline)", compare_arg);
    printf("\n%7s  %-11s  %-13s  %-14s  %10s  %10s", "threads", "op",
           "algorithm", "parameters", "min_ns", "max_ns");
    if (compare_arg)
      printf("  %-20s  %10s  %10s  %9s  %9s", "baseline", "base_min",
             "base_max", "ratio_min", "ratio_max");
    printf("\n");
  }
  int printed = 0;
  for (int n = lo; n <= hi; ++n) {
    if (all) {
      for (int a = 0; a < nalgs; ++a)
        for (int i = 0; i < series[a].count; ++i)
          if (series[a].points[i].n == n) {
            print_choice(stdout, csv, &params, &series[a].points[i],
                      compare_arg ? &base[n - lo] : NULL);
            ++printed;
          }
    } else if (have_plan[n - lo]) {
      const ompext_model_plan_cost_t *pc = &plan[n - lo];
      const row_t r = {n, op_arg, pc->algorithm, pc->config, pc->cost};
      print_row(stdout, csv, &r, compare_arg ? &base[n - lo] : NULL);
      ++printed;
    } else if (have_best[n - lo]) {
      print_choice(stdout, csv, &params, &best[n - lo],
                   compare_arg ? &base[n - lo] : NULL);
      ++printed;
    }
  }
  if (op == OMPEXT_MODEL_OP_BCAST && !csv && printed) {
    /* ompext_bcast's choice (omp-ext/src/bcast/bcast_sized_choice.c), as
       OMPEXT_VERBOSE=1 prints it at run time. */
    extern void ompext_bcast_sized_print(FILE *, const ompext_model_params_t *,
                                         int, int, long);
    ompext_bcast_sized_print(stdout, &params, lo, hi, bytes);
  }
  if (fflush(stdout) != 0 || ferror(stdout)) {
    fprintf(stderr, "%s: write error on standard output\n", progname);
    rc = 1;
    goto done;
  }
  if (printed == 0) {
    fprintf(stderr,
            "%s: no algorithm has a valid configuration in that range (the "
            "pipelined broadcast needs at least n-1 lines)\n", progname);
    rc = 2;
    goto done;
  }

  if (plot_arg) {
    /* One line pair per algorithm computed: all of the op's, or the one
       given with --algorithm; with --compare (and not --all) ext's best
       per team size instead, beside the baseline. */
    const plot_baseline_t pb = {compare_arg, compare_arg ? count : 0, base_n,
                                base};
    if ((compare_arg || spans) && !all) {
      /* ext's best per team size against the baseline. */
      plot_series_t ext = {algs[0], "ext_best", 0, best};
      for (int i = 0; i < count; ++i)
        if (have_best[i])
          best[ext.count++] = best[i];
      rc = write_plot(plot_arg, &params, &opts, op, bytes, &ext, 1, &pb);
    } else {
      rc = write_plot(plot_arg, &params, &opts, op, bytes, series, nalgs,
                      &pb);
    }
  }
done:
  for (int a = 0; a < nalgs; ++a)
    free(series[a].points);
  free(best);
  free(have_best);
  free(base);
  free(base_n);
  free(plan);
  free(have_plan);
  return rc;
}
