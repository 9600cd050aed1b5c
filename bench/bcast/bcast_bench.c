/*
 * bcast_bench: time per call of a broadcast of B bytes among the threads of
 * one team, root thread 0, each thread with its own buffer.
 *   --mode bcast        ompext_bcast (libompext_bcast.so: the plugin's
 *                       algorithms on omp-ext, its portable fallback on
 *                       stock libomp or libgomp)
 *   --mode copyprivate  what a program writes without it: a single whose
 *                       copyprivate hands out the root's buffer pointer,
 *                       each thread's memcpy of B bytes, a barrier (the
 *                       root's buffer lives on until all copied)
 * (the single's winner is the root there, as with copyprivate).
 * Output, one line per size: mode,threads,bytes,median_us (median of 7
 * batches, each about --time-ms / 7 / sizes long).  Every call's result is
 * checked on its last byte; a wrong one ends the run with status 1.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "ompext/bcast.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BATCHES = 7 };

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int run_size(int copyprivate, size_t bytes, double batch_s,
                    double *median_us) {
  double per_call[BATCHES];
  int bad = 0;
  long reps = 1;
#pragma omp parallel shared(reps, per_call, bad)
  {
    const int tid = omp_get_thread_num();
    unsigned char *buf = malloc(bytes);
    memset(buf, tid == 0 ? 1 : 0, bytes);
    unsigned char *from;
    /* Batches: the first only finds the repetitions for batch_s. */
    for (int b = -1; b < BATCHES; ++b) {
#pragma omp barrier
      const double t0 = omp_get_wtime();
      const long n = reps;
      for (long r = 0; r < n; ++r) {
        if (!copyprivate) {
          if (tid == 0)
            buf[bytes - 1] = (unsigned char)(r + 2);
          if (ompext_bcast(buf, bytes, 0) != 0)
            bad = 1;
        } else {
          /* The single's winner is the root here, as copyprivate has it. */
#pragma omp single copyprivate(from)
          {
            buf[bytes - 1] = (unsigned char)(r + 2);
            from = buf;
          }
          if (from != buf)
            memcpy(buf, from, bytes);
#pragma omp barrier
        }
        if (buf[bytes - 1] != (unsigned char)(r + 2))
          bad = 1;
      }
#pragma omp barrier
      if (tid == 0) {
        const double dt = omp_get_wtime() - t0;
        if (b < 0) {
          long want = (long)(batch_s / (dt > 1e-9 ? dt : 1e-9));
          reps = want < 1 ? 1 : want > 1000000 ? 1000000 : want;
        } else {
          per_call[b] = dt / (double)n;
        }
      }
    }
    free(buf);
  }
  qsort(per_call, BATCHES, sizeof(double), cmp_double);
  *median_us = per_call[BATCHES / 2] * 1e6;
  return bad;
}

int main(int argc, char **argv) {
  int copyprivate = 0;
  double time_ms = 300;
  const char *sizes = "8,64,512,4096,32768,262144,2097152,16777216";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--mode") == 0)
      copyprivate = strcmp(argv[i + 1], "copyprivate") == 0;
    else if (strcmp(argv[i], "--time-ms") == 0)
      time_ms = atof(argv[i + 1]);
    else if (strcmp(argv[i], "--sizes") == 0)
      sizes = argv[i + 1];
  }
  int count = 1;
  for (const char *p = sizes; *p; ++p)
    count += *p == ',';
  const double batch_s = time_ms / 1e3 / BATCHES / count;
  const int threads = omp_get_max_threads();
  char *list = strdup(sizes);
  for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
    const size_t bytes = (size_t)strtoull(tok, NULL, 10);
    double us;
    if (bytes == 0 || run_size(copyprivate, bytes, batch_s, &us)) {
      fprintf(stderr, "bcast_bench: wrong result at %zu bytes\n", bytes);
      return 1;
    }
    printf("%s,%d,%zu,%.4f\n", copyprivate ? "copyprivate" : "bcast", threads,
           bytes, us);
    fflush(stdout);
  }
  free(list);
  return 0;
}
