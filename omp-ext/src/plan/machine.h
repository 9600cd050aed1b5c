/*
 * The machine parameters the cost model runs on, chosen once when the
 * plugin starts: OMPEXT_CALIBRATION (a calibration or parameter file, or a
 * built-in set name), else the calibration file ompext-calibrate wrote for
 * this machine, else the built-in "default" set.  A file that cannot be
 * used gives one warning and the defaults; it never stops the program.
 */
#ifndef OMPEXT_MACHINE_H
#define OMPEXT_MACHINE_H

#include "model.h"
#include "topology.h"

#include <stdio.h>

typedef struct ompext_machine {
  ompext_model_params_t params;
  char source[320]; /* for OMPEXT_VERBOSE: where the parameters came from */
} ompext_machine_t;

/* topology: the plugin's, to fingerprint the machine without loading hwloc
   a second time (NULL or synthetic: loaded here when a file needs it). */
void ompext_machine_load(ompext_machine_t *m,
                         const ompext_topology_t *topology, FILE *warn);

#endif
