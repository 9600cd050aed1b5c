/*
 * Choice of the cost model's machine parameters (see machine.h).
 *
 * A file is read by the one reader of omp-ext/calibration and taken by the
 * model's rules, as the tools do (only a regular text file of at most
 * 1 MiB, opened without ever waiting; framing; parameters in their
 * plausible ranges), and a calibration file (one ompext-calibrate wrote)
 * must carry this machine's fingerprint.  A file refused gives one warning
 * naming why, and the defaults.  A file without the calibration header is
 * a plain parameter file written by hand.  The default location is the
 * per-user file named after this machine's fingerprint, the one
 * ompext-calibrate writes.
 *
 * The fingerprint is computed once, when first needed, from the counts of
 * the plugin's topology when that is this machine's, else of one loaded
 * here (OMPEXT_TOPOLOGY gave a synthetic one, or the plugin has none).
 */
#include "machine.h"

#include "calibration.h"

#include <stdlib.h>
#include <string.h>

static void use_builtin_default(ompext_machine_t *m) {
  ompext_model_params_builtin("default", &m->params);
  snprintf(m->source, sizeof(m->source), "model(default parameters)");
}

/* Whole-machine counts of a topology loaded from this machine; 0, or -1
   (none, or a synthetic one). */
static int counts_of(const ompext_topology_t *topology,
                     ompext_calibration_counts_t *counts) {
  return ompext_topology_machine_counts(topology, &counts->packages,
                                        &counts->cores, &counts->pus,
                                        &counts->l3s);
}

/* This machine's fingerprint hash, computed on first need. */
typedef struct machine_hash {
  const ompext_topology_t *topology; /* the plugin's, or NULL */
  int state;                         /* 0 not yet, 1 known, -1 unknown */
  char hash[OMPEXT_CALIBRATION_HASH_SIZE];
} machine_hash_t;

/* The hash as ompext-calibrate computes it, or NULL when hwloc cannot give
   the counts. */
static const char *this_machine_hash(machine_hash_t *mh) {
  if (mh->state != 0)
    return mh->state > 0 ? mh->hash : NULL;
  ompext_calibration_counts_t counts;
  mh->state = -1;
  if (counts_of(mh->topology, &counts) != 0) {
    ompext_topology_t *own = ompext_topology_load();
    const int failed = !own || counts_of(own, &counts) != 0;
    ompext_topology_free(own);
    if (failed)
      return NULL;
  }
  char cpu_model[OMPEXT_CALIBRATION_CPU_MODEL_SIZE];
  ompext_calibration_cpu_model(NULL, cpu_model, sizeof(cpu_model));
  ompext_calibration_fingerprint_t fp;
  ompext_calibration_fingerprint_make(cpu_model, &counts, &fp);
  memcpy(mh->hash, fp.hash, sizeof(mh->hash));
  mh->state = 1;
  return mh->hash;
}

/* Loads path into m; 0 on success, else why.  The reader and the rules
   are those of every reader of these files (omp-ext/calibration reads,
   the model parses and validates); the plugin adds only that a calibration
   file must be this machine's. */
static int load_file(ompext_machine_t *m, const char *path,
                     machine_hash_t *mh, char *why, size_t cap) {
  char *text = ompext_calibration_read_file(path, why, cap);
  if (!text)
    return -1;
  /* A plain parameter file needs no fingerprint. */
  const char *this_hash =
      ompext_calibration_is_framed(text) ? this_machine_hash(mh) : NULL;
  ompext_model_params_t params;
  const int rc = ompext_model_params_from_file_text(text, path, this_hash,
                                                    &params, why, cap);
  free(text);
  if (rc != 0)
    return -1;
  m->params = params;
  snprintf(m->source, sizeof(m->source), "model(%s)", path);
  return 0;
}

void ompext_machine_load(ompext_machine_t *m,
                         const ompext_topology_t *topology, FILE *warn) {
  char why[256] = "";
  machine_hash_t mh = {.topology = topology};
  const char *asked = getenv("OMPEXT_CALIBRATION");
  use_builtin_default(m);
  if (asked && *asked) {
    if (ompext_model_params_builtin(asked, &m->params) == 0) {
      snprintf(m->source, sizeof(m->source), "model(%s)", asked);
      return;
    }
    if (load_file(m, asked, &mh, why, sizeof(why)) != 0) {
      use_builtin_default(m);
      if (warn)
        fprintf(warn,
                "omp-ext: warning: OMPEXT_CALIBRATION=%s not used (%s); "
                "using the default parameters\n",
                asked, why);
    }
    return;
  }
  /* The calibration ompext-calibrate wrote for this machine, if any: no
     warning when there is none, one when what is there cannot be used. */
  const char *hash = this_machine_hash(&mh);
  char path[512];
  if (!hash ||
      ompext_calibration_default_path(hash, path, sizeof(path)) != 0 ||
      !ompext_calibration_path_exists(path))
    return;
  if (load_file(m, path, &mh, why, sizeof(why)) != 0) {
    use_builtin_default(m);
    if (warn)
      fprintf(warn,
              "omp-ext: warning: calibration %s not used (%s); using the "
              "default parameters\n",
              path, why);
  }
}
