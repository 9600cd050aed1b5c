/*
 * A plugin that answers only the reduction method, to check what the
 * runtime keeps of its answers (kept_method_checks.c).  Every answer of
 * team_prepare is a new context, malloc'd after freeing the old one, so a
 * team that changes size gets a context at the freed one's address more
 * often than not: a kept answer must not outlive its context even then.
 * Each context answers by its generation (1, 2, ...):
 *   odd:  atomics, marked settled;
 *   even: the lock (libomp's critical method), marked settled;
 *   generation KEPT_TREE_GENERATION: the tree, marked settled,
 *         which the runtime must not keep (no plugin gather runs it).
 * Every call is counted per generation; kept_plugin_calls(gen) reads the
 * count, kept_plugin_context(gen) the context's address and
 * kept_plugin_tree_generation() which generation answers the tree.
 */
#include "ompext/abi.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#define KEPT_GENERATIONS 64
#define KEPT_TREE_GENERATION 5

typedef struct {
  int nproc;
  int generation;
} kept_team_t;

static atomic_int generations;
static atomic_long calls[KEPT_GENERATIONS];
static _Atomic uintptr_t contexts[KEPT_GENERATIONS];

static void *kept_team_prepare(void *old_ctx, int nproc, int *flags) {
  kept_team_t *team = old_ctx;
  if (team && team->nproc == nproc) {
    *flags |= OMPEXT_PREPARE_SETTLED;
    return team;
  }
  free(team);
  team = malloc(sizeof(*team));
  if (!team)
    return NULL;
  team->nproc = nproc;
  /* Relaxed: only the primary prepares, with every worker parked; the
     fork's release publishes the context and its fields. */
  team->generation =
      atomic_fetch_add_explicit(&generations, 1, memory_order_relaxed) + 1;
  if (team->generation < KEPT_GENERATIONS)
    atomic_store_explicit(&contexts[team->generation], (uintptr_t)team,
                          memory_order_relaxed);
  *flags |= OMPEXT_PREPARE_SETTLED;
  return team;
}

static void kept_team_free(void *ctx) { free(ctx); }

static int kept_reduce_method(void *ctx, int gtid, int tid, const void *key,
                              unsigned allowed) {
  (void)gtid, (void)tid, (void)key, (void)allowed;
  const int gen = ((kept_team_t *)ctx)->generation;
  if (gen < KEPT_GENERATIONS)
    /* Relaxed: a count, read after the threads joined. */
    atomic_fetch_add_explicit(&calls[gen], 1, memory_order_relaxed);
  if (gen == KEPT_TREE_GENERATION)
    return OMPEXT_REDUCE_METHOD_TREE | OMPEXT_REDUCE_METHOD_SETTLED;
  return (gen % 2 ? OMPEXT_REDUCE_METHOD_ATOMIC
                  : OMPEXT_REDUCE_METHOD_CRITICAL) |
         OMPEXT_REDUCE_METHOD_SETTLED;
}

static const ompext_ops_t kept_ops = {
    .abi_version = OMPEXT_ABI_VERSION,
    .size = sizeof(ompext_ops_t),
    .name = "omp-ext test plugin: reduction methods only",
    .team_prepare = kept_team_prepare,
    .team_free = kept_team_free,
    .reduce_method = kept_reduce_method,
};

__attribute__((visibility("default"))) const ompext_ops_t *
ompext_get_ops(uint32_t runtime_abi) {
  (void)runtime_abi;
  return &kept_ops;
}

__attribute__((visibility("default"))) long kept_plugin_calls(int gen) {
  return gen > 0 && gen < KEPT_GENERATIONS
             ? atomic_load_explicit(&calls[gen], memory_order_relaxed)
             : -1;
}

__attribute__((visibility("default"))) uintptr_t kept_plugin_context(int gen) {
  return gen > 0 && gen < KEPT_GENERATIONS
             ? atomic_load_explicit(&contexts[gen], memory_order_relaxed)
             : 0;
}

__attribute__((visibility("default"))) int kept_plugin_tree_generation(void) {
  return KEPT_TREE_GENERATION;
}

__attribute__((visibility("default"))) int kept_plugin_generations(void) {
  return atomic_load_explicit(&generations, memory_order_relaxed);
}
