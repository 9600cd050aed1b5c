/*
 * The calibration file and the raw samples.
 *
 * The calibration file is a parameter file of the cost model
 * (omp-ext/model: "key value" lines, '#' comments; the parser refuses
 * unknown keys and values of more than one word).  So everything but the
 * model's parameters is a comment, in a fixed "# key value" form that a
 * program can read back.  The framing (the first four lines and the last)
 * is written by omp-ext/calibration, whose reader the plugin uses:
 *
 *   # omp-ext calibration v1
 *   # fingerprint <16 hex digits>
 *   # cpu <model>
 *   # topology packages=P cores=C pus=U l3=L
 *   # date <UTC, ISO 8601>
 *   # tool, timer, mode ...
 *   R_L <ns>  R_R <ns>  R_I <ns>  a <ns>  b <ns>  c <ns>  o <ns>  q <ns>
 *   p <ns>  line <bytes>                    (one per line)
 *   # measurements: median, p10, p90, samples of every series
 *   # end
 *
 * The file is written to a temporary name and renamed (ompext-calibrate
 * first reads the temporary file as the plugin would, and keeps no file the
 * plugin would refuse).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "calibrate.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int cal_mkdirs_for(const char *path, char *err, size_t cap) {
  char dir[4096];
  if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir)) {
    snprintf(err, cap, "%s: path too long", path);
    return -1;
  }
  char *slash = strrchr(dir, '/');
  if (!slash)
    return 0; /* the current directory */
  *slash = '\0';
  if (!dir[0])
    return 0; /* the root */
  for (char *p = dir + 1;; ++p) {
    char c = *p;
    if (c == '/' || c == '\0') {
      *p = '\0';
      struct stat st;
      if (stat(dir, &st) != 0) {
        if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
          snprintf(err, cap, "cannot create directory %s: %s", dir,
                   strerror(errno));
          return -1;
        }
      } else if (!S_ISDIR(st.st_mode)) {
        snprintf(err, cap, "%s exists and is not a directory", dir);
        return -1;
      }
      *p = c;
      if (c == '\0')
        break;
    }
  }
  return 0;
}

/* Six significant digits: these are measurements. */
static void put_value(FILE *f, const char *key, double v) {
  fprintf(f, "%-4s %.6g\n", key, v);
}

static void put_series(FILE *f, const cal_series_t *s) {
  if (s->n == 0) {
    fprintf(f, "#   %-10s %-4s %-8s %4d  %14s  (no samples%s)\n", s->bench,
            s->state, s->cls, s->param, s->cpus,
            s->dropped ? ", all dropped" : "");
    return;
  }
  fprintf(f,
          "#   %-10s %-4s %-8s %4d  %14s  %10.2f %10.2f %10.2f %7zu",
          s->bench, s->state, s->cls, s->param, s->cpus, s->sum.median,
          s->sum.p10, s->sum.p90, s->sum.n);
  if (s->dropped)
    fprintf(f, "  dropped %zu", s->dropped);
  if (s->budget_hit)
    fprintf(f, "  (time budget)");
  if (s->late_included)
    fprintf(f, "  (late starts included)");
  fputc('\n', f);
}

static void put_held(FILE *f, const char *what, unsigned held,
                     const char *const *names, int k) {
  if (!held)
    return;
  fprintf(f, "# %s: held at 0 by the non-negative fit (the unconstrained fit "
             "made them negative):",
          what);
  for (int j = 0; j < k; ++j)
    if (held & (1u << j))
      fprintf(f, " %s", names[j]);
  fputc('\n', f);
}

