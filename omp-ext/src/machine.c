/*
 * Choice of the cost model's machine parameters (see machine.h).
 *
 * A file written by ompext-calibrate starts with "# omp-ext calibration v1"
 * carries "# fingerprint <hash>" of the machine it measured and ends with
 * "# end": a file of another version or another machine, or one cut short,
 * is refused (one warning, defaults).
 * A file without that header is a plain parameter file written by hand and
 * is taken as it is.  The default location is the per-user file named after
 * this machine's fingerprint, the one ompext-calibrate writes.
 */
#include "machine.h"

#include "calibrate.h"

#include <stdlib.h>
#include <string.h>

#define CALIBRATION_HEADER "# omp-ext calibration v"
#define CALIBRATION_VERSION 1
#define MAX_FILE_BYTES (1 << 20)

static void use_builtin_default(ompext_machine_t *m) {
  ompext_model_params_builtin("default", &m->params);
  snprintf(m->source, sizeof(m->source), "model(default parameters)");
}

/* The plugin's topology, when it is this machine's (see
   ompext_machine_load). */
static const ompext_topology_t *plugin_topology;

/* This machine's fingerprint (as ompext-calibrate computes it); 0 on
   success. */
static int this_fingerprint(char hash[17]) {
  cal_topo_t topo;
  cal_fingerprint_t fp;
  char err[128];
  memset(&topo, 0, sizeof(topo));
  if (ompext_topology_machine_counts(plugin_topology, &topo.packages,
                                     &topo.cores, &topo.pus,
                                     &topo.l3s) == 0) {
    cal_fingerprint_make(&topo, &fp); /* only the counts are read */
  } else {
    if (cal_topo_load(&topo, err, sizeof(err)) != 0)
      return -1;
    cal_fingerprint_make(&topo, &fp);
    cal_topo_free(&topo);
  }
  memcpy(hash, fp.hash, 17);
  return 0;
}

/* Whole file into a NUL-terminated buffer (caller frees); NULL + why. */
static char *read_file(const char *path, char *why, size_t cap) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(why, cap, "cannot open it");
    return NULL;
  }
  char *text = malloc(MAX_FILE_BYTES + 1);
  size_t n = text ? fread(text, 1, MAX_FILE_BYTES + 1, f) : 0;
  fclose(f);
  if (!text || n > MAX_FILE_BYTES) {
    free(text);
    snprintf(why, cap, "larger than %d bytes", MAX_FILE_BYTES);
    return NULL;
  }
  text[n] = '\0';
  return text;
}

/* Checks a calibration file's header against this machine; 0 if usable. */
static int check_header(const char *text, char *why, size_t cap) {
  size_t hlen = strlen(CALIBRATION_HEADER);
  if (strncmp(text, CALIBRATION_HEADER, hlen) != 0)
    return 0; /* a plain parameter file */
  int version = atoi(text + hlen);
  if (version != CALIBRATION_VERSION) {
    snprintf(why, cap, "calibration file version %d, this plugin reads %d",
             version, CALIBRATION_VERSION);
    return -1;
  }
  size_t len = strlen(text);
  if (len < 7 || strcmp(text + len - 7, "\n# end\n") != 0) {
    snprintf(why, cap, "calibration file cut short (no final '# end')");
    return -1;
  }
  const char *fp = strstr(text, "\n# fingerprint ");
  char mine[17];
  if (!fp) {
    snprintf(why, cap, "calibration file without a fingerprint");
    return -1;
  }
  fp += strlen("\n# fingerprint ");
  if (this_fingerprint(mine) != 0 || strncmp(fp, mine, 16) != 0 ||
      (fp[16] != '\n' && fp[16] != '\0' && fp[16] != ' ')) {
    snprintf(why, cap, "measured on another machine (fingerprint %.16s)", fp);
    return -1;
  }
  return 0;
}

/* Loads path into m; 0 on success, else why. */
static int load_file(ompext_machine_t *m, const char *path, char *why,
                     size_t cap) {
  char *text = read_file(path, why, cap);
  if (!text)
    return -1;
  ompext_model_params_t params;
  int rc = check_header(text, why, cap);
  if (rc == 0)
    rc = ompext_model_params_parse(text, path, &params, why, cap);
  if (rc == 0)
    rc = ompext_model_params_validate(&params, why, cap);
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
  plugin_topology = topology;
  const char *asked = getenv("OMPEXT_CALIBRATION");
  use_builtin_default(m);
  if (asked && *asked) {
    if (ompext_model_params_builtin(asked, &m->params) == 0) {
      snprintf(m->source, sizeof(m->source), "model(%s)", asked);
      return;
    }
    if (load_file(m, asked, why, sizeof(why)) != 0) {
      use_builtin_default(m);
      if (warn)
        fprintf(warn,
                "omp-ext: warning: OMPEXT_CALIBRATION=%s not used (%s); "
                "using the default parameters\n",
                asked, why);
    }
    return;
  }
  /* The calibration ompext-calibrate wrote for this machine, if any. */
  char hash[17], path[512];
  FILE *probe;
  if (this_fingerprint(hash) != 0 ||
      cal_default_path(hash, path, sizeof(path)) != 0 ||
      !(probe = fopen(path, "r")))
    return;
  fclose(probe);
  if (load_file(m, path, why, sizeof(why)) != 0) {
    use_builtin_default(m);
    if (warn)
      fprintf(warn,
              "omp-ext: warning: calibration %s not used (%s); using the "
              "default parameters\n",
              path, why);
  }
}
