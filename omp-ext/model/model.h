/*
 * Analytical cost model of omp-ext's collective algorithms.
 *
 * The model is the min-max model of S. Ramos and T. Hoefler, "Modelling
 * Communications in Cache Coherent Systems" (2013, the thesis behind
 * "Modeling Communication in Cache-Coherent SMP Systems", HPDC 2013):
 *
 *   line transfers   R_L (line in the reader's own cache), R_R (line in
 *                    another core's cache), R_I (line in memory)
 *                    -- simplified model, Table 1.5b
 *   contention       T_C(n) = b + c*n - a/n        (Eq. 3.2; a != 0: Eq. 3.3)
 *   multi-line copy  T_N    = o*N + q - p/N        (Eq. 3.1)
 *
 * and, built from those pieces, a best case (min) and a worst case (max)
 * cost per algorithm (Table 4.1).  Every time is in nanoseconds.
 *
 * params.c   the built-in parameter sets, their plausible ranges and the
 *            NAME=VALUE / file parsers (files read by omp-ext/calibration)
 * cost.c     one function per algorithm: the paper's min and max equations
 *            (and, for the algorithms the paper does not model, costs
 *            derived from its primitives, marked as such)
 * optimizer.c  per team size (and message size): the best parameters of each
 *            algorithm and the best algorithm, by bounded exhaustive search
 * baseline.c the collectives of the runtimes omp-ext is compared with
 *            (libomp as shipped, libgomp), priced with the same pieces
 * topology.c the topology (OMPEXT_TOPOLOGY's description), and pricing on
 *            it: R_R inside a package, R_X across (placed.h, private)
 * hier.c     omp-ext on a topology: the plugin's plan of one leader per
 *            package for a team that spans several
 * cost_pair.h  (private) building and adding min/max pairs, for cost.c and
 *            baseline.c
 * errorf.h   (private) the error messages of the parsers
 */
#ifndef OMPEXT_MODEL_H
#define OMPEXT_MODEL_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Parameters                                                               */
/* ------------------------------------------------------------------------ */

typedef struct ompext_model_params {
  char name[128];    /* built-in set name or the file it came from */
  double r_l;        /* R_L: read of a line in the own cache (ns) */
  double r_r;        /* R_R: read of a line held by another core (ns) */
  double r_i;        /* R_I: read of an invalid line, from memory (ns) */
  double r_x;        /* R_X: read of a line held by a core of another
                        package (ns); used only with a topology */
  double a, b, c;    /* contention T_C(n) = b + c*n - a/n (ns) */
  double o, q, p;    /* multi-line copy T_N = o*N + q - p/N (ns) */
  double line_bytes; /* cache line size (bytes, a whole number >= 1) */
} ompext_model_params_t;

/* Names of the built-in sets, NULL-terminated:
   "xeon-phi-5110p", "sandy-bridge-e5-2670", "default". */
extern const char *const ompext_model_builtin_names[];

/* Copies built-in set `name` into *out.  0, or -1 for an unknown name. */
int ompext_model_params_builtin(const char *name, ompext_model_params_t *out);

/* The accepted parameter names (canonical spelling), NULL-terminated:
   R_L R_R R_I R_X a b c o q p line.  Lookup is case-insensitive and also
   takes RL, RR, RI, RX and line_bytes. */
extern const char *const ompext_model_param_names[];

/* Sets one parameter from its textual value.  0, or -1 with a message in
   err (unknown name, not a number, out of range). */
int ompext_model_params_set(ompext_model_params_t *p, const char *key,
                            const char *value, char *err, size_t errcap);

/* Applies one "NAME=VALUE" override (as given to --set). */
int ompext_model_params_assign(ompext_model_params_t *p,
                               const char *assignment, char *err,
                               size_t errcap);

/* Applies count overrides in turn, then the R_X rule of files: when R_R
   changed and no override named R_X, R_X keeps its ratio to R_R.  0, or -1
   with the message of the first override refused. */
