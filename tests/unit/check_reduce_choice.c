/*
 * Checks of the per-site reduction choice (reduce_choice.c), single-
 * threaded: tid 0 and tid 1 of a team of 2 taking turns, their clocks
 * ticked as the plugin ticks them at each synchronisation.
 *
 * For every method a size class can be given, including the runtime's own
 * (OMPEXT_REDUCE_METHOD_RUNTIME, which is 0):
 *   - a new site runs the tree and tid 0 probes it for OMPEXT_REDUCE_PROBES
 *     gathers, then stops probing;
 *   - from the synchronisation after the last probe on, both threads get
 *     the class's method, and keep getting it once the decision settled
 *     (a decision for method 0 must not read as "no decision yet", which
 *     would probe the site forever);
 *   - one size (the probes' slowest combines in one class) takes that
 *     class's method; sizes that change take the method cheapest over all
 *     of them (three large probes of eight cost more than five small
 *     ones), and a size seen once (a combine the scheduler slowed) does
 *     not count;
 *   - a decided site whose sizes change moves: on the tree within
 *     OMPEXT_REDUCE_PROBES re-timings, off it after a recheck; a final
 *     site (atomics in a team within libomp's atomics cutoff) never does;
 *   - in a team that fits the machine (the plan gives R_R), the median
 *     combine counts as R_R plus its time beyond the median reference read
 *     (less half a timer call), scaled by R_R over the reference: the same
 *     combine is small on a machine whose transfers are now 4 times
 *     slower than calibrated, large as calibrated; the scale stays within
 *     8 either way (a read slowed by an interrupt, a read faster than the
 *     timer); a combine within the clock's steps of the reference is one
 *     line; without R_R combines count as timed; in an oversubscribed team
 *     the reference only shrinks a combine (a fast reference, a child on
 *     tid 0's core, leaves it as timed);
 *   - two settled sites called in turn keep their own methods, and a
 *     settled site asked with other allowed methods answers for those;
 *   - a thread that reads the decision before its switch takes the tree
 *     then, and the decided method from the switch on;
 *   - an answer marked final (OMPEXT_REDUCE_METHOD_SETTLED: the runtime
 *     keeps it and stops asking) is atomic (or a one-item critical), and
 *     that thread gets the same answer for the same key and allowed ever
 *     after (checked at every call); a site settled on atomics is marked
 *     for both threads, one settled on the tree or the lock never is, nor
 *     is a probe; the one-item answer of a site the team keeps no record of
 *     (no tree allowed, or every site taken) is marked at once.
 */
#include "test_services.h"

#include "reduce_choice.h"

#include <stdio.h>
#include <string.h>

#define KEY ((uintptr_t)0x1000)
#define ALLOWED (OMPEXT_REDUCE_ALLOW_ATOMIC | OMPEXT_REDUCE_ALLOW_TREE)

static ompext_reduce_sizes_t sizes;
static double model_reference_ns; /* what set_up gives sizes.reference_ns */
static double model_timer_ns;     /* and sizes.timer_ns */
static int shrinks_only;          /* and sizes.reference_shrinks_only */
static ompext_reduce_clock_t clocks[2];
static ompext_reduce_choice_t choice;

/* The final answers each thread got since set_up, one per key and
   allowed (what the runtime would keep), and how many calls answered
   final. */
#define KEPT_MAX (OMPEXT_REDUCE_SITES + 8)
static struct kept {
  uintptr_t key;
  unsigned allowed;
  int method;
} kept[2][KEPT_MAX];
static int nkept[2];
static int finals;

/* A call of tid's, checked against what it was told to keep. */
static int ask(int tid, uintptr_t key, unsigned allowed) {
  const int answer = ompext_reduce_choice_method(&choice, tid, key, allowed);
  const int method = answer & ~OMPEXT_REDUCE_METHOD_SETTLED;
  int known = 0;
  for (int i = 0; i < nkept[tid]; ++i)
    if (kept[tid][i].key == key && kept[tid][i].allowed == allowed) {
      known = 1;
      if (kept[tid][i].method != method)
        tu_fail("tid %d was told to keep %s at key %#lx, now answered %s", tid,
                ompext_reduce_method_name(kept[tid][i].method),
                (unsigned long)key, ompext_reduce_method_name(method));
    }
  if (answer & OMPEXT_REDUCE_METHOD_SETTLED) {
    ++finals;
    if (method != OMPEXT_REDUCE_METHOD_ATOMIC &&
        method != OMPEXT_REDUCE_METHOD_CRITICAL)
      tu_fail("tid %d told to keep %s", tid, ompext_reduce_method_name(method));
    if (!known && nkept[tid] < KEPT_MAX)
      kept[tid][nkept[tid]++] = (struct kept){key, allowed, method};
  }
  return method;
}

