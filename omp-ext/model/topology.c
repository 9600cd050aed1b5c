/*
 * The topology the model prices a team on (see model.h and placed.h).
 *
 * The description is the one OMPEXT_TOPOLOGY gives the plugin, hwloc's
 * synthetic format ("package:2 core:32 pu:1": levels from the top, each
 * TYPE:COUNT per object of the level above), read here by hand: the model
 * needs only the plugin's domains (topology.h in omp-ext/src: a package,
 * or its L3 caches when it has several) and the cores of each.  The
 * plugin's rule of at most 4096 PUs holds here too.
 *
 * Placement: one thread per core, thread t on core t (OMP_PLACES=cores,
 * OMP_PROC_BIND=close), so on domain t / cores.  PUs beyond one per core
 * host no further thread.
 *
 * Pricing: a transfer between threads of one domain costs R_R, between
 * two domains R_X (Ramos and Hoefler's R_{P,*} and R_{N,*}, Table 1.8).
 * The trees' longest paths are taken over every thread, as the tests'
 * brute force counts them: on a topology the critical node of a level is
 * no longer tid 0, whose children may all be local while another parent's
 * cross.  T_C and T_N, fitted inside one package, are kept: only the
 * single-line transfers change.
 */
#include "placed.h"

#include "cost_pair.h"
#include "errorf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PUS 4096
#define MAX_LEVELS 16

/* ---- the description ---------------------------------------------------- */

typedef enum { ABOVE, PACKAGE, L3, BETWEEN, CORE, PU } level_kind_t;

/* Whether the len characters at s spell name, in any case. */
static int spells(const char *s, size_t len, const char *name) {
  if (strlen(name) != len)
    return 0;
  for (size_t i = 0; i < len; ++i)
    if (tolower((unsigned char)s[i]) != name[i])
      return 0;
  return 1;
}

/* hwloc's type names (and their common short forms), by what they are to
   the plugin's domains. */
static int kind_of(const char *type, size_t len, level_kind_t *out) {
  static const struct {
    const char *name;
    level_kind_t kind;
  } types[] = {{"group", ABOVE},    {"numa", BETWEEN},   {"numanode", BETWEEN},
               {"node", BETWEEN},   {"package", PACKAGE}, {"socket", PACKAGE},
               {"die", BETWEEN},    {"l3cache", L3},      {"l3", L3},
               {"l2cache", BETWEEN}, {"l2", BETWEEN},     {"l1cache", BETWEEN},
               {"l1", BETWEEN},     {"l1d", BETWEEN},     {"core", CORE},
               {"pu", PU}};
  for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); ++i)
    if (spells(type, len, types[i].name)) {
      *out = types[i].kind;
      return 0;
    }
  return -1;
}

typedef struct level {
  level_kind_t kind;
  long count;
} level_t;

/* Splits desc into levels.  0, or -1 with a message. */
static int read_levels(const char *desc, level_t *levels, int *count,
                       char *err, size_t cap) {
  *count = 0;
  for (const char *s = desc;;) {
    while (isspace((unsigned char)*s))
      ++s;
    if (!*s)
      return 0;
    const char *tok = s;
    while (*s && !isspace((unsigned char)*s))
      ++s;
    const int toklen = (int)(s - tok);
    const char *colon = memchr(tok, ':', (size_t)toklen);
    level_t l;
    if (!colon || kind_of(tok, (size_t)(colon - tok), &l.kind) != 0) {
      errorf(err, cap,
             "'%.*s' is not TYPE:COUNT with TYPE one of package, core, pu, "
             "l3cache, l2cache, l1cache, die, numa, group",
             toklen, tok);
      return -1;
    }
    char *end;
    l.count = strtol(colon + 1, &end, 10);
    if (!isdigit((unsigned char)colon[1]) || end != s || l.count < 1 ||
        l.count > MAX_PUS) {
      errorf(err, cap,
             "'%.*s': the count must be a whole number from 1 to %d (no "
             "attributes)",
             toklen, tok, MAX_PUS);
      return -1;
    }
    if (*count == MAX_LEVELS) {
      errorf(err, cap, "more than %d levels", MAX_LEVELS);
      return -1;
    }
    levels[(*count)++] = l;
  }
}

/* Objects of the level at index i: the counts down to it, multiplied. */
static long objects(const level_t *levels, int i) {
  long n = 1;
  for (int j = 0; j <= i; ++j)
    n *= levels[j].count;
  return n;
}

static int find(const level_t *levels, int count, level_kind_t kind) {
  for (int i = 0; i < count; ++i)
    if (levels[i].kind == kind)
      return i;
  return -1;
}

