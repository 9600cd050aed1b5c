/*
 * Writing an error message into a caller's buffer, for the model's files
 * that report why an input is refused.  Private to the model library.
 */
#ifndef OMPEXT_MODEL_ERRORF_H
#define OMPEXT_MODEL_ERRORF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* printf into err (cap bytes); nothing when there is no buffer. */
static inline void errorf(char *err, size_t cap, const char *fmt, ...) {
  if (!err || cap == 0)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, cap, fmt, ap);
  va_end(ap);
}

#endif