int ompext_model_params_assign_all(ompext_model_params_t *p,
                                   const char *const *assignments, int count,
                                   char *err, size_t errcap);

/* Parses a parameter file's text: one "key value" per line ("key=value" is
   accepted too), '#' starts a comment, blank lines are ignored.  The values
   start from the built-in "default" set; a line "base NAME" (before any
   value) starts from built-in set NAME instead.  A text that gives R_R but
   not R_X gets R_X = R_R times the starting set's R_X / R_R (2 for
   "default").  `origin` names the text in
   error messages ("file:line: ..."). */
int ompext_model_params_parse(const char *text, const char *origin,
                              ompext_model_params_t *out, char *err,
                              size_t errcap);

/* The parameters of a parameter or calibration file's text, as
   ompext_calibration_read_file (omp-ext/calibration) reads it, under the
   rules of every reader of such files, the plugin's and the tools': the
   framing checked by ompext_calibration_body (machine_hash: the
   fingerprint a calibration file must carry, NULL when this machine's is
   unknown, or OMPEXT_CALIBRATION_ANY_MACHINE), the text parsed
   (ompext_model_params_parse), the values validated.  0, or -1 with a
   message (the parser's name origin, the others do not). */
int ompext_model_params_from_file_text(const char *text, const char *origin,
                                       const char *machine_hash,
                                       ompext_model_params_t *out, char *err,
                                       size_t errcap);

/* Reads a parameter or calibration file of any machine with
   ompext_calibration_read_file (a regular text file of at most 1 MiB, never
   waiting on a FIFO or a device), then ompext_model_params_from_file_text.
   0, or -1 with a message naming the file. */
int ompext_model_params_load_file(const char *path, ompext_model_params_t *out,
                                  char *err, size_t errcap);

/* Resolves --params: a built-in name, else a file.  0, or -1 with a message
   (unknown set and nothing at that path, or a file refused). */
int ompext_model_params_resolve(const char *name_or_file,
                                ompext_model_params_t *out, char *err,
                                size_t errcap);

/* Checks that every parameter is physically plausible (params.c says why
   each range): R_L, R_R, R_I, R_X from 0.01 ns to 1 ms; a, b, c, q, p from 0 to
   1 ms; o 0, or 0.01 ns to 1 ms; line a whole number of bytes from 1 to
   4096.  0, or -1 with a message naming the value and its range. */
int ompext_model_params_validate(const ompext_model_params_t *p, char *err,
                                 size_t errcap);

/* Writes *p in the parameter-file format (it reads back to the same). */
void ompext_model_params_write(FILE *f, const ompext_model_params_t *p);

/* ------------------------------------------------------------------------ */
/* Costs                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct ompext_model_cost {
  double min; /* best case */
  double max; /* worst case */
} ompext_model_cost_t;

/* The most levels of any tree (the optimizer's depth bound, too). */
#define OMPEXT_MODEL_MAX_LEVELS 32

/* The pieces. */
double ompext_model_tc(const ompext_model_params_t *p, double n); /* T_C(n) */
double ompext_model_tn(const ompext_model_params_t *p, double lines); /* T_N */
ompext_model_cost_t ompext_model_notify_back(const ompext_model_params_t *p,
                                             int n); /* T_nb(n), Eq. 4.1/4.2 */

/* The derived primitives of the barriers (cost.c says why each term):
   S(k), one thread sets k flag lines that their owners poll, and G(k), one
   thread reads k flag lines that their owners set.  k >= 0. */
ompext_model_cost_t ompext_model_signal(const ompext_model_params_t *p, int k);
ompext_model_cost_t ompext_model_gather(const ompext_model_params_t *p, int k);

