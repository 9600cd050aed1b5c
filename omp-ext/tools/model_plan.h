/* ompext-model --plan (model_plan.c), in the full build only. */
#ifndef OMPEXT_MODEL_PLAN_H
#define OMPEXT_MODEL_PLAN_H

#include "model.h"

/* Prints the plugin's plan for teams lo..hi, every collective (has_op 0)
   or op alone at `bytes`.  Returns the tool's exit status. */
int ompext_model_print_plan(const ompext_model_params_t *params, int has_op,
                            ompext_model_op_t op, int lo, int hi, long bytes,
                            int csv, const ompext_model_topology_t *topology);

#endif
