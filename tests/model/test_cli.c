/*
 * The ompext-model command line: output formats, exit statuses and error
 * messages, parameter files, --fix, --topology and OMPEXT_TOPOLOGY, and
 * --plot (with gnuplot when the build found it, and the clear error when
 * gnuplot is not on PATH).  OMPEXT_TOPOLOGY is unset for every run but
 * those that set it.
 *
 * usage: test_cli CLI [--scratch DIR] [--gnuplot PATH]
 *   CLI       the ompext-model binary
 *   DIR       where to write files (default ".")
 *   PATH      gnuplot: also check that --plot produces a PNG
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static int failures;
static const char *cli;
static const char *scratch = ".";

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                     \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, "\n");                                                   \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

typedef struct result {
  int status; /* exit status, or -1 */
  char out[65536];
  char err[8192];
} result_t;

static void slurp(const char *path, char *buf, size_t cap) {
  buf[0] = '\0';
  FILE *f = fopen(path, "r");
  if (!f)
    return;
  size_t n = fread(buf, 1, cap - 1, f);
  buf[n] = '\0';
  fclose(f);
}

/* Runs the CLI with args (NULL-terminated); path_env replaces PATH if set. */
static void run(result_t *r, const char *path_env, const char *const *args) {
  char out_path[4096], err_path[4096];
  snprintf(out_path, sizeof(out_path), "%s/model_test_cli.out", scratch);
  snprintf(err_path, sizeof(err_path), "%s/model_test_cli.err", scratch);
  const char *argv[64];
  int argc = 0;
  argv[argc++] = cli;
  for (int i = 0; args[i] && argc < 63; ++i)
    argv[argc++] = args[i];
  argv[argc] = NULL;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int o = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o < 0 || e < 0)
      _exit(126);
    dup2(o, 1);
    dup2(e, 2);
    if (path_env)
      setenv("PATH", path_env, 1);
    execv(cli, (char *const *)argv);
    _exit(127);
  }
  int status = 0;
  r->status = -1;
  if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
    r->status = WEXITSTATUS(status);
  slurp(out_path, r->out, sizeof(r->out));
  slurp(err_path, r->err, sizeof(r->err));
  remove(out_path);
  remove(err_path);
}

#define RUN(r, ...)                                                            \
  do {                                                                         \
    const char *const a_[] = {__VA_ARGS__, NULL};                              \
    run(r, NULL, a_);                                                          \
  } while (0)

static int lines_of(const char *s) {
  int n = 0;
  for (; *s; ++s)
    n += *s == '\n';
  return n;
}

/* Every line of s has `fields` comma-separated fields (no quoted commas),
   and the first field of line i (after the header) is first + i - 1. */
static int csv_rows_ok(const char *s, int fields, int first) {
  int line = 0;
  while (*s) {
    const char *end = strchr(s, '\n');
    if (!end)
      return 0;
    int commas = 0;
    for (const char *t = s; t < end; ++t)
      commas += *t == ',';
    if (commas != fields - 1)
      return 0;
    if (line > 0 && atoi(s) != first + line - 1)
      return 0;
    ++line;
    s = end + 1;
  }
  return 1;
}

/* Does the file at path contain needle? */
static int file_has(const char *path, const char *needle) {
  static char buf[262144];
  slurp(path, buf, sizeof(buf));
  return strstr(buf, needle) != NULL;
}

/* A failing invocation: exit 2 and a message containing `needle`. */
static void expect_usage_error(const char *needle, const char *const *args) {
  static result_t r;
  run(&r, NULL, args);
  CHECK(r.status == 2, "[%s ...] exit %d, want 2 (stderr: %s)", args[0],
        r.status, r.err);
  CHECK(strstr(r.err, needle) != NULL, "[%s ...] stderr lacks '%s': %s",
        args[0], needle, r.err);
}

#define USAGE_ERROR(needle, ...)                                               \
  do {                                                                         \
    const char *const a_[] = {__VA_ARGS__, NULL};                              \
    expect_usage_error(needle, a_);                                            \
  } while (0)

/* The text from line `first` (1: the header) on. */
static const char *from_line(const char *s, int first) {
  for (int line = 1; line < first && s; ++line) {
    s = strchr(s, '\n');
    s = s ? s + 1 : NULL;
  }
  return s ? s : "";
}