/* How the number of dissemination rounds is counted.
   ALGORITHM: r = ceil(log_{m+1} n), what the runtime runs (peer offsets
              i*(m+1)^r, i = 1..m, cover (m+1)^r threads after r rounds).
   PAPER:     r = ceil(log_m n) as printed in Eq. 4.11/4.12 and Table B.2
              (m = 1 is then defined only for n = 2, with r = 1: the table's
              first row; log_1 is undefined otherwise). */
typedef enum {
  OMPEXT_MODEL_ROUNDS_ALGORITHM = 0,
  OMPEXT_MODEL_ROUNDS_PAPER = 1
} ompext_model_rounds_t;

/* Rounds of an m-dissemination barrier over n threads; -1 if undefined. */
int ompext_model_dissemination_rounds(int n, int m, ompext_model_rounds_t mode);

/* Levels of the complete tree with fan-out k at every level that reaches n
   threads (smallest d with 1 + k + ... + k^d >= n); k >= 1, n >= 1. */
int ompext_model_uniform_depth(int n, int k);

/* Barriers.  Each returns {min, max}; an invalid argument gives {NaN, NaN}
   (a cost itself can be negative with odd parameters). */
ompext_model_cost_t ompext_model_barrier_dissemination(
    const ompext_model_params_t *p, int n, int m, ompext_model_rounds_t mode);
ompext_model_cost_t ompext_model_barrier_tree(const ompext_model_params_t *p,
                                              int n, int k);
ompext_model_cost_t ompext_model_barrier_tournament(
    const ompext_model_params_t *p, int n, int k);
ompext_model_cost_t ompext_model_barrier_centralized(
    const ompext_model_params_t *p, int n);

/* Broadcasts of `lines` cache lines (>= 1).  The tree: depth d, k[0] = k_1
   the root's fan-out, ..., k[d-1] = k_d.  Pipelined: `packets` stages of
   `chunk_lines` lines each (the paper's choice: packets = n-1, chunk_lines
   = lines/(n-1)). */
ompext_model_cost_t ompext_model_bcast_tree(const ompext_model_params_t *p,
                                            double lines, int d, const int *k);
ompext_model_cost_t ompext_model_bcast_pipelined(
    const ompext_model_params_t *p, int n, double packets,
    double chunk_lines);
ompext_model_cost_t ompext_model_bcast_flat(const ompext_model_params_t *p,
                                            int n, double lines);

/* Reductions of one item. */
ompext_model_cost_t ompext_model_reduce_tree(const ompext_model_params_t *p,
                                             int d, const int *k);
ompext_model_cost_t ompext_model_reduce_atomic(const ompext_model_params_t *p,
                                               int n);
/* Reductions of `lines` cache lines (>= 1; one line is one item, more are
   arrays of 8-byte items): the tree, atomics per item, and one lock
   (libomp's critical method).  lines = 1 gives the one-item costs. */
ompext_model_cost_t ompext_model_reduce_tree_lines(
    const ompext_model_params_t *p, int d, const int *k, double lines);
ompext_model_cost_t ompext_model_reduce_atomic_lines(
    const ompext_model_params_t *p, int n, double lines);
ompext_model_cost_t ompext_model_reduce_critical(
    const ompext_model_params_t *p, int n, double lines);

/* A k-ary heap over tids 0..n-1 (children of t: t*k+1 .. t*k+k): the
   children of its leftmost node at `depth` (the critical path's node), 0
   below the tree; the gather and the release along that path, each level
   G(c) or S(c) of its c children (derived). */
int ompext_model_kary_children(int n, int k, int depth);
ompext_model_cost_t ompext_model_kary_gather(const ompext_model_params_t *p,
                                             int n, int k);
ompext_model_cost_t ompext_model_kary_release(const ompext_model_params_t *p,
                                              int n, int k);

/* omp-ext's fork and join of an empty region on its k-ary fork/join tree:
   release plus gather (derived). */
ompext_model_cost_t ompext_model_forkjoin_tree(const ompext_model_params_t *p,
                                               int n, int k);

