/*
 * Validator of the alternative barriers: the k-ary tree (barrier_tree.c),
 * the tournament (barrier_tournament.c), the centralized barrier
 * (barrier_centralized.c), the hierarchical barrier with one leader per
 * domain (barrier_hier.c) and, for comparison, the dissemination barrier
 * (barrier_dissemination.c).
 *
 * For every algorithm, parameter (tree fan-in, tournament release fan-out,
 * dissemination peers per round, hierarchical fan-in inside domains; none
 * for centralized) and team size n, n threads run many episodes of the
 * barrier with random delays around it.  The hierarchical barrier also runs
 * for every peers-per-round m of its leaders' dissemination barrier (-m;
 * 0: the leaders meet in a flat combining tree rooted at tid 0 instead)
 * and domain count of -d, over a topology layout made up by the harness:
 * the tids spread over the domains at random, so domains are uneven and
 * scattered over the tids (1 domain: the tree alone; n: the leaders'
 * barrier alone).  Parameters that cannot matter (m with one domain, k with
 * one tid per domain) run once, and each of its many configurations runs
 * fewer episodes.
 * Per episode e, before the barrier each thread
 *   - stores e into its own padded arrival counter (an atomic), and
 *   - stores e into a plain (non-atomic) slot of its own, slot e % 2;
 * after the barrier it reads every thread's counter and slot and checks
 *   - counter >= e      (nobody left the barrier before everyone arrived),
 *   - counter <= e + 1  (nobody got two episodes ahead),
 *   - slot == e         (the plain store is visible: the barrier orders
 *                        memory, not just control; under ThreadSanitizer a
 *                        missing happens-before shows up as a race here).
 * Slot e % 2 is rewritten only in episode e + 2, after its writer left
 * episode e + 1, which needs every reader's arrival: with a correct barrier
 * every access to the slots is race-free.
 *
 * The services table is the harness's (test_services.c: its wait ends the
 * run on a word that overshoots its expected value or never reaches it),
 * wrapped by a checker of the flag-word protocol: every word an algorithm
 * waits on or signals lies inside its barrier's memory, has exactly one
 * waiter tid (the tid passed to release must be the tid that waits there),
 * and nobody signals a word it waits on itself.  Waits that end inside the
 * inline spin of wait.h never reach the services; configurations alternate
 * between spinning and not (tu_spin_polls), and oversubscribed ones never
 * spin, so most waits are checked.
 *
 * Each configuration runs in two batches on fresh pthreads with the same
 * barrier object, as a team context that outlives a parallel region does;
 * the second batch uses gtids different from the tids (gtid = tid + 1000),
 * so an algorithm that passes a gtid where a tid belongs is caught.  Also
 * checked: the accessors report the clamped parameter and the expected
 * number of rounds.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "test_services.h"

#include "barrier_centralized.h"
#include "barrier_dissemination.h"
#include "barrier_hier.h"
#include "barrier_tournament.h"
#include "barrier_tree.h"
#include "bounds.h"
#include "services.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the algorithms under test ------------------------------------------ */

/* hier: domain counts of its layouts and its leaders' m, by default; each
   of its configurations runs 1/LAYERED_SHARE of the episodes. */
#define DEFAULT_DOMAINS "1,2,3,5,64"
#define DEFAULT_LEADER_M "0,1,3"
#define LAYERED_SHARE 10

/* What one configuration hands an algorithm. */
typedef struct setup {
  int n;
  int k; /* the algorithm's parameter */
  int m; /* hier: peers per round of the leaders' dissemination barrier;
            0: the leaders' flat tree */
  const ompext_topo_layout_t *layout; /* hier: the domains; else NULL */
} setup_t;

typedef struct algo {
  const char *name;
  const char *param; /* what k means, NULL when it is ignored */
  size_t (*size)(const setup_t *s);
  void *(*init)(void *mem, const setup_t *s);
  void (*wait)(void *b, int gtid, int tid, unsigned spin_polls);
  /* Checks the accessors of a fresh barrier; returns a message or NULL. */
  const char *(*check)(void *b, const setup_t *s);
  /* Whether the algorithm takes this parameter (the plan never passes
     others, bounds.h); NULL: any.  A -k value it does not take is skipped. */
  int (*accepts)(int k);
  int defaults[8];
  int ndefaults;
  int heavy;   /* O(n) work on one thread per episode: fewer episodes */
  int layered; /* runs over layouts (-d) and leaders' m (-m) too */
} algo_t;

