/* Calibrated busy-wait used as the unit of work inside every measurement. */
#ifndef SYNCBENCH_DELAY_H
#define SYNCBENCH_DELAY_H

/* Spin for `length` iterations of a serial floating-point dependency chain.
 * Defined in its own translation unit so it is never inlined into the
 * measured loops; its result is always observed, so it cannot be removed. */
void delay(int length);

/* The smallest delay length whose delay() lasts at least `microseconds`
 * on the calling thread, judged by the fastest of a few probes (lengths
 * grow by ~10% per step, as in EPCC). */
int delay_length_for(double microseconds);

/* Read-back through a volatile object: the compiler must compute `value`. */
static inline void keep_double(double value)
{
    volatile double sink = value;
    (void)sink;
}

#endif
