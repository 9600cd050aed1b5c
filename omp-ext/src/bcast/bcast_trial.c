/*
 * Rooted close or team's barrier, per call site, by trial.
 *
 * Once a site's copies are long (bcast_close.c), its broadcasts could close
 * rooted, so that the root stays where it is, or with the team's barrier,
 * after which the last copier tends to win the next single and the root
 * moves.  Which is faster depends on what the program does with the data,
 * which the runtime cannot see: a program that rebroadcasts mostly
 * unchanged data wants the root to stay (receivers copy from lines they
 * already share), one that rewrites all of it in each single wants it to
 * move (the new root rewrites lines it wrote itself as a receiver, where a
 * fixed root takes every line back from the receivers first).  At 2 threads
 * syncbench's 1 MiB rows read, against stock: unchanged 0.98 rooted and 3
 * to 16 with the barrier; rewritten 1.07 rooted and 0.59 with the barrier.
 *
 * So each site runs a trial: blocks of TRIAL_BLOCK broadcasts closed
 * rooted, then with the barrier, and the root of each broadcast times the
 * round since the site's previous publish (copy, close, the next single's
 * body, whatever the program does before the site's next broadcast).  A
 * round depends on the closes of the two broadcasts before its end (who was
 * root, who is root), so the first TRIAL_SKIP rounds of each block are not
 * taken, and TRIAL_BLOCK - TRIAL_SKIP = OMPEXT_TRIAL_SAMPLES are.  Each
 * close runs OMPEXT_TRIAL_BLOCKS blocks (rooted, barrier, rooted, barrier)
 * and is worth the smallest of its blocks' medians: this machine's
 * neighbours slow everything down for seconds at a time, which can only
 * lengthen rounds, so one block caught in such a spell must not decide.
 * Then the barrier wins only if it is faster by more than 1/16, since the
 * rooted close is what long copies took before trials existed.  The
 * verdict holds for the team's life.
 *
 * One site's trial runs at a time, and the other sites' broadcasts keep
 * their verdicts meanwhile (rooted until their own trial), so a loop of
 * several sites times each against the others held fixed.  A trial whose
 * site stops broadcasting (TRIAL_STALE broadcasts of other sites in a row)
 * ends with what it has, rooted unless both closes have a complete block;
 * so does a site beyond the OMPEXT_TRIAL_SITES the table holds.
 *
 * A site is keyed by the construct's call site, which the runtime passes
 * with every broadcast (the return address of its entry point), for clang's
 * and gcc's code alike.  A broadcast without one (key 0) takes no trial and
 * keeps the rooted close.  Only the root reads the clock, once per
 * broadcast, and only while its site's trial runs.
 */
#include "bcast_trial.h"

#include <stdio.h>
#include <string.h>

/* Broadcasts closed one way before the trial switches to the other. */
#define TRIAL_BLOCK 8
/* Rounds at the start of a block that still see the previous block. */
#define TRIAL_SKIP 2
_Static_assert(TRIAL_BLOCK - TRIAL_SKIP == OMPEXT_TRIAL_SAMPLES,
               "a block gives the rounds a close takes from it");
#define TRIAL_ROUNDS (OMPEXT_TRIAL_BLOCKS * OMPEXT_TRIAL_SAMPLES)
/* Other sites' broadcasts in a row after which a trial ends as it stands. */
#define TRIAL_STALE (4 * TRIAL_BLOCK)

void ompext_bcast_trial_init(ompext_bcast_trial_t *t, int verbose) {
  memset(t, 0, sizeof(*t));
  t->active = -1;
  t->verbose = verbose;
}

/* Rooted (1) or the barrier (0) for broadcast i of a running trial. */
static int close_of(unsigned i) { return (i / TRIAL_BLOCK) % 2 == 0; }

static ompext_bcast_site_t *site_for(ompext_bcast_trial_t *t, uintptr_t key,
                                     int *index) {
  for (int s = 0; s < OMPEXT_TRIAL_SITES; ++s) {
    ompext_bcast_site_t *site = &t->sites[s];
    if (site->used && site->key == key) {
      *index = s;
      return site;
    }
    if (!site->used) {
      memset(site, 0, sizeof(*site));
      site->used = 1;
      site->key = key;
      site->verdict = -1;
      *index = s;
      return site;
    }
  }
  return NULL;
}