static int ceil_log(long n, long base) {
  int rounds = 0;
  for (long span = 1; span < n; span *= base)
    ++rounds;
  return rounds;
}

static int tree_accepts(int k) {
  return k >= OMPEXT_MIN_TREE_K && k <= OMPEXT_MAX_FANIN;
}
static int tournament_accepts(int k) { return k == 0 || tree_accepts(k); }
static int dissemination_accepts(int k) { return k >= 1 && k <= OMPEXT_MAX_M; }
static int hier_accepts(int k) { return k >= 1 && k <= OMPEXT_MAX_FANIN; }

/* tree */
static size_t tree_size(const setup_t *s) {
  return ompext_barrier_tree_size(s->n);
}
static void *tree_init(void *mem, const setup_t *s) {
  return ompext_barrier_tree_init(mem, s->n, s->k);
}
static void tree_wait(void *b, int gtid, int tid, unsigned spin) {
  ompext_barrier_tree_wait(b, gtid, tid, spin);
}
static const char *tree_check(void *b, const setup_t *s) {
  return ompext_barrier_tree_fanin(b) == s->k ? NULL : "fan-in not as given";
}

/* tournament */
static size_t tournament_size(const setup_t *s) {
  return ompext_barrier_tournament_size(s->n);
}
static void *tournament_init(void *mem, const setup_t *s) {
  return ompext_barrier_tournament_init(mem, s->n, s->k);
}
static void tournament_wait(void *b, int gtid, int tid, unsigned spin) {
  ompext_barrier_tournament_wait(b, gtid, tid, spin);
}
static const char *tournament_check(void *b, const setup_t *s) {
  if (ompext_barrier_tournament_fanout(b) != s->k)
    return "release fan-out not as given";
  if (ompext_barrier_tournament_rounds(b) != ceil_log(s->n, 2))
    return "rounds != ceil(log2 n)";
  return NULL;
}

/* centralized */
static size_t centralized_size(const setup_t *s) {
  return ompext_barrier_centralized_size(s->n);
}
static void *centralized_init(void *mem, const setup_t *s) {
  return ompext_barrier_centralized_init(mem, s->n);
}
static void centralized_wait(void *b, int gtid, int tid, unsigned spin) {
  ompext_barrier_centralized_wait(b, gtid, tid, spin);
}

/* dissemination */
static size_t dissemination_size(const setup_t *s) {
  return ompext_barrier_dissemination_size(s->n, s->k);
}
static void *dissemination_init(void *mem, const setup_t *s) {
  return ompext_barrier_dissemination_init(mem, s->n, s->k);
}
static void dissemination_wait(void *b, int gtid, int tid, unsigned spin) {
  ompext_barrier_dissemination_wait(b, gtid, tid, spin);
}
static const char *dissemination_check(void *b, const setup_t *s) {
  return ompext_barrier_dissemination_rounds(b) == ceil_log(s->n, s->k + 1)
             ? NULL
             : "rounds != ceil(log_{m+1} n)";
}

/* hierarchical: k-ary trees in the domains, m-ary dissemination above, or
   with m = 0 a flat combining tree rooted at tid 0 (an oversubscribed
   team's) */
static ompext_barrier_plan_t hier_across(const setup_t *s) {
  const int flat_k = tu_layout_domains(s->layout) - 1;
  return (ompext_barrier_plan_t){
      .alg = s->m ? OMPEXT_BARRIER_DISSEMINATION : OMPEXT_BARRIER_TREE,
      .dissem_m = s->m,
      .tree_k = flat_k < OMPEXT_MIN_TREE_K ? OMPEXT_MIN_TREE_K : flat_k};
}
static size_t hier_size(const setup_t *s) {
  const ompext_barrier_plan_t across = hier_across(s);
  return ompext_barrier_hier_size(s->layout, &across);
}
static void *hier_init(void *mem, const setup_t *s) {
  const ompext_barrier_plan_t across = hier_across(s);
  return ompext_barrier_hier_init(mem, s->layout, s->k, &across);
}
static void hier_wait(void *b, int gtid, int tid, unsigned spin) {
  ompext_barrier_hier_wait(b, gtid, tid, spin);
}

