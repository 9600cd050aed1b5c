/*
 * ompext-calibrate: measures this machine's cache-coherence costs and
 * writes them as a parameter file of omp-ext's cost model.
 *
 *   ompext-calibrate [-o FILE] [--quick] [--raw FILE.csv] [--threads N]
 *                    [--verbose]
 *
 * See calibrate.h for the method and the files.  This file: the command
 * line, the plan and its time budget, the order of the measurements.
 *
 * Exit status: 0 success, 1 a failure (pinning, measuring, writing, or
 * three measurements in a row spoiled: parameters that are not physical,
 * or a file the plugin would refuse), 2 bad usage.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "calibrate.h"
#include "model.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *progname = "ompext-calibrate";

static void usage(FILE *f) {
  fprintf(f,
"ompext-calibrate: measure this machine's cache-line transfer costs for the\n"
"cost model that chooses omp-ext's algorithms.\n"
"example: ompext-calibrate --quick -o my.cal; OMPEXT_CALIBRATION=my.cal ...\n"
"\n"
"usage: ompext-calibrate [-o FILE] [--quick] [--raw FILE.csv] [--threads N]\n"
"                        [--verbose]\n"
"       ompext-calibrate --help | --version\n"
"\n"
"Measures the cache-line transfer costs of this machine (the method of\n"
"Ramos and Hoefler, \"Modelling Communications in Cache Coherent Systems\")\n"
"and writes them as a parameter file of the omp-ext cost model:\n"
"  R_L R_R R_I   one line read from the own cache, another core's, memory\n"
"  a b c         contention T_C(n) = b + c*n (- a/n) of n readers\n"
"  o q p         N-line transfer T_N = o*N + q - p/N\n"
"\n"
"  -o FILE         output file (default:\n"
"                  $XDG_CONFIG_HOME/omp-ext/calibration-<fingerprint>.txt,\n"
"                  else ~/.config/omp-ext/...; directories are created)\n"
"  --quick         short run (about 5 s; fewer samples and sizes)\n"
"  --raw FILE.csv  also write every sample\n"
"  --threads N     use at most N threads (N >= 2; default: all usable PUs)\n"
"  --verbose       print every series' statistics while measuring\n"
"\n"
"Progress goes to stderr; the path of the written file to stdout.\n"
"Threads are pinned; a failure to pin stops the calibration.  Run it on an\n"
"otherwise idle machine.\n");
}

/* ------------------------------------------------------------------------ */
/* main                                                                     */
/* ------------------------------------------------------------------------ */

static int parse_int(const char *s, int *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end || errno || v < INT_MIN || v > INT_MAX)
    return -1;
  *out = (int)v;
  return 0;
}

/* One measurement: the timer's rate and overhead, then the plan (every
   series, run->rounds times over).  0, or -1 with a message. */
static int measure(cal_run_t *run, char *err, size_t cap) {
  const int quick = run->quick;
  if (cal_timer_init(&run->timer, quick, err, cap) != 0) {
    char why[256];
    snprintf(why, sizeof(why), "%s", err);
    snprintf(err, cap, "timer: %s", why);
    return -1;
  }
  fprintf(stderr, "%s: timer %s (%.3f GHz), overhead %.1f ns subtracted\n",
          progname, run->timer.name, run->timer.ghz, run->timer.overhead_ns);

  run->rounds = quick ? 2 : 5;
  run->steps_done = 0;
  run->steps_total = run->rounds * (cal_linebench_steps(run) +
                                    cal_contention_steps(run) +
                                    cal_multiline_steps(run));
  /* Time budget: a series stops a round at max_samples or after
     series_budget_s (min_samples permitting, up to series_hard_s).  Worst
     case, every series at the hard limit in every round: 2 * 4.5 s (quick)
     and 1.8 * 30 s (default), plus the timer's calibration: within 10 s
     and 60 s per attempt. */
  double total_s = quick ? 4.5 : 30.0;
  double per = total_s / (run->steps_total > 0 ? run->steps_total : 1);
  double cap_s = quick ? 0.15 : 0.5;
  run->series_budget_s = per < cap_s ? per : cap_s;
  run->series_hard_s = (quick ? 2.0 : 1.8) * run->series_budget_s;
  run->max_samples = quick ? 1000 : 4000;
  run->min_samples = quick ? 15 : 40;
  run->warmup = quick ? 10 : 50;

  for (run->round = 0; run->round < run->rounds; ++run->round)
    if (cal_linebench_run(run, err, cap) != 0 ||
        cal_contention_run(run, err, cap) != 0 ||
        cal_multiline_run(run, err, cap) != 0)
      return -1;
  run->steps_done = run->steps_total;
  return 0;
}