int ompext_model_topology_parse(const char *desc, ompext_model_topology_t *out,
                                char *err, size_t errcap) {
  level_t levels[MAX_LEVELS];
  int count;
  if (!desc || read_levels(desc, levels, &count, err, errcap) != 0)
    return -1;
  const int core = find(levels, count, CORE), pkg = find(levels, count, PACKAGE),
            l3 = find(levels, count, L3), pu = find(levels, count, PU);
  if (core < 0) {
    errorf(err, errcap, "'%s' has no core level (e.g. package:2 core:32 pu:1)",
           desc);
    return -1;
  }
  if ((pu >= 0 && pu != count - 1) || core < count - 1 - (pu >= 0) ||
      (pkg > core) || (l3 > core)) {
    errorf(err, errcap,
           "'%s': the levels must go from the top down to core, then pu "
           "(e.g. package:2 l3cache:1 core:32 pu:1)",
           desc);
    return -1;
  }
  for (int i = 0; i < count; ++i)
    for (int j = i + 1; j < count; ++j)
      if (levels[i].kind == levels[j].kind && levels[i].kind != BETWEEN &&
          levels[i].kind != ABOVE) {
        errorf(err, errcap, "'%s' names one level twice", desc);
        return -1;
      }
  long pus = objects(levels, core);
  if (pus <= MAX_PUS && pu >= 0)
    pus *= levels[pu].count;
  if (pus > MAX_PUS) {
    errorf(err, errcap,
           "'%s' has more than %d PUs (the plugin refuses such a description "
           "too)",
           desc, MAX_PUS);
    return -1;
  }
  /* The plugin's domains: packages (a description without one: the
     machine), or the L3 caches of a package that has several. */
  const long boxes = pkg >= 0 ? objects(levels, pkg) : 1;
  const long caches = l3 >= 0 ? objects(levels, l3) : 0;
  const int split = l3 > pkg && caches >= 2 * boxes;
  const long domains = split ? caches : boxes;
  memset(out, 0, sizeof(*out));
  out->packages = (int)domains;
  out->cores = (int)(objects(levels, core) / domains);
  out->pus = pu >= 0 ? (int)levels[pu].count : 1;
  snprintf(out->kind, sizeof(out->kind), "%s",
           split ? "l3cache" : pkg >= 0 ? "package" : "machine");
  return 0;
}

int ompext_model_topology_package(const ompext_model_topology_t *t, int tid) {
  return t && t->cores > 0 ? tid / t->cores : 0;
}

int ompext_model_topology_spans(const ompext_model_topology_t *t, int n) {
  return t && t->packages > 1 && n > t->cores;
}

/* ---- transfers ------------------------------------------------------------ */

double ompext_model_placed_transfer(const ompext_model_params_t *p,
                                    const ompext_model_topology_t *t, int a,
                                    int b) {
  return ompext_model_topology_package(t, a) ==
                 ompext_model_topology_package(t, b)
             ? p->r_r
             : p->r_x;
}

placed_line_t ompext_model_placed_line(const ompext_model_params_t *p,
                                       const ompext_model_topology_t *t,
                                       int n) {
  placed_line_t l = {0, p->r_r, 0};
  for (int tid = 1; tid < n; ++tid)
    l.remote += ompext_model_topology_package(t, tid) !=
                ompext_model_topology_package(t, 0);
  /* Without a topology exactly (n-1) R_R, as the flat equations have it. */
  l.others = (n - 1 - l.remote) * p->r_r + l.remote * p->r_x;
  if (l.remote)
    l.far = p->r_x;
  return l;
}

/* The reductions through one shared line, cost.c's with each thread's
   transfer of that line at its own cost:
   atomics   T_nb(n) + (I-1)(n-1) R_R + combines (worst case I T_nb(n) +
             combines), each of the n-1 others' hand-offs placed;
   the lock  the first thread reads the lock line from memory (R_I), each
             later one fetches it from the previous holder (R_R in tid 0's
             package, R_X for the rest: the holders taken package by
             package), then copies and combines (T_N) and releases (R_L;
             worst case T_C(n)). */
static ompext_model_cost_t atomics(const ompext_model_params_t *p,
                                   placed_line_t l, int n, double lines) {
  const double items = ompext_model_reduce_items(p, lines);
  const ompext_model_cost_t nb = cost(p->r_i + l.others, p->r_i + 2 * l.others);
  const double combine = (n - 1) * items * p->r_l;
  return cost(nb.min + (items - 1) * l.others + combine,
              items * nb.max + combine);
}

