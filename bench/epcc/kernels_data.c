/* Kernels for constructs that move or combine data: single copyprivate,
 * atomic update and reductions, with their reference loops. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "delay.h"
#include "kernels.h"

/* ---- SINGLE COPYPRIVATE --------------------------------------------------
 * The payload is a private char array declared inside the parallel region,
 * so copyprivate(payload) broadcasts the whole array from the thread that
 * ran the single block into every other thread's copy. The array lives on
 * each thread's stack: the 1 MiB case needs OpenMP thread stacks of more
 * than 1 MiB (libomp's default is 4 MiB; the driver sets OMP_STACKSIZE).
 *
 * Timed mode: the single block stamps the first and last byte, the copy of
 * the full array is done by the runtime (the other bytes are never looked
 * at, so they are not initialised: that would add a full-array write per
 * run to the timing). Verify mode: every byte carries a pattern that
 * depends on the repetition and every thread checks all of them after the
 * broadcast.
 *
 * The _REWRITE kernels stand for a program that broadcasts fresh data each
 * time: their single block rewrites the whole array (memset in timed mode,
 * the pattern in verify mode), so that write, and what it costs to take
 * the lines back from the threads that copied them last time, is part of
 * every repetition, on both runtimes alike. */

static inline unsigned char payload_byte(unsigned long rep, size_t i)
{
    return (unsigned char)(rep * 131u + i * 7u + 1u);
}

static void payload_fill(unsigned char *p, size_t n, unsigned long rep, int verify)
{
    if (verify) {
        for (size_t i = 0; i < n; i++)
            p[i] = payload_byte(rep, i);
    } else {
        p[0] = payload_byte(rep, 0);
        p[n - 1] = payload_byte(rep, n - 1);
    }
}

/* The single block's write: the whole array for the _REWRITE kernels. */
static void payload_write(unsigned char *p, size_t n, unsigned long rep,
                          int verify, int rewrite)
{
    if (rewrite && !verify)
        memset(p, payload_byte(rep, 0), n);
    else
        payload_fill(p, n, rep, verify);
}

static unsigned long payload_check(const unsigned char *p, size_t n, unsigned long rep)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != payload_byte(rep, i))
            return 1;
    return 0;
}

/* One kernel per payload size: copyprivate needs a complete array type. */
#define DEFINE_COPYPRIVATE_KERNEL(NAME, NBYTES, REWRITE)                       \
    unsigned long NAME(const struct kernel_args *a)                            \
    {                                                                          \
        const unsigned long reps = a->reps;                                    \
        const int length = a->delay_length, verify = a->verify;               \
        unsigned long errors = 0;                                              \
        _Pragma("omp parallel reduction(+ : errors)")                          \
        {                                                                      \
            unsigned char payload[NBYTES];                                     \
            payload_fill(payload, sizeof payload, 0, verify);                  \
            for (unsigned long j = 0; j < reps; j++) {                         \
                _Pragma("omp single copyprivate(payload)")                     \
                {                                                              \
                    delay(length);                                             \
                    payload_write(payload, sizeof payload, j, verify,          \
                                  REWRITE);                                    \
                }                                                              \
                if (verify)                                                    \
                    errors += payload_check(payload, sizeof payload, j);       \
            }                                                                  \
        }                                                                      \
        return errors;                                                         \
    }

DEFINE_COPYPRIVATE_KERNEL(kernel_copyprivate_8, 8, 0)
DEFINE_COPYPRIVATE_KERNEL(kernel_copyprivate_64, 64, 0)
DEFINE_COPYPRIVATE_KERNEL(kernel_copyprivate_4096, 4096, 0)
DEFINE_COPYPRIVATE_KERNEL(kernel_copyprivate_65536, 65536, 0)
DEFINE_COPYPRIVATE_KERNEL(kernel_copyprivate_1048576, 1048576, 0)
DEFINE_COPYPRIVATE_KERNEL(kernel_copyprivate_rewrite_4096, 4096, 1)
DEFINE_COPYPRIVATE_KERNEL(kernel_copyprivate_rewrite_65536, 65536, 1)
DEFINE_COPYPRIVATE_KERNEL(kernel_copyprivate_rewrite_1048576, 1048576, 1)

/* ---- ATOMIC ----------------------------------------------------------------
 * EPCC's atomic test: a shared double accumulates a slowly growing private
 * value; the reference does the same arithmetic without the atomic. */

static const double atomic_growth = 1.0 + 1.0e-15;

unsigned long reference_atomic(const struct kernel_args *a)
{
    double sum = 0.0, b = 1.0;

    for (unsigned long j = 0; j < a->reps; j++) {
        sum += b;
        b *= atomic_growth;
    }
    keep_double(sum);
    return 0;
}

