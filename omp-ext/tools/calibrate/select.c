/*
 * The model's parameters from the measurements.
 *
 *   R_L  median read of a line in state M in the reader's own cache
 *   R_R  median read of a line in state M in another core's cache, of the
 *        primary remote class (the farthest class inside the reference
 *        PU's package): the algorithms' flags are written lines, and a team
 *        spreads over the package.  The other classes and states are in the
 *        file as comments.
 *   R_I  median read of a flushed line (memory)
 *   b c  least squares T_C(n) = b + c*n on the contention medians (state
 *        M); a = 0 (the paper's Eq. 3.2 for a cached line)
 *   o q p  least squares T_N = o*N + q - p/N on the ping-pong medians
 *
 * The model accepts only values >= 0, so both fits are non-negative least
 * squares (a coefficient the plain fit makes negative is held at 0 and the
 * file says so); a fit whose one reader (T_C(1) = b + c) or one-line
 * message (T_N(1) = o + q - p) costs nothing is refused, and the tool
 * measures again.  A line read takes some time, and the model refuses a
 * transfer of 0: a median below one tick of the timer (after the timer's
 * overhead is subtracted, a busy machine's noise can leave it at 0 or
 * below) is held at one tick, and the file and the tool's warning say so.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "calibrate.h"

#include <string.h>

/* The median of a line-read series, or one tick of the timer when the
   median is below it (noted in p->held_reads).  cal_timer_init accepts no
   TSC of 100 GHz or more, and clock_gettime ticks in ns: a tick is above
   the model's least transfer, 0.01 ns. */
static double line_read(const cal_run_t *run, const cal_series_t *s,
                        const char *name, cal_params_t *p) {
  const double tick = run->timer.ns_per_tick;
  if (s->sum.median >= tick)
    return s->sum.median;
  size_t used = strlen(p->held_reads);
  snprintf(p->held_reads + used, sizeof(p->held_reads) - used,
           "%s%s %.2f ns", used ? ", " : "", name, s->sum.median);
  return tick;
}

int cal_choose_params(const cal_run_t *run, cal_params_t *p, char *err,
                      size_t cap) {
  memset(p, 0, sizeof(*p));
  const cal_topo_t *t = &run->topo;
  p->line = t->line_bytes;
  int prim = cal_primary_class(t);

  const cal_series_t *rl = cal_series_find(run, "line", "M", "local", -1);
  const cal_series_t *rr =
      prim >= 0 ? cal_series_find(run, "line", "M", cal_class_name(prim), -1)
                : NULL;
  const cal_series_t *ri = cal_series_find(run, "line", "I", "memory", -1);
  if (!rl || !rr || !ri) {
    snprintf(err, cap, "no samples for %s",
             !rl ? "R_L (local read)"
                 : !rr ? "R_R (remote read)" : "R_I (read from memory)");
    return -1;
  }
  p->r_l = line_read(run, rl, "R_L", p);
  p->r_r = line_read(run, rr, "R_R", p);
  p->r_i = line_read(run, ri, "R_I", p);
  /* A remote read as fast as a local one means the two PUs share the
     reader's first-level cache whatever hwloc says: on a virtual machine,
     the host ran both virtual CPUs on one physical core (hyperthreads). */
  for (size_t i = 0; i < run->nseries; ++i) {
    const cal_series_t *s = run->series[i];
    if (strcmp(s->bench, "line") || strcmp(s->state, "M") ||
        !strcmp(s->cls, "local") || !s->n)
      continue;
    if (s->sum.median < 2 * rl->sum.median) {
      snprintf(p->warning, sizeof(p->warning),
               "a line in another core's cache (class %s, CPUs %s) read in "
               "%.2f ns, no slower than from the own cache (%.2f ns): the "
               "CPUs seem to share an L1 cache (virtual CPUs on one physical "
               "core?); the values are not those of separate cores",
               s->cls, s->cpus, s->sum.median, rl->sum.median);
      break;
    }
  }
  snprintf(p->r_l_src, sizeof(p->r_l_src),
           "line in state M in the reader's own cache (CPUs %s), median",
           rl->cpus);
  snprintf(p->r_r_src, sizeof(p->r_r_src),
           "line in state M in another core's cache, class %s (CPUs %s), "
           "median",
           rr->cls, rr->cpus);
  snprintf(p->r_i_src, sizeof(p->r_i_src),
           "flushed line, read from memory (CPU %s), median", ri->cpus);

  /* Contention: state M, all reader counts measured. */
  double n[64], y[64];
  int m = 0;
  char list[96] = "";
  size_t ll = 0;
  for (size_t i = 0; i < run->nseries && m < 64; ++i) {
    const cal_series_t *s = run->series[i];
    if (strcmp(s->bench, "contention") || strcmp(s->state, "M") || !s->n)
      continue;
    n[m] = s->param;
    y[m] = s->sum.median;
    ++m;
    if (ll < sizeof(list) - 8)
      ll += (size_t)snprintf(list + ll, sizeof(list) - ll, "%s%d",
                             ll ? "," : "", s->param);
  }
  if (m < 2 || cal_fit_contention(n, y, (size_t)m, 1, &p->b, &p->c,
                                  &p->tc_held) != 0) {
    snprintf(err, cap, "contention: too few reader counts measured (%d)", m);
    return -1;
  }
  /* A reader of a line in another cache takes time: one reader's cost 0
     or less is a measurement spoiled (by a busy machine), not a machine. */
  if (!(p->b + p->c > 0)) {
    snprintf(err, cap,
             "contention: one reader's cost b + c = %g ns is not above 0 "
             "(medians %g ns for n = %g)",
             p->b + p->c, y[0], n[0]);
    return -1;
  }
  p->a = 0;
  p->tc_points = m;
  p->tc_rss = 0;
  for (int i = 0; i < m; ++i) {
    double e = p->b + p->c * n[i] - y[i];
    p->tc_rss += e * e;
  }
  snprintf(p->tc_src, sizeof(p->tc_src),
           "T_C(n) = b + c*n, least squares on the medians for n = %s "
           "readers of a line in state M; a = 0 (cached line, Eq. 3.2)",
           list);

  /* Multi-line. */
  double N[64], z[64];
  int k = 0;
  const char *mcls = "?";
  for (size_t i = 0; i < run->nseries && k < 64; ++i) {
    const cal_series_t *s = run->series[i];
    if (strcmp(s->bench, "multiline") || !s->n)
      continue;
    N[k] = s->param;
    z[k] = s->sum.median;
    mcls = s->cls;
    ++k;
  }
  if (k < 3 || cal_fit_multiline(N, z, (size_t)k, 1, &p->o, &p->q, &p->p,
                                 &p->tn_held) != 0) {
    snprintf(err, cap, "multi-line: too few message sizes measured (%d)", k);
    return -1;
  }
  /* Likewise a message of one line. */
  if (!(p->o + p->q - p->p > 0)) {
    snprintf(err, cap,
             "multi-line: a one-line message's cost o + q - p = %g ns is "
             "not above 0 (median %g ns for N = %g)",
             p->o + p->q - p->p, z[0], N[0]);
    return -1;
  }
  p->tn_points = k;
  p->tn_rss = 0;
  for (int i = 0; i < k; ++i) {
    double e = p->o * N[i] + p->q - p->p / N[i] - z[i];
    p->tn_rss += e * e;
  }
  snprintf(p->tn_src, sizeof(p->tn_src),
           "T_N = o*N + q - p/N, least squares on the medians of %d message "
           "sizes (1..%g lines), ping-pong E/E, class %s",
           k, N[k - 1], mcls);
  return 0;
}