/* k-nomial trees (knomial.c): fan-in fanin[l] at level l, leaves first,
   the last given one repeating (every fan-in >= 2).  Level l groups the
   multiples of S_l = fanin[0] * ... * fanin[l-1]; a leader t gathers and
   releases t + j*S_l, j = 1 .. fanin[l]-1.  tid 0's children at a level (0
   past the last), the levels, and the gather (each child's data of
   combine_lines lines combined as it arrives; 0: none) and release along
   tid 0's levels, the critical path. */
int ompext_model_knomial_children(int n, const int *fanin, int given,
                                  int level);
int ompext_model_knomial_levels(int n, const int *fanin, int given);
ompext_model_cost_t ompext_model_knomial_gather(const ompext_model_params_t *p,
                                                int n, const int *fanin,
                                                int given,
                                                double combine_lines);
ompext_model_cost_t ompext_model_knomial_release(
    const ompext_model_params_t *p, int n, const int *fanin, int given);
/* omp-ext's fork/join on its radix-r k-nomial tree: release plus gather. */
ompext_model_cost_t ompext_model_forkjoin_knomial(
    const ompext_model_params_t *p, int n, int radix);
/* A tree reduction as reduce_tree.c gathers it (fan-ins leaves first):
   the k-nomial gather combining `lines` lines per child, tid 0's fold into
   the shared variable (from memory, as the other methods' shared lines),
   and the runtime's radix-2 release after its reduction barrier.  Fan-in 2
   everywhere is libomp's own tree method. */
ompext_model_cost_t ompext_model_reduce_gathered(const ompext_model_params_t *p,
                                                 int n, const int *fanin,
                                                 int given, double lines);

/* Threads a tree with fan-outs k[0..d-1] reaches: 1 + sum_i prod_{j<=i} k_j
   (Eq. 4.4), saturated at `cap` (pass n). */
long ompext_model_tree_coverage(int d, const int *k, long cap);

/* ------------------------------------------------------------------------ */
/* Algorithms and the optimizer                                             */
/* ------------------------------------------------------------------------ */

typedef enum {
  OMPEXT_MODEL_OP_BARRIER,
  OMPEXT_MODEL_OP_BCAST,
  OMPEXT_MODEL_OP_REDUCE,
  OMPEXT_MODEL_OP_COPYPRIVATE, /* broadcast, then the team's barrier */
  OMPEXT_MODEL_OP_FORK_JOIN,   /* fork and join of an empty region */
  OMPEXT_MODEL_OP_COUNT
} ompext_model_op_t;

typedef enum {
  OMPEXT_MODEL_DISSEMINATION,  /* barrier, parameter m */
  OMPEXT_MODEL_BARRIER_TREE,   /* barrier, fan-in k */
  OMPEXT_MODEL_TOURNAMENT,     /* barrier, release fan-out k (0: tournament) */
  OMPEXT_MODEL_CENTRALIZED,    /* barrier */
  OMPEXT_MODEL_BCAST_TREE,     /* bcast, k_1..k_d */
  OMPEXT_MODEL_BCAST_FLAT,     /* bcast */
  OMPEXT_MODEL_BCAST_PIPELINED,/* bcast, chunk size */
  OMPEXT_MODEL_REDUCE_TREE,    /* reduce, k_1..k_d */
  OMPEXT_MODEL_REDUCE_ATOMIC,  /* reduce */
  OMPEXT_MODEL_REDUCE_CRITICAL,/* reduce */
  OMPEXT_MODEL_COPYPRIVATE_TREE,     /* copyprivate: bcast tree, k_1..k_d */
  OMPEXT_MODEL_COPYPRIVATE_FLAT,     /* copyprivate: flat bcast */
  OMPEXT_MODEL_COPYPRIVATE_PIPELINED,/* copyprivate: pipelined, chunk size */
  OMPEXT_MODEL_FORKJOIN_TREE,        /* fork_join, k */
  OMPEXT_MODEL_ALG_COUNT
} ompext_model_alg_t;

