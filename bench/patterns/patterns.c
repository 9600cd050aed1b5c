/*
 * patterns.c -- small OpenMP programs that combine constructs the way
 * applications do, beyond syncbench's one construct in a loop: team sizes
 * that change from region to region, nested regions (active and
 * serialized), if(false) regions, tasks (one handed over from a thread
 * that keeps working) and taskloops, dynamic loops, a reduction site whose
 * size changes from call to call.
 * make bench runs it on stock and ext to look for a slower case there too.
 *
 * Each pattern repeats one step (usually a parallel region); blocks of
 * steps are doubled until one takes the test time, then five blocks are
 * timed and the median time per step is printed as CSV:
 *   pattern,threads,us_per_step
 * Every step's result is checked; a wrong one fails the run (exit 1).
 *
 * usage: patterns [--test-time MS] [--only NAME[,NAME...]] [--list]
 * The team size is OMP_NUM_THREADS (the default team).
 */
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TIMED_BLOCKS 5

/* One step of a pattern; returns 0 when its result is right. */
typedef int (*step_fn)(long step, int team);

/* Team size alternating between the team's and one less (at least 1). */
static int step_resize(long step, int team) {
  const int size = team > 1 && (step & 1) ? team - 1 : team;
  int count = 0;
#pragma omp parallel num_threads(size) reduction(+ : count)
  count += 1;
  return count != size;
}

/* Two active levels: the team, each thread starting a team of 2. */
static int step_nested_active(long step, int team) {
  (void)step;
  int count = 0;
#pragma omp parallel reduction(+ : count)
  {
#pragma omp parallel num_threads(2) reduction(+ : count)
    count += 1;
  }
  return count != 2 * team;
}

/* Inner regions of a team while one level may be active: serialized. */
static int step_nested_serialized(long step, int team) {
  (void)step;
  int count = 0;
#pragma omp parallel reduction(+ : count)
  {
    for (int i = 0; i < 8; i++) {
      int inner = 0;
#pragma omp parallel reduction(+ : inner)
      inner += 1;
      count += inner;
    }
  }
  return count != 8 * team;
}

/* Every other region if(false): a team of one, then the whole team. */
static int step_if_false(long step, int team) {
  int count = 0;
#pragma omp parallel if (step & 1) reduction(+ : count)
  count += 1;
  return count != ((step & 1) ? team : 1);
}

/* One thread creates tasks, waits for them; the others run them. */
static int step_tasks(long step, int team) {
  (void)step;
  (void)team;
  long done = 0;
#pragma omp parallel
#pragma omp single
  {
    for (int t = 0; t < 8; t++) {
#pragma omp task
      {
#pragma omp atomic
        done += t;
      }
    }
#pragma omp taskwait
  }
  return done != 28;
}

/* tid 0 hands one task to the team and waits for it in user code, with no
   task scheduling point, so that another thread must run it from the
   barrier where it waits: a producer that goes on working while the team
   takes its task (the waiters' polls for tasks decide how soon it starts).
   In a team of one the task runs at once. */
static long handoffs; /* steps so far; only the initial thread writes it */
static atomic_long handoff_ran; /* the step whose task ran last */
static int step_task_handoff(long step, int team) {
  (void)step;
  (void)team;
  const long mine = ++handoffs;
  int wrong = 0;
#pragma omp parallel reduction(+ : wrong)
  {
    if (omp_get_thread_num() == 0) {
#pragma omp task firstprivate(mine)
      /* release: tid 0's acquire load sees the task done */
      atomic_store_explicit(&handoff_ran, mine, memory_order_release);
      while (atomic_load_explicit(&handoff_ran, memory_order_acquire) != mine)
        ;
    }
#pragma omp barrier
    /* relaxed: the barrier ordered the task's store before this load */
    wrong += atomic_load_explicit(&handoff_ran, memory_order_relaxed) != mine;
  }
  return wrong != 0;
}

/* A taskloop in a single, the team running its tasks. */
static int step_taskloop(long step, int team) {
  (void)step;
  (void)team;
  long sum = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop grainsize(8) reduction(+ : sum)
  for (int i = 0; i < 64; i++)
    sum += i;
  return sum != 2016;
}

/* A short dynamically scheduled loop with a reduction. */
static int step_dynamic_loop(long step, int team) {
  (void)step;
  (void)team;
  long sum = 0;
#pragma omp parallel for schedule(dynamic, 4) reduction(+ : sum)
  for (int i = 0; i < 64; i++)
    sum += i;
  return sum != 2016;
}

/* Updates of one shared value under the runtime's global atomic lock, 64
   per thread: gcc takes it for an atomic update of a long double
   (GOMP_atomic_start), as for an array reduction's combine; clang makes
   such an update a libatomic call, so its build takes the lock through the
   runtime's own entry point, the lock libomp's locked atomics share. */
#ifdef __clang__
void __kmpc_atomic_start(void);
void __kmpc_atomic_end(void);
#endif
#define LOCKED_UPDATES 64
static int step_locked_updates(long step, int team) {
  (void)step;
  long double total = 0.0L;
#pragma omp parallel
  for (int i = 0; i < LOCKED_UPDATES; i++) {
#ifdef __clang__
    __kmpc_atomic_start();
    total += 1.0L;
    __kmpc_atomic_end();
#else
#pragma omp atomic
    total += 1.0L;
#endif
  }
  return total != (long double)LOCKED_UPDATES * team;
}

/* One array-section reduction site whose size changes from call to call:
   n = 1, 8, 64, 512, 4096 doubles in turn, inside one region. */