/* Class 0 up to 100 ns, class 1 up to 1000 ns, class 2 beyond.  A class's
   method costs a quarter of the others there; class 1 costs 100 times
   class 0.  A team of 2: atomics are final. */
static void set_up(int small, int large) {
  memset(&sizes, 0, sizeof(sizes));
  sizes.sized = 1;
  sizes.line_bytes = 64;
  sizes.reference_ns = model_reference_ns;
  sizes.timer_ns = model_timer_ns;
  sizes.reference_shrinks_only = shrinks_only;
  sizes.final_atomics = 1;
  for (int a = 0; a < 4; ++a)
    sizes.one_item[a] = OMPEXT_REDUCE_METHOD_ATOMIC;
  for (int c = 0; c < OMPEXT_REDUCE_CLASSES; ++c) {
    sizes.combine_ns[c] = c == 0 ? 100 : c == 1 ? 1000 : 1e30;
    for (int a = 0; a < 4; ++a)
      sizes.best[c][a] = (unsigned char)(c == 0 ? small : large);
    for (int m = 0; m < 4; ++m)
      sizes.cost[c][m] =
          (c == 0 ? 1 : 100) * (m == sizes.best[c][ALLOWED] ? 1 : 4);
  }
  ompext_reduce_choice_init(&choice, &sizes, clocks, 2);
  nkept[0] = nkept[1] = 0;
  finals = 0;
}

/* One reduction of the team at site key (tid 0 probing with combine_ns
   when asked), then a barrier: both clocks tick.  Returns the method both
   took. */
static int reduce_at(uintptr_t key, unsigned allowed, double combine_ns,
                     double reference_ns) {
  const int m0 = ask(0, key, allowed);
  const int m1 = ask(1, key, allowed);
  if (m0 != m1)
    tu_fail("tid 0 took %s, tid 1 %s", ompext_reduce_method_name(m0),
            ompext_reduce_method_name(m1));
  if (ompext_reduce_choice_probing(&choice)) {
    if (m0 != OMPEXT_REDUCE_METHOD_TREE)
      tu_fail("probing while running %s", ompext_reduce_method_name(m0));
    ompext_reduce_choice_measured(&choice, combine_ns, reference_ns);
  }
  ompext_reduce_clock_tick(&clocks[0]);
  ompext_reduce_clock_tick(&clocks[1]);
  return m0;
}

static int reduce_once(double combine_ns, double reference_ns) {
  return reduce_at(KEY, ALLOWED, combine_ns, reference_ns);
}

/* A site whose probes time `probe_ns` with the reference reads `ref_ns`
   (cycled; NULL: none) settles on `want`. */
static void expect_settles_ref(int small, int large, const double *probe_ns,
                               const double *ref_ns, int nprobe, int want,
                               const char *what) {
  set_up(small, large);
  for (int i = 0; i < OMPEXT_REDUCE_PROBES; ++i) {
    const int m =
        reduce_once(probe_ns[i % nprobe], ref_ns ? ref_ns[i % nprobe] : -1);
    if (m != OMPEXT_REDUCE_METHOD_TREE)
      tu_fail("%s: probe %d ran %s, not the tree", what, i,
              ompext_reduce_method_name(m));
  }
  for (int i = 0; i < OMPEXT_REDUCE_REPROBE_EVERY - 1; ++i) {
    const int m = reduce_once(50, -1);
    if (ompext_reduce_choice_probing(&choice))
      tu_fail("%s: still probing after %d probes", what, OMPEXT_REDUCE_PROBES);
    if (m != want) {
      tu_fail("%s: reduction %d after the probes ran %s, expected %s", what, i,
              ompext_reduce_method_name(m), ompext_reduce_method_name(want));
      return;
    }
  }
  printf("ok: %s -> %s\n", what, ompext_reduce_method_name(want));
}

static void expect_settles(int small, int large, const double *probe_ns,
                           int nprobe, int want, const char *what) {
  expect_settles_ref(small, large, probe_ns, NULL, nprobe, want, what);
}

/* Combines against reference reads, with R_R = 30 ns in the plan and a
   timer of 0 unless said (set_up): class 0 up to 100 ns at calibration,
   a combine counting 30 + (combine - reference) * 30 / reference. */
