/*
 * calibrate.library: omp-ext/calibration, what ompext-calibrate and the
 * plugin share, on its own (no tool, no plugin, no hwloc).
 *
 *   - fingerprint: FNV-1a reference values; hashes of fixed machines that
 *     calibration files already carry (the hash must never change); the
 *     topology in the hash; CPU model parsing of fake /proc/cpuinfo files
 *   - default path: $XDG_CONFIG_HOME, else $HOME/.config; a relative
 *     XDG_CONFIG_HOME is ignored
 *   - file format: what the writer writes passes the reader; a plain
 *     parameter file passes as it is; each refusal with the plugin's words:
 *     another version, cut short, no fingerprint, another machine (or this
 *     machine's fingerprint unknown); any machine's file for a reader that
 *     takes any machine's (the tools)
 *
 * usage: test_calibration SCRATCH_DIR
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* setenv, unsetenv */
#endif
#include "calibration.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *scratch;

static const ompext_calibration_counts_t small_machine = {
    .packages = 1, .cores = 2, .pus = 2, .l3s = 1};

/* ---- fingerprint -------------------------------------------------------- */

static void test_hash_values(void) {
  char h[OMPEXT_CALIBRATION_HASH_SIZE];
  ompext_calibration_hash_hex("", h);
  CHECK(!strcmp(h, "cbf29ce484222325"), "fnv1a('') = %s", h);
  ompext_calibration_hash_hex("a", h);
  CHECK(!strcmp(h, "af63dc4c8601ec8c"), "fnv1a('a') = %s", h);

  /* Hashes of fixed machines, as the tool computed them before the
     fingerprint moved here: files written then must still match. */
  ompext_calibration_fingerprint_t fp;
  ompext_calibration_fingerprint_make("Test CPU", &small_machine, &fp);
  CHECK(!strcmp(fp.topology, "packages=1 cores=2 pus=2 l3=1"),
        "topology '%s'", fp.topology);
  CHECK(!strcmp(fp.hash, "0946aba9bc01e773"), "Test CPU: %s", fp.hash);
  const ompext_calibration_counts_t xeon = {
      .packages = 2, .cores = 40, .pus = 80, .l3s = 2};
  ompext_calibration_fingerprint_make(
      "Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz (family 6, model 85, "
      "stepping 4)",
      &xeon, &fp);
  CHECK(!strcmp(fp.hash, "efd0a57940e39bb8"), "Xeon: %s", fp.hash);
  /* A CPU model longer than the room for it is hashed cut. */
  char long_model[400];
  for (int i = 0; i < (int)sizeof(long_model) - 1; ++i)
    long_model[i] = (char)('a' + i % 26);
  long_model[sizeof(long_model) - 1] = '\0';
  ompext_calibration_fingerprint_make(long_model, &small_machine, &fp);
  CHECK(!strcmp(fp.hash, "71de1d56f803cdf5"), "long model: %s", fp.hash);
  CHECK(strlen(fp.cpu) == OMPEXT_CALIBRATION_CPU_MODEL_SIZE - 1,
        "long model kept %zu characters", strlen(fp.cpu));
}

static void test_hash_inputs(void) {
  ompext_calibration_fingerprint_t a, b, c;
  const ompext_calibration_counts_t larger = {
      .packages = 1, .cores = 4, .pus = 4, .l3s = 1};
  ompext_calibration_fingerprint_make("CPU X", &small_machine, &a);
  ompext_calibration_fingerprint_make("CPU X", &small_machine, &b);
  ompext_calibration_fingerprint_make("CPU X", &larger, &c);
  CHECK(!strcmp(a.hash, b.hash), "unstable hash");
  CHECK(strcmp(a.hash, c.hash) != 0, "topology not in the hash");
  CHECK(strlen(a.hash) == OMPEXT_CALIBRATION_HASH_SIZE - 1,
        "hash length %zu", strlen(a.hash));
}

/* The CPU model read from a fake cpuinfo holding text. */
static void cpu_model_of(const char *text, char *model, size_t cap) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/cpuinfo", scratch);
  FILE *f = fopen(path, "w");
  CHECK(f != NULL, "cannot write %s", path);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
  ompext_calibration_cpu_model(path, model, cap);
}

