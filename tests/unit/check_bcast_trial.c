/*
 * Checks of the per-site trial between the rooted close and the team's
 * barrier (bcast_trial.c).  Single-threaded, on a made-up clock: each
 * broadcast's round costs what the test says its close costs, so the
 * verdicts follow from the rules alone.
 *
 *   - the close whose rounds are cheaper wins; the barrier only when it is
 *     cheaper by more than 1/16 (a tie, or 3 % less, stays rooted);
 *   - rounds that still see the other close (the first of each block,
 *     here charged a large switching cost), a lone slow round per block,
 *     and a whole block of one close slowed down threefold (a noisy
 *     neighbour's spell) do not move the verdict;
 *   - the verdict comes within four blocks of 8 (two of each close), after
 *     which the clock is never read again and the verdict holds;
 *   - two sites whose broadcasts alternate each get their own verdict, one
 *     trial at a time: the other site stays rooted until its turn;
 *   - a trial whose site stops broadcasting ends (rooted) after 32 other
 *     broadcasts and lets the next site's trial run;
 *   - a site beyond the 8 the table holds stays rooted, untimed, and so
 *     does key 0 (a broadcast whose site is unknown).
 */
#include "test_services.h"

#include "bcast_trial.h"

#include <stdio.h>
#include <string.h>

static uint64_t fake_now;
static unsigned clock_reads;

static uint64_t fake_clock(void) {
  ++clock_reads;
  return fake_now;
}

/* A site's costs: a round closed rooted or with the barrier, the extra of
   a round right after the close changed, and a slow round every `spike`
   broadcasts (0: none). */
typedef struct site_costs {
  uintptr_t key;
  uint64_t rooted, barrier, switching, spike_every, spike;
  unsigned slow_from, slow_to; /* broadcasts [from, to) cost 3 times more */
  int last_close; /* -1 before the first broadcast */
  unsigned n;
} site_costs_t;

/* One broadcast of the site: its close, then its round on the clock. */
static int broadcast(ompext_bcast_trial_t *t, site_costs_t *s) {
  const int rooted = ompext_bcast_trial_rooted(t, s->key, fake_clock);
  const uint64_t cost = rooted ? s->rooted : s->barrier;
  fake_now += s->n >= s->slow_from && s->n < s->slow_to ? 3 * cost : cost;
  if (s->last_close >= 0 && s->last_close != rooted)
    fake_now += s->switching;
  if (s->spike_every && (s->n + 1) % s->spike_every == 0)
    fake_now += s->spike;
  ++s->n;
  s->last_close = rooted;
  return rooted;
}

/* Runs one site alone until its verdict; returns it, failing if it takes
   more than four blocks or reads the clock afterwards. */
static int verdict_alone(site_costs_t s) {
  ompext_bcast_trial_t t;
  ompext_bcast_trial_init(&t, 1);
  s.key = 0x1000;
  s.last_close = -1;
  int broadcasts = 0;
  while (ompext_bcast_trial_verdict(&t, s.key) < 0 && broadcasts < 100) {
    broadcast(&t, &s);
    ++broadcasts;
  }
  const int verdict = ompext_bcast_trial_verdict(&t, s.key);
  if (broadcasts > 4 * 8 + 1)
    tu_fail("rooted %llu, barrier %llu: verdict after %d broadcasts",
            (unsigned long long)s.rooted, (unsigned long long)s.barrier,
            broadcasts);
  const unsigned reads = clock_reads;
  for (int i = 0; i < 50; ++i)
    if (broadcast(&t, &s) != verdict)
      tu_fail("the verdict did not hold");
  if (clock_reads != reads)
    tu_fail("the clock was read after the verdict");
  return verdict;
}

static void expect_alone(const char *what, site_costs_t s, int want) {
  const int got = verdict_alone(s);
  if (got != want)
    tu_fail("%s: %s, expected %s", what, got ? "rooted" : "barrier",
            want ? "rooted" : "barrier");
  else
    printf("ok: %s -> %s\n", what, got ? "rooted" : "barrier");
}

static void check_alternating_sites(void) {
  ompext_bcast_trial_t t;
  ompext_bcast_trial_init(&t, 1);
  site_costs_t a = {.key = 0x1000, .rooted = 200, .barrier = 100,
                    .last_close = -1};
  site_costs_t b = {.key = 0x2000, .rooted = 100, .barrier = 300,
                    .last_close = -1};
  for (int i = 0; i < 80; ++i) {
    broadcast(&t, &a);
    const int b_rooted = broadcast(&t, &b);
    if (ompext_bcast_trial_verdict(&t, a.key) < 0 && !b_rooted)
      tu_fail("site b left the rooted close during site a's trial");
  }
  if (ompext_bcast_trial_verdict(&t, a.key) != 0 ||
      ompext_bcast_trial_verdict(&t, b.key) != 1)
    tu_fail("alternating sites: verdicts %d and %d, expected 0 and 1",
            ompext_bcast_trial_verdict(&t, a.key),
            ompext_bcast_trial_verdict(&t, b.key));
  else
    printf("ok: alternating sites -> barrier and rooted\n");
}