static const algo_t algos[] = {
    {"tree",
     "k",
     tree_size,
     tree_init,
     tree_wait,
     tree_check,
     tree_accepts,
     {2, 3, 4, 8},
     4,
     0,
     0},
    {"tournament",
     "k",
     tournament_size,
     tournament_init,
     tournament_wait,
     tournament_check,
     tournament_accepts,
     {0, 4},
     2,
     0,
     0},
    {"centralized",
     NULL,
     centralized_size,
     centralized_init,
     centralized_wait,
     NULL,
     NULL,
     {0},
     1,
     1,
     0},
    {"dissemination",
     "m",
     dissemination_size,
     dissemination_init,
     dissemination_wait,
     dissemination_check,
     dissemination_accepts,
     {1, 3},
     2,
     0,
     0},
    {"hier",
     "k",
     hier_size,
     hier_init,
     hier_wait,
     NULL,
     hier_accepts,
     {1, 2, 4},
     3,
     0,
     1},
};
#define NALGOS ((int)(sizeof(algos) / sizeof(algos[0])))

/* ---- protocol checker around the harness's services ---------------------- */

/* The second batch runs with gtid = tid + GTID_OFFSET, so a gtid passed
   where a tid belongs shows; teams stay far below it, so tid = gtid %
   GTID_OFFSET in both batches. */
#define GTID_OFFSET 1000

/* Set by the main thread before each configuration runs (thread creation
   orders them before the workers' reads). */
static const ompext_services_t *inner;
static char *cur_mem;
static size_t cur_bytes;
static _Atomic int *cur_owner; /* [cur_bytes / 8]: waiter tid, -1 unknown */
static int cur_n;
static const char *cur_name;

static void check_word(const char *what, int gtid, int waiter,
                       ompext_flag_word_t *word) {
  const char *p = (const char *)word;
  if (p < cur_mem || p >= cur_mem + cur_bytes || (p - cur_mem) % 8 != 0) {
    tu_fail("%s n=%d: %s by gtid %d on word %p outside the barrier's memory",
            cur_name, cur_n, what, gtid, (void *)word);
    return;
  }
  if (waiter < 0 || waiter >= cur_n) {
    tu_fail("%s n=%d: %s by gtid %d names waiter tid %d", cur_name, cur_n,
            what, gtid, waiter);
    return;
  }
  size_t index = (size_t)(p - cur_mem) / 8;
  int seen = -1;
  /* Relaxed: only the value matters; the harness orders the words. */
  if (!atomic_compare_exchange_strong_explicit(&cur_owner[index], &seen,
                                               waiter, memory_order_relaxed,
                                               memory_order_relaxed) &&
      seen != waiter)
    tu_fail("%s n=%d: word at offset %zu has two waiters, tids %d and %d "
            "(%s by gtid %d)",
            cur_name, cur_n, index * 8, seen, waiter, what, gtid);
}

static void checked_wait(int gtid, ompext_flag_word_t *word, uint64_t expect,
                         int final_spin) {
  check_word("wait", gtid, gtid % GTID_OFFSET, word);
  inner->wait(gtid, word, expect, final_spin);
}

static void checked_release(int gtid, int waiter_tid,
                            ompext_flag_word_t *word) {
  if (waiter_tid == gtid % GTID_OFFSET)
    tu_fail("%s n=%d: tid %d signals a word it waits on itself", cur_name,
            cur_n, waiter_tid);
  check_word("release", gtid, waiter_tid, word);
  inner->release(gtid, waiter_tid, word);
}

static ompext_services_t checking;

/* ---- one configuration ---------------------------------------------------- */

typedef struct run {
  const algo_t *algo;
  void *barrier;
  tu_arrival_t *arrivals;
  setup_t s;
  const char *what; /* the configuration but n, for messages */
  tu_batch_t batch; /* the second batch runs with gtids offset */
  uint64_t seed;
  _Atomic unsigned long checks;
} run_t;

static void worker(int tid, void *p) {
  run_t *r = p;
  const int n = r->s.n;
  const int gtid = (r->batch.second ? GTID_OFFSET : 0) + tid;
  tu_rng_t rng;
  tu_rng_seed(&rng, r->seed,
              ((uint64_t)(r->algo - algos) * 65536 + (uint64_t)n * 128 +
               (uint64_t)r->s.k) ^
                  ((uint64_t)r->s.m << 24) ^
                  ((uint64_t)tu_layout_domains(r->s.layout) << 32),
              (uint64_t)r->batch.first * 1024 + (uint64_t)tid);
  unsigned long checks = 0;
  for (long e = r->batch.first; e <= r->batch.last; ++e) {
    tu_random_delay(&rng, 20);
    tu_arrive(r->arrivals, tid, e);
    r->algo->wait(r->barrier, gtid, tid, r->batch.spin);
    if (tu_rng_next(&rng) % 4 == 0)
      tu_random_delay(&rng, 20);
    checks += tu_check_arrivals(r->arrivals, n, tid, e, r->what);
  }
  atomic_fetch_add_explicit(&r->checks, checks, memory_order_relaxed);
}

