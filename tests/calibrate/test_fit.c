/*
 * calibrate.fit: the least-squares fits of ompext-calibrate (fit.c) and the
 * sample summaries (stats.c) against synthetic data with known answers.
 *
 *   - exact data: b, c and o, q, p recovered to 1e-9 (relative)
 *   - deterministic noise (+-1%): recovered within a few percent
 *   - non-negative fits: a coefficient the plain fit makes negative is held
 *     at 0 and the rest equal the plain fit without it; the result is never
 *     worse than any feasible grid point
 *   - too few or degenerate points are refused
 *   - median, p10, p90 of known sets
 */
#include "calibrate.h"
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int close_rel(double got, double want, double tol) {
  double scale = fabs(want) > 1 ? fabs(want) : 1;
  return fabs(got - want) <= tol * scale;
}

/* Deterministic noise in [-1, 1]. */
static double noise(unsigned *state) {
  *state = *state * 1103515245u + 12345u;
  return ((double)((*state >> 8) & 0xffff) / 32767.5) - 1.0;
}

static void test_contention_exact(void) {
  const double b = 320.5, c = 56.2;
  double n[8], t[8];
  for (int i = 0; i < 8; ++i) {
    n[i] = i + 1;
    t[i] = b + c * n[i];
  }
  double gb, gc;
  unsigned held = 99;
  CHECK(cal_fit_contention(n, t, 8, 0, &gb, &gc, &held) == 0, "plain fit");
  CHECK(close_rel(gb, b, 1e-9) && close_rel(gc, c, 1e-9),
        "plain: b %.12g c %.12g", gb, gc);
  CHECK(cal_fit_contention(n, t, 8, 1, &gb, &gc, &held) == 0, "nnls fit");
  CHECK(close_rel(gb, b, 1e-9) && close_rel(gc, c, 1e-9) && held == 0,
        "nnls: b %.12g c %.12g held %u", gb, gc, held);
  /* Two points: the fit is exact too. */
  CHECK(cal_fit_contention(n, t, 2, 1, &gb, &gc, &held) == 0 &&
            close_rel(gb, b, 1e-9) && close_rel(gc, c, 1e-9),
        "two points: b %.12g c %.12g", gb, gc);
}

static void test_multiline_exact(void) {
  /* The paper's E/E row of Table 3.1. */
  const double o = 76.0, q = 1521.0, p = 1096.0;
  static const double sizes[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64,
                                 96, 128};
  const int m = (int)(sizeof(sizes) / sizeof(sizes[0]));
  double t[14];
  for (int i = 0; i < m; ++i)
    t[i] = o * sizes[i] + q - p / sizes[i];
  double go, gq, gp;
  unsigned held = 99;
  CHECK(cal_fit_multiline(sizes, t, (size_t)m, 0, &go, &gq, &gp, &held) == 0,
        "plain fit");
  CHECK(close_rel(go, o, 1e-9) && close_rel(gq, q, 1e-9) &&
            close_rel(gp, p, 1e-9),
        "plain: o %.12g q %.12g p %.12g", go, gq, gp);
  CHECK(cal_fit_multiline(sizes, t, (size_t)m, 1, &go, &gq, &gp, &held) == 0,
        "nnls fit");
  CHECK(close_rel(go, o, 1e-9) && close_rel(gq, q, 1e-9) &&
            close_rel(gp, p, 1e-9) && held == 0,
        "nnls: o %.12g q %.12g p %.12g held %u", go, gq, gp, held);
  /* Three points determine the three parameters. */
  double s3[3] = {1, 8, 128}, t3[3];
  for (int i = 0; i < 3; ++i)
    t3[i] = o * s3[i] + q - p / s3[i];
  CHECK(cal_fit_multiline(s3, t3, 3, 0, &go, &gq, &gp, NULL) == 0 &&
            close_rel(go, o, 1e-9) && close_rel(gq, q, 1e-9) &&
            close_rel(gp, p, 1e-9),
        "three points: o %.12g q %.12g p %.12g", go, gq, gp);
}

static void test_noisy(void) {
  unsigned st = 12345;
  const double b = 80, c = 12;
  double n[32], t[32];
  for (int i = 0; i < 32; ++i) {
    n[i] = 1 + i % 16;
    t[i] = (b + c * n[i]) * (1 + 0.01 * noise(&st));
  }
  double gb, gc;
  CHECK(cal_fit_contention(n, t, 32, 1, &gb, &gc, NULL) == 0, "noisy fit");
  CHECK(close_rel(gb, b, 0.05) && close_rel(gc, c, 0.05),
        "noisy contention: b %.4g c %.4g", gb, gc);

  const double o = 6.5, q = 150, p = 40;
  double N[40], z[40];
  for (int i = 0; i < 40; ++i) {
    N[i] = 1 << (i % 8);
    z[i] = (o * N[i] + q - p / N[i]) * (1 + 0.01 * noise(&st));
  }
  double go, gq, gp;
  CHECK(cal_fit_multiline(N, z, 40, 1, &go, &gq, &gp, NULL) == 0,
        "noisy multiline fit");
  CHECK(close_rel(go, o, 0.05) && close_rel(gq, q, 0.05) &&
            fabs(gp - p) <= 0.15 * p,
        "noisy multiline: o %.4g q %.4g p %.4g", go, gq, gp);
}