/* --topology and OMPEXT_TOPOLOGY.  Packages 2 x 4 cores, R_X = 600 on the
   Xeon Phi set: teams of 2-4 are priced as without a topology, larger ones
   with the plugin's plan (tests/model/test_baseline.c: the barrier of 8 is
   2867.8 / 8101.2). */
static void check_topology(void) {
  static result_t flat, r;
  RUN(&flat, "--params", "xeon-phi-5110p", "--set", "R_X=600", "--op",
      "barrier", "--threads", "2-4", "--compare", "stock", "--format", "csv");
  RUN(&r, "--params", "xeon-phi-5110p", "--set", "R_X=600", "--op", "barrier",
      "--threads", "2-8", "--compare", "stock", "--format", "csv",
      "--topology", "package:2 core:4 pu:1");
  CHECK(r.status == 0 && lines_of(r.out) == 1 + 7 &&
            strncmp(r.out, flat.out, strlen(flat.out)) == 0 &&
            strstr(r.out, "\n5,barrier,hier,k=3 m=1,") &&
            strstr(r.out, "\n8,barrier,hier,k=3 m=1,2867.800,8101.200,"
                          "stock:hyper,"),
        "--topology barrier: %d %s%s", r.status, r.out, r.err);
  /* The variable is the default, --topology wins over it. */
  static result_t env;
  setenv("OMPEXT_TOPOLOGY", "package:2 core:4 pu:1", 1);
  RUN(&env, "--params", "xeon-phi-5110p", "--set", "R_X=600", "--op",
      "barrier", "--threads", "2-8", "--compare", "stock", "--format", "csv");
  CHECK(env.status == 0 && strcmp(env.out, r.out) == 0,
        "OMPEXT_TOPOLOGY barrier: %d %s%s", env.status, env.out, env.err);
  RUN(&env, "--params", "xeon-phi-5110p", "--set", "R_X=600", "--op",
      "barrier", "--threads", "2-4", "--compare", "stock", "--format", "csv",
      "--topology", "package:1 core:4");
  CHECK(env.status == 0 && strcmp(env.out, flat.out) == 0,
        "--topology over OMPEXT_TOPOLOGY: %d %s%s", env.status, env.out,
        env.err);
  /* One package of 4 cores holds no team of 5. */
  USAGE_ERROR("does not fit", "--op", "barrier", "--threads", "2-5",
              "--topology", "package:1 core:4");
  setenv("OMPEXT_TOPOLOGY", "package:2 cores:4", 1);
  USAGE_ERROR("bad OMPEXT_TOPOLOGY 'package:2 cores:4'", "--op", "barrier",
              "--threads", "2-8");
  unsetenv("OMPEXT_TOPOLOGY");
  /* The table says where it runs; reduce and fork_join have plans. */
  RUN(&r, "--op", "fork_join", "--threads", "2-8", "--topology",
      "package:2 core:4");
  CHECK(r.status == 0 && strstr(r.out, "topology 2 package(s) x 4 cores") &&
            strstr(from_line(r.out, 7), "hier"),
        "--topology fork_join table: %d %s%s", r.status, r.out, r.err);
  RUN(&r, "--op", "reduce", "--bytes", "512", "--threads", "8", "--topology",
      "package:2 core:4", "--compare", "libgomp", "--format", "csv");
  CHECK(r.status == 0 && strstr(r.out, "\n8,reduce,") &&
            strstr(r.out, ",libgomp:lock,"),
        "--topology reduce: %d %s%s", r.status, r.out, r.err);
  /* Copyprivate has plans too: the two-level broadcast, then the
     hierarchical barrier; both baselines price theirs placed.  Teams of
     2-4 as without a topology. */
  RUN(&flat, "--params", "xeon-phi-5110p", "--set", "R_X=600", "--op",
      "copyprivate", "--bytes", "4096", "--threads", "2-4", "--compare",
      "stock", "--format", "csv");
  RUN(&r, "--params", "xeon-phi-5110p", "--set", "R_X=600", "--op",
      "copyprivate", "--bytes", "4096", "--threads", "2-8", "--compare",
      "stock", "--format", "csv", "--topology", "package:2 core:4 pu:1");
  CHECK(r.status == 0 && lines_of(r.out) == 1 + 7 &&
            strncmp(r.out, flat.out, strlen(flat.out)) == 0 &&
            strstr(r.out, "\n5,copyprivate,hier,k=") &&
            strstr(r.out, " then barrier k=3 m=1,") &&
            strstr(r.out, ",stock:hyper,"),
        "--topology copyprivate: %d %s%s", r.status, r.out, r.err);
  RUN(&r, "--op", "copyprivate", "--threads", "8", "--topology",
      "package:2 core:4", "--compare", "libgomp", "--format", "csv");
  CHECK(r.status == 0 && strstr(r.out, "\n8,copyprivate,hier,") &&
            strstr(r.out, ",libgomp:centralized,"),
        "--topology copyprivate libgomp: %d %s%s", r.status, r.out, r.err);
  /* An L3 per 2 cores splits each package (as the plugin's domains). */
  RUN(&r, "--op", "barrier", "--threads", "8", "--topology",
      "package:2 l3cache:2 core:2 pu:2");
  CHECK(r.status == 0 && strstr(r.out, "topology 4 l3cache(s) x 2 cores") &&
            strstr(r.out, "m=3"),
        "--topology with L3 domains: %d %s%s", r.status, r.out, r.err);
  /* Bad descriptions and what is not priced on a topology (the broadcast
     alone): exit 2. */
  static const char *const bad[][2] = {
      {"package:2 cores:4", "is not TYPE:COUNT"},
      {"package:2", "no core level"},
      {"package:2 core:0", "whole number"},
      {"package:2(memory=1GB) core:4", "whole number"},
      {"core:4 package:2", "from the top down"},
      {"package:64 core:64 pu:2", "more than 4096 PUs"},
      {"", "bad --topology ''"}};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); ++i)
    USAGE_ERROR(bad[i][1], "--op", "barrier", "--threads", "2", "--topology",
                bad[i][0]);
  USAGE_ERROR("not priced on a topology", "--op", "bcast", "--threads",
              "2-8", "--topology", "package:2 core:4");
  USAGE_ERROR("price flat algorithms", "--op", "barrier", "--threads",
              "2-8", "--all", "--topology", "package:2 core:4");
  USAGE_ERROR("price flat algorithms", "--op", "barrier", "--threads", "8",
              "--algorithm", "tree", "--topology", "package:2 core:4");
}

