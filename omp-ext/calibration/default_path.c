/*
 * The default location of a machine's calibration file (see
 * calibration.h): the per-user configuration directory of the XDG base
 * directory rules.
 */
#include "calibration.h"

#include <stdlib.h>

int ompext_calibration_default_path(const char *hash, char *buf, size_t cap) {
  const char *xdg = getenv("XDG_CONFIG_HOME");
  const char *home = getenv("HOME");
  int n;
  /* The XDG rules: a relative XDG_CONFIG_HOME is invalid and ignored. */
  if (xdg && xdg[0] == '/')
    n = snprintf(buf, cap, "%s/omp-ext/calibration-%s.txt", xdg, hash);
  else if (home && home[0])
    n = snprintf(buf, cap, "%s/.config/omp-ext/calibration-%s.txt", home,
                 hash);
  else
    return -1;
  return n < 0 || (size_t)n >= cap ? -1 : 0;
}