/* Episodes for a team of n: the base up to 16 threads, then 16/n of it,
   since threads outnumber the cores and every episode costs context
   switches (and the checks grow with n); a share of that for an algorithm
   that also runs over layouts, whose configurations are many. */
static long episodes_for(const tu_options_t *o, const algo_t *a, int n) {
  long e = o->episodes;
  if (n > 16)
    e = e * 16 / n;
  if (a->heavy && n > 16)
    e /= 2;
  if (a->layered)
    e /= LAYERED_SHARE;
  return e < 20 ? (o->episodes < 20 ? o->episodes : 20) : e;
}

typedef struct totals {
  unsigned configs;
  unsigned long thread_episodes, checks;
  double seconds;
} totals_t;

/* "tree k=2", "hier k=2 m=1 domains 2 (0 2 | 1 3)": s but n. */
static void name_setup(const algo_t *a, const setup_t *s, char *buf,
                       size_t cap) {
  char param[32] = "", tids[512] = "";
  if (a->param)
    snprintf(param, sizeof(param), " %s=%d", a->param, s->k);
  if (!a->layered) {
    snprintf(buf, cap, "%s%s", a->name, param);
    return;
  }
  tu_layout_describe(s->layout, tids, sizeof(tids));
  snprintf(buf, cap, "%s%s m=%d domains %d (%s)", a->name, param, s->m,
           tu_layout_domains(s->layout), tids);
}

static void run_config(const tu_options_t *o, const algo_t *a,
                       const setup_t *s, unsigned index, totals_t *t) {
  const ompext_services_t *svc = psvc_table();
  const int n = s->n;
  char what[600];
  name_setup(a, s, what, sizeof(what));
  const size_t bytes = a->size(s);
  char *mem = svc->alloc(bytes);
  tu_arrival_t *arrivals = svc->alloc((size_t)n * sizeof(tu_arrival_t));
  _Atomic int *owner = svc->alloc((bytes / 8 + 1) * sizeof(_Atomic int));
  if (!mem || !arrivals || !owner)
    tu_fatal("out of memory");
  for (size_t i = 0; i < bytes / 8 + 1; ++i)
    atomic_init(&owner[i], -1);
  void *b = a->init(mem, s);
  if (b != mem)
    tu_fail("%s n=%d: init did not return its memory", what, n);
  const char *bad = a->check ? a->check(b, s) : NULL;
  if (bad)
    tu_fail("%s n=%d: %s", what, n, bad);

  const long episodes = episodes_for(o, a, n);
  tu_set_context("%s n=%d", what, n);
  cur_mem = mem;
  cur_bytes = bytes;
  cur_owner = owner;
  cur_n = n;
  cur_name = what;
  run_t r = {.algo = a, .barrier = b, .arrivals = arrivals, .s = *s,
             .what = what, .seed = o->seed};
  atomic_init(&r.checks, 0);
  double start = tu_now();
  tu_run_two_batches(n, episodes, o, index, worker, &r, &r.batch);
  double seconds = tu_now() - start;

  t->configs++;
  t->checks += atomic_load_explicit(&r.checks, memory_order_relaxed);
  t->thread_episodes += (unsigned long)n * (unsigned long)episodes;
  t->seconds += seconds;
  if (o->verbose)
    printf("n=%-3d episodes=%-5ld %5.2f s  %s\n", n, episodes, seconds, what);
  svc->free_mem(owner);
  svc->free_mem(arrivals);
  svc->free_mem(mem);
}

/* Every k, leaders' m and domain count of an algorithm over layouts, but
   m only once with one domain and k only once with one tid per domain. */
