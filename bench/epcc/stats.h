/* Summary statistics over the outer repetitions of one measurement. */
#ifndef SYNCBENCH_STATS_H
#define SYNCBENCH_STATS_H

struct sample_stats {
    int count;
    double mean;
    double median;
    double min;
    double max;
    double sd;    /* sample standard deviation (n - 1 in the denominator) */
    int outliers; /* samples further than 3 standard deviations from the mean */
};

/* Summarise `count` samples. `scratch` must hold `count` doubles; the
 * samples themselves are left untouched. */
void stats_compute(const double *samples, int count, double *scratch,
                   struct sample_stats *out);

#endif
