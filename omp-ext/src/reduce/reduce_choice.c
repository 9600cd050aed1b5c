/*
 * The reduction method of each call site, chosen by the size of its data.
 *
 * The runtime is not told how much data a reduction combines: clang passes
 * __kmpc_reduce the size of its list of pointers (8 bytes per variable, 16
 * for a variable-length section), the same for one double as for an array
 * of 8192.  So the plugin measures it.  A call site (keyed by the
 * compiler's reduce_func) starts on the tree, where tid 0 combines each
 * child's data with reduce_func: such a combine is a multi-line copy of
 * the data, and each gather's slowest combine is what the plan's table (the
 * model's T_N per size class, ompext_reduce_sizes_t) turns into a size class,
 * and the classes of sixteen gathers into the method the model prices cheapest
 * for this team over those sizes, among the methods the compiler allowed
 * (atomics, the tree, libomp's critical method).  The slowest combine of a
 * gather, and a size counted only where two gathers saw it: a child that ran on
 * tid 0's own core leaves its data in tid 0's cache, and a combine of cached
 * data looks like a much smaller one, which would send an array to atomics, the
 * costly mistake; timing too long only costs a scalar the tree or the lock.
 * The slowest combine is a child's data coming from another core, the transfer
 * T_N prices; in an oversubscribed team some children share tid 0's core in
 * every gather, and the fastest combine made 4 KiB arrays look like 64 B (8
 * threads on 2 cores: atomics, 1.3x stock's time).  Counting only sizes seen
 * twice keeps a combine slowed by the scheduler from deciding alone.  The
 * model's times are those of the machine when it was calibrated, and a virtual
 * machine's line transfers change under it (on the development machine R_R
 * moved between 28 and 125 ns within minutes, and a scalar's combine then
 * measured as 2 KiB: the lock, 1.12x stock's
 * time).  So each combine is timed beside a reference read (a line the
 * child had just modified, reduce_tree.c): the reference is the combine's
 * first line at today's cost, and what the combine took beyond it is
 * scaled by R_R over today's line (within a factor of 8 either way), using
 * the median reference over the probes (one read of 30 ns with a timer of
 * 20 ns is too coarse alone).  In an oversubscribed team the reference of
 * a child on tid 0's own core is a cache hit, which would scale the
 * combine up to 8 times, so there the reference may only shrink a combine:
 * with transfers 3 times slower than calibrated, a 512 B combine timed at
 * 330 ns and, as timed, was classed as 4 KiB and sent 4 threads on 2
 * cores to the tree (14 us against stock's atomics, 6.5).
 *
 * Every thread of a team must take the same method for the same reduction
 * (the methods synchronise differently).  A thread's clock counts the
 * plain barriers it entered and the forks and joins it took part in since
 * the team's context was made: every thread reads the same clock at the
 * same point of the program, since all of them meet the same barriers,
 * forks and joins in the same order.  A decision word holds
 * (old method, new method, switch time): a reduction at clock t takes the
 * new method when t >= switch, else the old.  tid 0 publishes a decision
 * made at its clock t with switch t+1: a thread whose clock is t+1 or later
 * has passed a barrier, join or fork that tid 0 entered only after
 * publishing, so it sees the word (tid 0's store is release, and the
 * barrier or the fork/join flags order its later steps after it); a
 * thread still at t may or may not see it, and takes the old method
 * either way.  Once tid 0's own clock reached the switch,
 * every thread's has, and the word settles to (new, new).  Switch times
 * compare modulo 2^56; a settled word no longer depends on them.
 *
 * Sizes change, so tid 0 decides again: a site on the tree has one gather
 * in OMPEXT_REDUCE_REPROBE_EVERY timed, and the newest probes decide; a
 * site on atomics or the lock is sent back to the tree every
 * OMPEXT_REDUCE_RECHECK_EVERY calls, published as (method, tree, t+1) at
 * clock t, which reads method at t, as the word it replaces: every later
 * decision is made as the first.  Only one kind of settled word is final:
 * atomics in a team no larger than libomp's atomics cutoff, where stock
 * takes atomics at every size, so never checking again costs nothing
 * against stock.  A thread that read a final word keeps its site and
 * method beside its clock and answers the site's next calls from there
 * (the lookup and the decision's unpacking were most of a call: about 45
 * instructions, callgrind), and the answer, like the one-item answer of a
 * site the team keeps no record of, goes to the runtime with
 * OMPEXT_REDUCE_METHOD_SETTLED: the runtime then keeps it and stops asking
 * (the call's 85 instructions per thread and reduction: a 2-thread region
 * with a scalar reduction took 4-5% less time while line transfers were
 * slow, the same while they were fast).  Never so for the tree: every call
 * sets what tid 0's next tree gather reads (whether it probes, and for
 * which site), so a gather must follow a call.
 */
