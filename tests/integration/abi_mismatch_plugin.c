/*
 * A plugin built against another ABI version: it answers every runtime
 * with a table stamped OMPEXT_ABI_VERSION + 1.  The runtime must refuse it,
 * warn once, and run on stock paths.
 */
#include "ompext/abi.h"

static const ompext_ops_t future_ops = {
    .abi_version = OMPEXT_ABI_VERSION + 1,
    .size = sizeof(ompext_ops_t),
    .name = "omp-ext test plugin from a future ABI",
};

__attribute__((visibility("default"))) const ompext_ops_t *
ompext_get_ops(uint32_t runtime_abi) {
  (void)runtime_abi;
  return &future_ops;
}
