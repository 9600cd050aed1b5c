/*
 * mpi_bcast_bench: time per MPI_Bcast of B bytes from rank 0 among the
 * job's single-threaded ranks, measured as bcast_bench.c measures
 * ompext_bcast (median of 7 batches; the repetitions found by a first
 * batch, rank 0's choice for all).  Output as bcast_bench's, mode "mpi".
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BATCHES = 7 };

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double time_ms = 300;
  const char *sizes = "8,64,512,4096,32768,262144,2097152,16777216";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--time-ms") == 0)
      time_ms = atof(argv[i + 1]);
    else if (strcmp(argv[i], "--sizes") == 0)
      sizes = argv[i + 1];
  }
  int count = 1;
  for (const char *p = sizes; *p; ++p)
    count += *p == ',';
  const double batch_s = time_ms / 1e3 / BATCHES / count;
  char *list = strdup(sizes);
  int bad = 0;
  for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
    const size_t bytes = (size_t)strtoull(tok, NULL, 10);
    unsigned char *buf = malloc(bytes);
    memset(buf, rank == 0, bytes);
    double per_call[BATCHES];
    long reps = 1;
    for (int b = -1; b < BATCHES; ++b) {
      MPI_Barrier(MPI_COMM_WORLD);
      const double t0 = MPI_Wtime();
      for (long r = 0; r < reps; ++r) {
        if (rank == 0)
          buf[bytes - 1] = (unsigned char)(r + 2);
        MPI_Bcast(buf, (int)bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
        bad |= buf[bytes - 1] != (unsigned char)(r + 2);
      }
      MPI_Barrier(MPI_COMM_WORLD);
      const double dt = MPI_Wtime() - t0;
      if (b < 0) {
        long want = (long)(batch_s / (dt > 1e-9 ? dt : 1e-9));
        reps = want < 1 ? 1 : want > 1000000 ? 1000000 : want;
        MPI_Bcast(&reps, 1, MPI_LONG, 0, MPI_COMM_WORLD);
      } else {
        per_call[b] = dt / (double)reps;
      }
    }
    free(buf);
    qsort(per_call, BATCHES, sizeof(double), cmp_double);
    if (rank == 0)
      printf("mpi,%d,%zu,%.4f\n", size, bytes, per_call[BATCHES / 2] * 1e6);
    fflush(stdout);
  }
  free(list);
  int any = 0;
  MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
  if (any && rank == 0)
    fprintf(stderr, "mpi_bcast_bench: wrong result\n");
  MPI_Finalize();
  return any;
}
