/* See probe.h. */
#define _GNU_SOURCE
#include "probe.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int saved_stderr = -1;
static FILE *capture;
static char captured[1 << 16];

int probe_plugin_stats(ompext_stats_t *out) {
  void *handle = dlopen("libompext.so", RTLD_NOW | RTLD_NOLOAD);
  if (!handle)
    return 0;
  ompext_stats_read_fn read_stats =
      (ompext_stats_read_fn)dlsym(handle, "ompext_stats_read");
  if (!read_stats) {
    dlclose(handle);
    return 0;
  }
  read_stats(out);
  dlclose(handle);
  return 1;
}

void probe_capture_stderr(void) {
  fflush(stderr);
  capture = tmpfile();
  if (!capture) {
    perror("tmpfile");
    exit(2);
  }
  saved_stderr = dup(STDERR_FILENO);
  dup2(fileno(capture), STDERR_FILENO);
}

const char *probe_captured_stderr(void) {
  if (saved_stderr < 0)
    return "";
  fflush(stderr);
  dup2(saved_stderr, STDERR_FILENO);
  close(saved_stderr);
  saved_stderr = -1;
  rewind(capture);
  size_t n = fread(captured, 1, sizeof(captured) - 1, capture);
  captured[n] = '\0';
  fclose(capture);
  fputs(captured, stderr); /* keep it visible in the test log */
  return captured;
}

int probe_count_lines(const char *text, const char *needle) {
  int count = 0;
  while (text && *text) {
    const char *end = strchr(text, '\n');
    size_t len = end ? (size_t)(end - text) : strlen(text);
    const char *hit = strstr(text, needle);
    if (hit && hit < text + len)
      ++count;
    text = end ? end + 1 : text + len;
  }
  return count;
}
