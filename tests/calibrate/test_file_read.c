/*
 * calibrate.file_read: the one reader of calibration and parameter files
 * (omp-ext/calibration/file_read.c), on its own.
 *
 *   - a regular file comes back whole, byte for byte; an empty one as ""
 *   - nothing at the path: "cannot open it: <error>", and path_exists says 0
 *   - a directory, a FIFO (nobody writing: the reader must not wait for
 *     one), /dev/null: refused before anything is read, naming the kind
 *   - a NUL byte after valid lines: not a text file, with its offset
 *   - exactly the size limit is read, one byte more is refused
 *   - check_text, the same text rules on bytes in memory
 *
 * An alarm ends the test if the reader ever blocks.
 *
 * usage: test_file_read SCRATCH_DIR
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* mkfifo, alarm */
#endif
#include "calibration.h"
#include "check.h"
#include "scratch_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *scratch;

/* The reader refuses path with a message starting with want. */
static void check_refused(const char *what, const char *path,
                          const char *want) {
  char why[256] = "";
  char *text = ompext_calibration_read_file(path, why, sizeof(why));
  CHECK(text == NULL, "%s: read", what);
  CHECK(strncmp(why, want, strlen(want)) == 0, "%s: why '%s', want '%s'", what,
        why, want);
  free(text);
}

static void test_regular(void) {
  static const char content[] = "# by hand\nR_L 2\nR_R 90\n";
  const char *path =
      scratch_file(scratch, "plain.txt", content, strlen(content));
  char why[256] = "";
  char *text = ompext_calibration_read_file(path, why, sizeof(why));
  CHECK(text && !strcmp(text, content), "plain file: '%s' (%s)",
        text ? text : "(null)", why);
  free(text);
  CHECK(ompext_calibration_path_exists(path), "plain file not there");

  path = scratch_file(scratch, "empty.txt", "", 0);
  text = ompext_calibration_read_file(path, why, sizeof(why));
  CHECK(text && !text[0], "empty file: %s", why);
  free(text);
}

static void test_missing(void) {
  char path[4096];
  snprintf(path, sizeof(path), "%s/no-such-file.txt", scratch);
  remove(path);
  CHECK(!ompext_calibration_path_exists(path), "missing file there");
  check_refused("missing file", path,
                "cannot open it: No such file or directory");
}

static void test_not_regular(void) {
  check_refused("directory", scratch, "a directory, not a regular file");
  CHECK(ompext_calibration_path_exists(scratch), "directory not there");
  check_refused("/dev/null", "/dev/null",
                "a character device, not a regular file");
  char fifo[4096];
  snprintf(fifo, sizeof(fifo), "%s/fifo", scratch);
  remove(fifo);
  CHECK(mkfifo(fifo, 0600) == 0, "mkfifo %s", fifo);
  check_refused("FIFO", fifo, "a FIFO, not a regular file");
  CHECK(ompext_calibration_path_exists(fifo), "FIFO not there");
  remove(fifo);
}

static void test_nul_byte(void) {
  static const char bytes[] = "R_L 2\nR_R 90\n\0R_I 120\n";
  const char *path = scratch_file(scratch, "nul.txt", bytes, sizeof(bytes) - 1);
  check_refused("NUL byte", path, "not a text file: a NUL byte at offset 13");
  char why[256] = "";
  CHECK(ompext_calibration_check_text(bytes, sizeof(bytes) - 1, why,
                                      sizeof(why)) != 0 &&
            !strcmp(why, "not a text file: a NUL byte at offset 13"),
        "check_text NUL: '%s'", why);
  CHECK(ompext_calibration_check_text(bytes, 13, why, sizeof(why)) == 0,
        "check_text of the lines before the NUL: %s", why);
}

static void test_size_limit(void) {
  const size_t limit = OMPEXT_CALIBRATION_MAX_FILE_BYTES;
  char *big = malloc(limit + 1);
  CHECK(big != NULL, "out of memory");
  if (!big)
    return;
  memset(big, '#', limit + 1);
  big[limit - 1] = '\n';
  char why[256] = "";
  const char *path = scratch_file(scratch, "limit.txt", big, limit);
  char *text = ompext_calibration_read_file(path, why, sizeof(why));
  CHECK(text && strlen(text) == limit, "file of the limit refused: %s", why);
  free(text);
  path = scratch_file(scratch, "over.txt", big, limit + 1);
  check_refused("one byte over", path, "larger than 1048576 bytes");
  CHECK(ompext_calibration_check_text(big, limit + 1, why, sizeof(why)) != 0,
        "check_text over the limit");
  free(big);
}

int main(int argc, char **argv) {
  scratch = check_scratch_dir(argc, argv, "test_file_read");
  if (!scratch)
    return 2;
  alarm(30); /* a reader that blocks ends the test, failed */
  test_regular();
  test_missing();
  test_not_regular();
  test_nul_byte();
  test_size_limit();
  return checks_result("calibration file reader tests passed");
}
