/* Choice of the cost model's machine parameters (see machine.h). */
#include "machine.h"

#include <stdlib.h>
#include <string.h>

static void use_builtin_default(ompext_machine_t *m) {
  ompext_model_params_builtin("default", &m->params);
  snprintf(m->source, sizeof(m->source), "model(default parameters)");
}

void ompext_machine_load(ompext_machine_t *m, FILE *warn) {
  char err[256] = "";
  const char *asked = getenv("OMPEXT_CALIBRATION");
  use_builtin_default(m);
  if (!asked || !*asked)
    return;
  ompext_model_params_t params;
  if (ompext_model_params_resolve(asked, &params, err, sizeof(err)) != 0 ||
      ompext_model_params_validate(&params, err, sizeof(err)) != 0) {
    if (warn)
      fprintf(warn,
              "omp-ext: warning: OMPEXT_CALIBRATION=%s not usable (%s); "
              "using the default parameters\n",
              asked, err);
    return;
  }
  m->params = params;
  snprintf(m->source, sizeof(m->source), "model(%s)", asked);
}
