/*
 * Plugins that misbehave (issue "Bad input never hangs or misleads"), one
 * per BAD_* definition: their fork/join tree does not span the team, or
 * their ops table has the wrong size.  The runtime must notice, warn once,
 * and run on its own paths: the fallback tree for the fork and join, or no
 * plugin at all.  Every other op is NULL (stock).
 *   BAD_TREE_NEGATIVE      tree() answers -5
 *   BAD_TREE_TOO_MANY      tree() answers more children than the array holds
 *   BAD_TREE_OUT_OF_RANGE  tid 0 lists a child beyond the team
 *   BAD_TREE_NOT_SPANNING  tid 0 leaves the last tid out
 *   BAD_OPS_SIZE           a valid tree, an ops table 8 bytes short
 */
#include "ompext/abi.h"

#include <stdlib.h>

typedef struct {
  int nproc;
} bad_team_t;

static void *bad_team_prepare(void *old_ctx, int nproc, int *flags) {
  bad_team_t *team = old_ctx;
  if (team && team->nproc == nproc)
    return team;
  free(team);
  team = malloc(sizeof(*team));
  if (team)
    team->nproc = nproc;
  *flags |= OMPEXT_PREPARE_TREE_CHANGED; /* never settled: asked at each fork */
  return team;
}

static void bad_team_free(void *ctx) { free(ctx); }

/* A flat tree rooted at tid 0, but for the defect chosen. */
static int bad_tree(void *ctx, int tid, int self, int *parent, int *children,
                    int cap) {
  (void)self;
  const int nproc = ((bad_team_t *)ctx)->nproc;
  int n = 0;
  *parent = tid ? 0 : -1;
  if (tid != 0)
    return 0;
  for (int c = 1; c < nproc && n < cap; ++c)
    children[n++] = c;
#if defined(BAD_TREE_NEGATIVE)
  return -5;
#elif defined(BAD_TREE_TOO_MANY)
  return cap + 1;
#elif defined(BAD_TREE_OUT_OF_RANGE)
  if (n > 0)
    children[n - 1] = nproc;
#elif defined(BAD_TREE_NOT_SPANNING)
  if (n > 0)
    --n;
#endif
  return n;
}

static const ompext_ops_t bad_ops = {
    .abi_version = OMPEXT_ABI_VERSION,
#if defined(BAD_OPS_SIZE)
    .size = sizeof(ompext_ops_t) - 8,
#else
    .size = sizeof(ompext_ops_t),
#endif
    .name = "omp-ext test plugin that misbehaves",
    .team_prepare = bad_team_prepare,
    .team_free = bad_team_free,
    .tree = bad_tree,
};

__attribute__((visibility("default"))) const ompext_ops_t *
ompext_get_ops(uint32_t runtime_abi) {
  (void)runtime_abi;
  return &bad_ops;
}
