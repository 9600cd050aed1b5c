/*
 * OpenMP correctness checks run on each runtime (stock, ext, ext with
 * OMPEXT=off, a bogus or mismatched plugin), compiled by clang (libomp ABI)
 * and by gcc (GOMP ABI).  Besides the results it checks, from inside the
 * process, which runtime paths ran:
 *   --expect-plugin=yes|no|loaded
 *                            libompext.so loaded (yes: and its barrier and
 *                            broadcast counters moved; needs OMPEXT_STATS=1)
 *   --expect-reductions      the plugin's reduction gather ran too
 *   --expect-domains[=no]    its barrier and broadcast (and with
 *                            --expect-reductions its gather) also ran with
 *                            one leader per domain (no: none of them did)
 *   --expect-rooted-closes[=no]
 *                            some copyprivate was closed by a barrier rooted
 *                            at its root (no: none was)
 *   --expect-copyprivate-stock
 *                            the plugin declined copyprivate (OMPEXT_BCAST=
 *                            stock): its barriers are stock's, none of them
 *                            the plugin's, also with tasks that start nested
 *                            teams inside them; plain barriers after it are
 *                            the plugin's again (needs OMPEXT_STATS=1)
 *   --expect-stock-barriers  when the team (OMP_NUM_THREADS, 3 to 5 under
 *                            OMPEXT_BARRIER=auto) outnumbers the processors,
 *                            the plugin hands its plain barriers back to the
 *                            runtime's own, none with one leader per domain
 *                            (needs OMPEXT_STATS=1)
 *   --expect-task-barriers-stock
 *                            after a plain barrier of the plugin's that found
 *                            tasks, the team's next ones are the runtime's
 *                            own: the plugin runs fewer than all barriers of
 *                            a region whose every other barrier has tasks,
 *                            and again the barriers of a later region
 *                            without tasks (needs OMPEXT_STATS=1)
 *   --expect-replan          a settled team of 2 gets a new context when a
 *                            second root takes the process past the
 *                            processor count, and again once it is gone
 *                            (needs OMPEXT_STATS=1 and 2 processors or more)
 *   --expect-warnings=N      exactly N "omp-ext: warning" lines on stderr
 *   --expect-stderr=TEXT     TEXT appears on stderr (up to 8 of them)
 *   --rounds=N               repetitions of the barrier phase check
 *   --no-tasks               skip the checks built on explicit tasks (the
 *                            Archer case: Archer reports races among tasks
 *                            on stock too, a different set in each run)
 * stderr is captured from before main (clang may enter the runtime on entry
 * to main) and echoed at the end.
 */
#define _GNU_SOURCE
#include "checks.h"
#include "probe.h"

#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_THREADS 256

static int failures;

void check(int ok, const char *what) {
  if (!ok) {
    ++failures;
    printf("FAIL: %s\n", what);
  }
}

/* Every thread writes its phase, passes the barrier, and must then see
   every other thread's write of the same phase. */
static void barrier_phases(int rounds) {
  static int phase[MAX_THREADS];
  int bad = 0;
#pragma omp parallel reduction(+ : bad)
  {
    int me = omp_get_thread_num(), n = omp_get_num_threads();
    for (int r = 1; r <= rounds; ++r) {
#pragma omp atomic write
      phase[me] = r;
#pragma omp barrier
      for (int t = 0; t < n; ++t) {
        int seen;
#pragma omp atomic read
        seen = phase[t];
        bad += seen != r;
      }
#pragma omp barrier
    }
  }
  check(bad == 0, "barrier phases: a thread left a barrier early");
}

