/*
 * Checks of the copy-time hint of the copyprivate close (bcast_close.c).
 * Single-threaded: one receiver's samples, driven through the calls the
 * broadcast makes (note before the copy, take at the next barrier), with
 * "long" copies made by waiting past long_ns before the take.
 *
 *   - a receiver times each of its first FIRST_SAMPLES (8) copies, then one
 *     in SAMPLE_EVERY (16): long copies from the start are found in 3
 *     broadcasts, and after the first 8 a long sample needs 16;
 *   - copies become long only after LONG_STREAK (3) long samples in a row:
 *     one or two long samples, or long ones broken by a short one, leave
 *     the team's barrier in place (a preempted copy must not move the
 *     close);
 *   - once long, copies stay long: short samples afterwards (a rooted
 *     close makes the copies of unchanged data short) do not move it back;
 *   - without timing (time_copies 0) nothing is ever long;
 *   - the AUTO close follows the hint (its trial's first broadcast is
 *     rooted), ROOTED and BARRIER ignore it;
 *   - two threads through rooted closes: a receiver that spins and whose
 *     timed copy took at least 16 leads leaves at least lead_ns after its
 *     go (so the root leads into the next single); after a short copy, or
 *     when it does not spin, it leaves without the lead.
 */
#include "test_services.h"

#include "bcast_close.h"
#include "now.h"
#include "wait.h"
#include "pad.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LONG_NS 5000000ull /* 5 ms: a short sample never reaches it */
#define FIRST_SAMPLES 8     /* bcast_close.c's copies timed first */
#define SAMPLE_EVERY 16     /* and its sampling period after them */

static void *make_close(int time_copies) {
  const size_t bytes = ompext_bcast_close_size(2);
  void *mem = aligned_alloc(OMPEXT_CACHE_LINE,
                            ompext_pad_bytes(bytes));
  if (!mem)
    tu_fatal("out of memory");
  memset(mem, 0, ompext_pad_bytes(bytes));
  return ompext_bcast_close_init(mem, 2, 2, OMPEXT_BCAST_CLOSE_AUTO, LONG_NS,
                                 0, time_copies, 0);
}

/* A copy that takes ns: the caller keeps its processor meanwhile. */
static void busy_for(uint64_t ns) {
  const uint64_t until = ompext_now_ns() + ns;
  while (ompext_now_ns() < until)
    ;
}

/* One receiver (tid 1) through the broadcasts from root 0 that hold its
   sample number `sample` (from 0): one while it times each copy, then
   SAMPLE_EVERY, so that exactly one of them is timed; that copy is long
   when `long_copy`, and so are the untimed ones beside it. */
static void one_sample(ompext_bcast_close_t *c, int sample, int long_copy) {
  const int broadcasts = sample < FIRST_SAMPLES ? 1 : SAMPLE_EVERY;
  for (int i = 0; i < broadcasts; ++i) {
    ompext_bcast_close_note(c, 1, 0, 0, 0);
    if (long_copy)
      busy_for(LONG_NS + 1000000);
    if (ompext_bcast_close_take(c, 1) != -1)
      tu_fail("a broadcast without a rooted close named a root");
  }
}

/* Runs the samples of `pattern` ('L' long, 's' short) on a fresh close and
   returns the hint after them. */
static int hint_after(const char *pattern, int time_copies) {
  ompext_bcast_close_t *c = make_close(time_copies);
  for (const char *p = pattern; *p; ++p)
    one_sample(c, (int)(p - pattern), *p == 'L');
  const int hint = ompext_bcast_close_copies_long(c);
  free(c);
  return hint;
}

static void expect(const char *pattern, int time_copies, int want) {
  const int got = hint_after(pattern, time_copies);
  if (got != want)
    tu_fail("samples \"%s\" (timing %s): copies %s, expected %s", pattern,
            time_copies ? "on" : "off", got ? "long" : "short",
            want ? "long" : "short");
  else
    printf("ok: \"%s\" (timing %s) -> %s\n", pattern, time_copies ? "on" : "off",
           got ? "long" : "short");
}

/* ---- the root's lead (two threads) ------------------------------------- */

#define LEAD_NS 2000000ull /* 2 ms: far above any go's latency */
#define LEAD_ROUNDS 3

