/*
 * Summaries of sample sets: median and the 10th/90th percentiles (the
 * spread reported next to every parameter), min, max and mean.
 */
#include "calibrate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double cal_percentile_sorted(const double *sorted, size_t n, double q) {
  if (n == 0)
    return NAN;
  if (q <= 0)
    return sorted[0];
  if (q >= 1)
    return sorted[n - 1];
  double pos = q * (double)(n - 1);
  size_t i = (size_t)pos;
  double frac = pos - (double)i;
  if (i + 1 >= n)
    return sorted[n - 1];
  return sorted[i] + frac * (sorted[i + 1] - sorted[i]);
}

int cal_summarize(const double *x, size_t n, cal_summary_t *out) {
  memset(out, 0, sizeof(*out));
  if (n == 0) {
    out->median = out->p10 = out->p90 = out->min = out->max = out->mean = NAN;
    return -1;
  }
  double *s = malloc(n * sizeof(double));
  if (!s)
    return -1;
  memcpy(s, x, n * sizeof(double));
  qsort(s, n, sizeof(double), cmp_double);
  double sum = 0;
  for (size_t i = 0; i < n; ++i)
    sum += s[i];
  out->n = n;
  out->median = cal_percentile_sorted(s, n, 0.5);
  out->p10 = cal_percentile_sorted(s, n, 0.1);
  out->p90 = cal_percentile_sorted(s, n, 0.9);
  out->min = s[0];
  out->max = s[n - 1];
  out->mean = sum / (double)n;
  free(s);
  return 0;
}
