/*
 * The files the calibrate tests read back: bytes written to a file of the
 * test's scratch directory, failures counted by check.h.
 */
#ifndef OMPEXT_CALIBRATE_TEST_SCRATCH_FILE_H
#define OMPEXT_CALIBRATE_TEST_SCRATCH_FILE_H

#include "check.h"

#include <stdio.h>

/* dir/name holding len bytes; the path is static, valid until the next
   call. */
static inline const char *scratch_file(const char *dir, const char *name,
                                       const char *bytes, size_t len) {
  static char path[4096];
  snprintf(path, sizeof(path), "%s/%s", dir, name);
  FILE *f = fopen(path, "wb");
  CHECK(f != NULL, "cannot write %s", path);
  if (f) {
    CHECK(fwrite(bytes, 1, len, f) == len, "short write to %s", path);
    fclose(f);
  }
  return path;
}

#endif /* OMPEXT_CALIBRATE_TEST_SCRATCH_FILE_H */
