/*
 * libompext_bcast.so: ompext_bcast (ompext/bcast.h) for programs built by
 * clang or gcc, on whichever OpenMP runtime they run.
 *
 * It links no runtime: omp_get_num_threads and friends resolve, at load,
 * in the runtime the program brought (weak, so that a program without one
 * still loads and gets teams of one).  At its first broadcast in a team of
 * several it looks for the omp-ext plugin the patched runtime loaded
 * (dlopen with RTLD_NOLOAD finds it by its soname, loads nothing) and asks
 * it whether it serves; if so every broadcast goes to the plugin through
 * the runtime's __kmpc_copyprivate with the plugin's copy function
 * (bcast_sized_abi.h), which gives the plugin the team's context.
 * Otherwise (stock libomp, libgomp, OMPEXT=off, OMPEXT_BCAST=stock) the
 * portable fallback below runs: libomp's own entry points where the
 * runtime has them, else libgomp's.
 */
#define _GNU_SOURCE /* RTLD_NOLOAD, RTLD_DEFAULT */
#include "ompext/bcast.h"

#include "bcast_sized_abi.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PUBLIC __attribute__((visibility("default")))

extern int omp_get_num_threads(void) __attribute__((weak));
extern int omp_get_thread_num(void) __attribute__((weak));
extern void GOMP_barrier(void) __attribute__((weak));
extern void *GOMP_single_copy_start(void) __attribute__((weak));
extern void GOMP_single_copy_end(void *data) __attribute__((weak));

/* libomp's source location (ident_t): four 32-bit words, then a string. */
typedef struct kmp_ident {
  int32_t reserved_1, flags, reserved_2, reserved_3;
  const char *psource;
} kmp_ident_t;
typedef int32_t (*gtid_fn)(kmp_ident_t *);
typedef void (*copyprivate_fn)(kmp_ident_t *, int32_t, size_t, void *,
                               void (*)(void *, void *), int32_t);
typedef void (*barrier_fn)(kmp_ident_t *, int32_t);

static kmp_ident_t location = {0, 2 /* KMP_IDENT_KMPC */, 0, 0,
                               ";ompext_bcast;ompext_bcast;0;0;;"};

/* Filled once.  ok: the plugin path is usable.  kmpc: the runtime is
   libomp, whose own entry points the fallback takes (its GOMP_barrier
   costs a clang program's barrier 20 times over). */
static struct {
  int ok, kmpc;
  gtid_fn gtid;
  copyprivate_fn copyprivate;
  barrier_fn barrier;
  ompext_bcast_copy_fn copy;
} plugin;
static pthread_once_t plugin_once = PTHREAD_ONCE_INIT;

static void find_plugin(void) {
  plugin.gtid = (gtid_fn)dlsym(RTLD_DEFAULT, "__kmpc_global_thread_num");
  plugin.copyprivate = (copyprivate_fn)dlsym(RTLD_DEFAULT, "__kmpc_copyprivate");
  plugin.barrier = (barrier_fn)dlsym(RTLD_DEFAULT, "__kmpc_barrier");
  plugin.kmpc = plugin.gtid && plugin.copyprivate && plugin.barrier;
  /* Only an already loaded plugin: the runtime's own, if it took one. */
  void *handle = dlopen(OMPEXT_BCAST_PLUGIN_SONAME, RTLD_NOW | RTLD_NOLOAD);
  if (!handle)
    return;
  ompext_bcast_served_fn served =
      (ompext_bcast_served_fn)dlsym(handle, OMPEXT_BCAST_SERVED_SYMBOL);
  plugin.copy = (ompext_bcast_copy_fn)dlsym(handle, OMPEXT_BCAST_COPY_SYMBOL);
  plugin.ok = served && plugin.copy && plugin.kmpc && served();
  /* The handle stays: the plugin lives as long as the runtime anyway. */
}

static int refuse(const char *why) {
  fprintf(stderr, "omp-ext: ompext_bcast: %s; nothing copied\n", why);
  return OMPEXT_BCAST_EINVAL;
}

/* A team of one: nothing to copy, the arguments still checked. */
static int alone(const void *buf, size_t bytes, int root) {
  char why[96];
  if (root != 0) {
    snprintf(why, sizeof(why), "root %d outside the team of 1 thread", root);
    return refuse(why);
  }
  if (!buf && bytes)
    return refuse("a NULL buffer with bytes > 0");
  return 0;
}

