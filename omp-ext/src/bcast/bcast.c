/*
 * Copyprivate broadcast façade (see bcast.h): one allocation holding the
 * broadcast tree and its close, so that the team and plugin.c see one
 * object.  The policy lives in the two parts and in the plan: the tree
 * takes the long fan-out and the root asks for the rooted close on the
 * verdict of receivers' timed copies (bcast_close.c), and the plan decides
 * which of that may happen for the team (plan.c).
 */
#include "bcast.h"

#include "bcast_close.h"
#include "bcast_tree.h"
#include "pad.h"
#include "stats.h"

struct ompext_bcast {
  alignas(OMPEXT_CACHE_LINE) ompext_bcast_tree_t *tree; /* read-only */
  ompext_bcast_close_t *close;
};

/* Receivers time their copies: the close may go rooted after long ones, or
   the tree's fan-out depends on them. */
static int times_copies(const ompext_bcast_plan_t *plan) {
  return plan->close == OMPEXT_BCAST_CLOSE_AUTO ||
         plan->long_fanout != plan->short_fanout ||
         plan->long_from_root != plan->short_from_root;
}

size_t ompext_bcast_size(int nproc) {
  return ompext_pad_bytes(sizeof(ompext_bcast_t)) +
         ompext_pad_bytes(ompext_bcast_tree_size(nproc)) +
         ompext_bcast_close_size(nproc);
}

ompext_bcast_t *ompext_bcast_init(void *mem, int nproc,
                                  const ompext_bcast_plan_t *plan) {
  ompext_bcast_t *b = mem;
  char *p = (char *)mem + ompext_pad_bytes(sizeof(*b));
  b->tree =
      ompext_bcast_tree_init(p, nproc, plan->short_fanout, plan->long_fanout);
  ompext_bcast_tree_copy_from_root(b->tree, plan->short_from_root,
                                   plan->long_from_root);
  p += ompext_pad_bytes(ompext_bcast_tree_size(nproc));
  b->close = ompext_bcast_close_init(p, nproc, plan->close_tree_k, plan->close,
                                     plan->long_ns, plan->lead_ns,
                                     times_copies(plan), plan->verbose);
  return b;
}

void ompext_bcast_follow(ompext_bcast_t *b, const ompext_bcast_plan_t *plan) {
  ompext_bcast_tree_set_fanout(b->tree, plan->short_fanout, plan->long_fanout);
  ompext_bcast_tree_copy_from_root(b->tree, plan->short_from_root,
                                   plan->long_from_root);
}

int ompext_bcast_watches_barriers(const ompext_bcast_plan_t *plan) {
  return plan->close != OMPEXT_BCAST_CLOSE_BARRIER || times_copies(plan);
}

void *ompext_bcast_run(ompext_bcast_t *b, int gtid, int tid, int is_root,
                       void *data, ompext_pairfn_t cpy, const void *site,
                       const ompext_topo_layout_t *layout,
                       unsigned spin_polls) {
  return ompext_bcast_tree_run(b->tree, gtid, tid, is_root, data, cpy, site,
                               layout, b->close, spin_polls);
}

int ompext_bcast_close_here(ompext_bcast_t *b, int gtid, int tid,
                            unsigned spin_polls) {
  const int root = ompext_bcast_close_take(b->close, tid);
  if (root < 0)
    return 0;
  ompext_stat_add(OMPEXT_STAT_ROOTED_CLOSE);
  ompext_bcast_close_wait(b->close, gtid, tid, root, spin_polls);
  return 1;
}
