/*
 * The machine's topology, from hwloc, and the distance classes between PUs.
 *
 * The class of two PUs is the nearest structure they share, found by
 * walking up from their common ancestor in hwloc's tree: a core (SMT
 * siblings), a cache of level 1 or 2, a cache of level 3 or deeper, a
 * package; otherwise only the machine.  Classes are taken relative to one
 * reference PU (the first usable one), which meets every class the machine
 * has when the machine is symmetric.
 *
 * Usable PUs are those in hwloc's topology (which leaves out PUs the
 * cgroup forbids) and in the process's affinity mask (taskset).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "calibrate.h"

#include <hwloc.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const class_names[CAL_NCLASSES] = {
    "local", "smt", "l2", "l3", "package", "machine"};

const char *cal_class_name(int cls) {
  if (cls < 0 || cls >= CAL_NCLASSES)
    return "?";
  return class_names[cls];
}

static hwloc_obj_t pu_obj(const cal_topo_t *t, int idx) {
  return hwloc_get_pu_obj_by_os_index((hwloc_topology_t)t->hw,
                                      (unsigned)t->pu_os[idx]);
}

static int class_of(hwloc_topology_t topo, hwloc_obj_t a, hwloc_obj_t b) {
  if (a == b)
    return CAL_CLASS_LOCAL;
  for (hwloc_obj_t o = hwloc_get_common_ancestor_obj(topo, a, b); o;
       o = o->parent) {
    if (o->type == HWLOC_OBJ_CORE)
      return CAL_CLASS_SMT;
    if (hwloc_obj_type_is_cache(o->type))
      return o->attr->cache.depth <= 2 ? CAL_CLASS_L2 : CAL_CLASS_L3;
    if (o->type == HWLOC_OBJ_PACKAGE)
      return CAL_CLASS_PACKAGE;
  }
  return CAL_CLASS_MACHINE;
}

int cal_topo_class(const cal_topo_t *t, int a, int b) {
  return class_of((hwloc_topology_t)t->hw, pu_obj(t, a), pu_obj(t, b));
}

static hwloc_obj_t core_of(hwloc_topology_t topo, hwloc_obj_t pu) {
  hwloc_obj_t c = hwloc_get_ancestor_obj_by_type(topo, HWLOC_OBJ_CORE, pu);
  return c ? c : pu;
}

int cal_topo_helper(const cal_topo_t *t, int a, int b) {
  hwloc_topology_t topo = (hwloc_topology_t)t->hw;
  hwloc_obj_t ca = core_of(topo, pu_obj(t, a));
  hwloc_obj_t cb = core_of(topo, pu_obj(t, b));
  for (int i = 0; i < t->npu; ++i) {
    hwloc_obj_t ci = core_of(topo, pu_obj(t, i));
    if (ci != ca && ci != cb)
      return i;
  }
  return -1;
}

int cal_primary_class(const cal_topo_t *t) {
  for (int c = CAL_CLASS_PACKAGE; c >= CAL_CLASS_SMT; --c)
    if (t->class_peer[c] >= 0)
      return c;
  if (t->class_peer[CAL_CLASS_MACHINE] >= 0)
    return CAL_CLASS_MACHINE;
  return -1;
}

int cal_topo_load(cal_topo_t *t, char *err, size_t cap) {
  memset(t, 0, sizeof(*t));
  for (int c = 0; c < CAL_NCLASSES; ++c)
    t->class_peer[c] = -1;
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0) {
    snprintf(err, cap, "hwloc_topology_init failed");
    return -1;
  }
  if (hwloc_topology_load(topo) != 0) {
    hwloc_topology_destroy(topo);
    snprintf(err, cap, "hwloc_topology_load failed");
    return -1;
  }
  t->hw = topo;
  t->counts.packages = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PACKAGE);
  t->counts.cores = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_CORE);
  t->counts.pus = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU);
  t->counts.l3s = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_L3CACHE);
  t->numa = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);

  t->line_bytes = 0;
  hwloc_obj_t l1 = hwloc_get_obj_by_type(topo, HWLOC_OBJ_L1CACHE, 0);
  if (l1 && l1->attr && l1->attr->cache.linesize > 0)
    t->line_bytes = (int)l1->attr->cache.linesize;
#ifdef _SC_LEVEL1_DCACHE_LINESIZE
  if (t->line_bytes <= 0) {
    long ls = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
    if (ls > 0 && ls <= 4096)
      t->line_bytes = (int)ls;
  }
#endif
  if (t->line_bytes <= 0)
    t->line_bytes = CAL_LINE;

  cpu_set_t mask;
  CPU_ZERO(&mask);
  int have_mask = sched_getaffinity(0, sizeof(mask), &mask) == 0;

  int npu = t->counts.pus > 0 ? t->counts.pus : 0;
  t->pu_os = calloc((size_t)npu + 1, sizeof(int));
  t->pu_class = calloc((size_t)npu + 1, sizeof(int));
  if (!t->pu_os || !t->pu_class) {
    cal_topo_free(t);
    snprintf(err, cap, "out of memory");
    return -1;
  }
  t->npu = 0;
  for (int i = 0; i < npu; ++i) {
    hwloc_obj_t pu = hwloc_get_obj_by_type(topo, HWLOC_OBJ_PU, (unsigned)i);
    if (!pu)
      continue;
    int os = (int)pu->os_index;
    if (have_mask && (os >= CPU_SETSIZE || !CPU_ISSET(os, &mask)))
      continue;
    t->pu_os[t->npu++] = os;
  }
  if (t->npu == 0) {
    cal_topo_free(t);
    snprintf(err, cap, "no usable processing unit (hwloc and affinity mask)");
    return -1;
  }
  t->ref = 0;
  for (int i = 0; i < t->npu; ++i) {
    int c = cal_topo_class(t, t->ref, i);
    t->pu_class[i] = c;
    t->class_count[c]++;
    if (t->class_peer[c] < 0)
      t->class_peer[c] = i;
  }
  return 0;
}

void cal_topo_free(cal_topo_t *t) {
  if (t->hw)
    hwloc_topology_destroy((hwloc_topology_t)t->hw);
  free(t->pu_os);
  free(t->pu_class);
  memset(t, 0, sizeof(*t));
}