static void test_nonnegative(void) {
  /* Data with a negative p: T = 5 N + 100 + 30/N.  The plain fit finds
     p = -30; the non-negative one holds p at 0 and fits o, q alone. */
  double N[6] = {1, 2, 4, 8, 16, 32}, t[6];
  for (int i = 0; i < 6; ++i)
    t[i] = 5 * N[i] + 100 + 30 / N[i];
  double o, q, p;
  unsigned held = 0;
  CHECK(cal_fit_multiline(N, t, 6, 0, &o, &q, &p, NULL) == 0 &&
            close_rel(p, -30, 1e-9),
        "plain p %.12g", p);
  CHECK(cal_fit_multiline(N, t, 6, 1, &o, &q, &p, &held) == 0, "nnls");
  CHECK(p == 0 && held == 4u, "nnls p %.12g held %u", p, held);
  /* The same as the two-parameter plain fit. */
  double X[12], beta[2], rss_nn;
  for (int i = 0; i < 6; ++i) {
    X[2 * i] = N[i];
    X[2 * i + 1] = 1;
  }
  CHECK(cal_lsq(X, t, 6, 2, beta, NULL) == 0, "2-parameter fit");
  CHECK(close_rel(o, beta[0], 1e-9) && close_rel(q, beta[1], 1e-9),
        "nnls o %.12g q %.12g vs %.12g %.12g", o, q, beta[0], beta[1]);
  /* Optimality against a grid of feasible points. */
  double X3[18], b3[3];
  for (int i = 0; i < 6; ++i) {
    X3[3 * i] = N[i];
    X3[3 * i + 1] = 1;
    X3[3 * i + 2] = -1 / N[i];
  }
  CHECK(cal_nnls(X3, t, 6, 3, b3, &rss_nn, NULL) == 0, "cal_nnls");
  for (double go = 0; go <= 10; go += 0.5)
    for (double gq = 80; gq <= 140; gq += 2)
      for (double gp = 0; gp <= 20; gp += 2) {
        double r = 0;
        for (int i = 0; i < 6; ++i) {
          double e = go * N[i] + gq - gp / N[i] - t[i];
          r += e * e;
        }
        if (r < rss_nn * (1 - 1e-9)) {
          CHECK(0, "grid point o %g q %g p %g beats nnls (%g < %g)", go, gq,
                gp, r, rss_nn);
          return;
        }
      }

  /* Contention with a negative slope: c held at 0, b = mean. */
  double n[3] = {1, 2, 3}, y[3] = {90, 85, 80};
  double b, c;
  CHECK(cal_fit_contention(n, y, 3, 1, &b, &c, &held) == 0 && c == 0 &&
            close_rel(b, 85, 1e-9) && held == 2u,
        "negative slope: b %.12g c %.12g held %u", b, c, held);
}

static void test_degenerate(void) {
  double n[3] = {2, 2, 2}, t[3] = {1, 2, 3};
  double b, c, o, q, p;
  CHECK(cal_fit_contention(n, t, 3, 0, &b, &c, NULL) != 0,
        "one distinct n accepted");
  CHECK(cal_fit_contention(n, t, 1, 0, &b, &c, NULL) != 0,
        "one point accepted");
  double N[3] = {4, 4, 8};
  CHECK(cal_fit_multiline(N, t, 3, 0, &o, &q, &p, NULL) != 0,
        "two distinct N accepted for three parameters");
  CHECK(cal_fit_multiline(N, t, 2, 0, &o, &q, &p, NULL) != 0,
        "two points accepted");
  double Z[3] = {0, 1, 2};
  CHECK(cal_fit_multiline(Z, t, 3, 0, &o, &q, &p, NULL) != 0,
        "N = 0 accepted");
}

static void test_stats(void) {
  double x[11];
  for (int i = 0; i < 11; ++i)
    x[i] = 10 - i; /* 10 .. 0, unsorted input */
  cal_summary_t s;
  CHECK(cal_summarize(x, 11, &s) == 0, "summarize");
  CHECK(s.n == 11 && s.median == 5 && s.p10 == 1 && s.p90 == 9 &&
            s.min == 0 && s.max == 10 && s.mean == 5,
        "median %g p10 %g p90 %g min %g max %g mean %g", s.median, s.p10,
        s.p90, s.min, s.max, s.mean);
  CHECK(x[0] == 10, "input modified");
  double y[4] = {1, 2, 3, 4};
  cal_summarize(y, 4, &s);
  CHECK(s.median == 2.5 && close_rel(s.p10, 1.3, 1e-12) &&
            close_rel(s.p90, 3.7, 1e-12),
        "interpolation: median %g p10 %g p90 %g", s.median, s.p10, s.p90);
  CHECK(cal_summarize(y, 0, &s) != 0, "empty set accepted");
}

int main(void) {
  test_contention_exact();
  test_multiline_exact();
  test_noisy();
  test_nonnegative();
  test_degenerate();
  test_stats();
  return checks_result("calibrate fit tests passed");
}
