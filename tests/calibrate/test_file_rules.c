/*
 * calibrate.file_rules: the rules every reader of calibration and
 * parameter files follows, the plugin's (machine.c) and the tools'
 * (ompext-model through ompext_model_params_load_file): the reader of
 * omp-ext/calibration, the framing, the model's parser and its plausible
 * ranges.
 *
 *   - validate: each parameter at the ends of its range is taken, just
 *     outside is refused with its name, its value and its range; 0 is taken
 *     for the fitted coefficients, not for the line transfers; the absurd
 *     values users wrote (R_R 1e300, o 1e-300, R_R 1e308) are refused
 *   - from_file_text: a framed file for its own machine and for any
 *     machine, refused for another one; a plain file for all; values out
 *     of range refused with validate's message
 *   - load_file and resolve (the tools): a FIFO (without waiting), a
 *     directory, /dev/null, a NUL byte, values out of range: refused, the
 *     path in front of the reason; nothing at the path is an unknown set
 *
 * usage: test_file_rules SCRATCH_DIR
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mkfifo, alarm */
#endif
#include "calibration.h"
#include "check.h"
#include "model.h"
#include "scratch_file.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *scratch;

/* ---- validate ----------------------------------------------------------- */

/* The default set with one parameter set to v (by the parser's setter,
   which takes any finite value >= 0 and a whole line in [1, 4096]):
   validate's verdict, its message in err. */
static int validate_with(const char *name, double v, char *err, size_t cap) {
  ompext_model_params_t p;
  ompext_model_params_builtin("default", &p);
  char value[64];
  snprintf(value, sizeof(value), "%.17g", v);
  err[0] = '\0';
  CHECK(ompext_model_params_set(&p, name, value, err, cap) == 0,
        "cannot set %s = %s: %s", name, value, err);
  return ompext_model_params_validate(&p, err, cap);
}

static void accepted(const char *name, double v) {
  char err[256];
  CHECK(validate_with(name, v, err, sizeof(err)) == 0, "%s = %g refused: %s",
        name, v, err);
}

static void refused(const char *name, double v, const char *want) {
  char err[256];
  CHECK(validate_with(name, v, err, sizeof(err)) != 0, "%s = %g accepted", name,
        v);
  CHECK(strstr(err, want) != NULL, "%s = %g: '%s' lacks '%s'", name, v, err,
        want);
}

/* validate refuses p with a message containing want. */
static void refused_set(const char *what, const ompext_model_params_t *p,
                        const char *want) {
  char err[256] = "";
  CHECK(ompext_model_params_validate(p, err, sizeof(err)) != 0, "%s accepted",
        what);
  CHECK(strstr(err, want) != NULL, "%s: '%s' lacks '%s'", what, err, want);
}