#include "reduce_choice.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>

#define METHOD_BITS 2
#define SWITCH_SHIFT 8
/* Set in every decision, so that one to keep the runtime's method (0) in
   both halves is not the empty word. */
#define DECIDED_BIT ((uint64_t)1 << (2 * METHOD_BITS))

static uint64_t pack(int old_method, int new_method, uint64_t switch_at) {
  return (uint64_t)old_method | (uint64_t)new_method << METHOD_BITS |
         DECIDED_BIT | switch_at << SWITCH_SHIFT;
}

static int old_method_of(uint64_t word) { return (int)(word & 3); }
static int new_method_of(uint64_t word) {
  return (int)(word >> METHOD_BITS & 3);
}

/* The method a decision word gives at clock now. */
static int unpack_at(uint64_t word, uint64_t now) {
  /* (now - switch) modulo 2^56, as a signed number: >= 0 once reached. */
  const int64_t since =
      (int64_t)((now - (word >> SWITCH_SHIFT)) << SWITCH_SHIFT);
  return since >= 0 ? new_method_of(word) : old_method_of(word);
}

const char *ompext_reduce_method_name(int method) {
  static const char *const names[] = {"stock", "atomic", "tree", "critical"};
  method &= ~OMPEXT_REDUCE_METHOD_SETTLED;
  return method >= 0 && method < 4 ? names[method] : "?";
}

void ompext_reduce_choice_init(ompext_reduce_choice_t *rc,
                               const ompext_reduce_sizes_t *sizes,
                               ompext_reduce_clock_t *clocks, int nproc) {
  rc->sizes = sizes;
  rc->clocks = clocks;
  for (int t = 0; t < nproc; ++t)
    clocks[t] = (ompext_reduce_clock_t){0};
  for (int s = 0; s < OMPEXT_REDUCE_SITES; ++s) {
    atomic_init(&rc->sites[s].key, 0);
    atomic_init(&rc->sites[s].decision, 0);
    rc->sites[s].probes = rc->sites[s].fresh = rc->sites[s].calls = 0;
    rc->sites[s].decided = -1;
  }
}

/* The site of key, claimed if new; NULL once the table is full. */
static ompext_reduce_site_t *site_of(ompext_reduce_choice_t *rc,
                                     uintptr_t key) {
  const unsigned start = (unsigned)(key >> 4) % OMPEXT_REDUCE_SITES;
  for (unsigned i = 0; i < OMPEXT_REDUCE_SITES; ++i) {
    ompext_reduce_site_t *s = &rc->sites[(start + i) % OMPEXT_REDUCE_SITES];
    /* Relaxed: the key only names the site; the decision word carries the
       ordering. */
    uintptr_t seen = atomic_load_explicit(&s->key, memory_order_relaxed);
    if (seen == 0 &&
        atomic_compare_exchange_strong_explicit(
            &s->key, &seen, key, memory_order_relaxed, memory_order_relaxed))
      return s;
    if (seen == key)
      return s;
  }
  return NULL;
}

/* The upper median of n values (sorted in place; n is small). */
static double upper_median(double *v, int n) {
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && v[j] < v[j - 1]; --j) {
      const double t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  return v[n / 2];
}

/* The size class of a combine timed at combine_ns. */
static int size_class_of(const ompext_reduce_sizes_t *sizes,
                         double combine_ns) {
  combine_ns -= sizes->timer_ns;
  int c = 0;
  while (c < OMPEXT_REDUCE_CLASSES - 1 && sizes->combine_ns[c] < combine_ns)
    ++c;
  return c;
}

/* tid 0 notes the site (NULL: none) its next gather reduces, not probed
   unless its decision says so. */
static void note_running(ompext_reduce_clock_t *clock, int tid,
                         ompext_reduce_site_t *site, unsigned allowed) {
  if (tid != 0)
    return;
  clock->running = site;
  clock->allowed = allowed;
  clock->probing = 0;
}

/* A final answer, marked for the runtime to keep unless it is the tree
   (see the top). */
static int final_answer(int method) {
  return method == OMPEXT_REDUCE_METHOD_ATOMIC ||
                 method == OMPEXT_REDUCE_METHOD_CRITICAL
             ? method | OMPEXT_REDUCE_METHOD_SETTLED
             : method;
}

/* Whether a settled method is final: the runtime keeps it and it is never
   checked again.  Only atomics where stock takes them at every size. */
static int is_final(const ompext_reduce_sizes_t *sizes, int method) {
  return method == OMPEXT_REDUCE_METHOD_ATOMIC && sizes->final_atomics;
}

