/* Kernels for constructs that only synchronise (EPCC syncbench set).
 *
 * Each kernel performs a->reps repetitions of "construct + delay()" so that,
 * divided by the repetitions and minus the delay-only reference, the time
 * is the overhead of the construct. With a->verify set, the kernels also
 * check that the construct did what it promises (paths kept apart from the
 * timed ones where the check would change the construct). */
#include <omp.h>

#include "delay.h"
#include "kernels.h"

unsigned long reference_delay(const struct kernel_args *a)
{
    for (unsigned long j = 0; j < a->reps; j++)
        delay(a->delay_length);
    return 0;
}

unsigned long kernel_parallel(const struct kernel_args *a)
{
    const unsigned long reps = a->reps;
    const int length = a->delay_length;
    unsigned long errors = 0;

    if (!a->verify) {
        for (unsigned long j = 0; j < reps; j++) {
#pragma omp parallel
            delay(length);
        }
        return 0;
    }
    for (unsigned long j = 0; j < reps; j++) {
        int members = 0;
#pragma omp parallel
        {
            delay(length);
#pragma omp atomic
            members++;
        }
        errors += members != a->nthreads;
    }
    return errors;
}

unsigned long kernel_for(const struct kernel_args *a)
{
    const unsigned long reps = a->reps;
    const int length = a->delay_length, n = a->nthreads, verify = a->verify;
    unsigned long iterations = 0;

#pragma omp parallel
    for (unsigned long j = 0; j < reps; j++) {
#pragma omp for
        for (int i = 0; i < n; i++) {
            delay(length);
            if (verify) {
#pragma omp atomic
                iterations++;
            }
        }
    }
    return verify && iterations != reps * (unsigned long)n;
}

unsigned long kernel_parallel_for(const struct kernel_args *a)
{
    const unsigned long reps = a->reps;
    const int length = a->delay_length, n = a->nthreads, verify = a->verify;
    unsigned long iterations = 0;

    for (unsigned long j = 0; j < reps; j++) {
#pragma omp parallel for
        for (int i = 0; i < n; i++) {
            delay(length);
            if (verify) {
#pragma omp atomic
                iterations++;
            }
        }
    }
    return verify && iterations != reps * (unsigned long)n;
}

/* Verification: every thread counts its arrival before the barrier; after
 * it, all arrivals of this episode must be visible. */
unsigned long kernel_barrier(const struct kernel_args *a)
{
    const unsigned long reps = a->reps;
    const int length = a->delay_length, verify = a->verify;
    unsigned long arrived = 0, errors = 0;

#pragma omp parallel reduction(+ : errors)
    {
        const unsigned long team = (unsigned long)omp_get_num_threads();
        for (unsigned long j = 0; j < reps; j++) {
            delay(length);
            if (verify) {
#pragma omp atomic
                arrived++;
            }
#pragma omp barrier
            if (verify) {
                unsigned long seen;
#pragma omp atomic read
                seen = arrived;
                errors += seen < (j + 1) * team;
            }
        }
    }
    return errors;
}

/* One thread arrives late: thread j % nthreads does the delay in
 * repetition j, the others go straight to the barrier (EPCC BARRIER_VAR). */
unsigned long kernel_barrier_var(const struct kernel_args *a)
{
    const unsigned long reps = a->reps;
    const int length = a->delay_length, verify = a->verify;
    const unsigned long n = (unsigned long)a->nthreads;
    unsigned long arrived = 0, errors = 0;

#pragma omp parallel reduction(+ : errors)
    {
        const unsigned long me = (unsigned long)omp_get_thread_num();
        for (unsigned long j = 0; j < reps; j++) {
            if (me == j % n)
                delay(length);
            if (verify) {
#pragma omp atomic
                arrived++;
            }
#pragma omp barrier
            if (verify) {
                unsigned long seen;
#pragma omp atomic read
                seen = arrived;
                errors += seen < (j + 1) * n;
            }
        }
    }
    return errors;
}

unsigned long kernel_single(const struct kernel_args *a)
{
    const unsigned long reps = a->reps;
    const int length = a->delay_length, verify = a->verify;
    unsigned long executed = 0;

#pragma omp parallel
    for (unsigned long j = 0; j < reps; j++) {
#pragma omp single
        {
            delay(length);
            if (verify) {
#pragma omp atomic
                executed++;
            }
        }
    }
    return verify && executed != reps;
}

/* Verification for the mutual-exclusion kernels: a plain (non-atomic)
 * counter incremented inside the protected region loses no updates. */
unsigned long kernel_critical(const struct kernel_args *a)
{
    const unsigned long per_thread = a->reps / (unsigned long)a->nthreads;
    const int length = a->delay_length, verify = a->verify;
    unsigned long entries = 0;

#pragma omp parallel
    for (unsigned long j = 0; j < per_thread; j++) {
#pragma omp critical
        {
            delay(length);
            if (verify)
                entries++;
        }
    }
    return verify && entries != per_thread * (unsigned long)a->nthreads;
}

unsigned long kernel_lock_contended(const struct kernel_args *a)
{
    const unsigned long per_thread = a->reps / (unsigned long)a->nthreads;
    const int length = a->delay_length, verify = a->verify;
    omp_lock_t *lock = a->lock;
    unsigned long entries = 0;

#pragma omp parallel
    for (unsigned long j = 0; j < per_thread; j++) {
        omp_set_lock(lock);
        delay(length);
        if (verify)
            entries++;
        omp_unset_lock(lock);
    }
    return verify && entries != per_thread * (unsigned long)a->nthreads;
}

/* Only the primary thread takes the lock; the others wait at the end of
 * the region. */
unsigned long kernel_lock_uncontended(const struct kernel_args *a)
{
    const unsigned long reps = a->reps;
    const int length = a->delay_length, verify = a->verify;
    omp_lock_t *lock = a->lock;
    unsigned long entries = 0;

#pragma omp parallel
    if (omp_get_thread_num() == 0) {
        for (unsigned long j = 0; j < reps; j++) {
            omp_set_lock(lock);
            delay(length);
            if (verify)
                entries++;
            omp_unset_lock(lock);
        }
    }
    return verify && entries != reps;
}

/* Verification: ordered regions run in iteration order. */
unsigned long kernel_ordered(const struct kernel_args *a)
{
    const long reps = (long)a->reps;
    const int length = a->delay_length, verify = a->verify;
    long next = 0;
    unsigned long errors = 0;

#pragma omp parallel for ordered schedule(static, 1) reduction(+ : errors)
    for (long j = 0; j < reps; j++) {
#pragma omp ordered
        {
            delay(length);
            if (verify) {
                errors += j != next;
                next = j + 1;
            }
        }
    }
    return errors;
}
