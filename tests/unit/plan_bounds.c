/* The plan's bounds (see plan_bounds.h). */
#include "plan_bounds.h"

#include <stdio.h>

static int within(long v, long lo, long hi) { return v >= lo && v <= hi; }

/* Returns -1 from plan_bounds_check with the message, when cond fails. */
#define REQUIRE(cond, ...)                                                     \
  do {                                                                         \
    if (!(cond)) {                                                             \
      snprintf(why, cap, __VA_ARGS__);                                         \
      return -1;                                                               \
    }                                                                          \
  } while (0)

int plan_bounds_check(const ompext_plan_t *p, char *why, size_t cap) {
  const ompext_barrier_plan_t *b = &p->barrier;
  /* STOCK: an oversubscribed team handing its barriers back (plan.c). */
  REQUIRE(
      within(b->alg, OMPEXT_BARRIER_DISSEMINATION,
             OMPEXT_BARRIER_CENTRALIZED) ||
          (b->alg == OMPEXT_BARRIER_STOCK && p->oversubscribed &&
           !p->domain_barrier),
      "barrier %d", (int)b->alg);
  REQUIRE(within(b->dissem_m, 1, OMPEXT_MAX_M), "m=%d", b->dissem_m);
  REQUIRE(within(b->tree_k, OMPEXT_MIN_TREE_K, OMPEXT_MAX_FANIN),
          "tree k=%d", b->tree_k);
  REQUIRE(b->release_k == 0 ||
              within(b->release_k, OMPEXT_MIN_TREE_K, OMPEXT_MAX_FANIN),
          "release k=%d", b->release_k);
  REQUIRE(within(p->forkjoin_fanout, 1, OMPEXT_MAX_FANIN),
          "fork/join fan-out %d", p->forkjoin_fanout);
  REQUIRE(p->bcast.short_fanout >= 1 && p->bcast.long_fanout >= 1,
          "broadcast fan-outs %d/%d", p->bcast.short_fanout,
          p->bcast.long_fanout);
  REQUIRE(within(p->bcast.close, OMPEXT_BCAST_CLOSE_AUTO,
                 OMPEXT_BCAST_CLOSE_BARRIER) &&
              p->bcast.long_ns > 0,
          "close %d after %llu ns", (int)p->bcast.close,
          (unsigned long long)p->bcast.long_ns);
  REQUIRE(within(p->bcast.close_tree_k, OMPEXT_MIN_TREE_K, OMPEXT_MAX_FANIN),
          "close k=%d", p->bcast.close_tree_k);
  REQUIRE(within(p->reduce_levels, 1, OMPEXT_MAX_LEVELS),
          "%d reduction levels", p->reduce_levels);
  for (int l = 0; l < p->reduce_levels; ++l)
    REQUIRE(within(p->reduce_fanin[l], 2, OMPEXT_MAX_FANIN),
            "reduction level %d fan-in %d", l, p->reduce_fanin[l]);
  return 0;
}