static void check_reference_scaling(void) {
  const int A = OMPEXT_REDUCE_METHOD_ATOMIC, C = OMPEXT_REDUCE_METHOD_CRITICAL;
  const double c360[] = {360}, slow[] = {120}, calibrated[] = {30};
  model_reference_ns = 30;
  expect_settles_ref(A, C, c360, slow, 1, A,
                     "360 ns with transfers 4x slower than calibrated");
  expect_settles_ref(A, C, c360, calibrated, 1, C,
                     "360 ns with transfers as calibrated");
  expect_settles_ref(A, C, c360, NULL, 1, C, "360 ns without a reference");
  const double c2000[] = {2000}, interrupted[] = {1000};
  expect_settles_ref(A, C, c2000, interrupted, 1, C,
                     "2000 ns beside a 1000 ns read (scale at least 1/8)");
  const double c50[] = {50}, instant[] = {0};
  expect_settles_ref(A, C, c50, instant, 1, C,
                     "50 ns beside a read faster than the timer (scale 8)");
  const double c4[] = {4}, one[] = {1};
  expect_settles_ref(A, C, c4, one, 1, A,
                     "4 ns beside a 1 ns read (scale at most 8: 54 ns)");
  model_timer_ns = 20;
  const double c125[] = {125}, r50[] = {50};
  expect_settles_ref(A, C, c125, r50, 1, A,
                     "timer 20 ns: 125 ns beside a 50 ns read, 10 ns of "
                     "it the clock's steps");
  model_timer_ns = 0;
  const double mixed_ref[] = {120, 30, 120, 120, 30, 120, 30, 120};
  expect_settles_ref(A, C, (const double[]){360, 360, 360, 360, 360, 360, 360,
                                            360},
                     mixed_ref, 8, A, "five slow reference reads of eight");
  model_reference_ns = 0;
  expect_settles_ref(A, C, c360, slow, 1, C, "360 ns, slow reference, no R_R");
  model_reference_ns = 30;
  shrinks_only = 1;
  expect_settles_ref(A, C, c360, slow, 1, A,
                     "oversubscribed: 360 ns with transfers 4x slower");
  expect_settles_ref(A, C, c50, instant, 1, A,
                     "oversubscribed: 50 ns beside a cache hit, as timed");
  expect_settles_ref(A, C, c360, calibrated, 1, C,
                     "oversubscribed: 360 ns with transfers as calibrated");
  shrinks_only = 0;
}

/* Two sites settled apart (a thread keeps the last settled site it read
   beside its clock): called in turn, each keeps its own method, and a call
   at a settled site with other allowed methods is answered for those. */
static void check_settled_sites(void) {
  const uintptr_t other = KEY + 0x40;
  set_up(OMPEXT_REDUCE_METHOD_ATOMIC, OMPEXT_REDUCE_METHOD_CRITICAL);
  sizes.one_item[OMPEXT_REDUCE_ALLOW_ATOMIC] = OMPEXT_REDUCE_METHOD_RUNTIME;
  for (int i = 0; i < OMPEXT_REDUCE_PROBES + 2; ++i) {
    reduce_at(KEY, ALLOWED, 50, -1);
    reduce_at(other, ALLOWED, 500, -1);
  }
  int bad = 0;
  for (int i = 0; i < 10; ++i) {
    const int small = reduce_at(KEY, ALLOWED, 50, -1);
    const int atomic_only =
        reduce_at(KEY, OMPEXT_REDUCE_ALLOW_ATOMIC, 50, -1);
    const int large = reduce_at(other, ALLOWED, 50, -1);
    if (small != OMPEXT_REDUCE_METHOD_ATOMIC ||
        large != OMPEXT_REDUCE_METHOD_CRITICAL ||
        atomic_only != OMPEXT_REDUCE_METHOD_RUNTIME) {
      tu_fail("settled sites in turn, round %d: %s, %s, atomics only %s", i,
              ompext_reduce_method_name(small),
              ompext_reduce_method_name(large),
              ompext_reduce_method_name(atomic_only));
      bad = 1;
      break;
    }
  }
  if (!bad)
    printf("ok: two settled sites in turn keep their methods\n");
}

/* tid 1 reads tid 0's decision before the switch (it asks again before
   the next synchronisation): it takes the tree, as tid 0 did, and the
   decided method from the switch on, like tid 0. */
