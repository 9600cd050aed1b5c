/*
 * Parameter sets of the cost model and their parsers (see model.h).
 *
 * Built-in sets:
 *
 * xeon-phi-5110p  Everything measured in the paper (Ramos and Hoefler 2013)
 *   on an Intel Xeon Phi 5110P (60 cores, 1052 MHz):
 *     R_L = 8.6, R_R = 235.8, R_I = 277.7       Table 1.5b (simplified model)
 *     b = 320.5, c = 56.2, a = 0                Table 3.2, row S_s = E, S_r = E
 *     o = 76.0, q = 1521.0, p = 1096.0          Table 3.1, row S_s = E, S_r = E
 *   The E/E rows because Chapter 4 assumes data buffers in the exclusive
 *   state in the owner's cache, and that is the set behind Appendix B.
 *   R_X = R_R: the card is one package, no transfer crosses packages.
 *
 * sandy-bridge-e5-2670  Intel Xeon E5-2670 (2 x 8 cores, 2.6 GHz), Table 1.8,
 *   threads within one socket:
 *     R_L = 2.3 (same core), R_R = R_{P,M} = 41.6, R_I = R_{P,I} = 69.3.
 *   R_R takes the modified-line value because the algorithms' flags and
 *   notification lines are written lines; it is the larger of the cached
 *   same-socket values (E: 32.8, S/F: 15.7), so it errs towards slow.
 *   The paper fits contention and multi-line parameters on the Xeon Phi
 *   only.  Here they are the Xeon Phi E/E fits scaled by the ratio of the
 *   two R_R (41.6 / 235.8): an assumption, not a measurement.  The implied
 *   single-line ping-pong, T_1 = q + o - p = 88.4 ns, is of the order of the
 *   72-80 ns the paper measured on this machine (Table 2.2).
 *   R_X = R_{N,M} = 115.4, Table 1.8: a modified line in a core of the
 *   other processor, across QPI (R_{P,M} + 70), the counterpart of R_R.
 *
 * default  Conservative (slow-side) round numbers for current x86 servers,
 *   for when nothing better is known; replace them with measurements:
 *     R_L = 2.0   an L1 hit is 4-5 cycles, about 1.2-1.7 ns at 3-4 GHz;
 *     R_R = 100   core-to-core cache-line transfer inside one socket: the
 *                 published measurements (AnandTech's and Chips and Cheese's
 *                 core-to-core latency tests, e.g. "Core to Core Latency
 *                 Data on Large Systems", Chips and Cheese, Nov. 2023) show
 *                 roughly 20-60 ns between nearby cores and 80-120 ns
 *                 between the far dies/tiles of large AMD EPYC and Intel
 *                 Xeon (Sapphire Rapids) parts; 100 ns is the slow end of
 *                 one socket (crossing sockets costs more, 150-200 ns);
 *     R_I = 120   DRAM load-to-use latency of DDR4/DDR5 servers, 90-130 ns
 *                 (same sources; the paper's BenchIT method, Molka et al.,
 *                 PACT 2009, measures it the same way);
 *     R_X = 200   a line held by a core of another package: the slow end
 *                 of the 150-200 ns the same sources give for crossing
 *                 sockets, twice R_R;
 *     a, b, c, o, q, p  the Xeon Phi E/E fits scaled by 100 / 235.8, as for
 *                 sandy-bridge-e5-2670 (no public fits of these exist);
 *     line = 64 bytes.
 */
#include "model.h"

#include "calibration.h"
#include "errorf.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The paper's Xeon Phi values (see above). */
#define PHI_R_L 8.6
#define PHI_R_R 235.8
#define PHI_R_I 277.7
#define PHI_A 0.0
#define PHI_B 320.5
#define PHI_C 56.2
#define PHI_O 76.0
#define PHI_Q 1521.0
#define PHI_P 1096.0
/* Sandy Bridge E5-2670, Table 1.8: M lines inside / across processors. */
#define SNB_R_R 41.6
#define SNB_R_X 115.4

const char *const ompext_model_builtin_names[] = {
    "xeon-phi-5110p", "sandy-bridge-e5-2670", "default", NULL};

const char *const ompext_model_param_names[] = {
    "R_L", "R_R", "R_I", "R_X", "a", "b", "c", "o", "q", "p", "line", NULL};

