/* Holder of the services table (see services.h). */
#include "services.h"

#include <stddef.h>

const ompext_services_t *ompext_svc = NULL;

int ompext_services_install(const ompext_services_t *svc) {
  if (!svc || svc->abi_version != OMPEXT_ABI_VERSION ||
      svc->size < sizeof(ompext_services_t))
    return -1;
  /* Every member but reduction_event is called without a check. */
  if (!svc->wait || !svc->release || !svc->oversubscribed ||
      !svc->passive_wait || !svc->alloc || !svc->free_mem ||
      !svc->stock_barrier_bits || !svc->tasks_pending)
    return -1;
  ompext_svc = svc;
  return 0;
}
