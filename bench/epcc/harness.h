/* EPCC timing method: inner-repetition scaling, warm-up, outer repetitions. */
#ifndef SYNCBENCH_HARNESS_H
#define SYNCBENCH_HARNESS_H

#include <omp.h>

#include "stats.h"

/* Everything a kernel needs; kernels never read global state. */
struct kernel_args {
    unsigned long reps; /* inner repetitions to perform */
    int nthreads;       /* team size the kernel splits work over */
    int delay_length;   /* argument for delay() */
    int verify;         /* non-zero: check results/payloads, count errors */
    omp_lock_t *lock;   /* an initialised lock for the lock kernels */
};

/* A kernel performs `reps` repetitions and returns the number of
 * verification errors it found (always 0 when args->verify is 0). */
typedef unsigned long (*kernel_fn)(const struct kernel_args *args);

struct timing_params {
    int outer_reps;      /* timed runs (after one untimed warm-up run) */
    double test_time_us; /* target duration of one run */
};

struct timing_result {
    unsigned long inner_reps;  /* repetitions per run after scaling */
    struct sample_stats stats; /* microseconds per inner repetition */
    unsigned long errors;      /* verification errors over all runs */
};

/* Time `kernel` the EPCC way. `samples` and `scratch` hold outer_reps
 * doubles each. Returns 0, or -1 when the inner repetitions could not be
 * scaled to the test time (the kernel was optimised away). */
int time_kernel(kernel_fn kernel, const struct kernel_args *base,
                const struct timing_params *params, double *samples,
                double *scratch, struct timing_result *out);

#endif