static void reductions(void) {
  long isum = 0;
  double dsum = 0.0;
  int imax = -1;
#pragma omp parallel for reduction(+ : isum, dsum) reduction(max : imax)
  for (int i = 0; i < 100000; ++i) {
    isum += i;
    dsum += 0.5;
    imax = i > imax ? i : imax;
  }
  check(isum == 4999950000L, "reduction + long");
  check(dsum == 50000.0, "reduction + double");
  check(imax == 99999, "reduction max int");

  long nowait_sum = 0, blocking_sum = 0;
#pragma omp parallel
  {
#pragma omp for reduction(+ : nowait_sum) nowait
    for (int i = 1; i <= 1000; ++i)
      nowait_sum += i;
#pragma omp for reduction(+ : blocking_sum)
    for (int i = 1; i <= 2000; ++i)
      blocking_sum += i;
  }
  check(nowait_sum == 500500, "reduction nowait");
  check(blocking_sum == 2001000, "reduction blocking");
}

/* Array reductions of several sizes, each call site repeated: the plugin
   starts a site on the tree, measures the size and switches the site's
   method while the team runs (reduce_choice.c), so every thread must take
   the same method at the same reduction, blocking and nowait, in one
   region and across regions.  A thread that took another method would
   hang the team or lose an addition. */
#define ARRAY_EPISODES 24
static void array_reductions_one(int length, double *blocking, double *nowait,
                                 double *across) {
#pragma omp parallel
  for (int e = 0; e < ARRAY_EPISODES; ++e) {
#pragma omp for reduction(+ : blocking[:length])
    for (int i = 0; i < 64; ++i)
      for (int k = 0; k < length; ++k)
        blocking[k] += 1.0;
#pragma omp for reduction(+ : nowait[:length]) nowait
    for (int i = 0; i < 64; ++i)
      for (int k = 0; k < length; ++k)
        nowait[k] += 2.0;
  }
  for (int e = 0; e < ARRAY_EPISODES; ++e) {
#pragma omp parallel reduction(+ : across[:length])
    for (int k = 0; k < length; ++k)
      across[k] += 1.0;
  }
}

static void __attribute__((unused)) array_reductions(void) {
  static const int lengths[] = {1, 64, 512, 8192};
  for (size_t l = 0; l < sizeof(lengths) / sizeof(lengths[0]); ++l) {
    const int length = lengths[l];
    double *blocking = calloc((size_t)length, sizeof(double));
    double *nowait = calloc((size_t)length, sizeof(double));
    double *across = calloc((size_t)length, sizeof(double));
    if (!blocking || !nowait || !across) {
      check(0, "array reductions: out of memory");
      return;
    }
    int nthreads = 1;
#pragma omp parallel
#pragma omp single
    nthreads = omp_get_num_threads();
    array_reductions_one(length, blocking, nowait, across);
    int bad = 0;
    for (int k = 0; k < length; ++k)
      bad += blocking[k] != 64.0 * ARRAY_EPISODES ||
             nowait[k] != 128.0 * ARRAY_EPISODES ||
             across[k] != (double)nthreads * ARRAY_EPISODES;
    char what[64];
    snprintf(what, sizeof(what), "array reductions of %d doubles", length);
    check(bad == 0, what);
    free(blocking);
    free(nowait);
    free(across);
  }
}

static void copyprivates(void) {
  int bad = 0;
#pragma omp parallel reduction(+ : bad)
  {
    for (int round = 0; round < 200; ++round) {
      double value = -1.0;
      int tag = -1;
      char text[64];
      memset(text, 0, sizeof(text));
#pragma omp single copyprivate(value, tag, text)
      {
        value = 0.25 * round;
        tag = round;
        snprintf(text, sizeof(text), "round %d", round);
      }
      char expect[64];
      memset(expect, 0, sizeof(expect));
      snprintf(expect, sizeof(expect), "round %d", round);
      bad += value != 0.25 * round || tag != round ||
             memcmp(text, expect, sizeof(text)) != 0;
    }
  }
  check(bad == 0, "copyprivate of several variables");
}

/* Plain barriers the plugin ran itself, not handed back after tasks. */
static uint64_t own_barriers(const ompext_stats_t *s) {
  return s->plain_barriers - s->stock_barriers_after_tasks;
}