unsigned long kernel_atomic(const struct kernel_args *a)
{
    const unsigned long per_thread = a->reps / (unsigned long)a->nthreads;
    double sum = 0.0;

#pragma omp parallel
    {
        double b = 1.0;
        for (unsigned long j = 0; j < per_thread; j++) {
#pragma omp atomic
            sum += b;
            b *= atomic_growth;
        }
    }
    keep_double(sum);
    if (!a->verify)
        return 0;
    /* Every added value lies in [1, 1 + 1e-6) for any feasible count. */
    const double expected = (double)per_thread * a->nthreads;
    return !(sum >= expected * (1.0 - 1.0e-9) && sum <= expected * (1.0 + 2.0e-6));
}

/* ---- REDUCTION ---------------------------------------------------------------
 * EPCC's reduction test: a parallel region per repetition with a reduction
 * clause; the reference does the delay and the update serially. */

unsigned long reference_reduction_int(const struct kernel_args *a)
{
    int total = 0;

    for (unsigned long j = 0; j < a->reps; j++) {
        delay(a->delay_length);
        total += 1;
    }
    keep_double(total);
    return 0;
}

unsigned long kernel_reduction_int(const struct kernel_args *a)
{
    const unsigned long reps = a->reps;
    const int length = a->delay_length;
    int total = 0;

    for (unsigned long j = 0; j < reps; j++) {
#pragma omp parallel reduction(+ : total)
        {
            delay(length);
            total += 1;
        }
    }
    keep_double(total);
    return a->verify && (unsigned long)total != reps * (unsigned long)a->nthreads;
}

unsigned long reference_reduction_double(const struct kernel_args *a)
{
    double total = 0.0;

    for (unsigned long j = 0; j < a->reps; j++) {
        delay(a->delay_length);
        total += 1.0;
    }
    keep_double(total);
    return 0;
}

unsigned long kernel_reduction_double(const struct kernel_args *a)
{
    const unsigned long reps = a->reps;
    const int length = a->delay_length;
    double total = 0.0;

    for (unsigned long j = 0; j < reps; j++) {
#pragma omp parallel reduction(+ : total)
        {
            delay(length);
            total += 1.0;
        }
    }
    keep_double(total);
    return a->verify && total != (double)reps * a->nthreads;
}

/* ---- REDUCTION_ARRAY ---------------------------------------------------------
 * EPCC's reduction test on an array of doubles, one kernel per size: each
 * thread adds 1.0 to every element of its private copy, the reduction
 * combines the copies into the shared array. The private copies live on the
 * threads' stacks (64 KiB of doubles fits libomp's default stack size). The
 * reference does the same additions without OpenMP. */
#define DEFINE_REDUCTION_ARRAY_KERNEL(NDOUBLES)                                \
    unsigned long reference_reduction_array_##NDOUBLES(const struct kernel_args *a) \
    {                                                                          \
        double totals[NDOUBLES] = {0};                                         \
        for (unsigned long j = 0; j < a->reps; j++) {                          \
            delay(a->delay_length);                                            \
            for (int k = 0; k < (NDOUBLES); k++)                               \
                totals[k] += 1.0;                                              \
        }                                                                      \
        keep_double(totals[0] + totals[(NDOUBLES) - 1]);                       \
        return 0;                                                              \
    }                                                                          \
                                                                               \
    unsigned long kernel_reduction_array_##NDOUBLES(const struct kernel_args *a) \
    {                                                                          \
        const unsigned long reps = a->reps;                                    \
        const int length = a->delay_length;                                    \
        double totals[NDOUBLES] = {0};                                         \
        for (unsigned long j = 0; j < reps; j++) {                             \
            _Pragma("omp parallel reduction(+ : totals)")                      \
            {                                                                  \
                delay(length);                                                 \
                for (int k = 0; k < (NDOUBLES); k++)                           \
                    totals[k] += 1.0;                                          \
            }                                                                  \
        }                                                                      \
        keep_double(totals[0] + totals[(NDOUBLES) - 1]);                       \
        if (!a->verify)                                                        \
            return 0;                                                          \
        unsigned long errors = 0;                                              \
        const double expected = (double)reps * a->nthreads;                    \
        for (int k = 0; k < (NDOUBLES); k++)                                   \
            errors += totals[k] != expected;                                   \
        return errors;                                                         \
    }

DEFINE_REDUCTION_ARRAY_KERNEL(1)
DEFINE_REDUCTION_ARRAY_KERNEL(64)
DEFINE_REDUCTION_ARRAY_KERNEL(512)
DEFINE_REDUCTION_ARRAY_KERNEL(8192)
