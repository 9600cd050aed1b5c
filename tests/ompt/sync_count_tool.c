/*
 * An OMPT tool for the tests (issue "OMPT tools see on ext what they see on
 * stock"): loaded with OMP_TOOL_LIBRARIES, it counts the begin and end
 * events of sync_region and sync_region_wait per kind, and the acquire,
 * acquired and released events of atomic mutexes (the runtime's atomic
 * locks, which ext may serve with the plugin's), checks that each
 * thread's events pair up (an end closes the innermost open region of the
 * same callback, of the same kind) and at
 * ompt_finalize writes one line per nonzero count, then the number of
 * pairing errors, to the file named by OMPT_SYNC_COUNT_OUT (stderr without
 * it).  compare_stock_ext.sh runs a program on stock and on ext and diffs
 * the two files.
 */
#include <omp-tools.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define MAX_KIND 16  /* ompt_sync_region_t values are below this */
#define MAX_DEPTH 32 /* open regions per thread (nesting of taskwait etc.) */

enum { REGION, WAIT, NCALLBACKS };
static const char *const callback_name[NCALLBACKS] = {"sync_region",
                                                      "sync_region_wait"};

static atomic_ulong counts[NCALLBACKS][MAX_KIND][2]; /* [.][kind][end?] */
static atomic_ulong pairing_errors;
/* Atomic mutex events: acquire, acquired, released (the kind of lock that
   serves them is left out, as it is ext's to choose). */
static atomic_ulong atomic_mutex[3];
static const char *const atomic_mutex_event[3] = {"acquire", "acquired",
                                                  "released"};

static _Thread_local int open_kind[NCALLBACKS][MAX_DEPTH];
static _Thread_local int depth[NCALLBACKS];

static const char *kind_name(int kind) {
  switch (kind) {
  case ompt_sync_region_barrier:
    return "barrier";
  case ompt_sync_region_barrier_implicit:
    return "barrier_implicit";
  case ompt_sync_region_barrier_explicit:
    return "barrier_explicit";
  case ompt_sync_region_barrier_implementation:
    return "barrier_implementation";
  case ompt_sync_region_taskwait:
    return "taskwait";
  case ompt_sync_region_taskgroup:
    return "taskgroup";
  case ompt_sync_region_reduction:
    return "reduction";
  case ompt_sync_region_barrier_implicit_workshare:
    return "barrier_implicit_workshare";
  case ompt_sync_region_barrier_implicit_parallel:
    return "barrier_implicit_parallel";
  case ompt_sync_region_barrier_teams:
    return "barrier_teams";
  default:
    return "other";
  }
}

static void record(int cb, ompt_sync_region_t kind,
                   ompt_scope_endpoint_t endpoint) {
  int k = (int)kind >= 0 && (int)kind < MAX_KIND ? (int)kind : 0;
  int end = endpoint == ompt_scope_end;
  atomic_fetch_add_explicit(&counts[cb][k][end], 1, memory_order_relaxed);
  if (!end) {
    if (depth[cb] == MAX_DEPTH) {
      atomic_fetch_add(&pairing_errors, 1);
      return;
    }
    open_kind[cb][depth[cb]++] = k;
    return;
  }
  /* Kinds only: libomp reports the end of a worker's implicit barrier
     without parallel data (the team may be gone), and a taskgroup's with a
     copy made at its end. */
  if (depth[cb] == 0 || open_kind[cb][--depth[cb]] != k)
    atomic_fetch_add(&pairing_errors, 1);
}

static void on_sync_region(ompt_sync_region_t kind,
                           ompt_scope_endpoint_t endpoint,
                           ompt_data_t *parallel_data, ompt_data_t *task_data,
                           const void *codeptr_ra) {
  (void)codeptr_ra;
  (void)parallel_data;
  (void)task_data;
  record(REGION, kind, endpoint);
}

static void on_sync_region_wait(ompt_sync_region_t kind,
                                ompt_scope_endpoint_t endpoint,
                                ompt_data_t *parallel_data,
                                ompt_data_t *task_data,
                                const void *codeptr_ra) {
  (void)codeptr_ra;
  (void)parallel_data;
  (void)task_data;
  record(WAIT, kind, endpoint);
}

static void count_atomic_mutex(ompt_mutex_t kind, int event) {
  if (kind == ompt_mutex_atomic)
    atomic_fetch_add_explicit(&atomic_mutex[event], 1, memory_order_relaxed);
}

static void on_mutex_acquire(ompt_mutex_t kind, unsigned int hint,
                             unsigned int impl, ompt_wait_id_t wait_id,
                             const void *codeptr_ra) {
  (void)hint;
  (void)impl;
  (void)wait_id;
  (void)codeptr_ra;
  count_atomic_mutex(kind, 0);
}

static void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                              const void *codeptr_ra) {
  (void)wait_id;
  (void)codeptr_ra;
  count_atomic_mutex(kind, 1);
}

static void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id,
                              const void *codeptr_ra) {
  (void)wait_id;
  (void)codeptr_ra;
  count_atomic_mutex(kind, 2);
}

static int tool_initialize(ompt_function_lookup_t lookup, int device,
                           ompt_data_t *data) {
  (void)device;
  (void)data;
  ompt_set_callback_t set_callback =
      (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set_callback)
    return 0;
  if (set_callback(ompt_callback_sync_region,
                   (ompt_callback_t)on_sync_region) != ompt_set_always ||
      set_callback(ompt_callback_sync_region_wait,
                   (ompt_callback_t)on_sync_region_wait) != ompt_set_always)
    fprintf(stderr, "sync_count_tool: callbacks not always delivered\n");
  /* Mutex events are optional in OMPT: reported as delivered sometimes. */
  if (set_callback(ompt_callback_mutex_acquire,
                   (ompt_callback_t)on_mutex_acquire) == ompt_set_never ||
      set_callback(ompt_callback_mutex_acquired,
                   (ompt_callback_t)on_mutex_acquired) == ompt_set_never ||
      set_callback(ompt_callback_mutex_released,
                   (ompt_callback_t)on_mutex_released) == ompt_set_never)
    fprintf(stderr, "sync_count_tool: mutex callbacks never delivered\n");
  return 1; /* keep the tool */
}

static void tool_finalize(ompt_data_t *data) {
  (void)data;
  const char *path = getenv("OMPT_SYNC_COUNT_OUT");
  FILE *out = path && *path ? fopen(path, "w") : NULL;
  FILE *to = out ? out : stderr;
  for (int cb = 0; cb < NCALLBACKS; ++cb)
    for (int k = 0; k < MAX_KIND; ++k)
      for (int end = 0; end < 2; ++end) {
        unsigned long n = atomic_load(&counts[cb][k][end]);
        if (n)
          fprintf(to, "%s %s %s %lu\n", callback_name[cb], kind_name(k),
                  end ? "end" : "begin", n);
      }
  for (int e = 0; e < 3; ++e)
    fprintf(to, "mutex atomic %s %lu\n", atomic_mutex_event[e],
            atomic_load(&atomic_mutex[e]));
  fprintf(to, "pairing_errors %lu\n", atomic_load(&pairing_errors));
  if (out)
    fclose(out);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version,
                                          const char *runtime_version) {
  (void)omp_version;
  (void)runtime_version;
  static ompt_start_tool_result_t result = {
      tool_initialize, tool_finalize, {0}};
  return &result;
}
