/*
 * The plan checks of the fuzz targets (see plan_bounds.h), the same bounds
 * tests/unit/check_plan.c checks for the built-in parameter sets.  The
 * team sizes cover a few threads, each side of the fan-in bound and a
 * larger team.  None is 1: the runtime prepares a team context in its fork
 * barrier, which a team of one thread never reaches (and such a team needs
 * no reduction level).
 */
#include "plan_bounds.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int team_sizes[] = {2, 3, 5, 8, 17, 33, 64, 66, 130};

void fuzz_fail(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s:%d: ", file, line);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort();
}

static int within(long v, long lo, long hi) { return v >= lo && v <= hi; }

static void check_plan(const ompext_plan_t *p, int n, int oversubscribed) {
  FUZZ_REQUIRE(p->nproc == n && p->oversubscribed == oversubscribed,
               "n=%d: plan for %d threads", n, p->nproc);
  const ompext_barrier_plan_t *b = &p->barrier;
  FUZZ_REQUIRE(
      within(b->alg, OMPEXT_BARRIER_DISSEMINATION, OMPEXT_BARRIER_CENTRALIZED),
      "n=%d: barrier %d", n, (int)b->alg);
  FUZZ_REQUIRE(within(b->dissem_m, 1, OMPEXT_MAX_M), "n=%d: m=%d", n,
               b->dissem_m);
  FUZZ_REQUIRE(within(b->tree_k, OMPEXT_MIN_TREE_K, OMPEXT_MAX_FANIN),
               "n=%d: tree k=%d", n, b->tree_k);
  FUZZ_REQUIRE(b->release_k == 0 ||
                   within(b->release_k, OMPEXT_MIN_TREE_K, OMPEXT_MAX_FANIN),
               "n=%d: release k=%d", n, b->release_k);
  FUZZ_REQUIRE(within(p->forkjoin_fanout, 1, OMPEXT_MAX_FANIN),
               "n=%d: fork/join fan-out %d", n, p->forkjoin_fanout);
  FUZZ_REQUIRE(p->bcast.short_fanout >= 1 && p->bcast.long_fanout >= 1,
               "n=%d: broadcast fan-outs %d/%d", n, p->bcast.short_fanout,
               p->bcast.long_fanout);
  FUZZ_REQUIRE(within(p->bcast.close, OMPEXT_BCAST_CLOSE_AUTO,
                      OMPEXT_BCAST_CLOSE_BARRIER) &&
                   p->bcast.long_ns > 0,
               "n=%d: close %d after %llu ns", n, (int)p->bcast.close,
               (unsigned long long)p->bcast.long_ns);
  FUZZ_REQUIRE(
      within(p->bcast.close_tree_k, OMPEXT_MIN_TREE_K, OMPEXT_MAX_FANIN),
      "n=%d: close k=%d", n, p->bcast.close_tree_k);
  FUZZ_REQUIRE(within(p->reduce_levels, 1, OMPEXT_MAX_LEVELS),
               "n=%d: %d reduction levels", n, p->reduce_levels);
  for (int l = 0; l < p->reduce_levels; ++l)
    FUZZ_REQUIRE(within(p->reduce_fanin[l], 2, OMPEXT_MAX_FANIN),
                 "n=%d: reduction level %d fan-in %d", n, l,
                 p->reduce_fanin[l]);
}

void fuzz_check_plans(const ompext_planner_t *planner) {
  for (size_t i = 0; i < sizeof(team_sizes) / sizeof(team_sizes[0]); ++i) {
    for (int oversubscribed = 0; oversubscribed <= 1; ++oversubscribed) {
      ompext_plan_t plan;
      memset(&plan, 0xa5, sizeof(plan)); /* nothing left over is taken */
      ompext_plan_build(planner, team_sizes[i], oversubscribed, &plan);
      check_plan(&plan, team_sizes[i], oversubscribed);
      char line[1024];
      ompext_plan_describe(planner, &plan, line, sizeof(line));
    }
  }
}