static void test_cpu_model(void) {
  char model[OMPEXT_CALIBRATION_CPU_MODEL_SIZE];
  cpu_model_of("processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n"
               "model\t\t: 85\nmodel name\t: Intel(R)  Xeon(R) Gold   6148 "
               "CPU @ 2.40GHz\nstepping\t: 4\ncpu MHz\t\t: 2400.000\n\n"
               "processor\t: 1\nmodel name\t: other\n",
               model, sizeof(model));
  CHECK(!strcmp(model, "Intel(R) Xeon(R) Gold 6148 CPU @ 2.40GHz (family 6, "
                       "model 85, stepping 4)"),
        "model: '%s'", model);
  cpu_model_of("processor\t: 0\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n",
               model, sizeof(model));
  CHECK(!strcmp(model, "implementer 0x41 part 0xd0c"), "arm: '%s'", model);
  ompext_calibration_cpu_model("/nonexistent/cpuinfo", model, sizeof(model));
  CHECK(!strcmp(model, "unknown"), "missing: '%s'", model);
}

/* ---- default path ------------------------------------------------------- */

static void test_default_path(void) {
  char buf[4096];
  setenv("XDG_CONFIG_HOME", "/x/conf", 1);
  setenv("HOME", "/h/user", 1);
  CHECK(ompext_calibration_default_path("0123456789abcdef", buf,
                                        sizeof(buf)) == 0 &&
            !strcmp(buf, "/x/conf/omp-ext/calibration-0123456789abcdef.txt"),
        "xdg: %s", buf);
  setenv("XDG_CONFIG_HOME", "relative/conf", 1);
  CHECK(ompext_calibration_default_path("ab", buf, sizeof(buf)) == 0 &&
            !strcmp(buf, "/h/user/.config/omp-ext/calibration-ab.txt"),
        "relative xdg: %s", buf);
  unsetenv("XDG_CONFIG_HOME");
  CHECK(ompext_calibration_default_path("ab", buf, sizeof(buf)) == 0 &&
            !strcmp(buf, "/h/user/.config/omp-ext/calibration-ab.txt"),
        "home: %s", buf);
  unsetenv("HOME");
  CHECK(ompext_calibration_default_path("ab", buf, sizeof(buf)) != 0,
        "no HOME accepted");
  setenv("HOME", "/h/user", 1);
  CHECK(ompext_calibration_default_path("ab", buf, 8) != 0,
        "truncation accepted");
}

/* ---- file format -------------------------------------------------------- */

/* A calibration file of a small machine as the writer frames it, around
   one parameter line: its fingerprint in fp, its text returned (caller
   frees); NULL on failure. */
static char *written_file(ompext_calibration_fingerprint_t *fp) {
  ompext_calibration_fingerprint_make("Test CPU", &small_machine, fp);
  FILE *f = tmpfile();
  CHECK(f != NULL, "tmpfile");
  if (!f)
    return NULL;
  ompext_calibration_write_header(f, fp);
  fputs("R_L 2\n", f);
  ompext_calibration_write_end(f);
  CHECK(!ferror(f), "write error");
  long len = ftell(f);
  char *text = len >= 0 ? malloc((size_t)len + 1) : NULL;
  rewind(f);
  size_t got = text ? fread(text, 1, (size_t)len, f) : 0;
  fclose(f);
  if (!text || got != (size_t)len) {
    free(text);
    CHECK(0, "cannot read the written file back");
    return NULL;
  }
  text[len] = '\0';
  return text;
}

/* text with the first occurrence of from replaced by to (caller frees). */
static char *replaced(const char *text, const char *from, const char *to) {
  const char *at = strstr(text, from);
  CHECK(at != NULL, "'%s' not in the file", from);
  char *out = malloc(strlen(text) + strlen(to) + 1);
  if (!at || !out) {
    free(out);
    return NULL;
  }
  const size_t head = (size_t)(at - text);
  memcpy(out, text, head);
  strcpy(out + head, to);
  strcat(out, at + strlen(from));
  return out;
}

