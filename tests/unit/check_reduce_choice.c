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
 *   - the median of the probes' slowest combines picks the class: the
 *     larger half of the probes, not the smaller, decides.
 */
#include "test_services.h"

#include "reduce_choice.h"

#include <stdio.h>
#include <string.h>

#define KEY ((uintptr_t)0x1000)
#define ALLOWED (OMPEXT_REDUCE_ALLOW_ATOMIC | OMPEXT_REDUCE_ALLOW_TREE)

static ompext_reduce_sizes_t sizes;
static ompext_reduce_clock_t clocks[2];
static ompext_reduce_choice_t choice;

/* Class 0 up to 100 ns, class 1 up to 1000 ns, class 2 beyond. */
static void set_up(int small, int large) {
  memset(&sizes, 0, sizeof(sizes));
  sizes.sized = 1;
  sizes.line_bytes = 64;
  for (int a = 0; a < 4; ++a)
    sizes.one_item[a] = OMPEXT_REDUCE_METHOD_ATOMIC;
  for (int c = 0; c < OMPEXT_REDUCE_CLASSES; ++c) {
    sizes.combine_ns[c] = c == 0 ? 100 : c == 1 ? 1000 : 1e30;
    for (int a = 0; a < 4; ++a)
      sizes.best[c][a] = (unsigned char)(c == 0 ? small : large);
  }
  ompext_reduce_choice_init(&choice, &sizes, clocks, 2);
}

/* One reduction of the team (tid 0 probing with combine_ns when asked),
   then a barrier: both clocks tick.  Returns the method both took. */
static int reduce_once(double combine_ns) {
  const int m0 = ompext_reduce_choice_method(&choice, 0, KEY, ALLOWED);
  const int m1 = ompext_reduce_choice_method(&choice, 1, KEY, ALLOWED);
  if (m0 != m1)
    tu_fail("tid 0 took %s, tid 1 %s", ompext_reduce_method_name(m0),
            ompext_reduce_method_name(m1));
  if (ompext_reduce_choice_probing(&choice)) {
    if (m0 != OMPEXT_REDUCE_METHOD_TREE)
      tu_fail("probing while running %s", ompext_reduce_method_name(m0));
    ompext_reduce_choice_measured(&choice, combine_ns);
  }
  ompext_reduce_clock_tick(&clocks[0]);
  ompext_reduce_clock_tick(&clocks[1]);
  return m0;
}

/* A site whose probes time `probe_ns` (cycled) settles on `want`. */
static void expect_settles(int small, int large, const double *probe_ns,
                           int nprobe, int want, const char *what) {
  set_up(small, large);
  for (int i = 0; i < OMPEXT_REDUCE_PROBES; ++i) {
    const int m = reduce_once(probe_ns[i % nprobe]);
    if (m != OMPEXT_REDUCE_METHOD_TREE)
      tu_fail("%s: probe %d ran %s, not the tree", what, i,
              ompext_reduce_method_name(m));
  }
  for (int i = 0; i < 20; ++i) {
    const int m = reduce_once(50);
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
  /* Three of eight large: the median is small. */
  const double mostly_small[] = {50, 500, 50, 50, 500, 50, 500, 50};
  expect_settles(OMPEXT_REDUCE_METHOD_ATOMIC, OMPEXT_REDUCE_METHOD_RUNTIME,
                 mostly_small, 8, OMPEXT_REDUCE_METHOD_ATOMIC,
                 "three large probes of eight");
  return tu_failures() ? 1 : 0;
}
