/*
 * libFuzzer target: the input as a calibration or parameter file, taken
 * the way the plugin takes OMPEXT_CALIBRATION (omp-ext/src/plan/machine.c):
 * written to a file and read by the one reader of omp-ext/calibration,
 * then ompext_model_params_from_file_text (framing for this machine, the
 * model's parser, the plausible ranges).  Twice: as it is (a plain file, or
 * a calibration file when it starts with the header), and framed by the
 * writer around it, with a fixed fingerprint, the one it is checked for.
 *
 * Checked: no sanitizer report; the reader agrees with its text rules on
 * the same bytes and returns them unchanged; parameters taken are within
 * their ranges, and the plans built from them keep within bounds.h (the
 * ranges are what keeps the plan's arithmetic from overflowing).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mkstemp, open_memstream */
#endif
#include "calibration.h"
#include "plan_bounds.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char scratch_path[4096];
static ompext_calibration_fingerprint_t this_machine;
static ompext_config_t plugin_defaults;

static void remove_scratch(void) { unlink(scratch_path); }

/* Once: the scratch file, the fingerprint, the plugin's default settings. */
static void set_up(void) {
  if (scratch_path[0])
    return;
  const char *tmp = getenv("TMPDIR");
  snprintf(scratch_path, sizeof(scratch_path), "%s/ompext-fuzz-XXXXXX",
           tmp && *tmp ? tmp : "/tmp");
  const int fd = mkstemp(scratch_path);
  FUZZ_REQUIRE(fd >= 0, "cannot make %s", scratch_path);
  close(fd);
  atexit(remove_scratch);
  const ompext_calibration_counts_t counts = {1, 4, 8, 1};
  ompext_calibration_fingerprint_make("Fuzz CPU", &counts, &this_machine);
  FILE *devnull = fopen("/dev/null", "w");
  ompext_config_parse(&plugin_defaults, devnull); /* no OMPEXT_* is set */
  if (devnull)
    fclose(devnull);
}

/* The reader's text of bytes written to the scratch file; NULL if refused,
   which must be exactly when its text rules refuse the bytes. */
static char *read_back(const uint8_t *bytes, size_t len) {
  FILE *f = fopen(scratch_path, "wb");
  FUZZ_REQUIRE(f && fwrite(bytes, 1, len, f) == len && fclose(f) == 0,
               "cannot write %s", scratch_path);
  char why[256] = "", rule[256] = "";
  char *text = ompext_calibration_read_file(scratch_path, why, sizeof(why));
  const int allowed = ompext_calibration_check_text((const char *)bytes, len,
                                                    rule, sizeof(rule)) == 0;
  FUZZ_REQUIRE(!text == !allowed, "reader '%s', rules '%s'", why, rule);
  FUZZ_REQUIRE(!text || (strlen(text) == len && !memcmp(text, bytes, len)),
               "the reader changed the text");
  return text;
}

/* What the plugin does with a file's text. */
static void take_as_plugin(const char *text) {
  ompext_model_params_t params;
  char why[512];
  if (ompext_model_params_from_file_text(text, "fuzz", this_machine.hash,
                                         &params, why, sizeof(why)) != 0)
    return;
  FUZZ_REQUIRE(ompext_model_params_validate(&params, why, sizeof(why)) == 0,
               "taken out of range: %s", why);
  ompext_machine_t machine;
  memset(&machine, 0, sizeof(machine));
  machine.params = params;
  snprintf(machine.source, sizeof(machine.source), "model(fuzz)");
  const ompext_planner_t planner = {&plugin_defaults, &machine, 0, 0, 0};
  fuzz_check_plans(&planner);
}

/* bytes framed by the writer for this machine (caller frees). */
static char *framed(const char *body) {
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  FUZZ_REQUIRE(f != NULL, "open_memstream");
  ompext_calibration_write_header(f, &this_machine);
  fputs(body, f);
  if (body[0] && body[strlen(body) - 1] != '\n')
    fputc('\n', f);
  ompext_calibration_write_end(f);
  fclose(f);
  return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  set_up();
  char *text = read_back(data, size);
  if (!text)
    return 0;
  take_as_plugin(text);
  char *whole = framed(text);
  take_as_plugin(whole);
  free(whole);
  free(text);
  return 0;
}