static void check_stale_trial(void) {
  ompext_bcast_trial_t t;
  ompext_bcast_trial_init(&t, 1);
  site_costs_t a = {.key = 0x1000, .rooted = 100, .barrier = 10,
                    .last_close = -1};
  site_costs_t b = {.key = 0x2000, .rooted = 100, .barrier = 10,
                    .last_close = -1};
  for (int i = 0; i < 3; ++i)
    broadcast(&t, &a);
  int b_calls = 0;
  while (ompext_bcast_trial_verdict(&t, a.key) < 0 && b_calls < 1000) {
    broadcast(&t, &b);
    ++b_calls;
  }
  if (ompext_bcast_trial_verdict(&t, a.key) != 1 || b_calls != 32)
    tu_fail("a stopped site's trial ended after %d other broadcasts with "
            "%d, expected 32 and rooted",
            b_calls, ompext_bcast_trial_verdict(&t, a.key));
  for (int i = 0; i < 40; ++i)
    broadcast(&t, &b);
  if (ompext_bcast_trial_verdict(&t, b.key) != 0)
    tu_fail("the next site's trial did not run after a stale one");
  else
    printf("ok: a stale trial ends rooted and the next one runs\n");
}

static void check_key_zero(void) {
  ompext_bcast_trial_t t;
  ompext_bcast_trial_init(&t, 1);
  site_costs_t s = {.key = 0, .rooted = 100, .barrier = 10, .last_close = -1};
  const unsigned reads = clock_reads;
  int rooted = 1;
  for (int i = 0; i < 60; ++i)
    rooted &= broadcast(&t, &s);
  if (!rooted || clock_reads != reads)
    tu_fail("a broadcast of an unknown site was timed or left the rooted "
            "close");
  else
    printf("ok: key 0 stays rooted, untimed\n");
}

static void check_full_table(void) {
  ompext_bcast_trial_t t;
  ompext_bcast_trial_init(&t, 1);
  for (int s = 0; s < 8; ++s) {
    site_costs_t c = {.key = 0x100 * (uintptr_t)(s + 1), .rooted = 100,
                      .barrier = 10, .last_close = -1};
    while (ompext_bcast_trial_verdict(&t, c.key) < 0)
      broadcast(&t, &c);
  }
  site_costs_t ninth = {.key = 0x9999, .rooted = 100, .barrier = 10,
                        .last_close = -1};
  const unsigned reads = clock_reads;
  int rooted = 1;
  for (int i = 0; i < 40; ++i)
    rooted &= broadcast(&t, &ninth);
  if (!rooted || clock_reads != reads ||
      ompext_bcast_trial_verdict(&t, ninth.key) != -1)
    tu_fail("a site beyond the table was timed or left the rooted close");
  else
    printf("ok: a ninth site stays rooted, untimed\n");
}

int main(void) {
  if (tu_services_install() != 0)
    return 1;
  expect_alone("barrier half the rounds",
               (site_costs_t){.rooted = 200, .barrier = 100}, 0);
  expect_alone("rooted half the rounds",
               (site_costs_t){.rooted = 100, .barrier = 200}, 1);
  expect_alone("a tie", (site_costs_t){.rooted = 100, .barrier = 100}, 1);
  expect_alone("barrier 3% cheaper",
               (site_costs_t){.rooted = 100, .barrier = 97}, 1);
  expect_alone("barrier 10% cheaper",
               (site_costs_t){.rooted = 100, .barrier = 90}, 0);
  expect_alone("barrier cheaper, switching costly",
               (site_costs_t){.rooted = 200, .barrier = 100,
                              .switching = 100000}, 0);
  expect_alone("rooted cheaper, a slow round in every 8",
               (site_costs_t){.rooted = 100, .barrier = 200,
                              .spike_every = 8, .spike = 1000000}, 1);
  expect_alone("barrier cheaper, a slow round in every 8",
               (site_costs_t){.rooted = 200, .barrier = 100,
                              .spike_every = 8, .spike = 1000000}, 0);
  /* Blocks run rooted, barrier, rooted, barrier, 8 broadcasts each. */
  expect_alone("rooted cheaper, its first block in a slow spell",
               (site_costs_t){.rooted = 100, .barrier = 200, .slow_from = 0,
                              .slow_to = 8}, 1);
  expect_alone("barrier cheaper, its second block in a slow spell",
               (site_costs_t){.rooted = 200, .barrier = 100, .slow_from = 24,
                              .slow_to = 32}, 0);
  check_alternating_sites();
  check_stale_trial();
  check_full_table();
  check_key_zero();
  return tu_failures() ? 1 : 0;
}
