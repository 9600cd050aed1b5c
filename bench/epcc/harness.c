/* EPCC timing method. */
#include "harness.h"

#include <limits.h>

/* Guard against a loop the compiler removed (EPCC's limit) and overflow. */
static int reps_exhausted(unsigned long reps, double test_time_us)
{
    return reps > ULONG_MAX / 2 || (double)reps > test_time_us * 1.0e15;
}

static double run_once_us(kernel_fn kernel, const struct kernel_args *args,
                          unsigned long *errors)
{
    const double start = omp_get_wtime();
    *errors += kernel(args);
    return (omp_get_wtime() - start) * 1.0e6;
}

/* Doubling search for the inner repetition count, as in EPCC v4.0: start at
 * 10, run, double, and stop once a run has lasted the target test time. The
 * doubling after the final run is kept so our run lengths match EPCC's. */
static int scale_inner_reps(kernel_fn kernel, struct kernel_args *args,
                            double test_time_us, unsigned long *errors)
{
    double elapsed_us = 0.0;

    for (args->reps = 10; elapsed_us < test_time_us; args->reps *= 2) {
        elapsed_us = run_once_us(kernel, args, errors);
        if (reps_exhausted(args->reps, test_time_us))
            return -1;
    }
    return 0;
}

int time_kernel(kernel_fn kernel, const struct kernel_args *base,
                const struct timing_params *params, double *samples,
                double *scratch, struct timing_result *out)
{
    struct kernel_args args = *base;

    out->errors = 0;
    if (scale_inner_reps(kernel, &args, params->test_time_us, &out->errors))
        return -1;

    /* Untimed warm-up run (EPCC). Our one addition: if even this run at the
     * final count is shorter than the test time, a noise spike (preemption,
     * a cold start) cut the search short, so keep doubling. Without noise
     * the warm-up takes about twice the test time and this never triggers. */
    while (run_once_us(kernel, &args, &out->errors) < params->test_time_us) {
        if (reps_exhausted(args.reps, params->test_time_us))
            return -1;
        args.reps *= 2;
    }
    out->inner_reps = args.reps;

    for (int k = 0; k < params->outer_reps; k++)
        samples[k] = run_once_us(kernel, &args, &out->errors) / (double)args.reps;
    stats_compute(samples, params->outer_reps, scratch, &out->stats);
    return 0;
}