static void check_decision_read_early(void) {
  set_up(OMPEXT_REDUCE_METHOD_ATOMIC, OMPEXT_REDUCE_METHOD_CRITICAL);
  for (int i = 0; i < OMPEXT_REDUCE_PROBES - 1; ++i)
    reduce_once(50, -1);
  ask(0, KEY, ALLOWED);
  ask(1, KEY, ALLOWED);
  ompext_reduce_choice_measured(&choice, 50, -1); /* the decision */
  const int early = ask(1, KEY, ALLOWED);
  ompext_reduce_clock_tick(&clocks[0]);
  ompext_reduce_clock_tick(&clocks[1]);
  const int after = reduce_once(50, -1);
  if (early != OMPEXT_REDUCE_METHOD_TREE ||
      after != OMPEXT_REDUCE_METHOD_ATOMIC)
    tu_fail("decision read before its switch: %s then %s, expected tree "
            "then atomic",
            ompext_reduce_method_name(early), ompext_reduce_method_name(after));
  else
    printf("ok: a decision read before its switch\n");
}

/* Which answers are marked final (see the top). */
static void check_final_answers(void) {
  const unsigned long before = tu_failures();
  set_up(OMPEXT_REDUCE_METHOD_ATOMIC, OMPEXT_REDUCE_METHOD_CRITICAL);
  for (int i = 0; i < OMPEXT_REDUCE_PROBES; ++i)
    reduce_once(50, -1);
  if (finals)
    tu_fail("a probe's answer was marked final");
  for (int i = 0; i < 4; ++i)
    reduce_once(50, -1);
  if (nkept[0] != 1 || nkept[1] != 1)
    tu_fail("settled on atomics: tid 0 kept %d answers, tid 1 %d (1 each)",
            nkept[0], nkept[1]);

  set_up(OMPEXT_REDUCE_METHOD_TREE, OMPEXT_REDUCE_METHOD_TREE);
  for (int i = 0; i < OMPEXT_REDUCE_PROBES + 4; ++i)
    reduce_once(50, -1);
  if (finals)
    tu_fail("an answer of a site settled on the tree was marked final");

  /* The lock is slower than stock's atomics for a scalar: never final. */
  set_up(OMPEXT_REDUCE_METHOD_CRITICAL, OMPEXT_REDUCE_METHOD_CRITICAL);
  for (int i = 0; i < OMPEXT_REDUCE_PROBES + 4; ++i)
    reduce_once(50, -1);
  if (finals)
    tu_fail("an answer of a site settled on the lock was marked final");

  set_up(OMPEXT_REDUCE_METHOD_TREE, OMPEXT_REDUCE_METHOD_TREE);
  reduce_at(KEY, OMPEXT_REDUCE_ALLOW_ATOMIC, 50, -1);
  if (nkept[0] != 1 || nkept[1] != 1)
    tu_fail("no tree allowed: the one-item atomics not marked final at once");

  set_up(OMPEXT_REDUCE_METHOD_TREE, OMPEXT_REDUCE_METHOD_TREE);
  for (int i = 0; i < OMPEXT_REDUCE_SITES; ++i)
    reduce_at(KEY + 0x10 * (uintptr_t)(i + 1), ALLOWED, 50, -1);
  if (finals)
    tu_fail("a probe of a new site was marked final");
  const uintptr_t late = KEY + 0x10 * (uintptr_t)(OMPEXT_REDUCE_SITES + 1);
  if (reduce_at(late, ALLOWED, 50, -1) != OMPEXT_REDUCE_METHOD_ATOMIC ||
      nkept[0] != 1 || nkept[1] != 1)
    tu_fail("every site taken: the one-item atomics not marked final at once");
  for (int i = 0; i < 3; ++i)
    reduce_at(late, ALLOWED, 500, -1);
  if (tu_failures() == before)
    printf("ok: final answers are atomic or critical, settled, and kept\n");
}

/* n reductions at KEY timed at combine_ns; the method of the last. */
static int reduce_many(int n, double combine_ns) {
  int m = -1;
  for (int i = 0; i < n; ++i)
    m = reduce_once(combine_ns, -1);
  return m;
}

/* A site's sizes change after its decision: on the tree it is timed again
   every OMPEXT_REDUCE_REPROBE_EVERY calls and moves once the new size is
   most of what it remembers; off the tree, unless final, it goes back to
   the tree every OMPEXT_REDUCE_RECHECK_EVERY calls and is timed again.  A
   final site (atomics in a team where stock takes atomics) never moves. */
