/*
 * The checks of the calibrate tests: CHECK counts a failure and says where
 * it is, and checks_result gives main's exit status.
 */
#ifndef OMPEXT_CALIBRATE_TEST_CHECK_H
#define OMPEXT_CALIBRATE_TEST_CHECK_H

#include <stdio.h>

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

#endif /* OMPEXT_CALIBRATE_TEST_CHECK_H */