/* The caller's R_L, R_R, R_I, R_X, and the Phi fits scaled by r_r/PHI_R_R. */
static void scaled_from_phi(ompext_model_params_t *out, const char *name,
                            double r_l, double r_r, double r_i, double r_x) {
  const double s = r_r / PHI_R_R;
  memset(out, 0, sizeof(*out));
  snprintf(out->name, sizeof(out->name), "%s", name);
  out->r_l = r_l;
  out->r_r = r_r;
  out->r_i = r_i;
  out->r_x = r_x;
  out->a = PHI_A * s;
  out->b = PHI_B * s;
  out->c = PHI_C * s;
  out->o = PHI_O * s;
  out->q = PHI_Q * s;
  out->p = PHI_P * s;
  out->line_bytes = 64;
}

int ompext_model_params_builtin(const char *name, ompext_model_params_t *out) {
  if (!name)
    return -1;
  if (strcmp(name, "xeon-phi-5110p") == 0) {
    /* s = 1: exactly the paper's values. */
    scaled_from_phi(out, name, PHI_R_L, PHI_R_R, PHI_R_I, PHI_R_R);
    return 0;
  }
  if (strcmp(name, "sandy-bridge-e5-2670") == 0) {
    scaled_from_phi(out, name, 2.3, SNB_R_R, 69.3, SNB_R_X);
    return 0;
  }
  if (strcmp(name, "default") == 0) {
    scaled_from_phi(out, name, 2.0, 100.0, 120.0, 200.0);
    return 0;
  }
  return -1;
}

/* Case-insensitive equality. */
static int same_name(const char *a, const char *b) {
  for (; *a && *b; ++a, ++b)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
      return 0;
  return *a == *b;
}

static double *field_for(ompext_model_params_t *p, const char *key) {
  static const struct {
    const char *name;
    size_t offset;
  } fields[] = {
      {"R_L", offsetof(ompext_model_params_t, r_l)},
      {"RL", offsetof(ompext_model_params_t, r_l)},
      {"R_R", offsetof(ompext_model_params_t, r_r)},
      {"RR", offsetof(ompext_model_params_t, r_r)},
      {"R_I", offsetof(ompext_model_params_t, r_i)},
      {"RI", offsetof(ompext_model_params_t, r_i)},
      {"R_X", offsetof(ompext_model_params_t, r_x)},
      {"RX", offsetof(ompext_model_params_t, r_x)},
      {"a", offsetof(ompext_model_params_t, a)},
      {"b", offsetof(ompext_model_params_t, b)},
      {"c", offsetof(ompext_model_params_t, c)},
      {"o", offsetof(ompext_model_params_t, o)},
      {"q", offsetof(ompext_model_params_t, q)},
      {"p", offsetof(ompext_model_params_t, p)},
      {"line", offsetof(ompext_model_params_t, line_bytes)},
      {"line_bytes", offsetof(ompext_model_params_t, line_bytes)},
  };
  for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); ++i)
    if (same_name(key, fields[i].name))
      return (double *)((char *)p + fields[i].offset);
  return NULL;
}

static int is_line_field(const ompext_model_params_t *p, const double *f) {
  return f == &p->line_bytes;
}

int ompext_model_params_set(ompext_model_params_t *p, const char *key,
                            const char *value, char *err, size_t errcap) {
  double *field = field_for(p, key);
  if (!field) {
    errorf(err, errcap,
           "unknown parameter '%s' (known: R_L R_R R_I R_X a b c o q p line)",
           key);
    return -1;
  }
  char *end = NULL;
  errno = 0;
  double v = strtod(value, &end);
  if (end == value || errno == ERANGE || !isfinite(v)) {
    errorf(err, errcap, "parameter %s: '%s' is not a finite number", key,
           value);
    return -1;
  }
  while (*end && isspace((unsigned char)*end))
    ++end;
  if (*end) {
    errorf(err, errcap, "parameter %s: '%s' is not a number", key, value);
    return -1;
  }
  if (v < 0) {
    errorf(err, errcap, "parameter %s: %s is negative (all values are >= 0)",
           key, value);
    return -1;
  }
  if (is_line_field(p, field) && (v < 1 || v > 4096 || v != floor(v))) {
    errorf(err, errcap,
           "parameter line: %s is not a whole number of bytes in [1, 4096]",
           value);
    return -1;
  }
  *field = v;
  return 0;
}

