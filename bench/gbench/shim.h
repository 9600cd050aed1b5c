/*
 * Benchmark shim for the omp-ext collectives: a team of N pinned pthreads
 * that runs one collective of ompext_core back to back, outside libomp.
 *
 * A team is created once per team size and kept: its threads park on a
 * condition variable between runs, so thread creation and wake-up are never
 * timed.  gb_team_configure() lays out the collective for a configuration
 * (once per (N, configuration): configuring the same one again keeps the
 * objects); gb_team_run() wakes the team, runs `warmup` untimed episodes,
 * passes a start barrier, and returns the time tid 0 measured
 * (CLOCK_MONOTONIC) from leaving the start barrier to the end of its last
 * timed episode.
 *
 * One episode is:
 *   GB_BARRIER  one plain barrier (ompext_barrier_wait, any algorithm and
 *               parameter);
 *   GB_REDUCE   one tree reduction gather of a 64-bit sum (reduce function
 *               lhs += rhs), then the shim's own flat release from tid 0
 *               (the runtime's release after the gather); tid 0 checks the
 *               sum every episode;
 *   GB_BCAST    one tree/flat broadcast of `bytes` bytes with a memcpy
 *               copy function, root drawn per episode from a seed all
 *               threads share (or always tid 0), then the caller's barrier
 *               (a dissemination barrier, m = 1: the plugin's default plain
 *               barrier); each non-root checks the stamp it received.
 *
 * Waiting: the algorithms spin inline for OMPEXT_SPIN polls (the plugin's
 * default, 0 when oversubscribed), then call the services wait (the
 * pthread services of tests/services, shared with the unit tests), set up
 * to spin with a pause instruction and call sched_yield() only while the
 * running team has more threads than available CPUs.  A single wait
 * longer than 60 s ends the process with a message (a lost signal).
 *
 * Only one team runs at a time; all functions are for one controlling
 * thread.  C11, callable from C++.
 */
#ifndef OMPEXT_GBENCH_SHIM_H
#define OMPEXT_GBENCH_SHIM_H

/* Types and constants only; C++ callers use none of config.h's functions
   (they are declared without C linkage there). */
#include "config.h" /* ompext_barrier_alg_t, OMPEXT_MAX_LEVELS */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { GB_BARRIER, GB_REDUCE, GB_BCAST } gb_op_t;

typedef struct gb_config {
  gb_op_t op;
  /* GB_BARRIER: algorithm and its parameter (dissemination m, tree fan-in,
     tournament release fan-out; ignored by the centralized barrier). */
  ompext_barrier_alg_t barrier_alg;
  int barrier_param;
  /* GB_REDUCE: fan-in per level, leaves first; the last one repeats until
     the tree covers the team (as OMPEXT_REDUCE_FANIN). */
  int fanin[OMPEXT_MAX_LEVELS];
  int fanin_len;
  /* GB_BCAST: fan-out (0: flat, i.e. n-1), payload bytes (at least 8),
     root: 0 = tid 0 always, 1 = random but agreed per episode. */
  int bcast_fanout;
  size_t bcast_bytes;
  int bcast_random_root;
} gb_config_t;

typedef struct gb_result {
  double seconds;        /* tid 0: start barrier exit -> last episode's end */
  long episodes;         /* timed episodes */
  unsigned long errors;  /* wrong sums or stamps seen in this run */
} gb_result_t;

typedef struct gb_team gb_team_t;

/* Process-wide set-up: installs the pthread services table
   (tests/services), which reads the CPU list (the affinity mask at the
   first call), and reads OMPEXT_SPIN.  Called by gb_team_create; 0 on
   success. */
int gb_init(void);
/* CPUs in the process's affinity mask at gb_init. */
int gb_cpu_count(void);
/* Inline polls the algorithms get for a team of n threads. */
unsigned gb_spin_polls(int n);

/* Starts n threads (n >= 1); pin != 0 pins tid t to the (t mod C)-th
   available CPU (if that fails, one message on stderr, then unpinned).
   NULL with a message on stderr on failure. */
gb_team_t *gb_team_create(int n, int pin);
int gb_team_size(const gb_team_t *team);
/* Lays out the collective for cfg (a no-op if cfg equals the current one,
   compared field by field).  0 on success, -1 with a message on a bad
   configuration or no memory. */
int gb_team_configure(gb_team_t *team, const gb_config_t *cfg);
/* Runs warmup untimed and then reps timed episodes; 0 on success. */
int gb_team_run(gb_team_t *team, long warmup, long reps, gb_result_t *out);
/* Stops and joins the threads and frees everything. */
void gb_team_destroy(gb_team_t *team);

/* The name of a barrier algorithm ("dissemination", ...). */
const char *gb_barrier_name(ompext_barrier_alg_t alg);
/* Parses "a,b,c" (each in [lo, hi]) into out; returns the count, or -1. */
int gb_parse_list(const char *text, int lo, int hi, int *out, int cap);

#ifdef __cplusplus
}
#endif

#endif /* OMPEXT_GBENCH_SHIM_H */
