/*
 * calibrate.support: the parts of ompext-calibrate that do not measure.
 * (The default output path and the fingerprint belong to omp-ext/calibration:
 * test_calibration.c.)
 *
 *   - directory creation for the output file
 *   - pinning: a bad CPU is refused with a message; a team with one bad CPU
 *     runs nothing
 *   - parameter choice and the calibration file from synthetic series: the
 *     header, the plugin's reader accepting it, the values, and (when built
 *     with the cost model) loading it with the model's parser; a line read
 *     below one tick of the timer held at one tick and noted; a file the
 *     write's check refuses never replaces the earlier one
 *
 * usage: test_support SCRATCH_DIR
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "calibrate.h"
#include "check.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef OMPEXT_CAL_HAVE_MODEL
#include "model.h"
#endif

static const char *scratch;

static void test_mkdirs(void) {
  char buf[4096], want[4096];
  char err[512];
  snprintf(want, sizeof(want), "%s/a/b/c/file.txt", scratch);
  CHECK(cal_mkdirs_for(want, err, sizeof(err)) == 0, "mkdirs: %s", err);
  snprintf(buf, sizeof(buf), "%s/a/b/c", scratch);
  struct stat st;
  CHECK(stat(buf, &st) == 0 && S_ISDIR(st.st_mode), "%s not created", buf);
  CHECK(cal_mkdirs_for(want, err, sizeof(err)) == 0, "mkdirs again: %s", err);
  /* A file in the way. */
  snprintf(buf, sizeof(buf), "%s/plainfile", scratch);
  FILE *f = fopen(buf, "w");
  CHECK(f != NULL, "cannot create %s", buf);
  if (f)
    fclose(f);
  snprintf(want, sizeof(want), "%s/plainfile/x.txt", scratch);
  CHECK(cal_mkdirs_for(want, err, sizeof(err)) != 0, "file in the way");
  CHECK(cal_mkdirs_for("relative.txt", err, sizeof(err)) == 0, "no dir");
}

static int ran;
static void count_role(int role, void *arg) {
  (void)role;
  (void)arg;
  __atomic_add_fetch(&ran, 1, __ATOMIC_SEQ_CST);
}

static void test_pinning(void) {
  char err[512] = "";
  CHECK(cal_pin_self(-1, err, sizeof(err)) != 0 && strstr(err, "pin"),
        "pin -1: '%s'", err);
  /* A CPU number no machine here has (inside the cpu_set_t range). */
  err[0] = 0;
  CHECK(cal_pin_self(1000, err, sizeof(err)) != 0 &&
            strstr(err, "cannot pin a thread to CPU 1000"),
        "pin 1000: '%s'", err);
  /* A good CPU (the first this process may use) and a bad one. */
  cpu_set_t mask;
  int good = 0;
  if (sched_getaffinity(0, sizeof(mask), &mask) == 0)
    while (good < CPU_SETSIZE - 1 && !CPU_ISSET(good, &mask))
      ++good;
  int pus[2] = {good, 1000};
  ran = 0;
  err[0] = 0;
  CHECK(cal_team_run(2, pus, count_role, NULL, err, sizeof(err)) != 0 &&
            strstr(err, "1000"),
        "team with a bad CPU: '%s'", err);
  CHECK(ran == 0, "%d role(s) ran in a failed team", ran);
}

/* A run with synthetic series: two classes (local, l3). */
static void add_series(cal_run_t *run, const char *bench, const char *state,
                       const char *cls, int param, double v) {
  cal_series_t *s = cal_series_get(run, bench, state, cls, "0<-1", param);
  for (int i = 0; i < 5; ++i)
    cal_series_add(s, v + (i - 2) * 0.01 * v);
  cal_summarize(s->x, s->n, &s->sum);
}

/* A check that refuses the file: the call fails with its message, the
   earlier file at path is left as it was, no temporary file remains. */
static int refuse_all(const char *tmp_path, char *err, size_t cap) {
  snprintf(err, cap, "refused %s", tmp_path);
  return -1;
}

static void test_refused_file(const char *path, const cal_run_t *run,
                              const ompext_calibration_fingerprint_t *fp,
                              const cal_params_t *prm) {
  struct stat before, after;
  CHECK(stat(path, &before) == 0, "no file at %s", path);
  char err[512] = "";
  CHECK(cal_write_calfile(path, run, fp, prm, refuse_all, err,
                          sizeof(err)) != 0 &&
            strstr(err, "refused"),
        "a refused file was written: '%s'", err);
  CHECK(stat(path, &after) == 0 && after.st_ino == before.st_ino &&
            after.st_size == before.st_size,
        "the earlier file at %s changed", path);
  char tmp[4200];
  snprintf(tmp, sizeof(tmp), "%s.tmp%ld", path, (long)getpid());
  CHECK(stat(tmp, &after) != 0, "temporary file %s left behind", tmp);
}

/* Local reads measured below one tick (a busy machine: the timer's
   overhead subtracted leaves them at or below 0) are held at one tick and
   named in held_reads and in the file, which the model still loads. */