int ompext_model_params_assign(ompext_model_params_t *p,
                               const char *assignment, char *err,
                               size_t errcap) {
  const char *eq = strchr(assignment, '=');
  if (!eq || eq == assignment || !eq[1]) {
    errorf(err, errcap, "'%s' is not NAME=VALUE", assignment);
    return -1;
  }
  char key[64];
  size_t len = (size_t)(eq - assignment);
  if (len >= sizeof(key)) {
    errorf(err, errcap, "unknown parameter in '%s'", assignment);
    return -1;
  }
  memcpy(key, assignment, len);
  key[len] = '\0';
  return ompext_model_params_set(p, key, eq + 1, err, errcap);
}

/* Whether key names R_X (any accepted spelling). */
static int names_r_x(const char *key) {
  ompext_model_params_t probe;
  return field_for(&probe, key) == &probe.r_x;
}

/* The rule for a set whose R_R was given but not its R_X: R_X keeps the
   ratio R_X / R_R of the set it started from (`from`), so a calibration of
   R_R alone gets the base set's cross-package penalty, scaled (the default
   set's: R_X = 2 R_R).  R_R unchanged: R_X is left exactly as it was. */
static void keep_cross_ratio(ompext_model_params_t *p,
                             const ompext_model_params_t *from) {
  if (p->r_r != from->r_r && from->r_r > 0)
    p->r_x = from->r_x / from->r_r * p->r_r;
}

int ompext_model_params_assign_all(ompext_model_params_t *p,
                                   const char *const *assignments, int count,
                                   char *err, size_t errcap) {
  const ompext_model_params_t from = *p;
  int given_r_x = 0;
  for (int i = 0; i < count; ++i) {
    if (ompext_model_params_assign(p, assignments[i], err, errcap) != 0)
      return -1;
    const char *eq = strchr(assignments[i], '=');
    char key[64];
    snprintf(key, sizeof(key), "%.*s", (int)(eq - assignments[i]),
             assignments[i]);
    given_r_x |= names_r_x(key);
  }
  if (!given_r_x)
    keep_cross_ratio(p, &from);
  return 0;
}

/* The physically plausible range of each parameter; all times in ns.

   Line transfers R_L, R_R, R_I, R_X: 0.01 ns to 1 ms.  No read completes in
   less than a clock cycle, 0.2 ns at 5 GHz: 0.01 ns leaves a factor of 20
   for any timer's rounding.  The slowest transfers measured, across sockets
   or from DRAM on large machines, take some hundreds of ns: 1 ms is a
   thousand times more, a scheduler's time slice; a read measured that long
   was interrupted, it is not a transfer.

   Fitted coefficients a, b, c, q, p: 0 to 1 ms.  Each is a term of a time
   (T_C = b + c*n - a/n, T_N = o*N + q - p/N), so no more than a time; 0
   is a term that is absent (the paper's Eq. 3.2 has a = 0, ompext-calibrate's
   non-negative fits hold a coefficient at 0), and a coefficient near 0 is
   harmless, as the model only multiplies it or divides it by a count.

   The per-line copy time o: 0, or 0.01 ns to 1 ms.  Each line copied costs
   at least a cycle as well; the plan divides a time by o to find how many
   lines a copy has, so an o near 0 (1e-300) overflows what it computes,
   while 0 is a model without the term (the plan then does not divide).

   The cache line: a whole number of bytes in [1, 4096].

   With every time within 1 ms, the costs the optimizer adds up stay far
   from the limits of the integers the plan derives from them. */
#define MIN_TRANSFER_NS 0.01
#define MAX_TIME_NS 1e6
#define MAX_LINE_BYTES 4096

typedef struct param_range {
  const char *name;
  size_t offset;
  double lo, hi;
  int zero_ok; /* 0 accepted below lo */
} param_range_t;

