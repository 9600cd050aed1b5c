/* Mean, median, extremes, standard deviation and 3-sigma outlier count. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int compare_doubles(const void *a, const void *b)
{
    const double x = *(const double *)a;
    const double y = *(const double *)b;
    return (x > y) - (x < y);
}

void stats_compute(const double *samples, int count, double *scratch,
                   struct sample_stats *out)
{
    memset(out, 0, sizeof *out);
    out->count = count;
    if (count <= 0) {
        out->mean = out->median = out->min = out->max = out->sd = NAN;
        return;
    }

    double sum = 0.0;
    for (int i = 0; i < count; i++)
        sum += samples[i];
    out->mean = sum / count;

    double squares = 0.0;
    for (int i = 0; i < count; i++) {
        const double d = samples[i] - out->mean;
        squares += d * d;
    }
    out->sd = count > 1 ? sqrt(squares / (count - 1)) : 0.0;

    for (int i = 0; i < count; i++)
        if (fabs(samples[i] - out->mean) > 3.0 * out->sd)
            out->outliers++;

    memcpy(scratch, samples, (size_t)count * sizeof *scratch);
    qsort(scratch, (size_t)count, sizeof *scratch, compare_doubles);
    out->min = scratch[0];
    out->max = scratch[count - 1];
    out->median = count % 2 ? scratch[count / 2]
                            : 0.5 * (scratch[count / 2 - 1] + scratch[count / 2]);
}