static void test_ranges(void) {
  static const char *const transfers[] = {"R_L", "R_R", "R_I"};
  for (int i = 0; i < 3; ++i) {
    char want[128];
    snprintf(want, sizeof(want), "parameter %s = ", transfers[i]);
    accepted(transfers[i], 0.01);
    accepted(transfers[i], 1e6);
    refused(transfers[i], 0, want);
    refused(transfers[i], 0.0099, want);
    refused(transfers[i], 1.01e6, "is out of range: 0.01 to 1e+06 ns");
  }
  static const char *const coefficients[] = {"a", "b", "c", "q", "p"};
  for (int i = 0; i < 5; ++i) {
    accepted(coefficients[i], 0);
    accepted(coefficients[i], 1e-12);
    accepted(coefficients[i], 1e6);
    refused(coefficients[i], 1.01e6, "is out of range: 0 to 1e+06 ns");
  }
  accepted("o", 0);
  accepted("o", 0.01);
  accepted("o", 1e6);
  refused("o", 0.0099,
          "parameter o = 0.0099 is out of range: 0, or 0.01 to 1e+06 ns");
  /* What users wrote. */
  refused("R_R", 1e300,
          "parameter R_R = 1e+300 is out of range: 0.01 to 1e+06 ns");
  refused("o", 1e-300, "parameter o = 1e-300 is out of range");
  refused("R_R", 1e308, "parameter R_R = 1e+308 is out of range");
  accepted("line", 1);
  accepted("line", 4096);

  /* Values the parser never gives, in a set made in code. */
  ompext_model_params_t p, def;
  ompext_model_params_builtin("default", &def);
  p = def;
  p.r_r = NAN;
  refused_set("R_R NaN", &p, "parameter R_R = nan is out of range");
  p = def;
  p.r_i = INFINITY;
  refused_set("R_I inf", &p, "parameter R_I = inf is out of range");
  p = def;
  p.c = -1;
  refused_set("c -1", &p, "parameter c = -1 is out of range");
  p = def;
  p.line_bytes = 63.5;
  refused_set("line 63.5", &p, "parameter line = 63.5 is out of range");
  p = def;
  p.line_bytes = 0;
  refused_set("line 0", &p, "parameter line = 0 is out of range");

  /* The built-in sets, and the paper's variant without T_N's q and p. */
  char err[256];
  for (int i = 0; ompext_model_builtin_names[i]; ++i) {
    ompext_model_params_builtin(ompext_model_builtin_names[i], &p);
    CHECK(ompext_model_params_validate(&p, err, sizeof(err)) == 0,
          "built-in %s: %s", ompext_model_builtin_names[i], err);
    p.q = p.p = 0;
    CHECK(ompext_model_params_validate(&p, err, sizeof(err)) == 0,
          "built-in %s without q and p: %s", ompext_model_builtin_names[i],
          err);
  }
}

/* ---- from_file_text ----------------------------------------------------- */

/* A calibration file of a small machine around these parameter lines
   (caller frees); its fingerprint in fp. */
static char *framed(const char *lines, ompext_calibration_fingerprint_t *fp) {
  const ompext_calibration_counts_t counts = {1, 2, 2, 1};
  ompext_calibration_fingerprint_make("Test CPU", &counts, fp);
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    return NULL;
  ompext_calibration_write_header(f, fp);
  fputs(lines, f);
  ompext_calibration_write_end(f);
  fclose(f);
  return text;
}

static void test_from_text(void) {
  ompext_calibration_fingerprint_t fp;
  char *text = framed("R_R 90\n", &fp);
  CHECK(text != NULL, "framed file");
  if (!text)
    return;
  ompext_model_params_t p;
  char err[512] = "";
  CHECK(ompext_model_params_from_file_text(text, "f", fp.hash, &p, err,
                                           sizeof(err)) == 0 &&
            p.r_r == 90,
        "own machine: %s", err);
  CHECK(ompext_model_params_from_file_text(text, "f",
                                           OMPEXT_CALIBRATION_ANY_MACHINE, &p,
                                           err, sizeof(err)) == 0,
        "any machine: %s", err);
  CHECK(ompext_model_params_from_file_text(text, "f", "0123456789abcdef", &p,
                                           err, sizeof(err)) != 0 &&
            strstr(err, "measured on another machine"),
        "other machine: %s", err);
  CHECK(ompext_model_params_from_file_text(text, "f", NULL, &p, err,
                                           sizeof(err)) != 0,
        "unknown machine accepted");
  free(text);

  CHECK(ompext_model_params_from_file_text("R_R 90\n", "f", NULL, &p, err,
                                           sizeof(err)) == 0,
        "plain file: %s", err);
  CHECK(ompext_model_params_from_file_text("R_R 1e300\n", "f", NULL, &p, err,
                                           sizeof(err)) != 0 &&
            !strcmp(err, "parameter R_R = 1e+300 is out of range: 0.01 to "
                         "1e+06 ns"),
        "absurd plain value: '%s'", err);
  text = framed("o 1e-300\n", &fp);
  CHECK(text &&
            ompext_model_params_from_file_text(text, "f", fp.hash, &p, err,
                                               sizeof(err)) != 0 &&
            strstr(err, "parameter o = 1e-300 is out of range"),
        "absurd framed value: '%s'", err);
  free(text);
  CHECK(ompext_model_params_from_file_text("R_R x\n", "f", NULL, &p, err,
                                           sizeof(err)) != 0 &&
            !strncmp(err, "f:1: ", 5),
        "parse error: '%s'", err);
}

