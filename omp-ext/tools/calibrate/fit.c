/*
 * Small linear least-squares fits.
 *
 * cal_lsq: min ||X b - y||^2 by Householder QR.  The columns are scaled to
 * unit length first (the model's columns, N and 1/N, differ by orders of
 * magnitude), a column whose remaining part is negligible makes the
 * problem rank-deficient (-1).
 *
 * cal_nnls: the same under b >= 0.  With at most CAL_FIT_MAXK coefficients
 * it tries every set of free coefficients: the constrained optimum is the
 * unconstrained optimum over its free set, and is feasible, so the best
 * feasible candidate is the optimum.
 *
 * The model fits: contention T_C(n) = b + c*n (the paper's Eq. 3.2) and the
 * multi-line transfer T_N = o*N + q - p/N (Eq. 3.1).  The cost model takes
 * only non-negative parameters, hence the non-negative variants.
 */
#include "calibrate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int cal_lsq(const double *X, const double *y, size_t m, int k, double *beta,
            double *rss) {
  if (k < 1 || k > CAL_FIT_MAXK || m < (size_t)k)
    return -1;
  double *A = malloc(m * (size_t)k * sizeof(double));
  double *r = malloc(m * sizeof(double));
  double *v = malloc(m * sizeof(double));
  if (!A || !r || !v) {
    free(A);
    free(r);
    free(v);
    return -1;
  }
  memcpy(A, X, m * (size_t)k * sizeof(double));
  memcpy(r, y, m * sizeof(double));
  int rc = 0;

  /* Column scaling. */
  double scale[CAL_FIT_MAXK];
  for (int j = 0; j < k; ++j) {
    double s = 0;
    for (size_t i = 0; i < m; ++i)
      s += A[i * k + j] * A[i * k + j];
    s = sqrt(s);
    if (!(s > 0) || !isfinite(s)) {
      rc = -1;
      goto out;
    }
    scale[j] = s;
    for (size_t i = 0; i < m; ++i)
      A[i * k + j] /= s;
  }

  /* Householder QR: A = Q R, r = Q^T y. */
  for (int j = 0; j < k; ++j) {
    double norm = 0;
    for (size_t i = (size_t)j; i < m; ++i)
      norm += A[i * k + j] * A[i * k + j];
    norm = sqrt(norm);
    if (norm < 1e-10) { /* the column is (nearly) in the span of the others */
      rc = -1;
      goto out;
    }
    double alpha = A[(size_t)j * k + j] > 0 ? -norm : norm;
    double vv = 0;
    for (size_t i = (size_t)j; i < m; ++i) {
      v[i] = A[i * k + j];
      if (i == (size_t)j)
        v[i] -= alpha;
      vv += v[i] * v[i];
    }
    if (vv > 0) {
      for (int c = j; c < k; ++c) {
        double dot = 0;
        for (size_t i = (size_t)j; i < m; ++i)
          dot += v[i] * A[i * k + c];
        double f = 2 * dot / vv;
        for (size_t i = (size_t)j; i < m; ++i)
          A[i * k + c] -= f * v[i];
      }
      double dot = 0;
      for (size_t i = (size_t)j; i < m; ++i)
        dot += v[i] * r[i];
      double f = 2 * dot / vv;
      for (size_t i = (size_t)j; i < m; ++i)
        r[i] -= f * v[i];
    }
  }

  /* Back substitution R z = (Q^T y)[0..k-1], then unscale. */
  for (int j = k - 1; j >= 0; --j) {
    double s = r[j];
    for (int c = j + 1; c < k; ++c)
      s -= A[(size_t)j * k + c] * beta[c];
    beta[j] = s / A[(size_t)j * k + j];
  }
  for (int j = 0; j < k; ++j)
    beta[j] /= scale[j];

  if (rss) {
    /* Recomputed from the data rather than taken from Q^T y: exact enough
       and independent of the factorization. */
    double s = 0;
    for (size_t i = 0; i < m; ++i) {
      double e = -y[i];
      for (int j = 0; j < k; ++j)
        e += X[i * k + j] * beta[j];
      s += e * e;
    }
    *rss = s;
  }
out:
  free(A);
  free(r);
  free(v);
  return rc;
}

