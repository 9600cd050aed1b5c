/*
 * Test harness for the plugin algorithms: the pthread services table
 * (tests/services/pthread_services.h) installed with checks of its holder,
 * a runner for N threads with tids 0..N-1, a random-delay helper to shake
 * out orderings, topology layouts made up without hwloc (tids spread over
 * domains at random), a small centralized barrier of the tests' own (it
 * plays the runtime's release / the caller's barrier after a collective),
 * failure accounting and option parsing shared by the validators.
 *
 * The services as the validators run them: a wait pauses 256 polls, then
 * calls sched_yield() on every poll (from the first poll while the threads
 * of tu_run_threads outnumber the CPUs), so it works with many more threads
 * than cores.  A word already past the expected value (a duplicate or early
 * signal) or a wait longer than the -t timeout (a lost signal) ends the
 * process through tu_fatal, with exit status 1; so does a release of a word
 * whose bit 1 was set.
 */
#ifndef OMPEXT_TEST_SERVICES_H
#define OMPEXT_TEST_SERVICES_H

#include "ompext/abi.h"
#include "pthread_services.h"
#include "topology.h"

#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define TU_LINE 128     /* padding of the tests' own shared data */
#define TU_MAX_LIST 64  /* entries of a list option */

/* ---- services ---------------------------------------------------------- */

/* Installs the pthread services table (psvc_install; psvc_table() is the
   table) with tu_fatal for its fatal messages; also checks that a table of a
   wrong version or size is refused.  0 on success. */
int tu_services_install(void);
/* Inline polls an algorithm should spin for a team of n threads, following
   the plugin's policy (none when oversubscribed); variant alternates
   between that and 0 so both waiting paths get exercised. */
unsigned tu_spin_polls(int n, unsigned variant);

/* ---- threads ------------------------------------------------------------ */

typedef void (*tu_thread_fn)(int tid, void *arg);
/* Runs fn(tid, arg) for tid = 0..n-1, each on its own new pthread, and
   joins them.  pin != 0 pins tid to the tid-th available CPU, round robin.
   While they run, oversubscribed() reports n > psvc_cpu_count(). */
void tu_run_threads(int n, int pin, tu_thread_fn fn, void *arg);


/* ---- randomness --------------------------------------------------------- */

typedef struct tu_rng {
  uint64_t s;
} tu_rng_t;

/* A well-mixed 64-bit hash (splitmix64 finalizer). */
uint64_t tu_mix64(uint64_t x);
/* Seeds a per-thread xorshift64* generator from (seed, a, b). */
void tu_rng_seed(tu_rng_t *r, uint64_t seed, uint64_t a, uint64_t b);
uint64_t tu_rng_next(tu_rng_t *r);
/* Mostly nothing; sometimes a short spin, a sched_yield(), a busy wait or a
   sleep of up to max_us microseconds. */
void tu_random_delay(tu_rng_t *r, unsigned max_us);

/* ---- test layouts ------------------------------------------------------- */

/* How a test layout spreads the tids over its domains. */
typedef enum tu_layout_shape {
  TU_LAYOUT_RANDOM,      /* each tid in a random domain (none left empty):
                            uneven sizes, members scattered over the tids */
  TU_LAYOUT_ROUND_ROBIN, /* tid t in domain t % ndomains */
  TU_LAYOUT_BLOCKS,      /* contiguous runs of tids, sizes within one */
  TU_LAYOUT_SHAPES
} tu_layout_shape_t;

/* Fills l, its arrays in mem (ompext_topology_layout_size(n) bytes), with n
   tids over min(ndomains, n) domains (at least 1) of the given shape, drawn
   from seed; the domains are numbered by lowest tid and grouped with
   ompext_topology_order, as a team's layout is.  Returns the number of
   domains. */
int tu_layout_fill(ompext_topo_layout_t *l, void *mem, int n, int ndomains,
                   tu_layout_shape_t shape, uint64_t seed);
/* A TU_LAYOUT_RANDOM layout in one allocation of its own (release it with
   free()). */
ompext_topo_layout_t *tu_layout_new(int n, int ndomains, uint64_t seed);
/* The tids by domain, e.g. "0 3 5 | 1 2 | 4", for messages; truncated to
   fit cap.  Returns the length written. */
int tu_layout_describe(const ompext_topo_layout_t *l, char *buf, size_t cap);

/* The layouts the episodes of a collective's configuration cycle through:
   one per distinct domain count min(d, n) of a -d list, TU_LAYOUT_RANDOM;
   a count of 1 gives NULL, no layout (the flat collective, as a team runs
   before its layout is built).  Episode e (from 1) passes
   layout[(e - 1 + offset) % count], so the collective's state must carry
   over from one tree to another; vary offset between configurations so a
   short run still meets every layout somewhere. */
typedef struct tu_layout_cycle {
  int count;
  unsigned offset;
  ompext_topo_layout_t *layout[TU_MAX_LIST];
} tu_layout_cycle_t;

void tu_layout_cycle_init(tu_layout_cycle_t *c, int n, const int *domains,
                          int ndomains, unsigned offset, uint64_t seed);
