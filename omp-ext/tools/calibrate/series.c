/*
 * Bookkeeping of sample series, the per-series time budget, and progress
 * lines on stderr.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "calibrate.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

cal_series_t *cal_series_get(cal_run_t *run, const char *bench,
                             const char *state, const char *cls,
                             const char *cpus, int param) {
  for (size_t i = 0; i < run->nseries; ++i) {
    cal_series_t *s = run->series[i];
    if (!strcmp(s->bench, bench) && !strcmp(s->state, state) &&
        !strcmp(s->cls, cls) && !strcmp(s->cpus, cpus) && s->param == param)
      return s;
  }
  if (run->nseries == run->capseries) {
    size_t nc = run->capseries ? 2 * run->capseries : 32;
    cal_series_t **ns = realloc(run->series, nc * sizeof(*ns));
    if (!ns)
      return NULL;
    run->series = ns;
    run->capseries = nc;
  }
  cal_series_t *s = calloc(1, sizeof(*s));
  if (!s)
    return NULL;
  s->cap = run->max_samples * (size_t)(run->rounds > 1 ? run->rounds : 1) + 1;
  s->x = malloc(s->cap * sizeof(double));
  if (!s->x) {
    free(s);
    return NULL;
  }
  snprintf(s->bench, sizeof(s->bench), "%s", bench);
  snprintf(s->state, sizeof(s->state), "%s", state);
  snprintf(s->cls, sizeof(s->cls), "%s", cls);
  snprintf(s->cpus, sizeof(s->cpus), "%s", cpus);
  s->param = param;
  run->series[run->nseries++] = s;
  return s;
}

void cal_series_add(cal_series_t *s, double v) {
  if (s->n < s->cap)
    s->x[s->n++] = v;
}

void cal_series_done(cal_run_t *run, cal_series_t *s) {
  cal_summarize(s->x, s->n, &s->sum);
  run->steps_done++;
  if (run->verbose) {
    if (s->n)
      fprintf(stderr,
              "        %s %s %s n=%d: median %.2f ns, p10 %.2f, p90 %.2f, "
              "%zu samples%s%s\n",
              s->bench, s->state, s->cls, s->param, s->sum.median, s->sum.p10,
              s->sum.p90, s->n, s->dropped ? " (some dropped)" : "",
              s->budget_hit ? " (time budget)" : "");
    else
      fprintf(stderr, "        %s %s %s n=%d: no samples\n", s->bench,
              s->state, s->cls, s->param);
  }
}

const cal_series_t *cal_series_find(const cal_run_t *run, const char *bench,
                                    const char *state, const char *cls,
                                    int param) {
  for (size_t i = 0; i < run->nseries; ++i) {
    const cal_series_t *s = run->series[i];
    if (strcmp(s->bench, bench) == 0 && strcmp(s->state, state) == 0 &&
        (!cls || strcmp(s->cls, cls) == 0) && (param < 0 || s->param == param) &&
        s->n > 0)
      return s;
  }
  return NULL;
}

int cal_keep_sampling(const cal_run_t *run, size_t i, double t0,
                      int *budget_hit) {
  if (i >= run->max_samples)
    return 0;
  double el = cal_now_s() - t0;
  if (el < run->series_budget_s)
    return 1;
  if (i < run->min_samples && el < run->series_hard_s)
    return 1;
  *budget_hit = 1;
  return 0;
}

void cal_progress(cal_run_t *run, const char *fmt, ...) {
  int pct = run->steps_total
                ? (int)(100.0 * run->steps_done / run->steps_total)
                : 0;
  fprintf(stderr, "[%3d%%] ", pct);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  if (run->rounds > 1 && run->round < run->rounds)
    fprintf(stderr, ", round %d/%d", run->round + 1, run->rounds);
  fputc('\n', stderr);
}
