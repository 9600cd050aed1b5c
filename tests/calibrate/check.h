/*
 * The checks of the calibrate tests: CHECK counts a failure and says where
 * it is, checks_result gives main's exit status, and check_scratch_dir
 * takes the scratch directory every such test gets as its one argument.
 */
#ifndef OMPEXT_CALIBRATE_TEST_CHECK_H
#define OMPEXT_CALIBRATE_TEST_CHECK_H

#include <stdio.h>
#include <sys/stat.h>

static int failures = 0;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                     \
      fprintf(stderr, __VA_ARGS__);                                            \
      fputc('\n', stderr);                                                     \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

/* 1 after any failure (and their number on stderr), else 0 and
   passed_line on stdout. */
static inline int checks_result(const char *passed_line) {
  if (failures) {
    fprintf(stderr, "%d failure(s)\n", failures);
    return 1;
  }
  printf("%s\n", passed_line);
  return 0;
}

/* The scratch directory argv[1] (created if missing), or NULL after a
   usage line naming the test when the arguments are not exactly one. */
static inline const char *check_scratch_dir(int argc, char **argv,
                                            const char *test) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s SCRATCH_DIR\n", test);
    return NULL;
  }
  mkdir(argv[1], 0777);
  return argv[1];
}

#endif /* OMPEXT_CALIBRATE_TEST_CHECK_H */
