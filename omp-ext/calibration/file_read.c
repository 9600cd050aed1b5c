/*
 * The one reader of calibration and parameter files (see calibration.h),
 * for the plugin and the tools alike: what may be read, how much, and what
 * counts as text.  The framing is file_format.c's, the parameters are the
 * cost model's.
 *
 * Nothing here may block: the plugin reads the file while the program
 * starts.  So the path is looked at with stat() first and only a regular
 * file is opened, with O_NONBLOCK (opening a FIFO without O_NONBLOCK waits
 * for a writer, forever); the opened file is checked again with fstat(), in
 * case the path was replaced in between.  The messages name no path: the
 * caller says which file it was.
 */
#define _POSIX_C_SOURCE 200809L

#include "calibration.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ompext_calibration_path_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* What a file of this mode is, for the refusal. */
static const char *kind_of(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  return "a special file";
}

/* 0 for a regular file, else -1 with why. */
static int regular_only(const struct stat *st, char *why, size_t cap) {
  if (S_ISREG(st->st_mode))
    return 0;
  snprintf(why, cap, "%s, not a regular file", kind_of(st->st_mode));
  return -1;
}

/* 0 for a size within the limit, else -1 with why. */
static int within_limit(size_t len, char *why, size_t cap) {
  if (len <= OMPEXT_CALIBRATION_MAX_FILE_BYTES)
    return 0;
  snprintf(why, cap, "larger than %d bytes", OMPEXT_CALIBRATION_MAX_FILE_BYTES);
  return -1;
}

int ompext_calibration_check_text(const char *bytes, size_t len, char *why,
                                  size_t cap) {
  if (within_limit(len, why, cap) != 0)
    return -1;
  const char *nul = memchr(bytes, '\0', len);
  if (nul) {
    snprintf(why, cap, "not a text file: a NUL byte at offset %zu",
             (size_t)(nul - bytes));
    return -1;
  }
  return 0;
}

/* Up to cap bytes of fd into buf; the count, or -1 with errno. */
static long read_up_to(int fd, char *buf, size_t cap) {
  size_t got = 0;
  while (got < cap) {
    const ssize_t n = read(fd, buf + got, cap - got);
    if (n == 0)
      break;
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return -1;
    }
    got += (size_t)n;
  }
  return (long)got;
}

/* The whole text of the regular file fd, NUL-terminated, or NULL with
   why. */
static char *read_text(int fd, char *why, size_t cap) {
  /* Room for one byte more than allowed: a file that grew since it was
     looked at shows as too large. */
  char *text = malloc(OMPEXT_CALIBRATION_MAX_FILE_BYTES + 2);
  if (!text) {
    snprintf(why, cap, "out of memory");
    return NULL;
  }
  const long len = read_up_to(fd, text, OMPEXT_CALIBRATION_MAX_FILE_BYTES + 1);
  if (len < 0)
    snprintf(why, cap, "read error: %s", strerror(errno));
  if (len < 0 ||
      ompext_calibration_check_text(text, (size_t)len, why, cap) != 0) {
    free(text);
    return NULL;
  }
  text[len] = '\0';
  return text;
}

char *ompext_calibration_read_file(const char *path, char *why, size_t cap) {
  struct stat st;
  if (stat(path, &st) != 0) {
    snprintf(why, cap, "cannot open it: %s", strerror(errno));
    return NULL;
  }
  if (regular_only(&st, why, cap) != 0 ||
      within_limit((size_t)st.st_size, why, cap) != 0)
    return NULL;
  const int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    snprintf(why, cap, "cannot open it: %s", strerror(errno));
    return NULL;
  }
  char *text = NULL;
  /* The path may have been replaced since stat(): check what is open. */
  if (fstat(fd, &st) != 0)
    snprintf(why, cap, "cannot open it: %s", strerror(errno));
  else if (regular_only(&st, why, cap) == 0)
    text = read_text(fd, why, cap);
  close(fd);
  return text;
}