/* tid 0 at a site whose word reads method at its clock now: whether its
   gather is timed, and whether a site off the tree goes back to it to be
   timed again. */
static void tid0_schedule(ompext_reduce_choice_t *rc, ompext_reduce_site_t *s,
                          uint64_t word, int method, uint64_t now) {
  ompext_reduce_clock_t *clock = &rc->clocks[0];
  const int settled = old_method_of(word) == new_method_of(word);
  if (method == OMPEXT_REDUCE_METHOD_TREE) {
    clock->probing = s->fresh < OMPEXT_REDUCE_PROBES ||
                     ++s->calls % OMPEXT_REDUCE_REPROBE_EVERY == 0;
    return;
  }
  if (!settled || ++s->calls < OMPEXT_REDUCE_RECHECK_EVERY)
    return;
  /* Back to the tree from the next synchronisation on, to be timed. The
     word reads method at now either way, so whichever a thread at now
     reads, it agrees.  Release: as in ompext_reduce_choice_measured. */
  s->calls = 0;
  s->fresh = 0;
  atomic_store_explicit(&s->decision,
                        pack(method, OMPEXT_REDUCE_METHOD_TREE, now + 1),
                        memory_order_release);
}

int ompext_reduce_choice_method(ompext_reduce_choice_t *rc, int tid,
                                uintptr_t key, unsigned allowed) {
  const ompext_reduce_sizes_t *sizes = rc->sizes;
  allowed &= 3;
  ompext_reduce_clock_t *clock = &rc->clocks[tid];
  if (key && clock->settled_key == key && clock->settled_allowed == allowed) {
    note_running(clock, tid, clock->settled_site, allowed);
    return final_answer(clock->settled_method);
  }
  const uint64_t now = clock->ticks;
  ompext_reduce_site_t *site = NULL;
  if (sizes->sized && (allowed & OMPEXT_REDUCE_ALLOW_TREE) && key)
    site = site_of(rc, key);
  note_running(clock, tid, site, allowed);
  if (!site) /* final: nothing here changes while the team's context lives */
    return final_answer(sizes->one_item[allowed]);
  /* Acquire: pairs with tid 0's release stores (only needed by threads at
     the switch time or later, see the top). */
  const uint64_t word =
      atomic_load_explicit(&site->decision, memory_order_acquire);
  if (word == 0) {
    if (tid == 0)
      clock->probing = 1;
    return OMPEXT_REDUCE_METHOD_TREE;
  }
  const int method = unpack_at(word, now);
  const int final =
      old_method_of(word) == new_method_of(word) && is_final(sizes, method);
  if (final) {
    /* The site's method for the rest of the team's life, which this
       thread keeps beside its clock, off the shared site's line. */
    clock->settled_key = key;
    clock->settled_allowed = allowed;
    clock->settled_method = method;
    clock->settled_site = site;
  }
  if (tid == 0) {
    const int new_method = new_method_of(word);
    if (old_method_of(word) != new_method && method == new_method)
      /* Every thread's clock has reached the switch: settle. Relaxed: the
         word reads the same to all of them before and after. */
      atomic_store_explicit(&site->decision, pack(new_method, new_method, 0),
                            memory_order_relaxed);
    if (!final)
      tid0_schedule(rc, site, word, method, now);
  }
  return final ? final_answer(method) : method;
}

int ompext_reduce_choice_probing(const ompext_reduce_choice_t *rc) {
  return rc->clocks[0].probing;
}

/* Bounds of the factor a reference read may scale a combine by: a read
   slowed by an interrupt must not make an array look like a scalar. */
#define MAX_SCALE 8.0

/* A timed combine (timer included) in the calibrated machine's time.  The
   reference read is the combine's first line at today's cost; what the
   combine took beyond it is its further lines, less the clock's steps
   (taken as half a timer call: on the development machine the clock moves
   in 10 ns steps and a call takes 20 ns, against 3 ns for a further line),
   scaled by R_R over today's line.  reference_ns < 0: no reference, the
   combine as timed; an oversubscribed team's never larger than timed. */
static double calibrated_combine(const ompext_reduce_sizes_t *sizes,
                                 double combine_ns, double reference_ns) {
  if (sizes->reference_ns <= 0 || reference_ns < 0)
    return combine_ns;
  const double timer = sizes->timer_ns;
  const double line_now = reference_ns - timer;
  double scale = line_now > 0 ? sizes->reference_ns / line_now : MAX_SCALE;
  if (scale > MAX_SCALE)
    scale = MAX_SCALE;
  if (scale < 1 / MAX_SCALE)
    scale = 1 / MAX_SCALE;
  const double beyond = combine_ns - reference_ns - timer / 2;
  const double scaled =
      timer + sizes->reference_ns + (beyond > 0 ? beyond * scale : 0);
  return sizes->reference_shrinks_only ? fmin(scaled, combine_ns) : scaled;
}

