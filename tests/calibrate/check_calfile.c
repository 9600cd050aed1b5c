/*
 * Checks a calibration file written by ompext-calibrate (no timing
 * assertions: only the format and that every value is finite and of the
 * right sign).
 *
 *   check_calfile FILE [--csv RAW.csv]
 *       FILE: first line "# omp-ext calibration v1", "# fingerprint" with 16
 *       hex digits, "# cpu", "# topology", "# date"; the keys R_L R_R R_I a
 *       b c o q p line exactly once each and no other key; R_L, R_R, R_I,
 *       o finite and > 0; a, b, c, q, p finite and >= 0 (the fits hold a
 *       coefficient at 0 when the data make it negative, and the model's
 *       parser takes 0 for each of them: asserting > 0 would assert
 *       something about this machine's timings; b was held at 0 on a loaded
 *       run where two readers took more than twice one, q on a CI run whose
 *       message times grew in proportion to their lines), but
 *       the fitted costs of one reader and of one line positive:
 *       T_C(1) = b + c > 0 and T_N(1) = o + q - p > 0; line a whole
 *       number in [1, 4096].  With the cost model built in, the file must
 *       also load with the model's parser and give the same values.
 *       RAW.csv: the header and samples of all three benchmarks.
 *
 *   check_calfile --run TOOL --xdg DIR
 *       runs "TOOL --quick" with XDG_CONFIG_HOME=DIR and no -o, then checks
 *       that the path it printed is DIR/omp-ext/calibration-<fingerprint>.txt
 *       and checks that file as above.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef OMPEXT_CAL_HAVE_MODEL
#include "model.h"
#endif

extern char **environ;

static int failures = 0;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "FAIL: ");                                               \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

enum {
  KEY_R_L, KEY_R_R, KEY_R_I, KEY_A, KEY_B, KEY_C, KEY_O, KEY_Q, KEY_P,
  KEY_LINE, NKEYS
};
static const char *const keys[NKEYS] = {
    [KEY_R_L] = "R_L", [KEY_R_R] = "R_R", [KEY_R_I] = "R_I", [KEY_A] = "a",
    [KEY_B] = "b",     [KEY_C] = "c",     [KEY_O] = "o",     [KEY_Q] = "q",
    [KEY_P] = "p",     [KEY_LINE] = "line"};
/* 1: must be > 0, 0: must be >= 0, 2: the line size */
static const int kind[NKEYS] = {
    [KEY_R_L] = 1, [KEY_R_R] = 1, [KEY_R_I] = 1, [KEY_A] = 0, [KEY_B] = 0,
    [KEY_C] = 0,   [KEY_O] = 1,   [KEY_Q] = 0,   [KEY_P] = 0, [KEY_LINE] = 2};

static int is_hex16(const char *s) {
  for (int i = 0; i < 16; ++i)
    if (!isxdigit((unsigned char)s[i]))
      return 0;
  return s[16] == '\0' || s[16] == '\n';
}

/* Checks one file; hash (17 bytes) gets the fingerprint. */
static void check_file(const char *path, char *hash) {
  FILE *f = fopen(path, "r");
  CHECK(f != NULL, "%s: %s", path, strerror(errno));
  if (!f)
    return;
  char line[1024];
  int lineno = 0;
  int seen_fp = 0, seen_cpu = 0, seen_topo = 0, seen_date = 0;
  int count[NKEYS] = {0};
  double val[NKEYS] = {0};
  hash[0] = 0;
  while (fgets(line, sizeof(line), f)) {
    ++lineno;
    if (lineno == 1)
      CHECK(!strcmp(line, "# omp-ext calibration v1\n"),
            "%s: first line is '%s'", path, line);
    if (!strncmp(line, "# fingerprint ", 14)) {
      seen_fp++;
      CHECK(is_hex16(line + 14), "%s: bad fingerprint line '%s'", path, line);
      snprintf(hash, 17, "%.16s", line + 14);
    } else if (!strncmp(line, "# cpu ", 6)) {
      seen_cpu++;
      CHECK(strlen(line) > 7, "%s: empty cpu line", path);
    } else if (!strncmp(line, "# topology ", 11)) {
      seen_topo++;
      CHECK(strstr(line, "packages=") && strstr(line, "cores=") &&
                strstr(line, "pus=") && strstr(line, "l3="),
            "%s: topology line '%s'", path, line);
    } else if (!strncmp(line, "# date ", 7)) {
      seen_date++;
    }
    char *hashc = strchr(line, '#');
    if (hashc)
      *hashc = 0;
    char k[64], v[128], extra[8];
    int n = sscanf(line, "%63s %127s %7s", k, v, extra);
    if (n <= 0)
      continue;
    CHECK(n == 2, "%s:%d: not 'key value'", path, lineno);
    if (n != 2)
      continue;
    int which = -1;
    for (int i = 0; i < NKEYS; ++i)
      if (!strcmp(k, keys[i]))
        which = i;
    CHECK(which >= 0, "%s:%d: unknown key '%s'", path, lineno, k);
    if (which < 0)
      continue;
    count[which]++;
    char *end;
    double d = strtod(v, &end);
    CHECK(*end == 0 && isfinite(d), "%s:%d: %s = '%s' is not finite", path,
          lineno, k, v);
    val[which] = d;
    if (kind[which] == 1)
      CHECK(d > 0, "%s: %s = %g is not > 0", path, k, d);
    else if (kind[which] == 0)
      CHECK(d >= 0, "%s: %s = %g is negative", path, k, d);
    else
      CHECK(d >= 1 && d <= 4096 && d == floor(d), "%s: line = %g", path, d);
  }
  fclose(f);
  CHECK(lineno > 0, "%s: empty", path);
  CHECK(seen_fp == 1 && seen_cpu == 1 && seen_topo == 1 && seen_date == 1,
        "%s: metadata lines fingerprint %d cpu %d topology %d date %d", path,
        seen_fp, seen_cpu, seen_topo, seen_date);
  for (int i = 0; i < NKEYS; ++i)
    CHECK(count[i] == 1, "%s: key %s appears %d times", path, keys[i],
          count[i]);
  CHECK(val[KEY_B] + val[KEY_C] > 0,
        "%s: one reader's contention cost b + c = %g is not > 0", path,
        val[KEY_B] + val[KEY_C]);
  CHECK(val[KEY_O] + val[KEY_Q] - val[KEY_P] > 0,
        "%s: one line's transfer cost o + q - p = %g is not > 0", path,
        val[KEY_O] + val[KEY_Q] - val[KEY_P]);

#ifdef OMPEXT_CAL_HAVE_MODEL
  ompext_model_params_t mp;
  char err[512];
  int rc = ompext_model_params_load_file(path, &mp, err, sizeof(err));
  CHECK(rc == 0, "model parser: %s", err);
  if (rc == 0) {
    CHECK(ompext_model_params_validate(&mp, err, sizeof(err)) == 0,
          "model validate: %s", err);
    const double got[NKEYS] = {
        [KEY_R_L] = mp.r_l, [KEY_R_R] = mp.r_r, [KEY_R_I] = mp.r_i,
        [KEY_A] = mp.a,     [KEY_B] = mp.b,     [KEY_C] = mp.c,
        [KEY_O] = mp.o,     [KEY_Q] = mp.q,     [KEY_P] = mp.p,
        [KEY_LINE] = mp.line_bytes};
    for (int i = 0; i < NKEYS; ++i)
      CHECK(got[i] == val[i], "model read %s = %.17g, file says %.17g",
            keys[i], got[i], val[i]);
  }
  printf("%s: loads with the cost model's parser\n", path);
#endif
}

