/* Parsing of the OMPEXT_* environment (see config.h and the README). */
#include "config.h"

#include "ompext/abi.h" /* ompext_env_switch */

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

const char *const ompext_barrier_names[] = {
    "stock",       "dissemination", "tree", "tournament",
    "centralized", "auto",          NULL};
const char *const ompext_reduce_names[] = {"stock", "tree", "atomic", "auto",
                                           NULL};
const char *const ompext_bcast_names[] = {"stock", "tree", "flat", NULL};
const char *const ompext_bcast_close_names[] = {"auto", "rooted", "barrier",
                                                NULL};
const char *const ompext_forkjoin_names[] = {"stock", "tree", NULL};
const char *const ompext_atomic_lock_names[] = {"stock", "ttas", NULL};

static void warn_accepted(FILE *warn, const char *var, const char *value,
                          const char *accepted, const char *fallback) {
  if (warn)
    fprintf(warn,
            "omp-ext: warning: %s=%s not understood (accepted: %s); using "
            "%s\n",
            var, value, accepted, fallback);
}

/* Index of getenv(var) in names, or dflt (with a warning if set but bad). */
static int parse_choice(FILE *warn, const char *var, const char *const *names,
                        int dflt) {
  const char *v = getenv(var);
  if (!v || !*v)
    return dflt;
  char accepted[256] = "";
  for (int i = 0; names[i]; ++i) {
    if (strcmp(v, names[i]) == 0)
      return i;
    strncat(accepted, i ? "|" : "", sizeof(accepted) - strlen(accepted) - 1);
    strncat(accepted, names[i], sizeof(accepted) - strlen(accepted) - 1);
  }
  warn_accepted(warn, var, v, accepted, names[dflt]);
  return dflt;
}

int ompext_parse_int_list(const char *text, int lo, int hi, int *out,
                          int cap) {
  int n = 0;
  const char *p = text;
  while (*p) {
    /* Decimal digits only: strtol would also take leading blanks, a sign
       and (with "0x") other bases, which the README does not promise. */
    if (*p < '0' || *p > '9')
      return -1;
    char *end;
    errno = 0;
    long v = strtol(p, &end, 10);
    if (end == p || errno || v < lo || v > hi || n == cap)
      return -1;
    out[n++] = (int)v;
    if (*end == ',' && end[1])
      p = end + 1;
    else if (*end == '\0')
      p = end;
    else
      return -1;
  }
  return n > 0 ? n : -1;
}

/* One integer in [lo, hi] from var; dflt when unset or bad. */
static int parse_int(FILE *warn, const char *var, int lo, int hi, int dflt,
                     const char *dflt_text) {
  const char *v = getenv(var);
  int value;
  if (!v || !*v)
    return dflt;
  if (ompext_parse_int_list(v, lo, hi, &value, 1) == 1)
    return value;
  char accepted[64];
  snprintf(accepted, sizeof(accepted), "an integer %d..%d", lo, hi);
  warn_accepted(warn, var, v, accepted, dflt_text);
  return dflt;
}

#define PER_TEAM "the per-team-size choice"

/* An on/off variable (ompext_env_switch, shared with the runtime): 1 or 0;
   dflt when unset or bad (with a warning if set but bad). */
static int parse_switch(FILE *warn, const char *var, int dflt) {
  const char *v = getenv(var);
  if (!v || !*v)
    return dflt;
  const int on = ompext_env_switch(v);
  if (on >= 0)
    return on;
  warn_accepted(warn, var, v, OMPEXT_ENV_SWITCH_WORDS, dflt ? "on" : "off");
  return dflt;
}

/* OMPEXT_HIERARCHY: auto, or an on/off switch; auto when unset or bad. */
static ompext_hierarchy_mode_t parse_hierarchy(FILE *warn) {
  const char *v = getenv("OMPEXT_HIERARCHY");
  if (!v || !*v || strcmp(v, "auto") == 0)
    return OMPEXT_HIERARCHY_AUTO;
  const int on = ompext_env_switch(v);
  if (on >= 0)
    return on ? OMPEXT_HIERARCHY_ON : OMPEXT_HIERARCHY_OFF;
  warn_accepted(warn, "OMPEXT_HIERARCHY", v, "auto, " OMPEXT_ENV_SWITCH_WORDS,
                "auto");
  return OMPEXT_HIERARCHY_AUTO;
}

void ompext_config_parse(ompext_config_t *cfg, FILE *warn) {
  memset(cfg, 0, sizeof(*cfg));
  cfg->barrier = (ompext_barrier_alg_t)parse_choice(
      warn, "OMPEXT_BARRIER", ompext_barrier_names, OMPEXT_BARRIER_AUTO);
  cfg->dissem_m =
      parse_int(warn, "OMPEXT_BARRIER_M", 1, OMPEXT_MAX_M, 0, PER_TEAM);
  cfg->tree_k = parse_int(warn, "OMPEXT_BARRIER_K", OMPEXT_MIN_TREE_K,
                          OMPEXT_MAX_FANIN, 0, PER_TEAM);
  cfg->reduce = (ompext_reduce_alg_t)parse_choice(
      warn, "OMPEXT_REDUCE", ompext_reduce_names, OMPEXT_REDUCE_AUTO);
  const char *fanin = getenv("OMPEXT_REDUCE_FANIN");
  if (fanin && *fanin) {
    cfg->reduce_levels = ompext_parse_int_list(
        fanin, 2, OMPEXT_MAX_FANIN, cfg->reduce_fanin, OMPEXT_MAX_LEVELS);
    if (cfg->reduce_levels < 0) {
      cfg->reduce_levels = 0;
      warn_accepted(warn, "OMPEXT_REDUCE_FANIN", fanin,
                    "k1,k2,... with each k in 2..64, at most 16 levels",
                    "the per-team-size choice");
    }
  }
  cfg->bcast = (ompext_bcast_alg_t)parse_choice(
      warn, "OMPEXT_BCAST", ompext_bcast_names, OMPEXT_BCAST_TREE);
  cfg->bcast_fanout = parse_int(warn, "OMPEXT_BCAST_FANOUT", 1,
                                OMPEXT_MAX_FANIN, 0, PER_TEAM);
  cfg->bcast_close = (ompext_bcast_close_mode_t)parse_choice(
      warn, "OMPEXT_BCAST_CLOSE", ompext_bcast_close_names,
      OMPEXT_BCAST_CLOSE_AUTO);
  cfg->forkjoin = (ompext_forkjoin_alg_t)parse_choice(
      warn, "OMPEXT_FORKJOIN", ompext_forkjoin_names, OMPEXT_FORKJOIN_TREE);
  cfg->forkjoin_fanout = parse_int(warn, "OMPEXT_FORKJOIN_FANOUT", 1,
                                   OMPEXT_MAX_FANIN, 0, PER_TEAM);
  cfg->hierarchy = parse_hierarchy(warn);
  cfg->atomic_lock = (ompext_atomic_lock_alg_t)parse_choice(
      warn, "OMPEXT_ATOMIC_LOCK", ompext_atomic_lock_names,
      OMPEXT_ATOMIC_LOCK_TTAS);
  cfg->spin_polls =
      (unsigned)parse_int(warn, "OMPEXT_SPIN", 0, 1 << 24, 4096, "4096");
  cfg->verbose = parse_switch(warn, "OMPEXT_VERBOSE", 0);
  cfg->stats = parse_switch(warn, "OMPEXT_STATS", 0);
}