/* barrier bcast reduce copyprivate fork_join */
extern const char *const ompext_model_op_names[];

const char *ompext_model_alg_name(ompext_model_alg_t alg); /* e.g. "tree" */
ompext_model_op_t ompext_model_alg_op(ompext_model_alg_t alg);
/* The algorithms of an op in the optimizer's tie-break order; returns the
   count (at most OMPEXT_MODEL_ALG_COUNT). */
int ompext_model_op_algs(ompext_model_op_t op, ompext_model_alg_t *out);
/* Looks an algorithm up by name within op; 0, or -1. */
int ompext_model_alg_lookup(ompext_model_op_t op, const char *name,
                            ompext_model_alg_t *out);
int ompext_model_op_lookup(const char *name, ompext_model_op_t *out);

typedef enum {
  OMPEXT_MODEL_CRITERION_MIN = 0, /* the paper's (Sec. 4.4, Appendix B) */
  OMPEXT_MODEL_CRITERION_MAX = 1
} ompext_model_criterion_t;

typedef struct ompext_model_options {
  ompext_model_criterion_t criterion; /* default MIN, as the paper */
  ompext_model_rounds_t rounds;       /* default ALGORITHM */
  int max_m;     /* bound on m; 0: n-1 */
  int max_k;     /* bound on any fan-out k, k_i; 0: n-1 */
  int max_depth; /* bound on tree depth d; 0: OMPEXT_MODEL_MAX_LEVELS */
} ompext_model_options_t;

void ompext_model_options_default(ompext_model_options_t *o);

/* One configuration of one algorithm for one team (and message). */
typedef struct ompext_model_choice {
  ompext_model_alg_t alg;
  int n;             /* team size */
  long lines;        /* message size in lines (bcast, reduce; 1 otherwise) */
  int m, rounds;     /* dissemination */
  int k;             /* barrier tree fan-in; tournament release fan-out */
  int depth;         /* bcast/reduce tree depth d */
  int fanout[OMPEXT_MODEL_MAX_LEVELS]; /* k_1 (root's children) .. k_d */
  long chunk_lines;  /* pipelined: lines per packet */
  long packets;      /* pipelined: packets (= stages) */
  ompext_model_cost_t cost;
} ompext_model_choice_t;

/* Evaluates choice->cost from the other fields (rounds and packets are
   recomputed from m and chunk_lines).  0, or -1 if the configuration is
   invalid for the team (e.g. a tree that does not reach n threads). */
int ompext_model_evaluate(const ompext_model_params_t *p,
                          const ompext_model_options_t *o,
                          ompext_model_choice_t *choice);

/* The best configuration of one algorithm for n threads (and `lines` cache
   lines for broadcasts).  0, or -1 if the algorithm has no valid
   configuration (the pipelined broadcast needs lines >= n-1). */
int ompext_model_best_config(const ompext_model_params_t *p,
                             const ompext_model_options_t *o,
                             ompext_model_alg_t alg, int n, long lines,
                             ompext_model_choice_t *out);

/* The best algorithm of op and its configuration.  0, or -1. */
int ompext_model_best(const ompext_model_params_t *p,
                      const ompext_model_options_t *o, ompext_model_op_t op,
                      int n, long lines, ompext_model_choice_t *out);

/* The criterion's value of a cost. */
double ompext_model_criterion_value(const ompext_model_options_t *o,
                                    ompext_model_cost_t c);

/* The optimizer's order: negative if a is preferred to b, positive if b is,
   0 if they are interchangeable.  Costs within a relative 1e-9 count as
   equal.  Keys: the criterion's cost, then the other bound; then, between
   two algorithms, their order in ompext_model_op_algs, and within one
   algorithm the structure (see optimizer.c: smaller m, k, chunk; fewer
   levels, then k_1, k_2, ... lexicographically smaller). */