static const param_range_t param_ranges[] = {
    {"R_L", offsetof(ompext_model_params_t, r_l), MIN_TRANSFER_NS,
     MAX_TIME_NS, 0},
    {"R_R", offsetof(ompext_model_params_t, r_r), MIN_TRANSFER_NS,
     MAX_TIME_NS, 0},
    {"R_I", offsetof(ompext_model_params_t, r_i), MIN_TRANSFER_NS,
     MAX_TIME_NS, 0},
    {"R_X", offsetof(ompext_model_params_t, r_x), MIN_TRANSFER_NS,
     MAX_TIME_NS, 0},
    {"a", offsetof(ompext_model_params_t, a), 0, MAX_TIME_NS, 1},
    {"b", offsetof(ompext_model_params_t, b), 0, MAX_TIME_NS, 1},
    {"c", offsetof(ompext_model_params_t, c), 0, MAX_TIME_NS, 1},
    {"o", offsetof(ompext_model_params_t, o), MIN_TRANSFER_NS, MAX_TIME_NS,
     1},
    {"q", offsetof(ompext_model_params_t, q), 0, MAX_TIME_NS, 1},
    {"p", offsetof(ompext_model_params_t, p), 0, MAX_TIME_NS, 1},
};

int ompext_model_params_validate(const ompext_model_params_t *p, char *err,
                                 size_t errcap) {
  for (size_t i = 0; i < sizeof(param_ranges) / sizeof(param_ranges[0]);
       ++i) {
    const param_range_t *r = &param_ranges[i];
    const double v = *(const double *)((const char *)p + r->offset);
    const int zero = r->zero_ok && v == 0;
    if (!zero && !(v >= r->lo && v <= r->hi)) { /* NaN fails too */
      errorf(err, errcap,
             "parameter %s = %g is out of range: %s%g to %g ns", r->name, v,
             r->zero_ok && r->lo > 0 ? "0, or " : "", r->lo, r->hi);
      return -1;
    }
  }
  if (!(p->line_bytes >= 1 && p->line_bytes <= MAX_LINE_BYTES) ||
      p->line_bytes != floor(p->line_bytes)) {
    errorf(err, errcap,
           "parameter line = %g is out of range: a whole number of bytes, "
           "1 to %d",
           p->line_bytes, MAX_LINE_BYTES);
    return -1;
  }
  return 0;
}

/* Splits one line in place into key and value; returns 0 for a blank or
   comment-only line, 1 for a key/value pair, -1 for a malformed line. */
static int split_line(char *line, char **key, char **value) {
  char *hash = strchr(line, '#');
  if (hash)
    *hash = '\0';
  char *s = line;
  while (*s && isspace((unsigned char)*s))
    ++s;
  char *e = s + strlen(s);
  while (e > s && isspace((unsigned char)e[-1]))
    *--e = '\0';
  if (!*s)
    return 0;
  char *k = s;
  while (*s && !isspace((unsigned char)*s) && *s != '=')
    ++s;
  char *kend = s;
  while (*s && isspace((unsigned char)*s))
    ++s;
  if (*s == '=') {
    ++s;
    while (*s && isspace((unsigned char)*s))
      ++s;
  }
  *kend = '\0';
  if (!*k || !*s)
    return -1;
  /* The value is one token. */
  for (char *t = s; *t; ++t)
    if (isspace((unsigned char)*t))
      return -1;
  *key = k;
  *value = s;
  return 1;
}

int ompext_model_params_parse(const char *text, const char *origin,
                              ompext_model_params_t *out, char *err,
                              size_t errcap) {
  ompext_model_params_t p, from;
  ompext_model_params_builtin("default", &p);
  snprintf(p.name, sizeof(p.name), "%s", origin);
  from = p;
  int seen_value = 0, given_r_x = 0;
  int lineno = 0;
  const char *at = text;
  while (*at) {
    const char *nl = strchr(at, '\n');
    size_t len = nl ? (size_t)(nl - at) : strlen(at);
    ++lineno;
    char buf[512];
    if (len >= sizeof(buf)) {
      errorf(err, errcap, "%s:%d: line too long", origin, lineno);
      return -1;
    }
    memcpy(buf, at, len);
    buf[len] = '\0';
    at += len + (nl ? 1 : 0);
    char *key, *value;
    int kind = split_line(buf, &key, &value);
    if (kind == 0)
      continue;
    if (kind < 0) {
      errorf(err, errcap, "%s:%d: expected 'key value'", origin, lineno);
      return -1;
    }
    if (same_name(key, "base")) {
      if (seen_value) {
        errorf(err, errcap, "%s:%d: 'base' must come before any value",
               origin, lineno);
        return -1;
      }
      if (ompext_model_params_builtin(value, &p) != 0) {
        errorf(err, errcap, "%s:%d: unknown built-in set '%s'", origin,
               lineno, value);
        return -1;
      }
      snprintf(p.name, sizeof(p.name), "%s", origin);
      from = p;
      continue;
    }
    char sub[256];
    if (ompext_model_params_set(&p, key, value, sub, sizeof(sub)) != 0) {
      errorf(err, errcap, "%s:%d: %s", origin, lineno, sub);
      return -1;
    }
    seen_value = 1;
    given_r_x |= names_r_x(key);
  }
  if (!given_r_x)
    keep_cross_ratio(&p, &from);
  *out = p;
  return 0;
}