static void check_csv(const char *path) {
  FILE *f = fopen(path, "r");
  CHECK(f != NULL, "%s: %s", path, strerror(errno));
  if (!f)
    return;
  char line[1024];
  CHECK(fgets(line, sizeof(line), f) &&
            !strcmp(line, "bench,state,class,cpus,param,index,ns\n"),
        "%s: header '%s'", path, line);
  long rows[3] = {0};
  static const char *const benches[3] = {"line", "contention", "multiline"};
  long lineno = 1;
  while (fgets(line, sizeof(line), f)) {
    ++lineno;
    char *last = strrchr(line, ',');
    CHECK(last != NULL, "%s:%ld: no fields", path, lineno);
    if (!last)
      continue;
    char *end;
    double ns = strtod(last + 1, &end);
    CHECK(isfinite(ns) && (*end == '\n' || *end == 0), "%s:%ld: ns '%s'",
          path, lineno, last + 1);
    for (int b = 0; b < 3; ++b) {
      size_t len = strlen(benches[b]);
      if (!strncmp(line, benches[b], len) && line[len] == ',')
        rows[b]++;
    }
  }
  fclose(f);
  for (int b = 0; b < 3; ++b)
    CHECK(rows[b] > 0, "%s: no %s samples", path, benches[b]);
}

static int run_default(const char *tool, const char *xdg) {
  char out[4096];
  snprintf(out, sizeof(out), "%s/stdout.txt", xdg);
  mkdir(xdg, 0777);
  setenv("XDG_CONFIG_HOME", xdg, 1);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC,
                                   0666);
  char *argv[] = {(char *)tool, "--quick", NULL};
  pid_t pid;
  int rc = posix_spawn(&pid, tool, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  CHECK(rc == 0, "cannot run %s: %s", tool, strerror(rc));
  if (rc != 0)
    return 1;
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s --quick failed",
        tool);
  FILE *f = fopen(out, "r");
  char printed[4096] = "";
  if (f) {
    if (!fgets(printed, sizeof(printed), f))
      printed[0] = 0;
    fclose(f);
  }
  printed[strcspn(printed, "\n")] = 0;
  char prefix[4096];
  snprintf(prefix, sizeof(prefix), "%s/omp-ext/calibration-", xdg);
  CHECK(!strncmp(printed, prefix, strlen(prefix)),
        "printed path '%s' is not under %s", printed, prefix);
  char hash[17];
  check_file(printed, hash);
  char want[4096];
  snprintf(want, sizeof(want), "%s%s.txt", prefix, hash);
  CHECK(!strcmp(printed, want), "file name '%s' does not carry the "
                                "fingerprint (%s)", printed, want);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 5 && !strcmp(argv[1], "--run") && !strcmp(argv[3], "--xdg")) {
    run_default(argv[2], argv[4]);
  } else if (argc == 2 || (argc == 4 && !strcmp(argv[2], "--csv"))) {
    char hash[17];
    check_file(argv[1], hash);
    if (argc == 4)
      check_csv(argv[3]);
  } else {
    fprintf(stderr, "usage: check_calfile FILE [--csv RAW.csv]\n"
                    "       check_calfile --run TOOL --xdg DIR\n");
    return 2;
  }
  if (failures) {
    fprintf(stderr, "%d failure(s)\n", failures);
    return 1;
  }
  printf("calibration file checks passed\n");
  return 0;
}