#define SECTION_MAX 4096
static double section[SECTION_MAX];
static void reduce_section(double *a, int n, int team) {
#pragma omp for reduction(+ : a[:n])
  for (int i = 0; i < team; i++)
    for (int j = 0; j < n; j++)
      a[j] += 1.0;
}
static int step_reduce_sizes(long step, int team) {
  (void)step;
  static const int sizes[] = {1, 8, 64, 512, SECTION_MAX};
  const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
  memset(section, 0, sizeof section);
#pragma omp parallel
  for (int k = 0; k < nsizes; k++)
    reduce_section(section, sizes[k], team);
  int bad = 0;
  for (int k = 0, from = 0; k < nsizes; from = sizes[k++])
    for (int j = from; j < sizes[k]; j++)
      bad |= section[j] != (double)(nsizes - k) * team;
  return bad;
}

static const struct pattern {
  const char *name;
  step_fn step;
  int active_levels; /* max-active-levels-var while it runs */
  const char *what;
} patterns[] = {
    {"resize", step_resize, 1, "team size alternating with one less"},
    {"nested-active", step_nested_active, 2,
     "two active levels, inner teams of 2"},
    {"nested-serialized", step_nested_serialized, 1,
     "8 serialized inner regions per thread"},
    {"if-false", step_if_false, 1, "every other region if(false)"},
    {"tasks", step_tasks, 1, "8 tasks from a single, then taskwait"},
    {"task-handoff", step_task_handoff, 1,
     "tid 0 hands a task over and waits for it in user code"},
    {"taskloop", step_taskloop, 1,
     "a taskloop of 64 iterations with a reduction"},
    {"dynamic-loop", step_dynamic_loop, 1,
     "parallel for, schedule(dynamic,4), 64 iterations, reduction"},
    {"locked-updates", step_locked_updates, 1,
     "64 updates per thread under the runtime's global atomic lock"},
    {"reduce-sizes", step_reduce_sizes, 1,
     "one a[:n] reduction site, n = 1, 8, 64, 512, 4096 doubles in turn"},
};
#define NPATTERNS (sizeof patterns / sizeof patterns[0])

/* Seconds for `steps` steps; counts wrong results into *errors. */
static double run_block(const struct pattern *p, long steps, int team,
                        long *errors) {
  const double start = omp_get_wtime();
  for (long s = 0; s < steps; s++)
    *errors += p->step(s, team);
  return omp_get_wtime() - start;
}

static int compare_doubles(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int selected(const char *only, const char *name) {
  if (!only)
    return 1;
  const size_t len = strlen(name);
  for (const char *s = only; (s = strstr(s, name)) != NULL; s += len)
    if ((s == only || s[-1] == ',') && (s[len] == '\0' || s[len] == ','))
      return 1;
  return 0;
}

static int usage(const char *argv0, int status) {
  fprintf(status ? stderr : stdout,
          "usage: %s [--test-time MS] [--only NAME[,NAME...]] [--list]\n",
          argv0);
  return status;
}

int main(int argc, char **argv) {
  double test_time_ms = 20.0;
  const char *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--test-time") == 0 && i + 1 < argc) {
      char *end;
      test_time_ms = strtod(argv[++i], &end);
      if (*end != '\0' || !(test_time_ms > 0.0) || test_time_ms > 60000.0) {
        fprintf(stderr, "patterns: --test-time takes milliseconds, 0 to 60000\n");
        return 2;
      }
    } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      only = argv[++i];
    } else if (strcmp(argv[i], "--list") == 0) {
      for (size_t p = 0; p < NPATTERNS; p++)
        printf("%s: %s\n", patterns[p].name, patterns[p].what);
      return 0;
    } else if (strcmp(argv[i], "--help") == 0) {
      return usage(argv[0], 0);
    } else {
      return usage(argv[0], 2);
    }
  }
  if (only) {
    /* Every name asked for must exist: a typo is not an empty run. */
    for (const char *name = only; *name;) {
      const size_t len = strcspn(name, ",");
      size_t p = 0;
      while (p < NPATTERNS && (strlen(patterns[p].name) != len ||
                               strncmp(patterns[p].name, name, len) != 0))
        p++;
      if (p == NPATTERNS) {
        fprintf(stderr, "patterns: no pattern named '%.*s' (see --list)\n",
                (int)len, name);
        return 2;
      }
      name += len + (name[len] == ',');
    }
  }

  const int team = omp_get_max_threads();
  long errors = 0;
  printf("pattern,threads,us_per_step\n");
  for (size_t p = 0; p < NPATTERNS; p++) {
    if (!selected(only, patterns[p].name))
      continue;
    omp_set_max_active_levels(patterns[p].active_levels);
    long steps = 1;
    while (run_block(&patterns[p], steps, team, &errors) * 1e3 < test_time_ms &&
           steps < (1L << 30))
      steps *= 2;
    double per_step[TIMED_BLOCKS];
    for (int b = 0; b < TIMED_BLOCKS; b++)
      per_step[b] = run_block(&patterns[p], steps, team, &errors) / steps;
    qsort(per_step, TIMED_BLOCKS, sizeof per_step[0], compare_doubles);
    printf("%s,%d,%.4f\n", patterns[p].name, team,
           per_step[TIMED_BLOCKS / 2] * 1e6);
    fflush(stdout);
  }
  if (errors) {
    fprintf(stderr, "patterns: %ld wrong results\n", errors);
    return 1;
  }
  return 0;
}
