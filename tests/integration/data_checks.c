/*
 * Data-carrying constructs on each runtime: every reduction operator on
 * int, long, float and double, array sections and a user-defined reduction;
 * copyprivate of 1 B to 4 MiB; taskwait and taskgroup; several root threads
 * running teams at once.  Inputs are chosen so that floating-point results
 * are exact in any combination order.
 */
#include "checks.h"

#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define N 4096

/* One function per type: + * - & | ^ && || max min (bitwise only for the
   integer types).  The product uses 1s and a few 2s, so it stays exact. */
#define INTEGER_REDUCTIONS(T, NAME)                                            \
  static void reduce_##NAME(void) {                                            \
    T sum = 0, prod = 1, diff = 0, band = ~(T)0, bor = 0, bxor = 0;            \
    T mx = (T)-1000, mn = (T)1000000;                                          \
    int land = 1, lor = 0;                                                     \
    /* _Pragma takes one string literal: keep it on one line */              \
    _Pragma("omp parallel for reduction(+ : sum) reduction(* : prod) reduction(- : diff) reduction(& : band) reduction(| : bor) reduction(^ : bxor) reduction(&& : land) reduction(|| : lor) reduction(max : mx) reduction(min : mn)") \
    for (int i = 0; i < N; ++i) {                                              \
      sum += (T)i;                                                             \
      prod *= (T)(i % 1024 == 0 ? 2 : 1);                                      \
      diff -= (T)1;                                                            \
      band &= (T)(i | 1);                                                      \
      bor |= (T)(1 << (i % 8));                                                \
      bxor ^= (T)i;                                                            \
      land = land && (i >= 0);                                                 \
      lor = lor || (i == N - 1);                                               \
      mx = (T)i > mx ? (T)i : mx;                                              \
      mn = (T)i < mn ? (T)i : mn;                                              \
    }                                                                          \
    T want_xor = 0;                                                            \
    for (int i = 0; i < N; ++i)                                                \
      want_xor ^= (T)i;                                                        \
    check(sum == (T)N * (N - 1) / 2, "reduction + " #NAME);                    \
    check(prod == 16, "reduction * " #NAME);                                   \
    check(diff == -(T)N, "reduction - " #NAME);                                \
    check(band == 1, "reduction & " #NAME);                                    \
    check(bor == 255, "reduction | " #NAME);                                   \
    check(bxor == want_xor, "reduction ^ " #NAME);                             \
    check(land == 1 && lor == 1, "reduction && || " #NAME);                    \
    check(mx == N - 1 && mn == 0, "reduction max min " #NAME);                 \
  }

#define FLOATING_REDUCTIONS(T, NAME)                                           \
  static void reduce_##NAME(void) {                                            \
    T sum = 0, prod = 1, diff = 0, mx = -1000, mn = 1000000;                   \
    _Pragma("omp parallel for reduction(+ : sum) reduction(* : prod) reduction(- : diff) reduction(max : mx) reduction(min : mn)") \
    for (int i = 0; i < N; ++i) {                                              \
      sum += (T)0.5;                                                           \
      prod *= (T)(i % 1024 == 0 ? 2 : 1);                                      \
      diff -= (T)0.25;                                                         \
      mx = (T)i > mx ? (T)i : mx;                                              \
      mn = (T)i < mn ? (T)i : mn;                                              \
    }                                                                          \
    check(sum == (T)N * 0.5, "reduction + " #NAME);                            \
    check(prod == 16, "reduction * " #NAME);                                   \
    check(diff == -(T)N * 0.25, "reduction - " #NAME);                         \
    check(mx == N - 1 && mn == 0, "reduction max min " #NAME);                 \
  }

INTEGER_REDUCTIONS(int, int)
INTEGER_REDUCTIONS(long, long)
FLOATING_REDUCTIONS(float, float)
FLOATING_REDUCTIONS(double, double)

typedef struct {
  long count;
  long total;
} tally_t;

#pragma omp declare reduction(merge : tally_t : omp_out.count += omp_in.count,  \
                              omp_out.total += omp_in.total)                   \
    initializer(omp_priv = (tally_t){0, 0})

void reduction_operators(void) {
  reduce_int();
  reduce_long();
  reduce_float();
  reduce_double();

  long hist[8] = {0};
  double weights[3] = {0, 0, 0};
#pragma omp parallel for reduction(+ : hist[:8], weights)
  for (int i = 0; i < N; ++i) {
    hist[i % 8] += 1;
    weights[i % 3] += 0.5;
  }
  int ok = 1;
  for (int b = 0; b < 8; ++b)
    ok &= hist[b] == N / 8;
  check(ok, "reduction of an array section");
  check(weights[0] + weights[1] + weights[2] == N * 0.5,
        "reduction of a whole array");

  tally_t tally = {0, 0};
#pragma omp parallel for reduction(merge : tally)
  for (int i = 0; i < N; ++i) {
    tally.count += 1;
    tally.total += i;
  }
  check(tally.count == N && tally.total == (long)N * (N - 1) / 2,
        "declare reduction");
}

/* copyprivate needs a complete array type: one function per size. */
#define COPYPRIVATE_OF(BYTES)                                                  \
  static int copyprivate_##BYTES(void) {                                       \
    int bad = 0;                                                               \
    _Pragma("omp parallel reduction(+ : bad)") {                               \
      static _Thread_local unsigned char payload[BYTES];                       \
      for (int round = 1; round <= 3; ++round) {                               \
        memset(payload, 0, sizeof(payload));                                   \
        _Pragma("omp single copyprivate(payload)") for (size_t i = 0;          \
                                                        i < sizeof(payload);   \
                                                        ++i) payload[i] =      \
            (unsigned char)(i * 7 + round);                                    \
        for (size_t i = 0; i < sizeof(payload); ++i)                           \
          bad += payload[i] != (unsigned char)(i * 7 + round);                 \
        _Pragma("omp barrier")                                                 \
      }                                                                        \
    }                                                                          \
    return bad;                                                                \
  }

COPYPRIVATE_OF(1)
COPYPRIVATE_OF(64)
COPYPRIVATE_OF(4096)
COPYPRIVATE_OF(65536)
COPYPRIVATE_OF(1048576)
COPYPRIVATE_OF(4194304)

/* Copyprivate after copyprivate with no barrier between: the closing barrier
   alone must keep the root's data alive until every copy is done (the root
   may win the next single at once and rewrite it), and no thread may leave
   it before every thread arrived. */
static int copyprivate_back_to_back(int rounds) {
  int bad = 0;
  long arrived = 0;
#pragma omp parallel reduction(+ : bad)
  {
    static _Thread_local unsigned char payload[16384];
    const long team = omp_get_num_threads();
    for (int round = 1; round <= rounds; ++round) {
#pragma omp atomic update
      ++arrived;
#pragma omp single copyprivate(payload)
      for (size_t i = 0; i < sizeof(payload); ++i)
        payload[i] = (unsigned char)(i * 13 + round);
      long seen;
#pragma omp atomic read
      seen = arrived;
      bad += seen < team * round;
      for (size_t i = 0; i < sizeof(payload); ++i)
        bad += payload[i] != (unsigned char)(i * 13 + round);
    }
  }
  return bad;
}

void copyprivate_sizes(void) {
  check(copyprivate_back_to_back(300) == 0,
        "copyprivate back to back: every copy whole, no thread early");
  check(copyprivate_1() == 0, "copyprivate 1 B");
  check(copyprivate_64() == 0, "copyprivate 64 B");
  check(copyprivate_4096() == 0, "copyprivate 4 KiB");
  check(copyprivate_65536() == 0, "copyprivate 64 KiB");
  check(copyprivate_1048576() == 0, "copyprivate 1 MiB");
  check(copyprivate_4194304() == 0, "copyprivate 4 MiB");
}

void task_synchronisation(void) {
  int done[32], bad = 0;
#pragma omp parallel reduction(+ : bad)
  {
#pragma omp single
    {
      for (int round = 1; round <= 20; ++round) {
        for (int i = 0; i < 32; ++i) {
#pragma omp task firstprivate(i, round) shared(done)
          {
#pragma omp atomic write
            done[i] = round;
          }
        }
#pragma omp taskwait
        for (int i = 0; i < 32; ++i) {
          int seen;
#pragma omp atomic read
          seen = done[i];
          bad += seen != round;
        }
#pragma omp taskgroup
        {
          for (int i = 0; i < 32; ++i) {
#pragma omp task firstprivate(i, round) shared(done)
            {
#pragma omp task firstprivate(i, round) shared(done)
              {
#pragma omp atomic write
                done[i] = -round;
              }
            }
          }
        }
        for (int i = 0; i < 32; ++i) {
          int seen;
#pragma omp atomic read
          seen = done[i];
          bad += seen != -round;
        }
      }
    }
  }
  check(bad == 0, "taskwait and taskgroup (nested tasks)");
}

/* Root threads of their own, each running teams of 2 at once: on a machine
   with few processors the runtime's thread count then crosses the processor
   count while teams live, and each team is re-prepared for what it finds
   (plan.h: oversubscribed teams take other parameters).  Every result must
   stay exact. */
#define ROOTS 3

int arrivals_wrong(int *arrived) {
#pragma omp atomic update
  *arrived += 1;
#pragma omp barrier
  int seen;
#pragma omp atomic read
  seen = *arrived;
  return seen != omp_get_num_threads();
}

static void *root_regions(void *arg) {
  long *bad = arg;
  for (int round = 1; round <= 200; ++round) {
    long sum = 0, team = 0;
    int shared_value = 0, wrong = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum, wrong)
    {
      int value;
#pragma omp master
      team = omp_get_num_threads();
      sum += omp_get_thread_num() + round;
#pragma omp barrier
#pragma omp single copyprivate(value)
      value = round * 7;
      wrong += value != round * 7;
      wrong += arrivals_wrong(&shared_value);
    }
    *bad += wrong != 0 || sum != team * round + team * (team - 1) / 2;
  }
  return NULL;
}

void several_roots(void) {
  pthread_t roots[ROOTS];
  long bad[ROOTS] = {0};
  int started = 0;
  for (int r = 0; r < ROOTS; ++r)
    started += pthread_create(&roots[r], NULL, root_regions, &bad[r]) == 0;
  check(started == ROOTS, "several roots: threads started");
  long total = 0;
  for (int r = 0; r < started; ++r) {
    pthread_join(roots[r], NULL);
    total += bad[r];
  }
  check(total == 0, "several roots running teams at once: results exact");
}