/* Every other barrier has tasks.  With stepping_aside, a barrier of the
   plugin's that found tasks hands the team's next ones to the runtime's own
   (plugin.c), so the plugin runs fewer than the 100 barriers of each
   thread; then a region of 100 barriers without tasks has at most
   OMPEXT_STOCK_BARRIERS_AFTER_TASKS more on the runtime's, and the rest on
   the plugin's. */
static void tasks_before_barrier(int stepping_aside) {
  ompext_stats_t before, after, later;
  int loaded = probe_plugin_stats(&before);
  int done[64] = {0};
  int bad = 0, team = 1;
#pragma omp parallel reduction(+ : bad)
  {
    if (omp_get_thread_num() == 0) /* read after the region's end */
      team = omp_get_num_threads();
    for (int round = 1; round <= 50; ++round) {
#pragma omp single nowait
      for (int i = 0; i < 64; ++i) {
#pragma omp task firstprivate(i, round) shared(done)
        {
#pragma omp atomic write
          done[i] = round;
        }
      }
#pragma omp barrier
      for (int i = 0; i < 64; ++i) {
        int seen;
#pragma omp atomic read
        seen = done[i];
        bad += seen != round;
      }
#pragma omp barrier
    }
  }
  check(bad == 0, "tasks created before a barrier complete after it");
  if (!stepping_aside)
    return;
  loaded = loaded && probe_plugin_stats(&after);
#pragma omp parallel
  for (int round = 0; round < 100; ++round) {
#pragma omp barrier
  }
  loaded = loaded && probe_plugin_stats(&later);
  check(loaded && before.counting &&
            after.stock_barriers_after_tasks >
                before.stock_barriers_after_tasks &&
            own_barriers(&after) - own_barriers(&before) <
                (uint64_t)team * 100,
        "plain barriers after one that found tasks: the runtime's own");
  check(loaded && own_barriers(&later) - own_barriers(&after) >=
                      (uint64_t)team * (100 - OMPEXT_STOCK_BARRIERS_AFTER_TASKS),
        "plain barriers without tasks: the plugin's again");
}

/* Barriers with tasks in a team, then in a nested team that only thread 0
   of it starts, then the outer team's barriers again: each team counts the
   barriers it hands back after tasks on its own, so thread 0 and the others
   agree on whose barrier the outer one is (a count kept per runtime thread,
   keyed by its team, hung here: the nested team's overwrote thread 0's). */
static void nested_task_barriers(void) {
  int outer_done[2] = {0, 0};
  int bad = 0;
  omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2) reduction(+ : bad)
  {
    const int me = omp_get_thread_num();
    for (int round = 1; round <= 40; ++round) {
#pragma omp task firstprivate(me, round) shared(outer_done)
      {
#pragma omp atomic write
        outer_done[me] = round;
      }
#pragma omp barrier
      int seen;
#pragma omp atomic read
      seen = outer_done[me];
      bad += seen != round;
      if (me == 0 && round % 2) {
        int inner_done = 0;
#pragma omp parallel num_threads(2) shared(inner_done) reduction(+ : bad)
        {
#pragma omp single nowait
          {
#pragma omp task shared(inner_done)
            {
#pragma omp atomic
              inner_done += 1;
            }
          }
#pragma omp barrier
          int inner_seen;
#pragma omp atomic read
          inner_seen = inner_done;
          bad += inner_seen != 1;
#pragma omp barrier
        }
      }
#pragma omp barrier
    }
  }
  omp_set_max_active_levels(1);
  check(bad == 0, "barriers after tasks, with a nested team's in between");
}

static void changing_team_sizes(void) {
  int bad = 0;
  for (int n = 1; n <= 5; ++n) {
    int seen = 0;
#pragma omp parallel num_threads(n) reduction(+ : seen)
    {
      seen = 1;
#pragma omp barrier
    }
    bad += seen != n;
  }
  check(bad == 0, "num_threads changing every region");
}