int ompext_model_compare(const ompext_model_options_t *o,
                         const ompext_model_choice_t *a,
                         const ompext_model_choice_t *b);

/* "m=4", "k=4,4,3" (k_1 first), "k=0", "chunk=128" (bytes), or "-". */
int ompext_model_format_config(const ompext_model_params_t *p,
                               const ompext_model_choice_t *c, char *buf,
                               size_t cap);

/* Parses a configuration in the format above into choice (alg, n and lines
   must be set already).  0, or -1 with a message. */
int ompext_model_parse_config(const ompext_model_params_t *p, const char *text,
                              ompext_model_choice_t *choice, char *err,
                              size_t errcap);

/* ------------------------------------------------------------------------ */
/* Baselines: the runtimes omp-ext is compared with (baseline.c)            */
/* ------------------------------------------------------------------------ */

/* libomp's defaults (LLVM 19, x86-64): branch bits of the plain and the
   fork/join barriers (radix 4), of the reduction barrier (radix 2), and the
   largest team that reduces with atomics. */
#define OMPEXT_MODEL_LIBOMP_BRANCH_BITS 2
#define OMPEXT_MODEL_LIBOMP_REDUCTION_BRANCH_BITS 1
#define OMPEXT_MODEL_LIBOMP_ATOMIC_CUTOFF 4

typedef enum {
  OMPEXT_MODEL_LIBOMP_LINEAR, /* KMP_*_BARRIER_PATTERN=linear */
  OMPEXT_MODEL_LIBOMP_TREE,   /* tree */
  OMPEXT_MODEL_LIBOMP_HYPER   /* hyper, the default */
} ompext_model_libomp_pattern_t;

/* Levels of the hypercube-embedded tree (offsets 1, 2^bits, ... below n),
   and tid 0's children at one of them (-1 / 0 for bad arguments). */
int ompext_model_hyper_levels(int n, int branch_bits);
int ompext_model_hyper_children(int n, int branch_bits, int level);

/* libomp's barrier halves; combine_lines 0: no reduction, N >= 1: each
   child's N lines are combined as it arrives. */
ompext_model_cost_t ompext_model_libomp_gather(
    const ompext_model_params_t *p, ompext_model_libomp_pattern_t pattern,
    int n, int branch_bits, double combine_lines);
ompext_model_cost_t ompext_model_libomp_release(
    const ompext_model_params_t *p, ompext_model_libomp_pattern_t pattern,
    int n, int branch_bits);
ompext_model_cost_t ompext_model_libomp_barrier(
    const ompext_model_params_t *p, ompext_model_libomp_pattern_t pattern,
    int n, int branch_bits);
/* libomp's reductions of `lines` lines: the tree in the reduction barrier,
   and the method libomp picks (*method: "atomic" or "tree", may be NULL). */
ompext_model_cost_t ompext_model_libomp_reduce_tree(
    const ompext_model_params_t *p, ompext_model_libomp_pattern_t pattern,
    int n, double lines);
ompext_model_cost_t ompext_model_libomp_reduce(
    const ompext_model_params_t *p, ompext_model_libomp_pattern_t pattern,
    int n, double lines, const char **method);
ompext_model_cost_t ompext_model_libomp_copyprivate(
    const ompext_model_params_t *p, ompext_model_libomp_pattern_t pattern,
    int n, double lines);
ompext_model_cost_t ompext_model_libomp_fork_join(
    const ompext_model_params_t *p, ompext_model_libomp_pattern_t pattern,
    int n);

/* libgomp (GCC): the centralized barrier, GCC's reductions (*method:
   "atomic" or "lock"), copyprivate, fork/join of a pooled team. */
ompext_model_cost_t ompext_model_libgomp_barrier(
    const ompext_model_params_t *p, int n);
ompext_model_cost_t ompext_model_libgomp_reduce(
    const ompext_model_params_t *p, int n, double lines, const char **method);
