/* A monotonic time stamp in nanoseconds, for the plugin's own timing. */
#ifndef OMPEXT_NOW_H
#define OMPEXT_NOW_H

#include <stdint.h>

uint64_t ompext_now_ns(void);

/* What two back-to-back calls measure with nothing between them: the
   fastest of a few tries (ns). */
double ompext_now_overhead_ns(void);

#endif