static void nested_regions(void) {
  int inner_total = 0;
  omp_set_max_active_levels(2);
#pragma omp parallel num_threads(2) reduction(+ : inner_total)
  {
#pragma omp parallel num_threads(2) reduction(+ : inner_total)
    {
      inner_total += 1;
#pragma omp barrier
    }
  }
  omp_set_max_active_levels(1);
  check(inner_total == 4, "nested parallel regions");
}

/* Serialized regions one after another (if(0), and the inner regions of a
   team while only one level may be active), each running worksharing loops
   whose state lives in the serial team's dispatch buffer: dynamic, guided,
   64-bit, nowait and ordered loops, and a nested serialized level.  With the
   plugin the outermost level keeps its buffer from region to region (patch
   0007), which each loop must find as fresh as a new one.  The team of
   each region is one thread, so the loops need no reduction.  A copyprivate
   there is done by the plugin where the runtime's barrier would have nothing
   to do (no tool listening, no task team); tests/ompt runs these checks
   under a tool, whose sync regions must be stock's. */
static int serialized_copyprivate(int round) {
  int tag = -1;
  double block[512];
#pragma omp single copyprivate(tag, block)
  {
    tag = round;
    for (int i = 0; i < 512; ++i)
      block[i] = round + i;
  }
  int ok = tag == round;
  for (int i = 0; i < 512; ++i)
    ok &= block[i] == round + i;
  return ok;
}

static int serialized_loops(int n) {
  long sum = 0;
  int ordered_next = 0, ordered_bad = 0;
#pragma omp for schedule(dynamic, 3)
  for (int i = 0; i < n; ++i)
    sum += i;
#pragma omp for schedule(guided) nowait
  for (long long i = 0; i < n; ++i)
    sum += i;
#pragma omp for ordered schedule(dynamic, 2)
  for (int i = 0; i < n; ++i) {
#pragma omp ordered
    {
      ordered_bad += i != ordered_next;
      ordered_next = i + 1;
    }
  }
  int copied = serialized_copyprivate(n);
#pragma omp parallel if (0)
  {
#pragma omp for schedule(dynamic)
    for (int i = 0; i < n; ++i)
      sum += i;
    copied &= serialized_copyprivate(-n);
  }
  return sum == 3L * n * (n - 1) / 2 && !ordered_bad && ordered_next == n &&
         copied;
}

static void serialized_regions(void) {
  int bad = 0, inner_bad = 0;
  for (int round = 0; round < 300; ++round) {
    int ok = 0;
#pragma omp parallel if (0)
    ok = serialized_loops(40 + round % 17);
    bad += !ok;
  }
  check(bad == 0, "serialized regions: loops, copyprivate, one after another");
#pragma omp parallel num_threads(2) reduction(+ : inner_bad)
  for (int round = 0; round < 300; ++round) {
    int ok = 0;
#pragma omp parallel num_threads(2)
    ok = omp_get_num_threads() == 1 && serialized_loops(40 + round % 17);
    inner_bad += !ok;
  }
  check(inner_bad == 0,
        "serialized inner regions of a team: loops, copyprivate");
}

/* A copyprivate the plugin declined is stock's, barriers included (the
   runtime's own and the one the compiler emits after the copy): the
   plugin's counters of plain barriers and broadcasts do not move during a
   region of copyprivates, and do again for explicit barriers after it.
   Then tasks created before each copyprivate, which may run inside its
   stock barriers, start nested teams of 2 with barriers of their own: those
   are the plugin's for every member of the nested team, or it would hang. */