static void free_series(cal_run_t *run) {
  for (size_t i = 0; i < run->nseries; ++i) {
    free(run->series[i]->x);
    free(run->series[i]);
  }
  free(run->series);
  run->series = NULL;
  run->nseries = run->capseries = 0;
}

/* The file as the plugin reads it: framing, the model's parser, the
   plausible ranges.  A file it would refuse is no calibration. */
static int file_refused; /* set when plugin_accepts refused the file */
static int plugin_accepts(const char *tmp_path, char *err, size_t cap) {
  ompext_model_params_t p;
  char why[512];
  if (ompext_model_params_load_file(tmp_path, &p, why, sizeof(why)) == 0)
    return 0;
  snprintf(err, cap,
           "the measurements make a file the plugin would refuse (%s)", why);
  file_refused = 1;
  return -1;
}

int main(int argc, char **argv) {
  const char *out_path = NULL, *raw_path = NULL;
  int quick = 0, verbose = 0, threads = 0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--version")) {
      printf("ompext-calibrate %s (calibration file v%d)\n", CAL_VERSION,
             OMPEXT_CALIBRATION_VERSION);
      return 0;
    } else if (!strcmp(a, "--quick")) {
      quick = 1;
    } else if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
      verbose = 1;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--raw") ||
               !strcmp(a, "--threads")) {
      if (i + 1 >= argc || !argv[i + 1][0]) {
        fprintf(stderr, "%s: %s needs an argument\n", progname, a);
        usage(stderr);
        return 2;
      }
      const char *v = argv[++i];
      if (!strcmp(a, "-o")) {
        out_path = v;
      } else if (!strcmp(a, "--raw")) {
        raw_path = v;
      } else if (parse_int(v, &threads) != 0 || threads < 2) {
        fprintf(stderr, "%s: --threads: '%s' is not a number >= 2\n",
                progname, v);
        return 2;
      }
    } else {
      fprintf(stderr, "%s: unknown argument '%s'\n", progname, a);
      usage(stderr);
      return 2;
    }
  }

  char err[512];
  static cal_run_t run; /* large; zeroed */
  run.quick = quick;
  run.verbose = verbose;
  run.t_start = cal_now_s();
  if (cal_topo_load(&run.topo, err, sizeof(err)) != 0) {
    fprintf(stderr, "%s: topology: %s\n", progname, err);
    return 1;
  }
  cal_topo_t *t = &run.topo;
  if (t->npu < 2) {
    fprintf(stderr,
            "%s: %d usable processing unit(s); the measurements need at "
            "least 2 (check the affinity mask)\n",
            progname, t->npu);
    return 1;
  }
  run.max_threads = threads ? threads : t->npu;
  if (run.max_threads > t->npu)
    run.max_threads = t->npu;

  char cpu_model[OMPEXT_CALIBRATION_CPU_MODEL_SIZE];
  ompext_calibration_cpu_model(NULL, cpu_model, sizeof(cpu_model));
  ompext_calibration_fingerprint_t fp;
  ompext_calibration_fingerprint_make(cpu_model, &t->counts, &fp);

  char def_path[4096];
  if (!out_path) {
    if (ompext_calibration_default_path(fp.hash, def_path,
                                        sizeof(def_path)) != 0) {
      fprintf(stderr,
              "%s: neither XDG_CONFIG_HOME nor HOME is set; give -o FILE\n",
              progname);
      return 2;
    }
    out_path = def_path;
  }

  /* Pin the main thread to the reference PU: the buffers it allocates are
     first touched there, and pinning is checked before anything else. */
  if (cal_pin_self(t->pu_os[t->ref], err, sizeof(err)) != 0) {
    fprintf(stderr,
            "%s: %s\n%s: refusing to measure with unpinned threads\n",
            progname, err, progname);
    return 1;
  }
  if (!cal_can_flush())
    fprintf(stderr,
            "%s: warning: no cache-line flush on this architecture; only "
            "the M state can be measured\n",
            progname);

  fprintf(stderr, "%s: %s; %s; fingerprint %s\n", progname, fp.cpu,
          fp.topology, fp.hash);
  fprintf(stderr, "%s: distance classes from CPU %d:", progname,
          t->pu_os[t->ref]);
  for (int c = 1; c < CAL_NCLASSES; ++c)
    if (t->class_peer[c] >= 0)
      fprintf(stderr, " %s (%d CPU%s)", cal_class_name(c), t->class_count[c],
              t->class_count[c] == 1 ? "" : "s");
  fputc('\n', stderr);

  /* A busy machine can spoil a whole measurement (seen: the timer's
     overhead at 4-10 times its usual, contention medians at 0): parameters
     that are not physical, or a file the plugin would refuse, are measured
     again, up to ATTEMPTS times in all. */
  enum { ATTEMPTS = 3 };
  cal_params_t prm;
  for (int attempt = 1;; ++attempt) {
    if (measure(&run, err, sizeof(err)) != 0) {
      fprintf(stderr, "%s: %s\n", progname, err);
      if (strstr(err, "pin"))
        fprintf(stderr, "%s: refusing to measure with unpinned threads\n",
                progname);
      return 1;
    }
    int spoiled = 1; /* the measurements, not the file system, failed */
    if (cal_choose_params(&run, &prm, err, sizeof(err)) == 0) {
      file_refused = 0;
      if (cal_mkdirs_for(out_path, err, sizeof(err)) == 0 &&
          cal_write_calfile(out_path, &run, &fp, &prm, plugin_accepts, err,
                            sizeof(err)) == 0)
        break;
      spoiled = file_refused;
    }
    if (!spoiled || attempt == ATTEMPTS) {
      fprintf(stderr, "%s: %s\n", progname, err);
      if (spoiled)
        fprintf(stderr, "%s: no calibration after %d attempts: measure "
                        "again on a quieter machine\n",
                progname, ATTEMPTS);
      return 1;
    }
    /* A busy spell lasts seconds (seen: two quick runs in a row spoiled,
       the next four not): wait for it to pass, longer each time. */
    fprintf(stderr, "%s: attempt %d of %d: %s; measuring again in %d s\n",
            progname, attempt, ATTEMPTS, err, 2 * attempt);
    free_series(&run);
    sleep((unsigned)(2 * attempt));
  }
  if (prm.warning[0])
    fprintf(stderr, "%s: warning: %s\n", progname, prm.warning);
  if (prm.held_reads[0])
    fprintf(stderr,
            "%s: warning: line reads measured below one tick of the timer "
            "(%.4g ns), held at one tick: %s\n",
            progname, run.timer.ns_per_tick, prm.held_reads);
  if (raw_path && (cal_mkdirs_for(raw_path, err, sizeof(err)) != 0 ||
                   cal_write_raw_csv(raw_path, &run, err, sizeof(err)) != 0)) {
    fprintf(stderr, "%s: %s\n", progname, err);
    return 1;
  }
  cal_progress(&run, "done in %.1f s: R_L %.2f R_R %.2f R_I %.2f b %.2f "
                     "c %.2f o %.2f q %.2f p %.2f ns",
               cal_now_s() - run.t_start, prm.r_l, prm.r_r, prm.r_i, prm.b,
               prm.c, prm.o, prm.q, prm.p);
  printf("%s\n", out_path);

  free_series(&run);
  cal_topo_free(t);
  return 0;
}