static void test_reads_below_a_tick(cal_run_t *run,
                                    const ompext_calibration_fingerprint_t *fp) {
  cal_series_t *local = cal_series_get(run, "line", "M", "local", "0<-1", 32);
  const double saved = local->sum.median;
  local->sum.median = -3.33;
  cal_params_t prm;
  char err[512] = "";
  CHECK(cal_choose_params(run, &prm, err, sizeof(err)) == 0, "choose: %s",
        err);
  CHECK(prm.r_l == run->timer.ns_per_tick && prm.r_r == 80,
        "R_L %g (want one tick, %g) R_R %g", prm.r_l, run->timer.ns_per_tick,
        prm.r_r);
  CHECK(strstr(prm.held_reads, "R_L -3.33 ns") && !strstr(prm.held_reads, "R_R"),
        "held reads '%s'", prm.held_reads);
  char path[4096];
  snprintf(path, sizeof(path), "%s/cal/held.txt", scratch);
  CHECK(cal_write_calfile(path, run, fp, &prm, NULL, err, sizeof(err)) == 0,
        "write: %s", err);
  FILE *f = fopen(path, "r");
  static char text[1 << 16];
  size_t len = f ? fread(text, 1, sizeof(text) - 1, f) : 0;
  text[len] = '\0';
  if (f)
    fclose(f);
  CHECK(strstr(text, "# held at one tick of the timer (1 ns), the medians "
                     "measured below it: R_L -3.33 ns\n"),
        "no note of the held read in %s", path);
#ifdef OMPEXT_CAL_HAVE_MODEL
  ompext_model_params_t mp;
  CHECK(ompext_model_params_load_file(path, &mp, err, sizeof(err)) == 0 &&
            mp.r_l == 1,
        "model parser: %s (R_L %g)", err, mp.r_l);
#endif
  local->sum.median = saved;
}

