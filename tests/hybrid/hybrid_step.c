/*
 * A hybrid MPI+OpenMP step in the shape of a stencil code's time step: every
 * rank owns a block of cells, and each step runs several OpenMP regions over
 * it (a worksharing loop with a reduction, a barrier inside a region, a
 * single with copyprivate, tasks), takes the step's parameters from rank 0
 * (MPI_Bcast), exchanges one halo cell with each neighbour rank and agrees
 * on a global value with MPI_Allreduce.
 *
 * Integer arithmetic only, so every runtime, team size and reduction order
 * gives the same checksum; rank 0 checks it against the closed form and
 * prints "checksum <v>" and "elapsed <seconds>" (the step loop only).
 *
 *   hybrid_step [--steps N] [--cells N] [--regions N] [--multiple]
 *               [--die-rank R]
 *
 * --multiple asks for MPI_THREAD_MULTIPLE and lets every thread of a team
 * take part in an MPI_Allreduce of its own inside the region (each thread
 * its own duplicated communicator, so the calls cannot cross).
 * --die-rank R kills rank R - 1 half-way through (a rank that crashes: the
 * job must fail, not hang).
 */
#include <mpi.h>
#include <omp.h>

#include <signal.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what) {
  fprintf(stderr, "hybrid_step: %s\n", what);
  MPI_Abort(MPI_COMM_WORLD, 2);
  return 2;
}

static long arg_long(int argc, char **argv, const char *name, long dflt) {
  for (int i = 1; i + 1 < argc; ++i)
    if (strcmp(argv[i], name) == 0) {
      char *end;
      long v = strtol(argv[i + 1], &end, 10);
      if (*end || v < 1)
        fail("a count must be a positive integer");
      return v;
    }
  return dflt;
}

static int has_flag(int argc, char **argv, const char *name) {
  for (int i = 1; i < argc; ++i)
    if (strcmp(argv[i], name) == 0)
      return 1;
  return 0;
}

/* The value cell i of rank r holds at step s: deterministic, so the halo a
   neighbour sends can be checked. */
static int64_t cell(int r, long i, long s) { return (r + 1) * 1000 + i + s; }

int main(int argc, char **argv) {
  const int multiple = has_flag(argc, argv, "--multiple");
  const int want = multiple ? MPI_THREAD_MULTIPLE : MPI_THREAD_FUNNELED;
  int provided;
  MPI_Init_thread(&argc, &argv, want, &provided);
  if (provided < want)
    return fail("the MPI library does not give the thread level asked for");
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long steps = arg_long(argc, argv, "--steps", 200);
  const long cells = arg_long(argc, argv, "--cells", 4096);
  const long regions = arg_long(argc, argv, "--regions", 8);
  const long die_rank = arg_long(argc, argv, "--die-rank", 0) - 1;
  const int nthreads = omp_get_max_threads();

  MPI_Comm *thread_comm = calloc((size_t)nthreads, sizeof(*thread_comm));
  int64_t *u = malloc((size_t)(cells + 2) * sizeof(*u));
  if (!thread_comm || !u)
    return fail("out of memory");
  if (multiple)
    for (int t = 0; t < nthreads; ++t)
      MPI_Comm_dup(MPI_COMM_WORLD, &thread_comm[t]);
  const int left = (rank + size - 1) % size, right = (rank + 1) % size;

  int64_t total = 0, expect_total = 0;
  int bad = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  for (long s = 0; s < steps; ++s) {
    if (rank == die_rank && s == steps / 2)
      raise(SIGKILL);
    /* The step's parameters, as rank 0 reads them. */
    int64_t params[4] = {0, 0, 0, 0};
    if (rank == 0)
      for (int k = 0; k < 4; ++k)
        params[k] = s * (k + 1);
    MPI_Bcast(params, 4, MPI_INT64_T, 0, MPI_COMM_WORLD);
    for (int k = 0; k < 4; ++k)
      if (params[k] != s * (k + 1))
        bad++;
    int64_t local = 0;
    for (long reg = 0; reg < regions; ++reg) {
      int64_t sum = 0;
#pragma omp parallel for reduction(+ : sum)
      for (long i = 1; i <= cells; ++i) {
        u[i] = cell(rank, i, s);
        sum += u[i] % 7 + reg;
      }
      local += sum;
    }
    /* One region with a barrier, a copyprivate and tasks in it. */
    int64_t from_single = 0, tasks_sum = 0;
#pragma omp parallel reduction(+ : tasks_sum)
    {
      int64_t mine;
#pragma omp single copyprivate(mine)
      mine = cell(rank, 1, s);
#pragma omp barrier
      if (mine != cell(rank, 1, s))
#pragma omp atomic
        bad++;
#pragma omp single
      for (int k = 0; k < 8; ++k) {
#pragma omp task shared(tasks_sum)
        {
#pragma omp atomic
          tasks_sum += k;
        }
      }
#pragma omp master
      from_single = mine;
      if (multiple) {
        int64_t one = 1, all = 0;
        MPI_Allreduce(&one, &all, 1, MPI_INT64_T, MPI_SUM,
                      thread_comm[omp_get_thread_num()]);
        if (all != size)
#pragma omp atomic
          bad++;
      }
    }
    /* tasks_sum was reduced over the team's threads; only its total (one
       28 per step: 0 + ... + 7 from one single) is fixed. */
    if (tasks_sum != 28 || from_single != cell(rank, 1, s))
      bad++;
    /* Halo exchange: my first cell goes left, my last goes right. */
    int64_t from_left, from_right;
    MPI_Sendrecv(&u[1], 1, MPI_INT64_T, left, 0, &from_right, 1, MPI_INT64_T,
                 right, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[cells], 1, MPI_INT64_T, right, 1, &from_left, 1,
                 MPI_INT64_T, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (from_right != cell(right, 1, s) || from_left != cell(left, cells, s))
      bad++;
    int64_t global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    total += global;
  }
  const double elapsed = MPI_Wtime() - t0;

  /* The closed form of total, summed the slow way without OpenMP. */
  for (long s = 0; s < steps; ++s)
    for (int r = 0; r < size; ++r)
      for (long reg = 0; reg < regions; ++reg)
        for (long i = 1; i <= cells; ++i)
          expect_total += cell(r, i, s) % 7 + reg;
  int all_bad = 0;
  MPI_Reduce(&bad, &all_bad, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  int rc = 0;
  if (rank == 0) {
    printf("ranks %d threads %d procs %d steps %ld checksum %lld\n", size,
           nthreads, omp_get_num_procs(), steps, (long long)total);
    if (total != expect_total) {
      printf("hybrid_step: checksum %lld, expected %lld\n", (long long)total,
             (long long)expect_total);
      rc = 1;
    }
    if (all_bad) {
      printf("hybrid_step: %d wrong values across the ranks\n", all_bad);
      rc = 1;
    }
    printf("elapsed %.4f\n", elapsed);
  }
  if (multiple)
    for (int t = 0; t < nthreads; ++t)
      MPI_Comm_free(&thread_comm[t]);
  free(u);
  free(thread_comm);
  MPI_Finalize();
  return rc;
}