static ompext_model_cost_t one_lock(const ompext_model_params_t *p,
                                    placed_line_t l, int n, double lines) {
  const double tn = ompext_model_tn(p, lines), lock = p->r_i + l.others;
  return cost(lock + n * (tn + p->r_l),
              lock + n * (ompext_model_tc(p, n) + tn));
}

ompext_model_cost_t ompext_model_placed_reduce_line(
    const ompext_model_params_t *p, const ompext_model_topology_t *t, int n,
    double lines, int lock) {
  if (n < 2 || lines < 1)
    return INVALID_COST;
  const placed_line_t l = ompext_model_placed_line(p, t, n);
  return lock ? one_lock(p, l, n, lines) : atomics(p, l, n, lines);
}

/* ---- the longest paths of a tree ---------------------------------------- */

/* A parent's step over its c children (cost.c's G and S, each line at its
   own transfer's cost; the one extra line of each, the setter taking its
   flag back in G's worst case and the last poller's re-read in S, is the
   last child's, the farthest):
     G  min  R_L + sum r            max  r_last + 2 sum r
     S  min  sum r + r_last         max  2 sum r + r_last */
static ompext_model_cost_t step(const ompext_model_params_t *p,
                                const placed_tree_t *tree, int parent,
                                const int *kids, int c, int gather) {
  double sum = 0;
  for (int i = 0; i < c; ++i)
    sum += ompext_model_placed_transfer(p, tree->topo, parent, kids[i]);
  const double last =
      ompext_model_placed_transfer(p, tree->topo, parent, kids[c - 1]);
  return gather ? cost(p->r_l + sum, last + 2 * sum)
                : cost(sum + last, 2 * sum + last);
}

/* Scratch of a walk: the children of one step and a time per thread (min
   and max side by side). */
typedef struct walk {
  int *kids;
  ompext_model_cost_t *at;
} walk_t;

static void walk_close(walk_t *w) {
  free(w->kids);
  free(w->at);
}

/* 0, or -1 (a tree of fewer than 2, out of memory) with nothing held. */
static int walk_open(walk_t *w, int n) {
  w->kids = n < 2 ? NULL : malloc(sizeof(int) * (size_t)n);
  w->at = n < 2 ? NULL : calloc((size_t)n, sizeof(ompext_model_cost_t));
  if (w->kids && w->at)
    return 0;
  walk_close(w);
  return -1;
}

static ompext_model_cost_t later(ompext_model_cost_t a, ompext_model_cost_t b) {
  return cost(a.min > b.min ? a.min : b.min, a.max > b.max ? a.max : b.max);
}

ompext_model_cost_t ompext_model_placed_gather(const ompext_model_params_t *p,
                                               const placed_tree_t *tree,
                                               double combine_lines) {
  walk_t w;
  if (walk_open(&w, tree->n) != 0)
    return INVALID_COST;
  const double combine =
      combine_lines > 0 ? ompext_model_tn(p, combine_lines) : 0.0;
  /* Children have larger tids: theirs are final when a parent waits. */
  for (int tid = tree->n - 1; tid >= 0; --tid) {
    ompext_model_cost_t ready = cost(0, 0);
    for (int level = 0; level < tree->levels; ++level) {
      const int c = tree->children(tree, tid, level, w.kids);
      for (int i = 0; i < c; ++i)
        ready = later(ready, w.at[w.kids[i]]);
      if (c > 0)
        ready = add(add(ready, step(p, tree, tid, w.kids, c, 1)),
                    cost(c * combine, c * combine));
    }
    w.at[tid] = ready;
  }
  const ompext_model_cost_t done = w.at[0];
  walk_close(&w);
  return done;
}

ompext_model_cost_t ompext_model_placed_release(const ompext_model_params_t *p,
                                                const placed_tree_t *tree) {
  walk_t w;
  if (walk_open(&w, tree->n) != 0)
    return INVALID_COST;
  ompext_model_cost_t end = cost(0, 0);
  /* Parents have smaller tids: a thread's start is known when it runs. */
  for (int tid = 0; tid < tree->n; ++tid) {
    ompext_model_cost_t now = w.at[tid];
    for (int level = tree->levels - 1; level >= 0; --level) {
      const int c = tree->children(tree, tid, level, w.kids);
      if (c == 0)
        continue;
      now = add(now, step(p, tree, tid, w.kids, c, 0));
      for (int i = 0; i < c; ++i)
        w.at[w.kids[i]] = now;
    }
    end = later(end, now);
  }
  walk_close(&w);
  return end;
}