/* The method for the sizes a site's remembered probes saw.
   Each probe is classed by its combine, scaled by the median reference
   read.  A size counts when at least two probes saw it: a combine slowed
   once by the scheduler must not make a scalar look like an array (one
   in a neighbouring class counts too: a size's combines straddle a class
   bound).  Among the methods best for a counted size, the one whose model
   cost summed over the counted probes is least: an array that comes every
   fifth call weighs as much as it costs.  Sets *median_class (the median
   probe's class) for the verbose line. */
static int method_for_probes(const ompext_reduce_sizes_t *sizes,
                             const ompext_reduce_site_t *s, unsigned allowed,
                             int *median_class) {
  const int n = OMPEXT_REDUCE_PROBES;
  double timed[OMPEXT_REDUCE_PROBES], line[OMPEXT_REDUCE_PROBES];
  for (int i = 0; i < n; ++i) {
    timed[i] = s->combine_ns[i];
    line[i] = s->reference_ns[i];
  }
  /* Upper median: a negative reference (none) sorts first, so one counts
     only where most probes had one. */
  const double reference = upper_median(line, n);
  int count[OMPEXT_REDUCE_CLASSES] = {0};
  for (int i = 0; i < n; ++i)
    ++count[size_class_of(sizes, calibrated_combine(sizes, s->combine_ns[i],
                                                    reference))];
  *median_class = size_class_of(
      sizes, calibrated_combine(sizes, upper_median(timed, n), reference));
  int best = sizes->best[*median_class][allowed];
  double best_cost = INFINITY;
  int counted[OMPEXT_REDUCE_CLASSES];
  for (int c = 0; c < OMPEXT_REDUCE_CLASSES; ++c)
    counted[c] = count[c] + (c > 0 ? count[c - 1] : 0) +
                     (c + 1 < OMPEXT_REDUCE_CLASSES ? count[c + 1] : 0) >=
                 2;
  for (int c = 0; c < OMPEXT_REDUCE_CLASSES; ++c) {
    if (!count[c] || !counted[c])
      continue;
    const int m = sizes->best[c][allowed];
    double total = 0;
    for (int k = 0; k < OMPEXT_REDUCE_CLASSES; ++k)
      if (counted[k])
        total += count[k] * sizes->cost[k][m];
    if (total < best_cost) { /* NaN (no cost) never replaces the median's */
      best_cost = total;
      best = m;
    }
  }
  return best;
}

void ompext_reduce_choice_measured(ompext_reduce_choice_t *rc,
                                   double combine_ns, double reference_ns) {
  ompext_reduce_clock_t *clock = &rc->clocks[0];
  ompext_reduce_site_t *site = clock->running;
  if (!site || !clock->probing)
    return;
  clock->probing = 0;
  site->combine_ns[site->probes % OMPEXT_REDUCE_PROBES] = combine_ns;
  site->reference_ns[site->probes % OMPEXT_REDUCE_PROBES] = reference_ns;
  ++site->probes;
  if (++site->fresh < OMPEXT_REDUCE_PROBES)
    return; /* the site stays on the tree until it has been timed enough */
  const uint64_t word =
      atomic_load_explicit(&site->decision, memory_order_relaxed);
  int median_class;
  const int best =
      method_for_probes(rc->sizes, site, clock->allowed, &median_class);
  const int first = word == 0;
  site->calls = 0;
  if (!first && best == new_method_of(word))
    return; /* timed again, same answer */
  /* A recheck that keeps the method it left is not news. */
  if (rc->sizes->verbose && best != site->decided)
    fprintf(stderr,
            "omp-ext: reduction %p: %s: median combine about %.0f bytes "
            "(timer %.0f ns, R_R %.0f ns), over the sizes of its last %d "
            "gathers: %s\n",
            (void *)atomic_load_explicit(&site->key, memory_order_relaxed),
            first ? "decided" : "sizes changed",
            rc->sizes->line_bytes * (double)(1L << median_class),
            rc->sizes->timer_ns, rc->sizes->reference_ns, OMPEXT_REDUCE_PROBES,
            ompext_reduce_method_name(best));
  /* Release: whatever a thread at the switch time reads of the site was
     written before; tid 0 enters its next barrier after this store. */
  site->decided = best;
  atomic_store_explicit(&site->decision,
                        pack(OMPEXT_REDUCE_METHOD_TREE, best, clock->ticks + 1),
                        memory_order_release);
}