ompext_model_cost_t ompext_model_libgomp_copyprivate(
    const ompext_model_params_t *p, int n, double lines);
ompext_model_cost_t ompext_model_libgomp_fork_join(
    const ompext_model_params_t *p, int n);

typedef enum {
  OMPEXT_MODEL_BASELINE_STOCK,        /* libomp as shipped (hyper) */
  OMPEXT_MODEL_BASELINE_STOCK_TREE,   /* libomp, tree pattern */
  OMPEXT_MODEL_BASELINE_STOCK_LINEAR, /* libomp, linear pattern */
  OMPEXT_MODEL_BASELINE_LIBGOMP,      /* GCC's libgomp */
  OMPEXT_MODEL_BASELINE_COUNT
} ompext_model_baseline_t;

/* "stock", "stock-tree", "stock-linear", "libgomp", NULL-terminated. */
extern const char *const ompext_model_baseline_names[];
int ompext_model_baseline_lookup(const char *name,
                                 ompext_model_baseline_t *out); /* 0, -1 */
/* Whether the baseline has op (none has a broadcast alone: a runtime
   broadcasts only inside copyprivate). */
int ompext_model_baseline_has_op(ompext_model_baseline_t b,
                                 ompext_model_op_t op);

typedef struct ompext_model_baseline_cost {
  ompext_model_cost_t cost;
  char method[64]; /* "stock:hyper", "stock:atomic", "libgomp:lock", ... */
} ompext_model_baseline_cost_t;

/* The baseline's cost of op for n threads and `lines` lines (bcast-like
   and reduce ops).  0, or -1 (no such op, n < 2). */
int ompext_model_baseline_cost(const ompext_model_params_t *p,
                               ompext_model_baseline_t b,
                               ompext_model_op_t op, int n, long lines,
                               ompext_model_baseline_cost_t *out);

/* Cache lines of a message of `bytes` bytes (at least 1). */
long ompext_model_lines_for_bytes(const ompext_model_params_t *p, long bytes);

/* ------------------------------------------------------------------------ */
/* Topology (topology.c, hier.c)                                            */
/* ------------------------------------------------------------------------ */

/* Where a team runs: `packages` domains of `cores` cores each, a domain
   being what the plugin gives a leader (omp-ext/src/topology/topology.h: a
   package, or an L3 cache where a package has several).  Thread t runs on
   core t, so on package t / cores; a team of more than packages * cores
   threads is outside the model. */
typedef struct ompext_model_topology {
  int packages; /* domains, >= 1 */
  int cores;    /* cores per domain, >= 1 */
  int pus;      /* PUs per core (no thread of the team shares a core) */
  char kind[16]; /* "package", "l3cache" or "machine" */
} ompext_model_topology_t;

/* Reads an hwloc synthetic description as OMPEXT_TOPOLOGY gives it to the
   plugin, e.g. "package:2 core:32 pu:1" (levels TYPE:COUNT from the top,
   down to core and optionally pu; at most 4096 PUs).  0, or -1 with a
   message. */
int ompext_model_topology_parse(const char *desc, ompext_model_topology_t *out,
                                char *err, size_t errcap);
/* The package of thread tid (0 without a topology). */
int ompext_model_topology_package(const ompext_model_topology_t *t, int tid);
/* Whether a team of n threads spans more than one package of t (NULL: no). */
int ompext_model_topology_spans(const ompext_model_topology_t *t, int n);

/* The baseline on a topology: as ompext_model_baseline_cost, with each
   transfer between two packages at R_X; libomp's trees are
   topology-unaware, their longest path taken over every thread.  The same
   as ompext_model_baseline_cost when the team does not span packages.
   Copyprivate's single thread is taken to be tid 0. */
int ompext_model_baseline_cost_placed(const ompext_model_params_t *p,
                                      const ompext_model_topology_t *t,
                                      ompext_model_baseline_t b,
                                      ompext_model_op_t op, int n, long lines,
                                      ompext_model_baseline_cost_t *out);