/* The median of a block's rounds (the lower middle one). */
static uint64_t block_median(const uint64_t *rounds) {
  uint64_t v[OMPEXT_TRIAL_SAMPLES];
  memcpy(v, rounds, sizeof(v));
  for (unsigned i = 1; i < OMPEXT_TRIAL_SAMPLES; ++i)
    for (unsigned j = i; j > 0 && v[j - 1] > v[j]; --j) {
      const uint64_t x = v[j];
      v[j] = v[j - 1];
      v[j - 1] = x;
    }
  return v[(OMPEXT_TRIAL_SAMPLES - 1) / 2];
}

/* A close's worth: the smallest median of its complete blocks; 0 if none. */
static uint64_t worth(const ompext_bcast_site_t *site, int close) {
  uint64_t best = 0;
  for (unsigned b = 0; b + 1 <= site->taken[close] / OMPEXT_TRIAL_SAMPLES;
       ++b) {
    const uint64_t m =
        block_median(site->round_ns[close] + b * OMPEXT_TRIAL_SAMPLES);
    if (!best || m < best)
      best = m;
  }
  return best;
}

/* The verdict from the rounds taken: the barrier only if clearly faster,
   rooted without a complete block of each. */
static int judge(const ompext_bcast_site_t *site) {
  const uint64_t barrier = worth(site, 0), rooted = worth(site, 1);
  if (!barrier || !rooted)
    return 1;
  return !(barrier * 16 < rooted * 15);
}

/* The round from broadcast i-1's publish to broadcast i's, if it shows the
   close of broadcast i-1 alone. */
static void take_round(ompext_bcast_site_t *site, unsigned i,
                       uint64_t round_ns) {
  const unsigned prev = i - 1;
  if (prev % TRIAL_BLOCK < TRIAL_SKIP)
    return;
  const int close = close_of(prev);
  if (site->taken[close] < TRIAL_ROUNDS)
    site->round_ns[close][site->taken[close]++] = round_ns;
}

/* Ends the running trial with the rounds it has. */
static int end_trial(ompext_bcast_trial_t *t, ompext_bcast_site_t *site) {
  site->verdict = judge(site);
  t->active = -1;
  if (t->verbose) /* a worth of 0: that close has no complete block */
    fprintf(stderr,
            "omp-ext: copyprivate at %#lx closes %s (rounds: rooted %.2f "
            "us, team's barrier %.2f us)\n",
            (unsigned long)site->key,
            site->verdict ? "rooted" : "with the team's barrier",
            (double)worth(site, 1) / 1000.0, (double)worth(site, 0) / 1000.0);
  return site->verdict;
}

int ompext_bcast_trial_rooted(ompext_bcast_trial_t *t, uintptr_t key,
                              uint64_t (*clock)(void)) {
  if (!key)
    return 1; /* an unknown site: see the top */
  int index;
  ompext_bcast_site_t *site = site_for(t, key, &index);
  if (t->active >= 0 && (!site || t->active != index) &&
      ++t->others >= TRIAL_STALE)
    end_trial(t, &t->sites[t->active]);
  if (!site)
    return 1;
  if (site->verdict >= 0)
    return site->verdict;
  if (t->active >= 0 && t->active != index)
    return 1; /* rooted, as before its trial, until its turn */
  t->active = index;
  t->others = 0;
  const uint64_t now = clock();
  const unsigned i = site->count;
  if (i > 0)
    take_round(site, i, now - site->last_publish_ns);
  if (site->taken[0] == TRIAL_ROUNDS && site->taken[1] == TRIAL_ROUNDS)
    return end_trial(t, site);
  site->count = i + 1;
  site->last_publish_ns = now;
  return close_of(i);
}

int ompext_bcast_trial_verdict(const ompext_bcast_trial_t *t, uintptr_t key) {
  for (int s = 0; s < OMPEXT_TRIAL_SITES; ++s)
    if (t->sites[s].used && t->sites[s].key == key)
      return t->sites[s].verdict;
  return -1;
}
