/*
 * The framing of a calibration file (see calibration.h): its one writer
 * and its one reader, so the two cannot drift apart.
 *
 * The reader's messages are the plugin's warnings ("... not used (<why>)");
 * the tests match them.
 */
#include "calibration.h"

#include <stdlib.h>
#include <string.h>

#define HEADER_PREFIX "# omp-ext calibration v"
#define FINGERPRINT_PREFIX "# fingerprint "
#define FINAL_LINE "# end\n"

void ompext_calibration_write_header(
    FILE *f, const ompext_calibration_fingerprint_t *fp) {
  fprintf(f, HEADER_PREFIX "%d\n", OMPEXT_CALIBRATION_VERSION);
  fprintf(f, FINGERPRINT_PREFIX "%s\n", fp->hash);
  fprintf(f, "# cpu %s\n", fp->cpu);
  fprintf(f, "# topology %s\n", fp->topology);
}

void ompext_calibration_write_end(FILE *f) { fputs(FINAL_LINE, f); }

int ompext_calibration_is_framed(const char *text) {
  return strncmp(text, HEADER_PREFIX, strlen(HEADER_PREFIX)) == 0;
}

/* 1 if text ends with the final line, on a line of its own. */
static int ends_complete(const char *text) {
  static const char final_line[] = "\n" FINAL_LINE;
  const size_t len = strlen(text), final_len = sizeof(final_line) - 1;
  return len >= final_len &&
         strcmp(text + len - final_len, final_line) == 0;
}

/* 1 if the fingerprint line names the machine of this_hash: exactly its
   16 digits, then the end of the line (or a space); any fingerprint for
   OMPEXT_CALIBRATION_ANY_MACHINE. */
static int same_machine(const char *fingerprint, const char *this_hash) {
  const size_t digits = OMPEXT_CALIBRATION_HASH_SIZE - 1;
  if (this_hash && strcmp(this_hash, OMPEXT_CALIBRATION_ANY_MACHINE) == 0)
    return 1;
  if (!this_hash || strncmp(fingerprint, this_hash, digits) != 0)
    return 0;
  const char after = fingerprint[digits]; /* inside: all digits matched */
  return after == '\n' || after == '\0' || after == ' ';
}

const char *ompext_calibration_body(const char *text, const char *this_hash,
                                    char *why, size_t cap) {
  if (!ompext_calibration_is_framed(text))
    return text; /* a plain parameter file */
  const int version = atoi(text + strlen(HEADER_PREFIX));
  if (version != OMPEXT_CALIBRATION_VERSION) {
    snprintf(why, cap, "calibration file version %d, this plugin reads %d",
             version, OMPEXT_CALIBRATION_VERSION);
    return NULL;
  }
  if (!ends_complete(text)) {
    snprintf(why, cap, "calibration file cut short (no final '# end')");
    return NULL;
  }
  const char *fingerprint = strstr(text, "\n" FINGERPRINT_PREFIX);
  if (!fingerprint) {
    snprintf(why, cap, "calibration file without a fingerprint");
    return NULL;
  }
  fingerprint += strlen("\n" FINGERPRINT_PREFIX);
  if (!same_machine(fingerprint, this_hash)) {
    snprintf(why, cap, "measured on another machine (fingerprint %.16s)",
             fingerprint);
    return NULL;
  }
  return text;
}