static void run_layered(const tu_options_t *o, const algo_t *a,
                        const int *ks, int nks, unsigned *index,
                        totals_t *t) {
  for (int ni = 0; ni < o->nthreads; ++ni) {
    const int n = o->threads[ni];
    int seen[TU_MAX_LIST], nseen = 0;
    for (int di = 0; di < o->ndomains; ++di) {
      const int nd = o->domains[di] < n ? o->domains[di] : n;
      if (!tu_first_time(seen, &nseen, nd))
        continue;
      ompext_topo_layout_t *layout =
          tu_layout_new(n, nd, tu_mix64(o->seed + *index));
      for (int ki = 0; ki < nks && (ki == 0 || nd < n); ++ki)
        for (int mi = 0; mi < o->nmlist && (mi == 0 || nd > 1);
             ++mi, *index += 2)
          run_config(o, a, &(setup_t){n, ks[ki], o->mlist[mi], layout},
                     *index, t);
      free(layout);
    }
  }
}

int main(int argc, char **argv) {
  tu_options_t o = {.episodes = 1000, .seed = 1, .pin = 2, .timeout_s = 30};
  tu_default_threads(&o);
  o.ndomains = tu_parse_list(DEFAULT_DOMAINS, 1, o.domains, TU_MAX_LIST);
  o.nmlist = tu_parse_list(DEFAULT_LEADER_M, 0, o.mlist, TU_MAX_LIST);
  tu_parse_options(
      argc, argv, &o,
      "  -f A1,A2,...     algorithms: tree, tournament, centralized,\n"
      "                   dissemination, hier (default: all five)\n"
      "  -k K1,K2,...     parameter list for every algorithm that takes one\n"
      "                   (default: tree 2,3,4,8; tournament 0,4;\n"
      "                   dissemination 1,3; hier 1,2,4); the episodes of -e\n"
      "                   apply up to 16 threads, larger teams run 16/n of\n"
      "                   them, hier a share of that\n"
      "  -d D1,D2,...     hier: domain counts of the layouts (default "
      DEFAULT_DOMAINS ")\n"
      "  -m M1,M2,...     hier: peers per round of the leaders' barrier\n"
      "                   (0: a flat tree rooted at tid 0)\n"
      "                   (default " DEFAULT_LEADER_M ")\n");
  setvbuf(stdout, NULL, _IOLBF, 0); /* progress lines survive a hang */
  if (tu_services_install() != 0)
    return 1;
  inner = psvc_table();
  checking = *inner;
  checking.wait = checked_wait;
  checking.release = checked_release;
  if (ompext_services_install(&checking) != 0) {
    fprintf(stderr, "the checking services table was refused\n");
    return 1;
  }

  int chosen[NALGOS] = {0};
  if (o.text) {
    char buf[256];
    snprintf(buf, sizeof(buf), "%s", o.text);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
      int found = 0;
      for (int i = 0; i < NALGOS; ++i)
        if (!strcmp(tok, algos[i].name))
          chosen[i] = found = 1;
      if (!found) {
        fprintf(stderr, "unknown algorithm '%s'\n", tok);
        return 2;
      }
    }
  } else {
    for (int i = 0; i < NALGOS; ++i)
      chosen[i] = 1;
  }

  const double start = tu_now();
  totals_t all = {0};
  unsigned index = 0;
  for (int ai = 0; ai < NALGOS; ++ai) {
    if (!chosen[ai])
      continue;
    const algo_t *a = &algos[ai];
    const int *ks = a->defaults;
    int nks = a->ndefaults;
    int accepted[TU_MAX_LIST];
    if (a->param && o.nlist > 0) {
      nks = 0;
      for (int i = 0; i < o.nlist; ++i)
        if (!a->accepts || a->accepts(o.list[i]))
          accepted[nks++] = o.list[i];
      ks = accepted;
    }
    totals_t t = {0};
    unsigned long failures_before = tu_failures();
    if (a->layered)
      run_layered(&o, a, ks, nks, &index, &t);
    else
      for (int ki = 0; ki < nks; ++ki)
        for (int ni = 0; ni < o.nthreads; ++ni, index += 2)
          run_config(&o, a, &(setup_t){o.threads[ni], ks[ki], 0, NULL},
                     index, &t);
    printf("  %-13s %3u configurations, %8lu thread-episodes, %9lu checks, "
           "%lu violations, %5.1f s\n",
           a->name, t.configs, t.thread_episodes, t.checks,
           tu_failures() - failures_before, t.seconds);
    all.configs += t.configs;
    all.thread_episodes += t.thread_episodes;
    all.checks += t.checks;
  }
  unsigned long bad = tu_failures();
  printf("validate_barrier_alternatives: %u configurations, %lu "
         "thread-episodes, %lu checks, %lu violations, %.1f s\n",
         all.configs, all.thread_episodes, all.checks, bad, tu_now() - start);
  return bad ? 1 : 0;
}