static void check_sizes_that_change(void) {
  const int A = OMPEXT_REDUCE_METHOD_ATOMIC, T = OMPEXT_REDUCE_METHOD_TREE;
  const unsigned long before = tu_failures();
  set_up(A, T);
  if (reduce_many(OMPEXT_REDUCE_PROBES + 2, 500) != T)
    tu_fail("large data did not settle on the tree");
  const int moved = reduce_many(
      OMPEXT_REDUCE_REPROBE_EVERY * (OMPEXT_REDUCE_PROBES + 1), 50);
  if (moved != A)
    tu_fail("a tree site whose data became small ran %s, expected atomic",
            ompext_reduce_method_name(moved));

  set_up(A, T);
  sizes.final_atomics = 0;
  if (reduce_many(OMPEXT_REDUCE_PROBES + 2, 50) != A || finals)
    tu_fail("small data in a large team: not atomics, or marked final");
  const int rechecked =
      reduce_many(OMPEXT_REDUCE_RECHECK_EVERY + OMPEXT_REDUCE_PROBES + 2, 500);
  if (rechecked != T)
    tu_fail("an atomic site whose data became large ran %s, expected the "
            "tree",
            ompext_reduce_method_name(rechecked));

  set_up(A, T);
  reduce_many(OMPEXT_REDUCE_PROBES + 2, 50);
  const int kept =
      reduce_many(OMPEXT_REDUCE_RECHECK_EVERY + OMPEXT_REDUCE_PROBES + 2, 500);
  if (kept != A || nkept[0] != 1)
    tu_fail("a final atomic site ran %s (kept %d), expected atomics, kept",
            ompext_reduce_method_name(kept), nkept[0]);

  /* Sizes cycling call by call, as one site reducing a[:n] for n = 1, 8,
     64, 512, 4096: decided by their total cost, not by the median. */
  set_up(A, T);
  const double cycle[] = {50, 50, 50, 500, 500};
  for (int i = 0; i < OMPEXT_REDUCE_PROBES + 40; ++i)
    reduce_once(cycle[i % 5], -1);
  const int mix = reduce_once(50, -1);
  if (mix != T)
    tu_fail("sizes cycling 3 small, 2 large: ran %s, expected the tree",
            ompext_reduce_method_name(mix));
  if (tu_failures() == before)
    printf("ok: sizes that change are seen\n");
}

int main(void) {
  if (tu_services_install() != 0)
    return 1;
  const double small[] = {50};
  const double large[] = {500};
  const int methods[] = {OMPEXT_REDUCE_METHOD_RUNTIME, OMPEXT_REDUCE_METHOD_ATOMIC,
                         OMPEXT_REDUCE_METHOD_TREE, OMPEXT_REDUCE_METHOD_CRITICAL};
  for (int i = 0; i < 4; ++i) {
    char what[64];
    snprintf(what, sizeof(what), "large data, class method %s",
             ompext_reduce_method_name(methods[i]));
    expect_settles(OMPEXT_REDUCE_METHOD_ATOMIC, methods[i], large, 1,
                   methods[i], what);
    snprintf(what, sizeof(what), "small data, class method %s",
             ompext_reduce_method_name(methods[i]));
    expect_settles(methods[i], OMPEXT_REDUCE_METHOD_TREE, small, 1, methods[i],
                   what);
  }
  /* Five of eight probes large: the median is large. */
  const double mostly_large[] = {50, 500, 500, 50, 500, 50, 500, 500};
  expect_settles(OMPEXT_REDUCE_METHOD_ATOMIC, OMPEXT_REDUCE_METHOD_RUNTIME,
                 mostly_large, 8, OMPEXT_REDUCE_METHOD_RUNTIME,
                 "five large probes of eight");
  /* Three of eight large: the median is small, but the large data cost
     more over all the calls on the small data's method. */
  const double mostly_small[] = {50, 500, 50, 50, 500, 50, 500, 50};
  expect_settles(OMPEXT_REDUCE_METHOD_ATOMIC, OMPEXT_REDUCE_METHOD_RUNTIME,
                 mostly_small, 8, OMPEXT_REDUCE_METHOD_RUNTIME,
                 "three large probes of eight");
  /* One of sixteen large (a combine the scheduler slowed): not a size. */
  double one_slow[OMPEXT_REDUCE_PROBES];
  for (int i = 0; i < OMPEXT_REDUCE_PROBES; ++i)
    one_slow[i] = i == 5 ? 5000 : 50;
  expect_settles(OMPEXT_REDUCE_METHOD_ATOMIC, OMPEXT_REDUCE_METHOD_TREE,
                 one_slow, OMPEXT_REDUCE_PROBES, OMPEXT_REDUCE_METHOD_ATOMIC,
                 "one slow probe of sixteen");
  check_sizes_that_change();
  check_reference_scaling();
  check_settled_sites();
  check_decision_read_early();
  check_final_answers();
  return tu_failures() ? 1 : 0;
}