/* ---- the tools' loading ------------------------------------------------- */

/* resolve refuses path with "<path>: <reason>...". */
static void tool_refuses(const char *path, const char *reason) {
  ompext_model_params_t p;
  char err[1024] = "", want[1024];
  snprintf(want, sizeof(want), "%s: %s", path, reason);
  CHECK(ompext_model_params_resolve(path, &p, err, sizeof(err)) != 0,
        "%s accepted", path);
  CHECK(strncmp(err, want, strlen(want)) == 0, "%s: '%s', want '%s'", path, err,
        want);
}

static void test_tools(void) {
  char fifo[4096];
  snprintf(fifo, sizeof(fifo), "%s/fifo", scratch);
  remove(fifo);
  CHECK(mkfifo(fifo, 0600) == 0, "mkfifo %s", fifo);
  tool_refuses(fifo, "a FIFO, not a regular file");
  remove(fifo);
  tool_refuses(scratch, "a directory, not a regular file");
  tool_refuses("/dev/null", "a character device, not a regular file");
  static const char nul[] = "R_L 2\nR_R 90\n\0R_I 120\n";
  tool_refuses(scratch_file(scratch, "nul.txt", nul, sizeof(nul) - 1),
               "not a text file: a NUL byte at offset 13");
  tool_refuses(scratch_file(scratch, "r_r.txt", "R_R 1e300\n", 10),
               "parameter R_R = 1e+300 is out of range");
  tool_refuses(scratch_file(scratch, "o.txt", "o 1e-300\n", 9),
               "parameter o = 1e-300 is out of range");
  tool_refuses(scratch_file(scratch, "r_r_max.txt", "R_R 1e308\n", 10),
               "parameter R_R = 1e+308 is out of range");

  /* A calibration file of any machine is taken; one cut short is not. */
  ompext_calibration_fingerprint_t fp;
  char *text = framed("R_R 90\n", &fp);
  if (text) {
    const char *path = scratch_file(scratch, "framed.txt", text, strlen(text));
    ompext_model_params_t p;
    char err[1024] = "";
    CHECK(ompext_model_params_resolve(path, &p, err, sizeof(err)) == 0 &&
              p.r_r == 90 && !strcmp(p.name, path),
          "framed file: %s", err);
    text[strlen(text) - strlen("# end\n")] = '\0';
    tool_refuses(scratch_file(scratch, "cut.txt", text, strlen(text)),
                 "calibration file cut short");
    free(text);
  }
  /* A parse error names the file and the line, once. */
  const char *bad = scratch_file(scratch, "bad.txt", "R_R fast\n", 9);
  ompext_model_params_t p;
  char err[1024] = "", want[1024];
  snprintf(want, sizeof(want), "%s:1: parameter R_R", bad);
  CHECK(ompext_model_params_load_file(bad, &p, err, sizeof(err)) != 0 &&
            !strncmp(err, want, strlen(want)),
        "parse error: '%s'", err);

  char missing[4096];
  snprintf(missing, sizeof(missing), "%s/no-such-file", scratch);
  CHECK(ompext_model_params_resolve(missing, &p, err, sizeof(err)) != 0 &&
            strstr(err, "unknown parameter set"),
        "missing file: '%s'", err);
}

int main(int argc, char **argv) {
  scratch = check_scratch_dir(argc, argv, "test_file_rules");
  if (!scratch)
    return 2;
  alarm(30); /* a reader that blocks ends the test, failed */
  test_ranges();
  test_from_text();
  test_tools();
  return checks_result("calibration file rules tests passed");
}
