/*
 * ompext_bcast in OpenMP programs (built by clang and by gcc, run on stock
 * libomp, libgomp and omp-ext): every thread's buffer ends equal to the
 * root's, for private and shared buffers, sizes 0 B to 1 MiB, roots first,
 * last and middle, consecutive calls with changing roots and sizes; nested
 * teams; tasks running while threads wait in the broadcast; a team of one
 * and a call outside any region.  With --bad: the bad calls of ompext/bcast.h
 * (root outside, NULL buffer, disagreement on bytes or root) must return
 * nonzero on every thread and copy nothing.  Exit status 0 when all hold;
 * OMP_NUM_THREADS, OMP_WAIT_POLICY and the runtime come from the caller.
 */
#include "ompext/bcast.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

static void fail(const char *what, int a, int b) {
#pragma omp critical
  {
    if (failures++ < 10)
      fprintf(stderr, "FAIL: %s (%d, %d)\n", what, a, b);
  }
}

static unsigned char pattern(size_t i, int round) {
  return (unsigned char)(i * 131u + (unsigned)round * 7u + 1u);
}

static const size_t sizes[] = {0,    1,     63,     64,      65,    4095,
                               4096, 12289, 65536,  262145, 1 << 20};
enum { NSIZES = sizeof(sizes) / sizeof(sizes[0]) };

/* Private buffers: each round a new root and size. */
static void private_rounds(int rounds) {
#pragma omp parallel
  {
    const int n = omp_get_num_threads(), tid = omp_get_thread_num();
    unsigned char *buf = malloc((size_t)1 << 20);
    for (int r = 0; r < rounds; ++r) {
      const size_t bytes = sizes[r % NSIZES];
      const int root = r % 3 == 0 ? 0 : r % 3 == 1 ? n - 1 : n / 2;
      for (size_t i = 0; i < bytes; ++i)
        buf[i] = tid == root ? pattern(i, r) : 0xee;
      const int rc = ompext_bcast(buf, bytes, root);
      if (rc != 0)
        fail("private: nonzero return", r, rc);
      for (size_t i = 0; i < bytes; ++i)
        if (buf[i] != pattern(i, r)) {
          fail("private: wrong byte (round, tid)", r, tid);
          break;
        }
    }
    free(buf);
  }
}

/* One shared buffer: nothing copied onto itself, the root's bytes stay. */
static void shared_rounds(int rounds) {
  static unsigned char shared[65536];
#pragma omp parallel
  {
    const int n = omp_get_num_threads(), tid = omp_get_thread_num();
    for (int r = 0; r < rounds; ++r) {
      const int root = (r * 5) % n;
      if (tid == root)
        for (size_t i = 0; i < sizeof(shared); ++i)
          shared[i] = pattern(i, r);
      if (ompext_bcast(shared, sizeof(shared), root) != 0)
        fail("shared: nonzero return", r, tid);
      if (shared[r % sizeof(shared)] != pattern(r % sizeof(shared), r))
        fail("shared: wrong byte", r, tid);
#pragma omp barrier
    }
  }
}

/* Nested teams: each inner team broadcasts its own value. */
static void nested(void) {
  omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2)
  {
    const int outer = omp_get_thread_num();
#pragma omp parallel num_threads(3)
    {
      const int tid = omp_get_thread_num();
      for (int r = 0; r < 20; ++r) {
        long v[100];
        const int root = r % omp_get_num_threads();
        for (int i = 0; i < 100; ++i)
          v[i] = tid == root ? outer * 100000 + r * 100 + i : -1;
        if (ompext_bcast(v, sizeof(v), root) != 0)
          fail("nested: nonzero return", outer, tid);
        for (int i = 0; i < 100; ++i)
          if (v[i] != outer * 100000 + r * 100 + i) {
            fail("nested: wrong value (outer, tid)", outer, tid);
            break;
          }
      }
    }
  }
}

/* Tasks: thread 0 creates tasks, then everyone broadcasts; waiting
   threads may run them, and every task runs. */
static void tasks(void) {
  int done = 0;
#pragma omp parallel
  {
    for (int r = 0; r < 20; ++r) {
      if (omp_get_thread_num() == 0)
        for (int t = 0; t < 8; ++t) {
#pragma omp task shared(done)
          {
#pragma omp atomic
            ++done;
          }
        }
      int v[32];
      for (int i = 0; i < 32; ++i)
        v[i] = omp_get_thread_num() == 1 % omp_get_num_threads() ? r + i : -1;
      if (ompext_bcast(v, sizeof(v), 1 % omp_get_num_threads()) != 0 ||
          v[31] != r + 31)
        fail("tasks: wrong value", r, omp_get_thread_num());
    }
  }
  if (done != 20 * 8)
    fail("tasks: tasks lost", done, 160);
}

static void alone(void) {
  int v = 7;
  if (ompext_bcast(&v, sizeof(v), 0) != 0 || v != 7)
    fail("outside a region", v, 0);
#pragma omp parallel num_threads(1)
  if (ompext_bcast(&v, sizeof(v), 0) != 0)
    fail("team of one", v, 0);
}

/* Bad calls: every thread gets nonzero, no buffer changes. */
static void bad(void) {
  for (int kind = 0; kind < 4; ++kind) {
#pragma omp parallel
    {
      const int n = omp_get_num_threads(), tid = omp_get_thread_num();
      unsigned char buf[128];
      memset(buf, tid == 0 ? 0x11 : 0x22, sizeof(buf));
      int rc = 0;
      switch (kind) {
      case 0: /* root outside the team */
        rc = ompext_bcast(buf, sizeof(buf), n);
        break;
      case 1: /* a NULL buffer on the last thread */
        rc = ompext_bcast(tid == n - 1 ? NULL : buf, sizeof(buf), 0);
        break;
      case 2: /* the last thread asks for fewer bytes */
        rc = ompext_bcast(buf, tid == n - 1 ? 64 : sizeof(buf), 0);
        break;
      default: /* the last thread names another root */
        rc = ompext_bcast(buf, sizeof(buf), tid == n - 1 ? 1 % n : 0);
        break;
      }
      const int expect_error = n > 1 || kind < 2;
      if (expect_error && rc == 0)
        fail("bad call returned 0 (kind, tid)", kind, tid);
      for (size_t i = 0; i < sizeof(buf); ++i)
        if (buf[i] != (tid == 0 ? 0x11 : 0x22)) {
          fail("bad call copied (kind, tid)", kind, tid);
          break;
        }
      /* The team still works afterwards. */
      int v = tid == 0 ? 42 : 0;
      if (ompext_bcast(&v, sizeof(v), 0) != 0 || v != 42)
        fail("good call after a bad one", kind, tid);
    }
  }
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--bad") == 0) {
    bad();
  } else {
    const int rounds = argc > 1 ? atoi(argv[1]) : 60;
    alone();
    private_rounds(rounds);
    shared_rounds(rounds / 2);
    nested();
    tasks();
    /* Again, now that the team's layout may be built (a topology of
       several packages: the leaders relay). */
    private_rounds(rounds / 2);
  }
  if (failures) {
    fprintf(stderr, "%d failures\n", failures);
    return 1;
  }
  printf("ok\n");
  return 0;
}
