/*
 * The services table the plugin runs on: the runtime's in production, a small
 * pthread implementation under the unit tests.  Algorithms reach the runtime
 * only through this table.
 */
#ifndef OMPEXT_SERVICES_H
#define OMPEXT_SERVICES_H

#include "ompext/abi.h"

/* Installed once by init (or by a unit test) before any team exists. */
extern const ompext_services_t *ompext_svc;

/* Accepts svc if its version and size fit this plugin; 0 on success. */
int ompext_services_install(const ompext_services_t *svc);

#endif /* OMPEXT_SERVICES_H */