static void test_file(void) {
  static cal_run_t run;
  memset(&run, 0, sizeof(run));
  run.max_samples = 16;
  run.max_threads = 2;
  for (int c = 0; c < CAL_NCLASSES; ++c)
    run.topo.class_peer[c] = -1;
  run.topo.class_peer[CAL_CLASS_LOCAL] = 0;
  run.topo.class_peer[CAL_CLASS_L3] = 1;
  run.topo.npu = run.topo.counts.pus = 2;
  run.topo.line_bytes = 64;
  run.timer.name = "synthetic";
  run.timer.ghz = 1;
  run.timer.ns_per_tick = 1;
  add_series(&run, "line", "M", "local", 32, 1.5);
  add_series(&run, "line", "E", "local", 32, 1.6);
  add_series(&run, "line", "M", "l3", 32, 80);
  add_series(&run, "line", "E", "l3", 32, 75);
  add_series(&run, "line", "I", "memory", 32, 120);
  add_series(&run, "contention", "M", "l3", 1, 100);
  add_series(&run, "contention", "M", "l3", 2, 110);
  add_series(&run, "contention", "E", "l3", 1, 300); /* not used */
  const double o = 6, q = 150, p = 30;
  for (int N = 1; N <= 128; N *= 2)
    add_series(&run, "multiline", "E/E", "l3", N, o * N + q - p / N);

  cal_params_t prm;
  char err[512];
  CHECK(cal_choose_params(&run, &prm, err, sizeof(err)) == 0, "choose: %s",
        err);
  CHECK(prm.r_l == 1.5 && prm.r_r == 80 && prm.r_i == 120,
        "R_L %g R_R %g R_I %g", prm.r_l, prm.r_r, prm.r_i);
  CHECK(fabs(prm.b - 90) < 1e-9 && fabs(prm.c - 10) < 1e-9 && prm.a == 0,
        "b %g c %g a %g", prm.b, prm.c, prm.a);
  CHECK(fabs(prm.o - o) < 1e-9 && fabs(prm.q - q) < 1e-9 &&
            fabs(prm.p - p) < 1e-9,
        "o %g q %g p %g", prm.o, prm.q, prm.p);
  CHECK(prm.line == 64, "line %d", prm.line);

  const ompext_calibration_counts_t counts = {
      .packages = 1, .cores = 2, .pus = 2, .l3s = 1};
  ompext_calibration_fingerprint_t fp;
  ompext_calibration_fingerprint_make("Test CPU", &counts, &fp);
  char path[4096];
  snprintf(path, sizeof(path), "%s/cal/synthetic.txt", scratch);
  CHECK(cal_mkdirs_for(path, err, sizeof(err)) == 0, "mkdirs: %s", err);
  CHECK(cal_write_calfile(path, &run, &fp, &prm, NULL, err, sizeof(err)) ==
            0,
        "write: %s", err);
  FILE *f = fopen(path, "r");
  CHECK(f != NULL, "cannot read %s", path);
  if (!f)
    return;
  char line[1024];
  CHECK(fgets(line, sizeof(line), f) &&
            !strcmp(line, "# omp-ext calibration v1\n"),
        "first line '%s'", line);
  char want[64];
  snprintf(want, sizeof(want), "# fingerprint %s\n", fp.hash);
  CHECK(fgets(line, sizeof(line), f) && !strcmp(line, want),
        "second line '%s'", line);
  /* The whole file passes the reader the plugin uses. */
  static char text[1 << 16];
  rewind(f);
  size_t len = fread(text, 1, sizeof(text) - 1, f);
  text[len] = '\0';
  fclose(f);
  CHECK(ompext_calibration_body(text, fp.hash, err, sizeof(err)) == text,
        "the plugin's reader refuses the file: %s", err);

  char csv[4096];
  snprintf(csv, sizeof(csv), "%s/cal/raw.csv", scratch);
  CHECK(cal_write_raw_csv(csv, &run, err, sizeof(err)) == 0, "csv: %s", err);

#ifdef OMPEXT_CAL_HAVE_MODEL
  ompext_model_params_t mp;
  CHECK(ompext_model_params_load_file(path, &mp, err, sizeof(err)) == 0,
        "model parser: %s", err);
  CHECK(ompext_model_params_validate(&mp, err, sizeof(err)) == 0,
        "model validate: %s", err);
  CHECK(fabs(mp.r_l - 1.5) < 1e-4 && fabs(mp.r_r - 80) < 1e-3 &&
            fabs(mp.r_i - 120) < 1e-3 && fabs(mp.b - 90) < 1e-3 &&
            fabs(mp.c - 10) < 1e-4 && mp.a == 0 && fabs(mp.o - o) < 1e-4 &&
            fabs(mp.q - q) < 1e-3 && fabs(mp.p - p) < 1e-4 &&
            mp.line_bytes == 64,
        "model read back R_L %g R_R %g R_I %g a %g b %g c %g o %g q %g p %g",
        mp.r_l, mp.r_r, mp.r_i, mp.a, mp.b, mp.c, mp.o, mp.q, mp.p);
#else
  printf("(cost model not built: parser check skipped)\n");
#endif

  CHECK(prm.warning[0] == 0, "unexpected warning: %s", prm.warning);
  CHECK(prm.held_reads[0] == 0, "unexpected held reads: %s", prm.held_reads);
  test_refused_file(path, &run, &fp, &prm);
  test_reads_below_a_tick(&run, &fp);
  /* A remote read as fast as a local one is flagged. */
  cal_series_t *l3 = cal_series_get(&run, "line", "M", "l3", "0<-1", 32);
  double saved = l3->sum.median;
  l3->sum.median = 1.6;
  CHECK(cal_choose_params(&run, &prm, err, sizeof(err)) == 0 &&
            strstr(prm.warning, "share an L1"),
        "no warning for a remote read at local speed: '%s'", prm.warning);
  l3->sum.median = saved;

  /* A spoiled measurement (a busy machine): contention medians at 0, and a
     one-line message fitted to cost less than nothing, are refused. */
  cal_series_t *c1 = cal_series_get(&run, "contention", "M", "l3", "0<-1", 1);
  cal_series_t *c2 = cal_series_get(&run, "contention", "M", "l3", "0<-1", 2);
  const double c1_saved = c1->sum.median, c2_saved = c2->sum.median;
  c1->sum.median = c2->sum.median = 0;
  err[0] = 0;
  CHECK(cal_choose_params(&run, &prm, err, sizeof(err)) != 0 &&
            strstr(err, "one reader's cost b + c = ") &&
            strstr(err, "is not above 0"),
        "contention at 0 ns accepted: '%s'", err);
  c1->sum.median = c1_saved;
  c2->sum.median = c2_saved;
  cal_series_t *m1 =
      cal_series_get(&run, "multiline", "E/E", "l3", "0<-1", 1);
  const double m1_saved = m1->sum.median;
  m1->sum.median = -400; /* pulls p far above o + q */
  err[0] = 0;
  CHECK(cal_choose_params(&run, &prm, err, sizeof(err)) != 0 &&
            strstr(err, "one-line message's cost o + q - p ="),
        "a one-line message below 0 ns accepted: '%s'", err);
  m1->sum.median = m1_saved;

  /* A missing measurement is an error, not a zero. */
  static cal_run_t empty;
  memset(&empty, 0, sizeof(empty));
  for (int c = 0; c < CAL_NCLASSES; ++c)
    empty.topo.class_peer[c] = -1;
  CHECK(cal_choose_params(&empty, &prm, err, sizeof(err)) != 0,
        "choose with no series");

  for (size_t i = 0; i < run.nseries; ++i) {
    free(run.series[i]->x);
    free(run.series[i]);
  }
  free(run.series);
}

int main(int argc, char **argv) {
  scratch = check_scratch_dir(argc, argv, "test_support");
  if (!scratch)
    return 2;
  test_mkdirs();
  test_pinning();
  test_file();
  return checks_result("calibrate support tests passed");
}