int cal_nnls(const double *X, const double *y, size_t m, int k, double *beta,
             double *rss, unsigned *held) {
  if (k < 1 || k > CAL_FIT_MAXK || m == 0)
    return -1;
  double *sub = malloc(m * (size_t)k * sizeof(double));
  if (!sub)
    return -1;
  double best_rss = INFINITY;
  double best[CAL_FIT_MAXK];
  unsigned best_mask = 0;
  int found = 0;
  for (unsigned mask = 0; mask < (1u << k); ++mask) {
    int cols[CAL_FIT_MAXK], nf = 0;
    for (int j = 0; j < k; ++j)
      if (mask & (1u << j))
        cols[nf++] = j;
    double cand[CAL_FIT_MAXK] = {0};
    double r;
    if (nf == 0) {
      r = 0;
      for (size_t i = 0; i < m; ++i)
        r += y[i] * y[i];
    } else {
      if (m < (size_t)nf)
        continue;
      for (size_t i = 0; i < m; ++i)
        for (int c = 0; c < nf; ++c)
          sub[i * nf + c] = X[i * k + cols[c]];
      double b[CAL_FIT_MAXK];
      if (cal_lsq(sub, y, m, nf, b, &r) != 0)
        continue;
      int feasible = 1;
      for (int c = 0; c < nf; ++c) {
        if (b[c] < 0)
          feasible = 0;
        cand[cols[c]] = b[c];
      }
      if (!feasible)
        continue;
    }
    /* Strictly better, or as good with more free coefficients. */
    if (!found || r < best_rss * (1 - 1e-12) ||
        (r <= best_rss * (1 + 1e-12) &&
         __builtin_popcount(mask) > __builtin_popcount(best_mask))) {
      found = 1;
      best_rss = r;
      best_mask = mask;
      memcpy(best, cand, sizeof(best));
    }
  }
  free(sub);
  if (!found)
    return -1;
  memcpy(beta, best, (size_t)k * sizeof(double));
  if (rss)
    *rss = best_rss;
  if (held)
    *held = ~best_mask & ((1u << k) - 1u);
  return 0;
}

int cal_fit_contention(const double *n, const double *t, size_t m, int nonneg,
                       double *b, double *c, unsigned *held) {
  if (m < 2)
    return -1;
  double *X = malloc(m * 2 * sizeof(double));
  if (!X)
    return -1;
  for (size_t i = 0; i < m; ++i) {
    X[i * 2 + 0] = 1.0;
    X[i * 2 + 1] = n[i];
  }
  double beta[2];
  unsigned h = 0;
  int rc = nonneg ? cal_nnls(X, t, m, 2, beta, NULL, &h)
                  : cal_lsq(X, t, m, 2, beta, NULL);
  free(X);
  if (rc != 0)
    return -1;
  *b = beta[0];
  *c = beta[1];
  if (held)
    *held = h;
  return 0;
}

int cal_fit_multiline(const double *N, const double *t, size_t m, int nonneg,
                      double *o, double *q, double *p, unsigned *held) {
  if (m < 3)
    return -1;
  double *X = malloc(m * 3 * sizeof(double));
  if (!X)
    return -1;
  for (size_t i = 0; i < m; ++i) {
    if (!(N[i] > 0)) {
      free(X);
      return -1;
    }
    X[i * 3 + 0] = N[i];
    X[i * 3 + 1] = 1.0;
    X[i * 3 + 2] = -1.0 / N[i];
  }
  double beta[3];
  unsigned h = 0;
  int rc = nonneg ? cal_nnls(X, t, m, 3, beta, NULL, &h)
                  : cal_lsq(X, t, m, 3, beta, NULL);
  free(X);
  if (rc != 0)
    return -1;
  *o = beta[0];
  *q = beta[1];
  *p = beta[2];
  if (held)
    *held = h;
  return 0;
}