static void copyprivate_declined(void) {
  ompext_stats_t before, during, after;
  int loaded = probe_plugin_stats(&before);
  int bad = 0;
#pragma omp parallel reduction(+ : bad)
  for (int round = 0; round < 100; ++round) {
    int tag = -1;
#pragma omp single copyprivate(tag)
    tag = round;
    bad += tag != round;
  }
  loaded = loaded && probe_plugin_stats(&during);
#pragma omp parallel
  for (int round = 0; round < 10; ++round) {
#pragma omp barrier
  }
  loaded = loaded && probe_plugin_stats(&after);
  check(loaded && before.counting, "plugin counting (OMPEXT_STATS=1)");
  check(bad == 0, "declined copyprivate: values");
  check(loaded && during.plain_barriers == before.plain_barriers &&
            during.broadcasts == before.broadcasts,
        "declined copyprivate: no barrier or broadcast of the plugin's");
  check(loaded && after.plain_barriers > during.plain_barriers,
        "plain barriers after a declined copyprivate: the plugin's");

  int nested_sum = 0, nested_bad = 0;
  omp_set_max_active_levels(2);
#pragma omp parallel reduction(+ : nested_bad)
  for (int round = 0; round < 20; ++round) {
    for (int t = 0; t < 2; ++t) {
#pragma omp task shared(nested_sum)
      {
        int inner = 0;
#pragma omp parallel num_threads(2) reduction(+ : inner)
        {
          inner += 1;
#pragma omp barrier
          inner += 1;
        }
#pragma omp atomic
        nested_sum += inner;
      }
    }
    int tag = -1;
#pragma omp single copyprivate(tag)
    tag = round;
    nested_bad += tag != round;
  }
  omp_set_max_active_levels(1);
  check(nested_bad == 0 &&
            nested_sum == 20 * 2 * 4 * omp_get_max_threads(),
        "declined copyprivate with tasks starting nested teams");
}

/* The processors the process may run on, read before the runtime binds
   the initial thread (as the runtime counts them for oversubscription). */
static int processors;

/* Before main: clang may call into the runtime on entry to main. */
__attribute__((constructor)) static void capture_early(void) {
  probe_capture_stderr();
  cpu_set_t set;
  processors = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set)
                                                            : 0;
}

/* A master region between two barriers: everyone sees its write. */
static void master_regions(void) {
  int value = 0, bad = 0;
#pragma omp parallel reduction(+ : bad)
  {
    for (int r = 1; r <= 200; ++r) {
#pragma omp master
      value = r;
#pragma omp barrier
      bad += value != r;
#pragma omp barrier
    }
  }
  check(bad == 0, "master region seen by all after a barrier");
}

/* With OMP_CANCELLATION=true a cancelled loop stops early; without, the
   cancel directive is ignored.  Barriers around it keep working. */
static void cancellation(void) {
  int count = 0, after = 0, team = 0;
#pragma omp parallel
  {
#pragma omp master
    team = omp_get_num_threads();
#pragma omp for
    for (int i = 0; i < 100000; ++i) {
#pragma omp atomic
      count++;
      if (i == 10) {
#pragma omp cancel for
      }
#pragma omp cancellation point for
    }
#pragma omp barrier
#pragma omp atomic
    after++;
  }
  check(after == team, "every thread passes the barrier after a cancel");
  if (omp_get_cancellation())
    check(count < 100000, "cancelled loop stopped early");
  else
    check(count == 100000, "cancel ignored when cancellation is off");
}

/* A settled context (ompext_ops_t.team_prepare) is not asked again at its
   team's forks while the team's size, its oversubscription and the wait
   policy stay.  A second root whose team takes the runtime's thread count
   past the processors must still give the first root's hot team of 2 a new
   context at its next fork (an oversubscribed team takes other parameters),
   and its end must give it one again. */
static atomic_int second_root_state; /* 1: its team runs; 2: may finish */

static void *second_root(void *arg) {
  const int width = *(const int *)arg;
#pragma omp parallel num_threads(width)
  {
#pragma omp master
    atomic_store(&second_root_state, 1); /* seq_cst: a test flag */
    while (atomic_load(&second_root_state) != 2)
      sched_yield();
  }
  return NULL;
}

static unsigned long long teams_prepared(void) {
  ompext_stats_t stats;
  return probe_plugin_stats(&stats) ? stats.teams_prepared : 0;
}