int cal_write_calfile(const char *path, const cal_run_t *run,
                      const ompext_calibration_fingerprint_t *fp,
                      const cal_params_t *prm, cal_file_check_fn check,
                      char *err, size_t cap) {
  char tmp[4200];
  if (snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid()) >=
      (int)sizeof(tmp)) {
    snprintf(err, cap, "%s: path too long", path);
    return -1;
  }
  FILE *f = fopen(tmp, "w");
  if (!f) {
    snprintf(err, cap, "cannot write %s: %s", tmp, strerror(errno));
    return -1;
  }
  char date[64] = "unknown";
  time_t now = time(NULL);
  struct tm tm;
  if (gmtime_r(&now, &tm))
    strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);

  ompext_calibration_write_header(f, fp);
  fprintf(f, "# date %s\n", date);
  fprintf(f, "# tool ompext-calibrate %s, mode %s, %d of %d PUs usable, "
             "threads <= %d\n",
          CAL_VERSION, run->quick ? "quick" : "default", run->topo.npu,
          run->topo.counts.pus, run->max_threads);
  fprintf(f, "# timer %s, %.4f GHz, overhead %.2f ns (p10 %.2f, p90 %.2f), "
             "subtracted\n",
          run->timer.name, run->timer.ghz, run->timer.overhead_ns,
          run->timer.overhead_p10_ns, run->timer.overhead_p90_ns);
  fprintf(f, "#\n");
  fprintf(f, "# Parameters of the omp-ext cost model (omp-ext/model), ns;\n"
             "# the metadata above are comments so that the model's parser\n"
             "# reads this file as it is (ompext-model --params FILE).\n");
  fprintf(f, "# R_L: %s\n", prm->r_l_src);
  fprintf(f, "# R_R: %s\n", prm->r_r_src);
  fprintf(f, "# R_I: %s\n", prm->r_i_src);
  fprintf(f, "# a, b, c: %s\n", prm->tc_src);
  fprintf(f, "# o, q, p: %s\n", prm->tn_src);
  put_value(f, "R_L", prm->r_l);
  put_value(f, "R_R", prm->r_r);
  put_value(f, "R_I", prm->r_i);
  put_value(f, "a", prm->a);
  put_value(f, "b", prm->b);
  put_value(f, "c", prm->c);
  put_value(f, "o", prm->o);
  put_value(f, "q", prm->q);
  put_value(f, "p", prm->p);
  fprintf(f, "line %d\n", prm->line);
  if (prm->warning[0])
    fprintf(f, "# warning: %s\n", prm->warning);
  if (prm->held_reads[0])
    fprintf(f, "# held at one tick of the timer (%.4g ns), the medians "
               "measured below it: %s\n",
            run->timer.ns_per_tick, prm->held_reads);
  static const char *const tc_names[] = {"b", "c"};
  static const char *const tn_names[] = {"o", "q", "p"};
  put_held(f, "contention fit", prm->tc_held, tc_names, 2);
  put_held(f, "multi-line fit", prm->tn_held, tn_names, 3);
  fprintf(f, "# fit residuals (rms, ns): contention %.3g over %d points, "
             "multi-line %.3g over %d points\n",
          prm->tc_points ? sqrt(prm->tc_rss / prm->tc_points) : 0.0,
          prm->tc_points,
          prm->tn_points ? sqrt(prm->tn_rss / prm->tn_points) : 0.0,
          prm->tn_points);

  /* Per-class single-line costs (the model has one R_R; the others are
     here for reference, as comments). */
  fprintf(f, "#\n# Single-line read cost per distance class (median ns):\n");
  for (int cls = 0; cls < CAL_NCLASSES; ++cls) {
    if (run->topo.class_peer[cls] < 0)
      continue;
    fprintf(f, "#   class %-8s", cal_class_name(cls));
    const char *st = "MES";
    for (; *st; ++st) {
      char s[2] = {*st, 0};
      const cal_series_t *x =
          cal_series_find(run, "line", s, cal_class_name(cls), -1);
      if (x)
        fprintf(f, "  %s %.2f", s, x->sum.median);
      else
        fprintf(f, "  %s n/a", s);
    }
    fputc('\n', f);
  }
  const cal_series_t *mem = cal_series_find(run, "line", "I", "memory", -1);
  if (mem)
    fprintf(f, "#   memory (state I)  %.2f\n", mem->sum.median);

  fprintf(f, "#\n# Measurements (ns; line: per line read; contention: the "
             "slowest of n readers;\n# multiline: half a round trip), "
             "median p10 p90 samples:\n");
  fprintf(f, "#   %-10s %-4s %-8s %4s  %14s  %10s %10s %10s %7s\n", "bench",
          "st", "class", "n", "cpus", "median", "p10", "p90", "samples");
  for (size_t i = 0; i < run->nseries; ++i)
    put_series(f, run->series[i]);
  ompext_calibration_write_end(f);

  int bad = ferror(f);
  if (fclose(f) != 0)
    bad = 1;
  if (bad) {
    snprintf(err, cap, "cannot write %s", tmp);
    unlink(tmp);
    return -1;
  }
  if (check && check(tmp, err, cap) != 0) {
    unlink(tmp);
    return -1;
  }
  if (rename(tmp, path) != 0) {
    snprintf(err, cap, "cannot rename %s to %s: %s", tmp, path,
             strerror(errno));
    unlink(tmp);
    return -1;
  }
  return 0;
}

int cal_write_raw_csv(const char *path, const cal_run_t *run, char *err,
                      size_t cap) {
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(err, cap, "cannot write %s: %s", path, strerror(errno));
    return -1;
  }
  fprintf(f, "bench,state,class,cpus,param,index,ns\n");
  for (size_t i = 0; i < run->nseries; ++i) {
    const cal_series_t *s = run->series[i];
    for (size_t j = 0; j < s->n; ++j)
      fprintf(f, "%s,%s,%s,\"%s\",%d,%zu,%.3f\n", s->bench, s->state, s->cls,
              s->cpus, s->param, j, s->x[j]);
  }
  int bad = ferror(f);
  if (fclose(f) != 0)
    bad = 1;
  if (bad) {
    snprintf(err, cap, "cannot write %s", path);
    return -1;
  }
  return 0;
}