int ompext_model_params_from_file_text(const char *text, const char *origin,
                                       const char *machine_hash,
                                       ompext_model_params_t *out, char *err,
                                       size_t errcap) {
  char why[256] = "";
  const char *body =
      ompext_calibration_body(text, machine_hash, why, sizeof(why));
  if (!body) {
    errorf(err, errcap, "%s", why);
    return -1;
  }
  ompext_model_params_t p;
  if (ompext_model_params_parse(body, origin, &p, err, errcap) != 0 ||
      ompext_model_params_validate(&p, err, errcap) != 0)
    return -1;
  *out = p;
  return 0;
}

/* 1 if msg starts with "origin:", as the parser's messages do. */
static int starts_with_origin(const char *msg, const char *origin) {
  const size_t len = strlen(origin);
  return strncmp(msg, origin, len) == 0 && msg[len] == ':';
}

int ompext_model_params_load_file(const char *path, ompext_model_params_t *out,
                                  char *err, size_t errcap) {
  char why[256] = "";
  char *text = ompext_calibration_read_file(path, why, sizeof(why));
  if (!text) {
    errorf(err, errcap, "%s: %s", path, why);
    return -1;
  }
  const int rc = ompext_model_params_from_file_text(
      text, path, OMPEXT_CALIBRATION_ANY_MACHINE, out, err, errcap);
  free(text);
  /* The parser's messages name the file ("path:line: ..."), the others
     get it in front. */
  if (rc != 0 && err && errcap && !starts_with_origin(err, path)) {
    snprintf(why, sizeof(why), "%s", err);
    errorf(err, errcap, "%s: %s", path, why);
  }
  return rc;
}

int ompext_model_params_resolve(const char *name_or_file,
                                ompext_model_params_t *out, char *err,
                                size_t errcap) {
  if (ompext_model_params_builtin(name_or_file, out) == 0)
    return 0;
  if (!ompext_calibration_path_exists(name_or_file)) {
    errorf(err, errcap,
           "unknown parameter set '%s' (built-in: xeon-phi-5110p, "
           "sandy-bridge-e5-2670, default; or the path of a parameter file)",
           name_or_file);
    return -1;
  }
  return ompext_model_params_load_file(name_or_file, out, err, errcap);
}

/* The shortest of %.15g, %.16g, %.17g that reads back to v. */
static void write_value(FILE *f, const char *key, double v) {
  char buf[64];
  for (int digits = 15; digits <= 17; ++digits) {
    snprintf(buf, sizeof(buf), "%.*g", digits, v);
    if (strtod(buf, NULL) == v)
      break;
  }
  fprintf(f, "%s %s\n", key, buf);
}

void ompext_model_params_write(FILE *f, const ompext_model_params_t *p) {
  fprintf(f, "# omp-ext cost model parameters (%s); times in ns\n", p->name);
  write_value(f, "R_L", p->r_l);
  write_value(f, "R_R", p->r_r);
  write_value(f, "R_I", p->r_i);
  write_value(f, "R_X", p->r_x);
  fprintf(f, "# contention T_C(n) = b + c*n - a/n\n");
  write_value(f, "a", p->a);
  write_value(f, "b", p->b);
  write_value(f, "c", p->c);
  fprintf(f, "# multi-line copy T_N = o*N + q - p/N\n");
  write_value(f, "o", p->o);
  write_value(f, "q", p->q);
  write_value(f, "p", p->p);
  write_value(f, "line", p->line_bytes);
}
