/*
 * The contract between libompext_bcast.so (omp-ext/lib/bcast) and the
 * plugin for ompext_bcast.  The library finds the plugin the patched runtime
 * loaded with dlopen(OMPEXT_BCAST_PLUGIN_SONAME, RTLD_NOLOAD) and asks it
 * OMPEXT_BCAST_SERVED_SYMBOL; when it serves, the library calls the
 * runtime's __kmpc_copyprivate with each thread's request as the data and
 * the plugin's OMPEXT_BCAST_COPY_SYMBOL as the copy function.  The plugin's
 * copyprivate op recognises that function and runs the sized broadcast with
 * the team context, gtid and tid the runtime hands it, and the runtime's
 * barrier after the copyprivate closes it.  Where the runtime does not reach
 * the plugin (a tool listening to sync regions, a team the plugin refused),
 * the runtime's own copyprivate calls the same function as an ordinary copy
 * from the root's request.  No runtime patch is involved.
 */
#ifndef OMPEXT_BCAST_SIZED_ABI_H
#define OMPEXT_BCAST_SIZED_ABI_H

#include "ompext/bcast.h"

/* The plugin exports the copy function (the library finds it by name). */
#define OMPEXT_PUBLIC_BCAST __attribute__((visibility("default")))

#include <stddef.h>
#include <stdint.h>

#define OMPEXT_BCAST_PLUGIN_SONAME "libompext.so"
#define OMPEXT_BCAST_SERVED_SYMBOL "ompext_bcast_sized_served"
#define OMPEXT_BCAST_COPY_SYMBOL "ompext_bcast_sized_copy"
#define OMPEXT_BCAST_REQUEST_MAGIC 0x6f6d7062u /* "ompb" */

/* One thread's call, on its stack until the closing barrier. */
typedef struct ompext_bcast_request {
  uint32_t magic; /* OMPEXT_BCAST_REQUEST_MAGIC */
  int root;
  void *buf;
  size_t bytes;
  int status; /* out: 0, or nonzero on every thread of a bad call */
  const void *root_buf; /* the plugin's: the root's buffer, once agreed */
} ompext_bcast_request_t;

/* Nonzero when the loaded plugin serves the broadcast (its copyprivate op
   is installed in a runtime). */
typedef int (*ompext_bcast_served_fn)(void);
/* The copy function: dst and src are requests. */
typedef void (*ompext_bcast_copy_fn)(void *dst, void *src);

#endif
