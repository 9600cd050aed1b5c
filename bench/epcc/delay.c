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

int delay_length_for(double microseconds)
{
    enum { CALLS_PER_PROBE = 1000 };
    const double target_s = microseconds * 1.0e-6;
    int length = 0;

    delay(length);
    for (;;) {
        length += length / 10 + 1;
        const double start = omp_get_wtime();
        for (int call = 0; call < CALLS_PER_PROBE; call++)
            delay(length);
        const double per_call = (omp_get_wtime() - start) / CALLS_PER_PROBE;
        if (per_call >= target_s)
            return length;
    }
}
