/*
 * Parameter sets and their parsers: the built-in values (the paper's tables
 * for the Xeon Phi), NAME=VALUE overrides, the 'key value' file format, the
 * write/read round trip and the error messages.
 *
 * usage: test_params [SCRATCH_DIR]   (files are written there; default ".")
 */
#define _POSIX_C_SOURCE 200809L

#include "calibration.h"
#include "model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                     \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, "\n");                                                   \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

static int same(const ompext_model_params_t *a, const ompext_model_params_t *b) {
  return a->r_l == b->r_l && a->r_r == b->r_r && a->r_i == b->r_i &&
         a->r_x == b->r_x &&
         a->a == b->a && a->b == b->b && a->c == b->c && a->o == b->o &&
         a->q == b->q && a->p == b->p && a->line_bytes == b->line_bytes;
}

/* Parsing `text` fails with a message containing `needle`. */
static void parse_fails(const char *text, const char *needle) {
  ompext_model_params_t p;
  char err[256] = "";
  int rc = ompext_model_params_parse(text, "t.params", &p, err, sizeof(err));
  CHECK(rc != 0, "parse of [%s] succeeded", text);
  CHECK(strstr(err, needle) != NULL, "parse of [%s]: message '%s' lacks '%s'",
        text, err, needle);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  ompext_model_params_t phi, snb, def, p;
  char err[256];

  /* Built-ins. */
  CHECK(ompext_model_params_builtin("xeon-phi-5110p", &phi) == 0, "phi");
  CHECK(ompext_model_params_builtin("sandy-bridge-e5-2670", &snb) == 0, "snb");
  CHECK(ompext_model_params_builtin("default", &def) == 0, "default");
  CHECK(ompext_model_params_builtin("xeon-phi", &p) != 0, "unknown name");
  /* Table 1.5b, Table 3.2 (E/E), Table 3.1 (E/E). */
  CHECK(phi.r_l == 8.6 && phi.r_r == 235.8 && phi.r_i == 277.7, "phi R");
  CHECK(phi.b == 320.5 && phi.c == 56.2 && phi.a == 0, "phi T_C");
  CHECK(phi.o == 76.0 && phi.q == 1521.0 && phi.p == 1096.0, "phi T_N");
  CHECK(phi.line_bytes == 64, "phi line");
  /* Table 1.8: R_L, R_{P,M}, R_{P,I}; the rest scaled by 41.6/235.8:
     b = 320.5 * 41.6 / 235.8 = 56.5420... */
  CHECK(snb.r_l == 2.3 && snb.r_r == 41.6 && snb.r_i == 69.3, "snb R");
  CHECK(fabs(snb.b - 56.542) < 1e-3 && fabs(snb.q - 268.336) < 1e-3,
        "snb scaled b %.4f q %.4f", snb.b, snb.q);
  CHECK(def.r_l == 2.0 && def.r_r == 100.0 && def.r_i == 120.0, "default R");
  /* R_X: one package on the Xeon Phi (= R_R); Table 1.8's R_{N,M}; the
     default set's 200 (the slow end of crossing sockets). */
  CHECK(phi.r_x == phi.r_r && snb.r_x == 115.4 && def.r_x == 200.0,
        "R_X %g %g %g", phi.r_x, snb.r_x, def.r_x);
  for (int i = 0; ompext_model_builtin_names[i]; ++i) {
    CHECK(ompext_model_params_builtin(ompext_model_builtin_names[i], &p) == 0 &&
              ompext_model_params_validate(&p, err, sizeof(err)) == 0,
          "built-in %s", ompext_model_builtin_names[i]);
  }

  /* NAME=VALUE. */
  p = phi;
  CHECK(ompext_model_params_assign(&p, "R_R=100", err, sizeof(err)) == 0 &&
            p.r_r == 100,
        "R_R=100: %s", err);
  CHECK(ompext_model_params_assign(&p, "rl=1.5", err, sizeof(err)) == 0 &&
            p.r_l == 1.5,
        "rl alias: %s", err);
  CHECK(ompext_model_params_assign(&p, "line=128", err, sizeof(err)) == 0 &&
            p.line_bytes == 128,
        "line=128: %s", err);
  CHECK(ompext_model_params_assign(&p, "zz=1", err, sizeof(err)) != 0 &&
            strstr(err, "unknown parameter 'zz'"),
        "unknown name: %s", err);
  CHECK(ompext_model_params_assign(&p, "b=fast", err, sizeof(err)) != 0 &&
            strstr(err, "not a"),
        "not a number: %s", err);
  CHECK(ompext_model_params_assign(&p, "c=-1", err, sizeof(err)) != 0 &&
            strstr(err, "negative"),
        "negative: %s", err);
  CHECK(ompext_model_params_assign(&p, "line=60.5", err, sizeof(err)) != 0,
        "fractional line");
  CHECK(ompext_model_params_assign(&p, "b", err, sizeof(err)) != 0 &&
            strstr(err, "NAME=VALUE"),
        "no '=': %s", err);
  CHECK(ompext_model_params_assign(&p, "b=", err, sizeof(err)) != 0,
        "empty value");
  CHECK(ompext_model_params_assign(&p, "b=inf", err, sizeof(err)) != 0,
        "infinite value");

  /* Files: defaults, 'base', comments, both separators. */
  CHECK(ompext_model_params_parse("# nothing\n\n", "empty", &p, err,
                                  sizeof(err)) == 0 &&
            same(&p, &def),
        "an empty file is the default set");
  CHECK(ompext_model_params_parse("base xeon-phi-5110p\nR_R 200 # measured\n"
                                  "  q = 1000\n",
                                  "t", &p, err, sizeof(err)) == 0,
        "base + values: %s", err);
  CHECK(p.r_r == 200 && p.q == 1000 && p.r_l == 8.6 && p.b == 320.5,
        "base + values applied");
  parse_fails("R_R 1\nbase default\n", "before any value");
  parse_fails("base nothing\n", "unknown built-in set");
  parse_fails("R_R\n", "t.params:1");
  parse_fails("\n\nfoo 3\n", "t.params:3: unknown parameter 'foo'");
  parse_fails("R_R 1 2\n", "expected 'key value'");
  parse_fails("o -3\n", "negative");

  /* R_X in files: given, it stays; absent, it keeps the starting set's
     ratio to R_R when R_R is given (default: 2), else the set's value. */
  CHECK(ompext_model_params_parse("R_R 50\nRX 70\n", "t", &p, err,
                                  sizeof(err)) == 0 &&
            p.r_r == 50 && p.r_x == 70,
        "R_X given: %s %g", err, p.r_x);
  CHECK(ompext_model_params_parse("R_R 50\n", "t", &p, err, sizeof(err)) == 0 &&
            p.r_x == 100,
        "R_X from the default ratio: %g", p.r_x);
  CHECK(ompext_model_params_parse("base sandy-bridge-e5-2670\nb 50\n", "t", &p,
                                  err, sizeof(err)) == 0 &&
            p.r_x == 115.4,
        "R_X of the base set: %g", p.r_x);
  CHECK(ompext_model_params_parse("base sandy-bridge-e5-2670\nR_R 83.2\n", "t",
                                  &p, err, sizeof(err)) == 0 &&
            fabs(p.r_x - 230.8) < 1e-9,
        "R_X from the Sandy Bridge ratio: %g", p.r_x);
  CHECK(ompext_model_params_from_file_text("R_X 0\n", "t",
                                           OMPEXT_CALIBRATION_ANY_MACHINE, &p,
                                           err, sizeof(err)) != 0 &&
            strstr(err, "R_X = 0 is out of range"),
        "R_X 0 refused: %s", err);
  {
    const char *const sets[] = {"R_R=50", "b=1"};
    p = def;
    CHECK(ompext_model_params_assign_all(&p, sets, 2, err, sizeof(err)) == 0 &&
              p.r_x == 100,
          "--set R_R alone: R_X %g", p.r_x);
    const char *const both[] = {"R_R=50", "r_x=60"};
    p = def;
    CHECK(ompext_model_params_assign_all(&p, both, 2, err, sizeof(err)) == 0 &&
              p.r_x == 60,
          "--set R_R and R_X: R_X %g", p.r_x);
  }

  /* Round trip through a file. */
  char path[4096];
  snprintf(path, sizeof(path), "%s/model_test_params.params", dir);
  for (int i = 0; ompext_model_builtin_names[i]; ++i) {
    ompext_model_params_builtin(ompext_model_builtin_names[i], &p);
    FILE *f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (!f)
      break;
    ompext_model_params_write(f, &p);
    fclose(f);
    ompext_model_params_t back;
    CHECK(ompext_model_params_load_file(path, &back, err, sizeof(err)) == 0,
          "load %s: %s", path, err);
    CHECK(same(&p, &back), "round trip of %s", ompext_model_builtin_names[i]);
    CHECK(ompext_model_params_resolve(path, &back, err, sizeof(err)) == 0 &&
              same(&p, &back) && strcmp(back.name, path) == 0,
          "resolve a file");
  }
  remove(path);
  CHECK(ompext_model_params_resolve("no-such-set-or-file", &p, err,
                                    sizeof(err)) != 0 &&
            strstr(err, "unknown parameter set 'no-such-set-or-file'"),
        "resolve unknown: %s", err);
  CHECK(ompext_model_params_resolve("default", &p, err, sizeof(err)) == 0 &&
            same(&p, &def),
        "resolve a built-in");

  /* Validation. */
  p = phi;
  p.c = NAN;
  CHECK(ompext_model_params_validate(&p, err, sizeof(err)) != 0, "NaN");
  p = phi;
  p.line_bytes = 0;
  CHECK(ompext_model_params_validate(&p, err, sizeof(err)) != 0, "line 0");

  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