/* ---- the portable fallback ---------------------------------------------- */

typedef struct entry {
  void *buf;
  size_t bytes;
  int root;
} entry_t;

/* One thread publishes it; every thread enters its call there. */
typedef struct exchange {
  entry_t *entries; /* [n], NULL if the allocation failed */
} exchange_t;

/* Every thread reads every entry, so all reach the same verdict. */
static int judge(const entry_t *e, int n, int tid) {
  char why[128] = "";
  for (int t = 0; t < n && !why[0]; ++t) {
    if (e[t].bytes != e[0].bytes)
      snprintf(why, sizeof(why), "threads disagree on bytes (%zu, %zu)",
               e[0].bytes, e[t].bytes);
    else if (e[t].root != e[0].root)
      snprintf(why, sizeof(why), "threads disagree on the root (%d, %d)",
               e[0].root, e[t].root);
    else if (!e[t].buf && e[t].bytes)
      snprintf(why, sizeof(why), "a NULL buffer with %zu bytes", e[t].bytes);
  }
  if (!why[0] && (e[0].root < 0 || e[0].root >= n))
    snprintf(why, sizeof(why), "root %d outside the team of %d threads",
             e[0].root, n);
  if (!why[0])
    return 0;
  return tid == 0 ? refuse(why) : OMPEXT_BCAST_EINVAL;
}

static void copy_pointer(void *dst, void *src) {
  *(exchange_t **)dst = *(exchange_t **)src;
}

static void team_barrier(void) {
  if (plugin.kmpc)
    plugin.barrier(&location, plugin.gtid(&location));
  else
    GOMP_barrier();
}

/* A copyprivate makes one thread's exchange known to all (libomp: tid 0's,
   through its own copyprivate; libgomp: the single's winner's); each
   thread enters its call; a barrier; each copies from the root's buffer; a
   barrier keeps the root's buffer and the exchange alive until then. */
static int fallback(void *buf, size_t bytes, int root, int tid, int n) {
  exchange_t local = {NULL};
  exchange_t *x = NULL;
  int owner;
  if (plugin.kmpc) {
    owner = tid == 0;
    if (owner) {
      local.entries = calloc((size_t)n, sizeof(entry_t));
      x = &local;
    }
    plugin.copyprivate(&location, plugin.gtid(&location), sizeof(x), &x,
                       copy_pointer, owner);
  } else {
    x = GOMP_single_copy_start();
    owner = x == NULL;
    if (owner) {
      local.entries = calloc((size_t)n, sizeof(entry_t));
      x = &local;
      GOMP_single_copy_end(x);
    }
  }
  entry_t *e = x->entries;
  if (e)
    e[tid] = (entry_t){buf, bytes, root};
  team_barrier();
  int status = e ? judge(e, n, tid) : OMPEXT_BCAST_EINVAL;
  if (!e && tid == 0)
    refuse("out of memory");
  if (!status && tid != root && bytes && buf != e[root].buf)
    memcpy(buf, e[root].buf, bytes);
  team_barrier();
  if (owner)
    free(local.entries);
  return status;
}

/* ---- the entry point ----------------------------------------------------- */

PUBLIC int ompext_bcast(void *buf, size_t bytes, int root) {
  const int n = omp_get_num_threads ? omp_get_num_threads() : 1;
  if (n <= 1)
    return alone(buf, bytes, root);
  const int tid = omp_get_thread_num();
  pthread_once(&plugin_once, find_plugin);
  if (!plugin.ok) {
    if (!plugin.kmpc &&
        (!GOMP_barrier || !GOMP_single_copy_start || !GOMP_single_copy_end))
      return refuse("the OpenMP runtime lacks GOMP_barrier");
    return fallback(buf, bytes, root, tid, n);
  }
  ompext_bcast_request_t req = {.magic = OMPEXT_BCAST_REQUEST_MAGIC,
                                .root = root, .buf = buf, .bytes = bytes};
  /* didit: the root, for the runtime's own copyprivate where it keeps it;
     the plugin takes the root from the requests.  Its barrier after the
     broadcast closes it. */
  plugin.copyprivate(&location, plugin.gtid(&location), sizeof(req), &req,
                     plugin.copy, tid == root);
  return req.status;
}