void tu_layout_cycle_free(tu_layout_cycle_t *c);
static inline const ompext_topo_layout_t *
tu_layout_cycle_at(const tu_layout_cycle_t *c, long e) {
  return c->layout[((unsigned long)(e - 1) + c->offset) % (unsigned)c->count];
}
/* Domains of a layout of the cycle (1 for NULL). */
static inline int tu_layout_domains(const ompext_topo_layout_t *l) {
  return l ? l->ndomains : 1;
}
/* "flat; 0 3 | 1 2; ..." in cycle order, for tu_set_context. */
int tu_layout_cycle_describe(const tu_layout_cycle_t *c, char *buf,
                             size_t cap);

/* ---- the tests' own barrier --------------------------------------------- */

typedef struct tu_barrier {
  alignas(TU_LINE) _Atomic unsigned arrived;
  alignas(TU_LINE) _Atomic unsigned generation;
  int n;
} tu_barrier_t;

void tu_barrier_init(tu_barrier_t *b, int n);
/* Centralized counter barrier: every arrival happens before every departure
   (acq_rel on the counter, release/acquire on the generation). */
void tu_barrier_wait(tu_barrier_t *b);

/* ---- checking a barrier under test -------------------------------------- */

/* Each tid's arrival record: before the barrier of episode e a thread
   records e, in an atomic counter and in a plain slot chosen by episode
   parity; after the barrier every record must say e (a counter may already
   say e+1), or some thread left before all had arrived.  Under
   ThreadSanitizer the plain slots also need the barrier's ordering. */
typedef struct tu_arrival {
  alignas(TU_LINE) _Atomic uint64_t counter;
  uint64_t plain[2];
} tu_arrival_t;

void tu_arrive(tu_arrival_t *arrivals, int tid, long e);
/* After episode e's barrier: checks the n records, reports violations
   naming `what`; returns the number of records checked. */
unsigned long tu_check_arrivals(const tu_arrival_t *arrivals, int n, int tid,
                                long e, const char *what);

/* ---- results ------------------------------------------------------------ */

/* Records one violation; prints the first few (thread-safe). */
void tu_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
unsigned long tu_failures(void);
double tu_now(void);
/* Names the configuration running now (printf-style); tu_fatal prints it.
   Call from the main thread between runs only. */
void tu_set_context(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Aborts the run (exit status 1) with a message: broken setup or a hang. */
_Noreturn void tu_fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* ---- options ------------------------------------------------------------ */

typedef struct tu_options {
  int threads[TU_MAX_LIST]; /* -n 1,2,3 (team sizes) */
  int nthreads;
  long episodes;            /* -e N (base episodes per configuration) */
  int list[TU_MAX_LIST];    /* -k 1,2 (validator-specific integer list) */
  int nlist;
  const char *text;         /* -f TEXT (validator-specific) */
  int domains[TU_MAX_LIST]; /* -d 1,2 (domain counts of test layouts) */
  int ndomains;
  int mlist[TU_MAX_LIST];   /* -m 1,3 (validator-specific integer list) */
  int nmlist;
  uint64_t seed;            /* -s N */
  int pin;                  /* -p 0 never, 1 always, 2 alternate (default) */
  double timeout_s;         /* -t S: a wait longer than this is a hang */
  int verbose;              /* -v */
} tu_options_t;

/* Parses argv into o, whose fields hold the validator's defaults on entry.
   Bare numbers are team sizes (like -n).  -k, -f, -d and -m are described
   by the validator's usage text.  Exits on -h or a bad argument. */
void tu_parse_options(int argc, char **argv, tu_options_t *o,
                      const char *usage);
/* Parses "a,b,c" into out[] (each >= lo) with the plugin's list parser
   (ompext_parse_int_list); returns the count (at least 1) or -1. */
int tu_parse_list(const char *text, int lo, int *out, int cap);
/* Whether value is not among seen[0 .. *nseen-1] (TU_MAX_LIST entries);
   when not, adds it.  Skips repeated parameters (2 domains of 5 asked for
   a team of 2, say). */
int tu_first_time(int *seen, int *nseen, int value);
/* The default team sizes of the suite: 1..17, 31, 64. */
void tu_default_threads(tu_options_t *o);
/* Whether configuration number index runs pinned under o->pin. */
int tu_pin_for(const tu_options_t *o, unsigned index);

/* One batch of episodes: the worker runs episodes first..last, waits with
   spin inline polls; second says which of the two batches this is. */
typedef struct tu_batch {
  long first, last;
  unsigned spin;
  int second;
} tu_batch_t;
/* Runs episodes 1..episodes in two batches, each on fresh threads over the
   same shared objects (so state must carry across thread lifetimes);
   configurations index and index + 1 choose pinning and inline spinning.
   fn reads *batch, which the caller keeps inside arg. */
void tu_run_two_batches(int n, long episodes, const tu_options_t *o,
                        unsigned index, tu_thread_fn fn, void *arg,
                        tu_batch_t *batch);

static inline void tu_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield" ::: "memory");
#endif
}

#endif /* OMPEXT_TEST_SERVICES_H */