/* One region of the first root's team of 2 with a barrier in it. */
static int region_of_two(void) {
  int arrived = 0, wrong = 0;
#pragma omp parallel num_threads(2) reduction(+ : wrong)
  wrong += arrivals_wrong(&arrived);
  return wrong;
}

static void replan_when_crossing(void) {
  check(processors >= 2, "replan check: at least 2 processors to run on");
  if (processors < 2)
    return;
  int wrong = 0;
  for (int i = 0; i < 50; ++i)
    wrong += region_of_two();
  const unsigned long long settled = teams_prepared();
  pthread_t root;
  atomic_store(&second_root_state, 0);
  int started = pthread_create(&root, NULL, second_root, &processors) == 0;
  check(started, "replan check: second root started");
  if (!started)
    return;
  while (atomic_load(&second_root_state) != 1)
    sched_yield();
  const unsigned long long crossing = teams_prepared();
  wrong += region_of_two();
  const unsigned long long crossed = teams_prepared();
  atomic_store(&second_root_state, 2);
  pthread_join(root, NULL);
  wrong += region_of_two();
  const unsigned long long back = teams_prepared();
  printf("replan: teams prepared %llu settled, %llu with the second root, "
         "%llu after crossing, %llu back\n",
         settled, crossing, crossed, back);
  check(settled > 0, "replan check: teams prepared counted (OMPEXT_STATS=1)");
  check(crossed == crossing + 1,
        "a settled team got a new context once the process outnumbered "
        "the processors");
  check(back == crossed + 1,
        "and another once the process fit the processors again");
  check(wrong == 0, "replan check: barrier results");
}

