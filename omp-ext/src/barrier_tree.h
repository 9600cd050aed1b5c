/* k-ary combining tree barrier (see barrier_tree.c). */
#ifndef OMPEXT_BARRIER_TREE_H
#define OMPEXT_BARRIER_TREE_H

#include <stddef.h>

/* Accepted fan-in; other values are clamped into this range. */
#define OMPEXT_TREE_MIN_K 2
#define OMPEXT_TREE_MAX_K 64

typedef struct ompext_tree ompext_tree_t;

/* Bytes a barrier for nproc threads and fan-in k needs. */
size_t ompext_tree_size(int nproc, int k);
/* Lays the barrier out in zeroed, OMPEXT_CACHE_LINE-aligned memory. */
ompext_tree_t *ompext_tree_init(void *mem, int nproc, int k);
/* Returns once all nproc threads have called it for this episode. */
void ompext_tree_wait(ompext_tree_t *b, int gtid, int tid, unsigned spin_polls);
/* The fan-in in use, after clamping. */
int ompext_tree_fanin(const ompext_tree_t *b);

#endif