typedef struct lead_run {
  ompext_bcast_close_t *close;
  unsigned spin_polls;  /* the receiver's; the root always spins */
  uint64_t copy_ns;     /* how long the receiver's (timed) copy takes */
  uint64_t waited_ns[LEAD_ROUNDS]; /* the receiver, in the close */
} lead_run_t;

/* Rounds of a broadcast rooted at tid 0 as the plugin drives them: note,
   the receiver's copy, take at the barrier, then the rooted close. */
static void lead_thread(int tid, void *arg) {
  lead_run_t *r = arg;
  for (int i = 0; i < LEAD_ROUNDS; ++i) {
    ompext_bcast_close_note(r->close, tid, 0, 1, tid == 0);
    if (tid == 1)
      busy_for(r->copy_ns);
    if (ompext_bcast_close_take(r->close, tid) != 0)
      tu_fail("tid %d: the rooted close did not name root 0", tid);
    const uint64_t start = ompext_now_ns();
    ompext_bcast_close_wait(r->close, tid, tid, 0,
                            tid == 0 ? 64 : r->spin_polls);
    if (tid == 1)
      r->waited_ns[i] = ompext_now_ns() - start;
  }
}

/* The receiver arrives last (the root waits meanwhile), so without the lead
   its close is one go away; with it, at least LEAD_NS.  want_lead: every
   round takes the lead; otherwise not every round may last that long (one
   descheduled round may). */
static void check_lead(unsigned receiver_spin_polls, uint64_t copy_ns,
                       int want_lead) {
  void *mem = aligned_alloc(OMPEXT_CACHE_LINE,
                            ompext_pad_bytes(ompext_bcast_close_size(2)));
  if (!mem)
    tu_fatal("out of memory");
  memset(mem, 0, ompext_pad_bytes(ompext_bcast_close_size(2)));
  lead_run_t r = {.spin_polls = receiver_spin_polls, .copy_ns = copy_ns};
  r.close = ompext_bcast_close_init(mem, 2, 2, OMPEXT_BCAST_CLOSE_ROOTED,
                                    LONG_NS, LEAD_NS, 1, 0);
  tu_run_threads(2, 0, lead_thread, &r);
  int led = 0;
  for (int i = 0; i < LEAD_ROUNDS; ++i)
    led += r.waited_ns[i] >= LEAD_NS;
  if (want_lead && led != LEAD_ROUNDS)
    tu_fail("a spinning receiver after %llu ns copies left %d of %d rooted "
            "closes within the root's lead",
            (unsigned long long)copy_ns, LEAD_ROUNDS - led, LEAD_ROUNDS);
  else if (!want_lead && led == LEAD_ROUNDS)
    tu_fail("a receiver (spinning %u, %llu ns copies) waited the lead in "
            "every close",
            receiver_spin_polls, (unsigned long long)copy_ns);
  else
    printf("ok: receiver spinning %u, %llu ns copies: %d of %d closes "
           "waited the lead\n",
           receiver_spin_polls, (unsigned long long)copy_ns, led,
           LEAD_ROUNDS);
  free(mem);
}

int main(void) {
  if (tu_services_install() != 0)
    return 1;
  expect("", 1, 0);
  expect("L", 1, 0);
  expect("LL", 1, 0);
  expect("LLsLL", 1, 0);
  expect("LLL", 1, 1);
  expect("sLLL", 1, 1);
  expect("LLLsss", 1, 1); /* sticks */
  expect("LLL", 0, 0);    /* nobody times */
  /* After the first 8, one copy in 16 is timed: the same patterns. */
  expect("ssssssssLL", 1, 0);
  expect("ssssssssLLsLL", 1, 0);
  expect("ssssssssLLL", 1, 1);
  expect("ssssssLLL", 1, 1); /* across the switch */

  ompext_bcast_close_t *c = make_close(1);
  /* A site's trial begins rooted (bcast_trial.c, checked on its own). */
  if (!ompext_bcast_close_choose(c, 1, 1, 0) ||
      ompext_bcast_close_choose(c, 0, 1, 0) ||
      ompext_bcast_close_choose(c, 1, 0, 0))
    tu_fail("AUTO must close rooted exactly on long copies where allowed");
  free(c);
  /* bcast_close.c leads after copies of 16 leads or more. */
  check_lead(64, 20 * LEAD_NS, 1);
  check_lead(64, 0, 0);
  check_lead(0, 20 * LEAD_NS, 0);
  return tu_failures() ? 1 : 0;
}