int main(int argc, char **argv) {
  const char *gnuplot = NULL;
  if (argc < 2) {
    fprintf(stderr, "usage: %s CLI [--scratch DIR] [--gnuplot PATH]\n",
            argv[0]);
    return 2;
  }
  cli = argv[1];
  unsetenv("OMPEXT_TOPOLOGY");
  for (int i = 2; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--scratch") == 0)
      scratch = argv[i + 1];
    else if (strcmp(argv[i], "--gnuplot") == 0)
      gnuplot = argv[i + 1][0] ? argv[i + 1] : NULL;
  }
  static result_t r;

  /* Help and listing. */
  RUN(&r, "--help");
  CHECK(r.status == 0 && strstr(r.out, "usage: ompext-model"), "--help");
  RUN(&r, "--list-params");
  CHECK(r.status == 0 &&
            strcmp(r.out,
                   "xeon-phi-5110p\nsandy-bridge-e5-2670\ndefault\n") == 0,
        "--list-params: %s", r.out);

  /* CSV: header, column order, quoting of k=3,2, hand-checked numbers
     (tests/model/test_cost.c: bcast tree 3,2 = 3523.9 / 6900.3). */
  RUN(&r, "--params", "xeon-phi-5110p", "--op", "bcast", "--algorithm", "tree",
      "--threads", "10", "--format", "csv");
  CHECK(r.status == 0 &&
            strcmp(r.out, "threads,op,algorithm,parameters,min_ns,max_ns\n"
                          "10,bcast,tree,\"k=3,2\",3523.900,6900.300\n") == 0,
        "bcast tree csv: %s%s", r.out, r.err);
  /* The overall best and --all. */
  RUN(&r, "--params", "xeon-phi-5110p", "--op", "barrier", "--threads", "2-5",
      "--format", "csv");
  CHECK(r.status == 0 && lines_of(r.out) == 1 + 4 &&
            strstr(r.out, "\n2,barrier,dissemination,m=1,480.200,1886.400\n"),
        "barrier best csv: %s", r.out);
  RUN(&r, "--params", "xeon-phi-5110p", "--op", "barrier", "--threads", "2-5",
      "--format", "csv", "--all");
  CHECK(r.status == 0 && lines_of(r.out) == 1 + 4 * 4 &&
            strstr(r.out, "\n5,barrier,centralized,-,2399.900,4286.300\n") &&
            strstr(r.out, "\n5,barrier,tournament,k=4,1912.200,4244.400\n"),
        "barrier --all csv: %s", r.out);
  /* Table format. */
  RUN(&r, "--params", "xeon-phi-5110p", "--op", "reduce", "--threads", "2-4");
  CHECK(r.status == 0 && strstr(r.out, "# parameters xeon-phi-5110p") &&
            strstr(r.out, "min_ns") && lines_of(r.out) == 2 + 3,
        "table: %s", r.out);
  /* Paper rounds change the dissemination choice at 25 threads (m=5, r=2
     with either count; with m=4 the paper counts ceil(log_4 25) = 3). */
  RUN(&r, "--params", "xeon-phi-5110p", "--op", "barrier", "--algorithm",
      "dissemination", "--threads", "25", "--fix", "m=4", "--rounds", "paper",
      "--format", "csv");
  CHECK(r.status == 0 &&
            strstr(r.out, "\n25,barrier,dissemination,m=4,3562.800,18392.400\n"),
        "--fix m=4 paper: %s%s", r.out, r.err);
  RUN(&r, "--params", "xeon-phi-5110p", "--op", "barrier", "--algorithm",
      "dissemination", "--threads", "25", "--fix", "m=4", "--format", "csv");
  CHECK(r.status == 0 &&
            strstr(r.out, "\n25,barrier,dissemination,m=4,2375.200,12261.600\n"),
        "--fix m=4 algorithm: %s%s", r.out, r.err);
  /* --bytes: pipelined needs n-1 lines; 8 KB = 128 lines. */
  RUN(&r, "--params", "xeon-phi-5110p", "--op", "bcast", "--bytes", "8192",
      "--threads", "60", "--all", "--format", "csv");
  CHECK(r.status == 0 && strstr(r.out, "\n60,bcast,pipelined,chunk=") &&
            strstr(r.out, "\n60,bcast,flat,-,") &&
            strstr(r.out, "\n60,bcast,tree,"),
        "bcast 8KB --all: %s%s", r.out, r.err);
  RUN(&r, "--params", "xeon-phi-5110p", "--op", "bcast", "--bytes", "64",
      "--threads", "60", "--algorithm", "pipelined");
  CHECK(r.status == 2 && strstr(r.err, "no algorithm has a valid"),
        "pipelined with one line: %d %s", r.status, r.err);
  /* --set and --print-params. */
  RUN(&r, "--params", "xeon-phi-5110p", "--set", "R_R=100", "--set", "b=1",
      "--print-params");
  CHECK(r.status == 0 && strstr(r.out, "\nR_R 100\n") &&
            strstr(r.out, "\nb 1\n") && strstr(r.out, "\nR_L 8.6\n"),
        "--print-params: %s", r.out);

  /* --compare: the baseline's columns on every team size, hand-checked
     numbers (tests/model/test_baseline.c: stock barrier n=16 is
     3318.4 / 6602.4; n=2: G(1) + S(1) = 244.4 + 471.6 = 716.0, max
     707.4 + 707.4 = 1414.8, ratios 480.2/716 and 1886.4/1414.8). */
  RUN(&r, "--params", "xeon-phi-5110p", "--op", "barrier", "--threads",
      "2-256", "--compare", "stock", "--format", "csv");
  CHECK(r.status == 0 &&
            strncmp(r.out,
                    "threads,op,algorithm,parameters,min_ns,max_ns,baseline,"
                    "baseline_min_ns,baseline_max_ns,ratio_min,ratio_max\n",
                    strlen("threads,op,algorithm,parameters,min_ns,max_ns,"
                           "baseline,baseline_min_ns,baseline_max_ns,"
                           "ratio_min,ratio_max\n")) == 0 &&
            lines_of(r.out) == 1 + 255 && csv_rows_ok(r.out, 11, 2) &&
            strstr(r.out, "\n2,barrier,dissemination,m=1,480.200,1886.400,"
                          "stock:hyper,716.000,1414.800,0.6707,1.3333\n") &&
            strstr(r.out, ",stock:hyper,3318.400,6602.400,") &&
            strstr(r.out, "\n256,barrier,"),
        "--compare stock csv: %.300s%s", r.out, r.err);
  /* Table format: the baseline's columns and the ratio's meaning. */
  RUN(&r, "--params", "xeon-phi-5110p", "--op", "reduce", "--threads", "4-5",
      "--compare", "stock");
  CHECK(r.status == 0 && strstr(r.out, "compared with stock") &&
            strstr(r.out, "ratio_min") && strstr(r.out, "stock:atomic") &&
            strstr(r.out, "stock:tree") && lines_of(r.out) == 2 + 2,
        "--compare table: %s%s", r.out, r.err);
  /* libgomp, copyprivate of 64 KiB: one row per algorithm with --all. */
  RUN(&r, "--params", "xeon-phi-5110p", "--op", "copyprivate", "--bytes",
      "65536", "--threads", "60", "--compare", "libgomp", "--all", "--format",
      "csv");
  CHECK(r.status == 0 && lines_of(r.out) == 1 + 3 &&
            strstr(r.out, "\n60,copyprivate,tree,") &&
            strstr(r.out, "\n60,copyprivate,pipelined,chunk=") &&
            strstr(r.out, ",libgomp:centralized,"),
        "--compare libgomp copyprivate: %s%s", r.out, r.err);
  /* fork_join: omp-ext's tree, hand-checked for n = 5, k = 4:
     release S(4) = 5 R_R = 1179.0 (max 9 R_R = 2122.2), gather
     G(4) = 8.6 + 4 R_R = 951.8 (max 9 R_R = 2122.2). */
  RUN(&r, "--params", "xeon-phi-5110p", "--op", "fork_join", "--algorithm",
      "tree", "--fix", "k=4", "--threads", "5", "--format", "csv");
  CHECK(r.status == 0 &&
            strcmp(r.out, "threads,op,algorithm,parameters,min_ns,max_ns\n"
                          "5,fork_join,tree,k=4,2130.800,4244.400\n") == 0,
        "fork_join --fix k=4: %s%s", r.out, r.err);
  RUN(&r, "--op", "fork_join", "--threads", "2-64", "--compare", "stock",
      "--format", "csv");
  CHECK(r.status == 0 && lines_of(r.out) == 1 + 63 &&
            csv_rows_ok(r.out, 11, 2) && strstr(r.out, ",stock:hyper,"),
        "fork_join --compare stock: %.300s%s", r.out, r.err);

  /* A parameter file, with the overrides on top. */
  char file[4096];
  snprintf(file, sizeof(file), "%s/model_test_cli.params", scratch);
  FILE *f = fopen(file, "w");
  CHECK(f != NULL, "cannot write %s", file);
  if (f) {
    fprintf(f, "# test\nbase xeon-phi-5110p\nR_R 100   # override\n");
    fclose(f);
    RUN(&r, "--params", file, "--set", "R_L=1", "--op", "barrier",
        "--algorithm", "dissemination", "--threads", "2", "--format", "csv");
    /* m = 1, r = 1: R_L + 2 R_R = 1 + 200 */
    CHECK(r.status == 0 &&
              strstr(r.out, "\n2,barrier,dissemination,m=1,201.000,800.000\n"),
          "params file: %s%s", r.out, r.err);
    f = fopen(file, "w");
    if (f) {
      fprintf(f, "R_R fast\n");
      fclose(f);
    }
    USAGE_ERROR(":1:", "--params", file, "--op", "barrier", "--threads", "2");
    remove(file);
  }

  /* Bad input: exit 2 and a clear message. */
  USAGE_ERROR("unknown parameter set 'nosuch'", "--params", "nosuch", "--op",
              "barrier", "--threads", "2-4");
  USAGE_ERROR("unknown op 'gather'", "--op", "gather", "--threads", "2-4");
  USAGE_ERROR("--op is required", "--threads", "2-4");
  USAGE_ERROR("--threads A-B is required", "--op", "barrier");
  USAGE_ERROR("bad thread range '5-3'", "--op", "barrier", "--threads", "5-3");
  USAGE_ERROR("bad thread range '1-4'", "--op", "barrier", "--threads", "1-4");
  USAGE_ERROR("bad thread range 'x'", "--op", "barrier", "--threads", "x");
  USAGE_ERROR("bad thread range '2-99999'", "--op", "barrier", "--threads",
              "2-99999");
  USAGE_ERROR("--bytes applies to --op bcast, reduce and copyprivate only", "--op", "barrier",
              "--threads", "2", "--bytes", "64");
  USAGE_ERROR("bad --bytes", "--op", "bcast", "--threads", "2", "--bytes",
              "0");
  USAGE_ERROR("bad --rounds", "--op", "barrier", "--threads", "2", "--rounds",
              "log");
  USAGE_ERROR("bad --format", "--op", "barrier", "--threads", "2", "--format",
              "json");
  USAGE_ERROR("unknown barrier algorithm 'butterfly'", "--op", "barrier",
              "--threads", "2", "--algorithm", "butterfly");
  USAGE_ERROR("--fix needs --algorithm", "--op", "barrier", "--threads", "2",
              "--fix", "m=2");
  USAGE_ERROR("not a valid tree configuration for 12 threads", "--op", "bcast",
              "--threads", "12", "--algorithm", "tree", "--fix", "k=3,2");
  USAGE_ERROR("expected m=M", "--op", "barrier", "--threads", "4",
              "--algorithm", "dissemination", "--fix", "k=2");
  USAGE_ERROR("--set: unknown parameter 'x'", "--op", "barrier", "--threads",
              "2", "--set", "x=1");
  USAGE_ERROR("unknown option '--bogus'", "--bogus");
  USAGE_ERROR("unknown baseline 'icc' for --compare (stock, stock-tree, "
              "stock-linear, libgomp)", "--op", "barrier", "--threads", "2-4",
              "--compare", "icc");
  USAGE_ERROR("--compare stock: the baseline has no bcast of its own", "--op",
              "bcast", "--threads", "2-4", "--compare", "stock");
  USAGE_ERROR("--compare needs a value", "--op", "barrier", "--threads", "4",
              "--compare");
  USAGE_ERROR("--bytes applies to --op bcast, reduce and copyprivate only",
              "--op", "fork_join", "--threads", "4", "--bytes", "64");

  /* --plot without gnuplot on PATH: exit 1, a clear message, the script. */
  char png[4096], gp[4096];
  snprintf(png, sizeof(png), "%s/model_test_cli.png", scratch);
  snprintf(gp, sizeof(gp), "%s/model_test_cli.gp", scratch);
  remove(png);
  remove(gp);
  {
    const char *const a[] = {"--op",   "barrier", "--threads", "2-8",
                             "--plot", png,       NULL};
    run(&r, "/nonexistent-ompext-model-test", a);
    CHECK(r.status == 1 && strstr(r.err, "gnuplot") &&
              strstr(r.err, "gnuplot-nox"),
          "--plot without gnuplot: %d %s", r.status, r.err);
    struct stat st;
    CHECK(stat(gp, &st) == 0 && st.st_size > 0, "script %s not written", gp);
    CHECK(!file_has(gp, "$baseline"), "baseline plotted without --compare");
  }
  /* --compare draws the baseline too. */
  {
    const char *const a[] = {"--op",   "fork_join", "--threads", "2-8",
                             "--compare", "stock",  "--plot",    png,
                             NULL};
    run(&r, "/nonexistent-ompext-model-test", a);
    CHECK(r.status == 1, "--plot --compare without gnuplot: %d", r.status);
    CHECK(file_has(gp, "$baseline << EOD\n2 ") &&
              file_has(gp, "title 'stock (min)'") &&
              file_has(gp, "title 'stock (max)'") &&
              file_has(gp, "vs stock") && file_has(gp, "$ext_best << EOD\n2 ") &&
              file_has(gp, "set logscale y") && !file_has(gp, "$tree << EOD"),
          "--plot --compare script: not ext's best and the baseline");
  }
  /* --plot with gnuplot: a PNG file. */
  if (gnuplot) {
    char dir[4096];
    snprintf(dir, sizeof(dir), "%s", gnuplot);
    char *slash = strrchr(dir, '/');
    if (slash)
      *slash = '\0';
    const char *const a[] = {"--params",  "xeon-phi-5110p", "--op",
                             "copyprivate", "--bytes",   "8192",
                             "--threads", "2-60",      "--compare",
                             "stock",     "--plot",    png,
                             NULL};
    run(&r, dir, a);
    CHECK(r.status == 0, "--plot with gnuplot: %d %s", r.status, r.err);
    FILE *img = fopen(png, "rb");
    unsigned char magic[8] = {0};
    if (img) {
      CHECK(fread(magic, 1, 8, img) == 8, "short PNG");
      fclose(img);
    }
    CHECK(img && memcmp(magic, "\x89PNG\r\n\x1a\n", 8) == 0,
          "%s is not a PNG", png);
    printf("plot: %s\n", png);
  } else {
    printf("plot: gnuplot not given, PNG output not checked\n");
  }
  remove(gp);

  check_topology();

  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
