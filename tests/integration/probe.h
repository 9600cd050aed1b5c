/*
 * What a test program can learn about omp-ext from inside the process:
 * whether the plugin is loaded (dlopen with RTLD_NOLOAD), its counters
 * (ompext_stats_read, needs OMPEXT_STATS=1), and what the runtime printed on
 * stderr (captured into a temporary file before the runtime starts).
 */
#ifndef OMPEXT_TEST_PROBE_H
#define OMPEXT_TEST_PROBE_H

#include "ompext/stats.h"

#include <stddef.h>

/* 1 and *out filled if libompext.so is loaded in this process, else 0. */
int probe_plugin_stats(ompext_stats_t *out);

/* Redirects stderr into a temporary file; call before the runtime starts
   (from a constructor: clang may call into the runtime on entry to main). */
void probe_capture_stderr(void);
/* Restores stderr and returns what was captured (static buffer). */
const char *probe_captured_stderr(void);
/* Number of lines of text containing needle. */
int probe_count_lines(const char *text, const char *needle);

#endif
