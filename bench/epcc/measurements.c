/* The measurement table: names, payload sizes, references and kernels. */
#include "measurements.h"

#include <string.h>

#include "kernels.h"

static const struct reference_def references[REF_COUNT] = {
    [REF_DELAY] = {"REF_DELAY", reference_delay},
    [REF_ATOMIC] = {"REF_ATOMIC", reference_atomic},
    [REF_REDUCTION_INT] = {"REF_REDUCTION", reference_reduction_int},
    [REF_REDUCTION_DOUBLE] = {"REF_REDUCTION_DOUBLE", reference_reduction_double},
    [REF_REDUCTION_ARRAY_8] = {"REF_REDUCTION_ARRAY:8", reference_reduction_array_1},
    [REF_REDUCTION_ARRAY_512] = {"REF_REDUCTION_ARRAY:512", reference_reduction_array_64},
    [REF_REDUCTION_ARRAY_4096] = {"REF_REDUCTION_ARRAY:4096", reference_reduction_array_512},
    [REF_REDUCTION_ARRAY_65536] = {"REF_REDUCTION_ARRAY:65536", reference_reduction_array_8192},
};

/* Ordered by reference family so each reference is timed right before the
 * measurements that use it, as EPCC does. */
static const struct measurement_def measurements[] = {
    {"PARALLEL", 0, REF_DELAY, kernel_parallel,
     "parallel region (fork + join)"},
    {"FOR", 0, REF_DELAY, kernel_for,
     "worksharing for, nthreads iterations, in an enclosing region"},
    {"PARALLEL_FOR", 0, REF_DELAY, kernel_parallel_for,
     "combined parallel for, nthreads iterations"},
    {"BARRIER", 0, REF_DELAY, kernel_barrier,
     "explicit barrier"},
    {"BARRIER_VAR", 0, REF_DELAY, kernel_barrier_var,
     "barrier where one thread (rotating) arrives late"},
    {"SINGLE", 0, REF_DELAY, kernel_single,
     "single construct (with its implied barrier)"},
    {"SINGLE_COPYPRIVATE", 8, REF_DELAY, kernel_copyprivate_8,
     "single copyprivate of an 8-byte char array"},
    {"SINGLE_COPYPRIVATE", 64, REF_DELAY, kernel_copyprivate_64,
     "single copyprivate of a 64-byte char array"},
    {"SINGLE_COPYPRIVATE", 4096, REF_DELAY, kernel_copyprivate_4096,
     "single copyprivate of a 4 KiB char array"},
    {"SINGLE_COPYPRIVATE", 65536, REF_DELAY, kernel_copyprivate_65536,
     "single copyprivate of a 64 KiB char array"},
    {"SINGLE_COPYPRIVATE", 1048576, REF_DELAY, kernel_copyprivate_1048576,
     "single copyprivate of a 1 MiB char array"},
    {"SINGLE_COPYPRIVATE_REWRITE", 4096, REF_DELAY, kernel_copyprivate_rewrite_4096,
     "single copyprivate of a 4 KiB char array the single rewrites whole"},
    {"SINGLE_COPYPRIVATE_REWRITE", 65536, REF_DELAY, kernel_copyprivate_rewrite_65536,
     "single copyprivate of a 64 KiB char array the single rewrites whole"},
    {"SINGLE_COPYPRIVATE_REWRITE", 1048576, REF_DELAY, kernel_copyprivate_rewrite_1048576,
     "single copyprivate of a 1 MiB char array the single rewrites whole"},
    {"CRITICAL", 0, REF_DELAY, kernel_critical,
     "unnamed critical section, all threads"},
    {"LOCK_CONTENDED", 0, REF_DELAY, kernel_lock_contended,
     "omp_set_lock/omp_unset_lock, all threads (EPCC v3 LOCK/UNLOCK)"},
    {"LOCK_UNCONTENDED", 0, REF_DELAY, kernel_lock_uncontended,
     "omp_set_lock/omp_unset_lock, primary thread only"},
    {"ORDERED", 0, REF_DELAY, kernel_ordered,
     "ordered region in a schedule(static,1) loop"},
    {"ATOMIC", 8, REF_ATOMIC, kernel_atomic,
     "atomic update of a shared double"},
    {"REDUCTION", 4, REF_REDUCTION_INT, kernel_reduction_int,
     "parallel region with reduction(+) of one int"},
    {"REDUCTION_DOUBLE", 8, REF_REDUCTION_DOUBLE, kernel_reduction_double,
     "parallel region with reduction(+) of one double"},
    {"REDUCTION_ARRAY", 8, REF_REDUCTION_ARRAY_8, kernel_reduction_array_1,
     "parallel region with reduction(+) of an array of 1 double"},
    {"REDUCTION_ARRAY", 512, REF_REDUCTION_ARRAY_512, kernel_reduction_array_64,
     "parallel region with reduction(+) of an array of 64 doubles"},
    {"REDUCTION_ARRAY", 4096, REF_REDUCTION_ARRAY_4096, kernel_reduction_array_512,
     "parallel region with reduction(+) of an array of 512 doubles"},
    {"REDUCTION_ARRAY", 65536, REF_REDUCTION_ARRAY_65536, kernel_reduction_array_8192,
     "parallel region with reduction(+) of an array of 8192 doubles"},
};

/* Other spellings accepted by --measureonly. */
static const struct {
    const char *alias;
    const char *name;
} aliases[] = {
    {"LOCK", "LOCK_CONTENDED"},
    {"LOCK/UNLOCK", "LOCK_CONTENDED"},
    {"COPYPRIVATE", "SINGLE_COPYPRIVATE"},
    {"REDUCTION_INT", "REDUCTION"},
};

size_t measurement_count(void)
{
    return sizeof measurements / sizeof measurements[0];
}

const struct measurement_def *measurement_at(size_t index)
{
    return index < measurement_count() ? &measurements[index] : NULL;
}

const struct reference_def *reference_for(enum reference_kind kind)
{
    return &references[kind];
}

const char *measurement_canonical_name(const char *name)
{
    for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
        if (strcmp(name, aliases[i].alias) == 0)
            return aliases[i].name;
    for (size_t i = 0; i < measurement_count(); i++)
        if (strcmp(name, measurements[i].name) == 0)
            return measurements[i].name;
    return NULL;
}