int main(int argc, char **argv) {
  const char *expect_plugin = NULL, *expect_stderr[8];
  int nexpect_stderr = 0;
  int expect_warnings = -1, expect_reductions = 0, expect_domains = 0;
  int expect_rooted_closes = 0, expect_replan = 0, expect_cp_stock = 0;
  int expect_stock_barriers = 0, expect_atomic_lock = 1;
  int expect_task_barriers_stock = 0;
  int rounds = 2000, tasks = 1;
  for (int i = 1; i < argc; ++i) {
    if (strncmp(argv[i], "--expect-plugin=", 16) == 0)
      expect_plugin = argv[i] + 16;
    else if (strncmp(argv[i], "--expect-warnings=", 18) == 0)
      expect_warnings = atoi(argv[i] + 18);
    else if (strncmp(argv[i], "--expect-stderr=", 16) == 0)
      expect_stderr[nexpect_stderr < 8 ? nexpect_stderr++ : 7] = argv[i] + 16;
    else if (strcmp(argv[i], "--expect-reductions") == 0)
      expect_reductions = 1;
    else if (strcmp(argv[i], "--expect-domains") == 0)
      expect_domains = 1;
    else if (strcmp(argv[i], "--expect-domains=no") == 0)
      expect_domains = -1;
    else if (strcmp(argv[i], "--expect-stock-barriers") == 0)
      expect_stock_barriers = 1;
    else if (strcmp(argv[i], "--expect-atomic-lock=no") == 0)
      expect_atomic_lock = 0;
    else if (strcmp(argv[i], "--expect-replan") == 0)
      expect_replan = 1;
    else if (strcmp(argv[i], "--expect-copyprivate-stock") == 0)
      expect_cp_stock = 1;
    else if (strcmp(argv[i], "--expect-rooted-closes") == 0)
      expect_rooted_closes = 1;
    else if (strcmp(argv[i], "--expect-rooted-closes=no") == 0)
      expect_rooted_closes = -1;
    else if (strncmp(argv[i], "--rounds=", 9) == 0)
      rounds = atoi(argv[i] + 9);
    else if (strcmp(argv[i], "--no-tasks") == 0)
      tasks = 0;
    else if (strcmp(argv[i], "--expect-task-barriers-stock") == 0)
      expect_task_barriers_stock = 1;
    else {
      fprintf(stderr, "omp_checks: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  barrier_phases(rounds);
  reductions();
#ifdef __clang__
  /* The gcc 12 build of these array-section reductions crashes in its
     outlined function on stock libomp (LLVM 19.1.7) as well: a limit of
     libomp's GOMP layer, not of the plugin, whose reduction methods gcc's
     reductions never reach. */
  array_reductions();
#endif
  copyprivates();
  if (expect_cp_stock)
    copyprivate_declined();
  if (tasks) {
    tasks_before_barrier(expect_task_barriers_stock);
    nested_task_barriers();
  }
  changing_team_sizes();
  nested_regions();
  serialized_regions();
  master_regions();
  cancellation();
  reduction_operators();
  copyprivate_sizes();
  if (tasks)
    task_synchronisation();
  several_roots();
  atomic_lock_exclusion();
  if (expect_replan)
    replan_when_crossing();

  ompext_stats_t stats;
  int loaded = probe_plugin_stats(&stats);
  const char *err = probe_captured_stderr();
  /* The team outnumbers the processors: under auto its barriers go back. */
  const int handed_back =
      expect_stock_barriers && processors > 0 &&
      omp_get_max_threads() > processors;
  if (handed_back)
    check(loaded && stats.counting && stats.stock_barriers > 0,
          "plain barriers handed back to the runtime's own");
  if (expect_plugin && strcmp(expect_plugin, "yes") == 0) {
    check(loaded, "plugin loaded");
    check(loaded && stats.counting, "plugin counting (OMPEXT_STATS=1)");
    check(loaded && stats.plain_barriers > 0, "plain barrier via plugin");
    check(loaded && stats.broadcasts > 0, "copyprivate via plugin");
    check(loaded && (stats.atomic_locks > 0) == expect_atomic_lock,
          expect_atomic_lock ? "global atomic lock via plugin"
                             : "global atomic lock stock's");
    if (expect_reductions)
      check(loaded && stats.reductions > 0, "reduction via plugin");
    if (expect_domains < 0)
      check(loaded && stats.domain_barriers + stats.domain_reductions +
                              stats.domain_broadcasts ==
                          0,
            "no collective with one leader per domain");
    if (expect_domains > 0 && handed_back)
      check(loaded && stats.domain_barriers == 0,
            "no barrier with one leader per domain: handed back");
    else if (expect_domains > 0)
      check(loaded && stats.domain_barriers > 0,
            "barrier with one leader per domain");
    if (expect_domains > 0) {
      check(loaded && stats.domain_broadcasts > 0,
            "broadcast with one leader per domain");
      if (expect_reductions)
        check(loaded && stats.domain_reductions > 0,
              "reduction with one leader per domain");
    }
  } else if (expect_plugin && strcmp(expect_plugin, "loaded") == 0) {
    check(loaded, "plugin loaded");
  } else if (expect_plugin) {
    check(!loaded, "plugin not loaded");
  }
  if (expect_rooted_closes)
    check(loaded && stats.counting &&
              (stats.rooted_closes > 0) == (expect_rooted_closes > 0),
          expect_rooted_closes > 0 ? "copyprivate closed rooted at its root"
                                   : "no copyprivate closed rooted");
  if (expect_warnings >= 0)
    check(probe_count_lines(err, "omp-ext: warning") == expect_warnings,
          "number of omp-ext warnings on stderr");
  for (int i = 0; i < nexpect_stderr; ++i)
    check(strstr(err, expect_stderr[i]) != NULL, "expected text on stderr");

  printf("omp_checks: threads=%d plugin=%s barriers=%llu reductions=%llu "
         "broadcasts=%llu failures=%d\n",
         omp_get_max_threads(), loaded ? "loaded" : "absent",
         loaded ? (unsigned long long)stats.plain_barriers : 0ull,
         loaded ? (unsigned long long)stats.reductions : 0ull,
         loaded ? (unsigned long long)stats.broadcasts : 0ull, failures);
  return failures ? 1 : 0;
}
