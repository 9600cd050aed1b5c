/*
 * libFuzzer target: the input as the plugin's environment.  Each line
 * "NAME=VALUE" whose NAME is one of the OMPEXT_* variables config.c reads
 * sets it; every variable no line names is unset.  Then, as the plugin does
 * at start-up: ompext_config_parse (warnings to /dev/null), and plans for a
 * few team sizes, fitting and oversubscribed, without a model and with the
 * built-in "default" machine parameters.
 *
 * Checked: no sanitizer report; the settings lie within the bounds
 * config.c parses against (bounds.h), and so does every plan.
 *
 * The variables are set with putenv() on buffers of this file, written in
 * place: setenv() keeps every value it was ever given, which a long run
 * would pile up.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* putenv */
#endif
#include "plan_bounds.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The variables config.c reads. */
static const char *const variables[] = {
    "OMPEXT_BARRIER",         "OMPEXT_BARRIER_M",    "OMPEXT_BARRIER_K",
    "OMPEXT_REDUCE",          "OMPEXT_REDUCE_FANIN", "OMPEXT_BCAST",
    "OMPEXT_BCAST_FANOUT",    "OMPEXT_BCAST_CLOSE",  "OMPEXT_FORKJOIN",
    "OMPEXT_FORKJOIN_FANOUT", "OMPEXT_HIERARCHY",    "OMPEXT_SPIN",
    "OMPEXT_ATOMIC_LOCK",     "OMPEXT_VERBOSE",      "OMPEXT_STATS"};
#define NVARIABLES (sizeof(variables) / sizeof(variables[0]))
/* Room for "NAME=VALUE"; a longer value is cut. */
#define ENTRY_SIZE 320

static char entries[NVARIABLES][ENTRY_SIZE];
static FILE *devnull;
static ompext_machine_t default_machine;

static void set_up(void) {
  if (devnull)
    return;
  devnull = fopen("/dev/null", "w");
  FUZZ_REQUIRE(devnull != NULL, "cannot open /dev/null");
  FUZZ_REQUIRE(
      ompext_model_params_builtin("default", &default_machine.params) == 0,
      "no built-in default set");
  snprintf(default_machine.source, sizeof(default_machine.source),
           "model(default)");
}

/* The variable a line names, or -1; *value after its '='. */
static int variable_of(const char *line, size_t len, const char **value) {
  for (size_t v = 0; v < NVARIABLES; ++v) {
    const size_t name_len = strlen(variables[v]);
    if (len > name_len && !memcmp(line, variables[v], name_len) &&
        line[name_len] == '=') {
      *value = line + name_len + 1;
      return (int)v;
    }
  }
  return -1;
}

/* Sets the variables the input's lines name, unsets the others. */
static void set_environment(const uint8_t *data, size_t size) {
  int named[NVARIABLES] = {0};
  const char *at = (const char *)data, *end = at + size;
  while (at < end) {
    const char *nl = memchr(at, '\n', (size_t)(end - at));
    const size_t len = (size_t)((nl ? nl : end) - at);
    const char *value;
    const int v = variable_of(at, len, &value);
    if (v >= 0) {
      const size_t value_len = len - (size_t)(value - at);
      snprintf(entries[v], ENTRY_SIZE, "%s=%.*s", variables[v],
               (int)(value_len < ENTRY_SIZE ? value_len : ENTRY_SIZE), value);
      putenv(entries[v]);
      named[v] = 1;
    }
    at += len + 1;
  }
  for (size_t v = 0; v < NVARIABLES; ++v)
    if (!named[v])
      unsetenv(variables[v]);
}

static int within(long v, long lo, long hi) { return v >= lo && v <= hi; }

/* 0 (the plan's choice) or within [lo, hi]. */
static int unset_or_within(long v, long lo, long hi) {
  return v == 0 || within(v, lo, hi);
}

static void check_config(const ompext_config_t *c) {
  FUZZ_REQUIRE(within(c->barrier, OMPEXT_BARRIER_STOCK, OMPEXT_BARRIER_AUTO),
               "barrier %d", (int)c->barrier);
  FUZZ_REQUIRE(unset_or_within(c->dissem_m, 1, OMPEXT_MAX_M), "m %d",
               c->dissem_m);
  FUZZ_REQUIRE(unset_or_within(c->tree_k, OMPEXT_MIN_TREE_K, OMPEXT_MAX_FANIN),
               "k %d", c->tree_k);
  FUZZ_REQUIRE(within(c->reduce, OMPEXT_REDUCE_STOCK, OMPEXT_REDUCE_AUTO),
               "reduce %d", (int)c->reduce);
  FUZZ_REQUIRE(within(c->reduce_levels, 0, OMPEXT_MAX_LEVELS),
               "%d reduction levels", c->reduce_levels);
  for (int l = 0; l < c->reduce_levels; ++l)
    FUZZ_REQUIRE(within(c->reduce_fanin[l], 2, OMPEXT_MAX_FANIN),
                 "reduction fan-in %d", c->reduce_fanin[l]);
  FUZZ_REQUIRE(within(c->bcast, OMPEXT_BCAST_STOCK, OMPEXT_BCAST_FLAT),
               "bcast %d", (int)c->bcast);
  FUZZ_REQUIRE(unset_or_within(c->bcast_fanout, 1, OMPEXT_MAX_FANIN),
               "bcast fan-out %d", c->bcast_fanout);
  FUZZ_REQUIRE(within(c->bcast_close, OMPEXT_BCAST_CLOSE_AUTO,
                      OMPEXT_BCAST_CLOSE_BARRIER),
               "bcast close %d", (int)c->bcast_close);
  FUZZ_REQUIRE(within(c->forkjoin, OMPEXT_FORKJOIN_STOCK, OMPEXT_FORKJOIN_TREE),
               "forkjoin %d", (int)c->forkjoin);
  FUZZ_REQUIRE(unset_or_within(c->forkjoin_fanout, 1, OMPEXT_MAX_FANIN),
               "fork/join fan-out %d", c->forkjoin_fanout);
  FUZZ_REQUIRE(within((int)c->hierarchy, 0, 2), "hierarchy %d",
               (int)c->hierarchy);
  FUZZ_REQUIRE(within(c->atomic_lock, OMPEXT_ATOMIC_LOCK_STOCK,
                      OMPEXT_ATOMIC_LOCK_TTAS),
               "atomic lock %d", (int)c->atomic_lock);
  FUZZ_REQUIRE(c->spin_polls <= (1u << 24), "spin %u", c->spin_polls);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  set_up();
  set_environment(data, size);
  ompext_config_t cfg;
  ompext_config_parse(&cfg, devnull);
  check_config(&cfg);
  const ompext_planner_t without_model = {&cfg, NULL, 0, 2, 2};
  fuzz_check_plans(&without_model);
  const ompext_planner_t with_model = {&cfg, &default_machine, 0, 2, 2};
  fuzz_check_plans(&with_model);
  return 0;
}