/* omp-ext as the plugin runs a team on a topology. */
typedef struct ompext_model_plan_cost {
  ompext_model_cost_t cost;
  char algorithm[32]; /* the optimizer's algorithm, or "hier:..." */
  char config[96];    /* its parameters, as ompext_model_format_config */
} ompext_model_plan_cost_t;

/* A team within one package: the optimizer's best (ompext_model_best).  A
   team spanning packages: the plugin's hierarchical plan (hier.c), barrier,
   reduce, copyprivate and fork_join (not the broadcast alone).  0, or -1
   (an op not priced there, n < 2, or more threads than cores). */
int ompext_model_ext_placed(const ompext_model_params_t *p,
                            const ompext_model_options_t *o,
                            const ompext_model_topology_t *t,
                            ompext_model_op_t op, int n, long lines,
                            ompext_model_plan_cost_t *out);

/* The plugin's collectives on a topology, each with the parameters a plan
   gives it, for a team spanning packages (the plan weighs them against
   each other and against ompext_model_baseline_cost_placed).  {NaN, NaN}
   for an invalid argument.
   One leader per package (hier.c): the barrier (a combining tree of
   inside_k in each package, the leaders' dissemination of leaders_m), the
   reduction tree (fan-ins leaves first, inside then among the leaders),
   fork/join (the heap of k_in in each package, the leaders under tid 0)
   and the broadcast of a copyprivate (fan-out k, without its close). */
ompext_model_cost_t ompext_model_hier_barrier(const ompext_model_params_t *p,
                                              const ompext_model_topology_t *t,
                                              int n, int inside_k,
                                              int leaders_m);
ompext_model_cost_t ompext_model_hier_reduce_tree(
    const ompext_model_params_t *p, const ompext_model_topology_t *t, int n,
    const int *fanin, int given, double lines);
ompext_model_cost_t ompext_model_hier_fork_join(
    const ompext_model_params_t *p, const ompext_model_topology_t *t, int n,
    int k_in);
ompext_model_cost_t ompext_model_hier_bcast(const ompext_model_params_t *p,
                                            const ompext_model_topology_t *t,
                                            int n, int k, double lines);
/* The flat shapes over the same team (placed_flat.c): fork/join on the
   radix-r k-nomial tree or the heap of k, the reduction as reduce_tree.c
   gathers it flat, through one shared line (atomics, lock 0, or the lock,
   lock 1), and the dissemination barrier of m. */
ompext_model_cost_t ompext_model_placed_forkjoin_knomial(
    const ompext_model_params_t *p, const ompext_model_topology_t *t, int n,
    int radix);
ompext_model_cost_t ompext_model_placed_forkjoin_heap(
    const ompext_model_params_t *p, const ompext_model_topology_t *t, int n,
    int k);
ompext_model_cost_t ompext_model_placed_reduce_gathered(
    const ompext_model_params_t *p, const ompext_model_topology_t *t, int n,
    const int *fanin, int given, double lines);
/* The release alone down the heap of k from tid 0: a broadcast's signals. */
ompext_model_cost_t ompext_model_placed_release_heap(
    const ompext_model_params_t *p, const ompext_model_topology_t *t, int n,
    int k);
ompext_model_cost_t ompext_model_placed_reduce_shared(
    const ompext_model_params_t *p, const ompext_model_topology_t *t, int n,
    double lines, int lock);
ompext_model_cost_t ompext_model_placed_dissemination(
    const ompext_model_params_t *p, const ompext_model_topology_t *t, int n,
    int m);
/* The parameters of a step whose every transfer crosses packages: R_R
   taken as R_X. */
ompext_model_params_t ompext_model_params_across(
    const ompext_model_params_t *p);

#ifdef __cplusplus
}
#endif

#endif /* OMPEXT_MODEL_H */