/* The reader refuses text, for this_hash, with exactly want. */
static void check_refused(const char *what, const char *text,
                          const char *this_hash, const char *want) {
  char why[256] = "";
  CHECK(text != NULL, "%s: no text", what);
  if (!text)
    return;
  const char *body = ompext_calibration_body(text, this_hash, why, sizeof(why));
  CHECK(body == NULL, "%s: accepted", what);
  CHECK(!strcmp(why, want), "%s: why '%s', want '%s'", what, why, want);
}

static void test_round_trip(void) {
  ompext_calibration_fingerprint_t fp;
  char *text = written_file(&fp);
  if (!text)
    return;
  char want[512];
  snprintf(want, sizeof(want),
           "# omp-ext calibration v%d\n# fingerprint %s\n# cpu Test CPU\n"
           "# topology packages=1 cores=2 pus=2 l3=1\nR_L 2\n# end\n",
           OMPEXT_CALIBRATION_VERSION, fp.hash);
  CHECK(!strcmp(text, want), "written:\n%s\nwant:\n%s", text, want);
  CHECK(ompext_calibration_is_framed(text), "written file not framed");
  char why[256] = "";
  CHECK(ompext_calibration_body(text, fp.hash, why, sizeof(why)) == text,
        "written file refused: %s", why);
  /* A space may follow the fingerprint's digits on its line. */
  char *noted = replaced(text, "\n# cpu", " noted\n# cpu");
  CHECK(noted && ompext_calibration_body(noted, fp.hash, why, sizeof(why)) ==
                     noted,
        "fingerprint followed by a note refused: %s", why);
  free(noted);
  free(text);
}

static void test_plain_file(void) {
  const char *plain = "# written by hand\nR_L 2\nR_R 90\n";
  char why[256] = "";
  CHECK(!ompext_calibration_is_framed(plain), "plain file framed");
  CHECK(ompext_calibration_body(plain, NULL, why, sizeof(why)) == plain,
        "plain file refused: %s", why);
}

static void test_refusals(void) {
  char why[256] = "";
  ompext_calibration_fingerprint_t fp;
  char *text = written_file(&fp);
  if (!text)
    return;
  char *other_version = replaced(text, "# omp-ext calibration v1\n",
                                 "# omp-ext calibration v2\n");
  check_refused("other version", other_version, fp.hash,
                "calibration file version 2, this plugin reads 1");
  free(other_version);

  char *cut = replaced(text, "# end\n", "");
  check_refused("cut short", cut, fp.hash,
                "calibration file cut short (no final '# end')");
  check_refused("cut short, any machine", cut, OMPEXT_CALIBRATION_ANY_MACHINE,
                "calibration file cut short (no final '# end')");
  free(cut);

  char line[64];
  snprintf(line, sizeof(line), "# fingerprint %s\n", fp.hash);
  char *unsigned_file = replaced(text, line, "");
  check_refused("no fingerprint", unsigned_file, fp.hash,
                "calibration file without a fingerprint");
  free(unsigned_file);

  char want[128];
  snprintf(want, sizeof(want),
           "measured on another machine (fingerprint %s)", fp.hash);
  check_refused("other machine", text, "0123456789abcdef", want);
  CHECK(ompext_calibration_body(text, OMPEXT_CALIBRATION_ANY_MACHINE, why,
                                sizeof(why)) == text,
        "refused for any machine: %s", why);
  check_refused("this machine unknown", text, NULL, want);
  char *running_on = replaced(text, "\n# cpu", "0\n# cpu");
  check_refused("fingerprint running on", running_on, fp.hash, want);
  free(running_on);
  /* Shorter than a hash, right before the end: refused, nothing read past
     the text. */
  CHECK(!ompext_calibration_body(
            "# omp-ext calibration v1\n# fingerprint \n# end\n", fp.hash,
            why, sizeof(why)),
        "empty fingerprint accepted");
  free(text);
}

int main(int argc, char **argv) {
  scratch = check_scratch_dir(argc, argv, "test_calibration");
  if (!scratch)
    return 2;
  test_hash_values();
  test_hash_inputs();
  test_cpu_model();
  test_default_path();
  test_round_trip();
  test_plain_file();
  test_refusals();
  return checks_result("calibration library tests passed");
}
