/* Busy-wait and its calibration. */
#include "delay.h"

#include <omp.h>

void delay(int length)
{
    float chain = 0.0f;

    /* Each addition depends on the previous one and floating-point addition
     * is not reassociated without -ffast-math, so this neither vectorises
     * nor folds into a closed form. */
    for (int i = 0; i < length; i++)
        chain += (float)i;
    keep_double(chain);
}

/* An interruption (a preemption, a neighbour's burst) only lengthens a
 * probe, so the fastest of a few probes is the undisturbed time.  With one
 * probe per length, as in EPCC, a single interruption ended the search
 * early: on a 2-core virtual machine the "0.1 us" delay came out anywhere
 * between 56 and 153 iterations from one process to the next. */
enum { CALLS_PER_PROBE = 1000, PROBES_PER_LENGTH = 5 };

static double fastest_call_s(int length)
{
    double fastest = 0.0;
    for (int probe = 0; probe < PROBES_PER_LENGTH; probe++) {
        const double start = omp_get_wtime();
        for (int call = 0; call < CALLS_PER_PROBE; call++)
            delay(length);
        const double per_call = (omp_get_wtime() - start) / CALLS_PER_PROBE;
        if (probe == 0 || per_call < fastest)
            fastest = per_call;
    }
    return fastest;
}

int delay_length_for(double microseconds)
{
    const double target_s = microseconds * 1.0e-6;
    int length = 0;

    delay(length);
    for (;;) {
        length += length / 10 + 1;
        if (fastest_call_s(length) >= target_s)
            return length;
    }
}
