/*
 * What ompext-calibrate and the plugin share about calibration files: the
 * machine fingerprint, the file's framing (one writer, one reader) and its
 * default location.  The tool writes the files, the plugin reads them; both
 * sit above this library, which knows neither.
 *
 * A calibration file is a parameter file of the cost model (omp-ext/model)
 * whose framing lines are comments to the model's parser:
 *
 *   # omp-ext calibration v1
 *   # fingerprint <16 hex digits>
 *   # cpu <model>
 *   # topology packages=P cores=C pus=U l3=L
 *   ...                     (the tool's notes and the model's parameters)
 *   # end
 *
 * A file that does not start with the first line is a plain parameter file
 * written by hand, and is taken as it is.
 *
 * Every reader of such files, the plugin and the tools, reads them with
 * ompext_calibration_read_file and checks the framing with
 * ompext_calibration_body: one set of rules.  Only the machine differs: the
 * plugin takes the files of its own machine, the tools, which show any
 * machine's parameters, those of any machine.
 *
 * The fingerprint names a machine: a 64-bit FNV-1a hash of its CPU model
 * and its whole-machine counts of packages, cores, PUs and L3 caches,
 * nothing that changes from run to run.  Files already written carry it,
 * so the way it is computed must not change.
 */
#ifndef OMPEXT_CALIBRATION_H
#define OMPEXT_CALIBRATION_H

#include <stddef.h>
#include <stdio.h>

/* The format version the writer writes and the reader accepts. */
#define OMPEXT_CALIBRATION_VERSION 1
/* A fingerprint hash: 16 hex digits and the terminating NUL. */
#define OMPEXT_CALIBRATION_HASH_SIZE 17
/* Room for a CPU model; a longer one is cut (and hashed cut). */
#define OMPEXT_CALIBRATION_CPU_MODEL_SIZE 256

/* ---- fingerprint.c ------------------------------------------------------ */

/* The whole machine's object counts (not only the PUs this process may
   use). */
typedef struct ompext_calibration_counts {
  int packages, cores, pus, l3s;
} ompext_calibration_counts_t;

typedef struct ompext_calibration_fingerprint {
  char cpu[OMPEXT_CALIBRATION_CPU_MODEL_SIZE]; /* the CPU model */
  char topology[128]; /* "packages=1 cores=2 pus=2 l3=1" */
  char hash[OMPEXT_CALIBRATION_HASH_SIZE];
} ompext_calibration_fingerprint_t;

/* The CPU model from cpuinfo_path (NULL: /proc/cpuinfo): "model name"
   with family, model and stepping appended when present (a virtual machine
   may show only a generic name); else "cpu model", "Hardware", "cpu", or
   the ARM "CPU implementer" and "CPU part"; else "unknown". */
void ompext_calibration_cpu_model(const char *cpuinfo_path, char *buf,
                                  size_t cap);
/* 64-bit FNV-1a of s, as 16 hex digits. */
void ompext_calibration_hash_hex(const char *s,
                                 char out[OMPEXT_CALIBRATION_HASH_SIZE]);
/* The fingerprint of a machine with this CPU model and these counts. */
void ompext_calibration_fingerprint_make(
    const char *cpu_model, const ompext_calibration_counts_t *counts,
    ompext_calibration_fingerprint_t *fp);

/* ---- file_format.c ------------------------------------------------------ */

/* Writer: the framing's first lines (version, fingerprint, CPU, topology),
   and its last.  Errors show in ferror(f). */
void ompext_calibration_write_header(
    FILE *f, const ompext_calibration_fingerprint_t *fp);
void ompext_calibration_write_end(FILE *f);

/* Reader.  1 when text starts with the calibration header (a file
   ompext-calibrate wrote), 0 for a plain parameter file: a caller can leave
   the fingerprint uncomputed when the file does not need it. */
int ompext_calibration_is_framed(const char *text);
/* The this_hash of a reader that takes the calibration files of any
   machine, as the tools do (a real hash is 16 hex digits, never this). */
#define OMPEXT_CALIBRATION_ANY_MACHINE "*"
/* The parameter text of a whole file's text: for a calibration file of this
   version, complete (ending "# end"), whose fingerprint is this_hash, and
   for a plain parameter file, the text itself, from its first line (the
   framing lines are comments to the model's parser, and its messages keep
   the file's line numbers).  NULL, with why, for a file of another version,
   cut short, without a fingerprint, or of another machine (this_hash NULL:
   this machine's fingerprint is unknown). */
const char *ompext_calibration_body(const char *text, const char *this_hash,
                                    char *why, size_t cap);

/* ---- file_read.c -------------------------------------------------------- */

/* The most bytes a calibration or parameter file may have. */
#define OMPEXT_CALIBRATION_MAX_FILE_BYTES (1 << 20)

/* The whole text of the file at path, NUL-terminated (the caller frees it),
   or NULL with why (which names no path).  Nothing blocks: only a regular
   file is opened, and without waiting ("a FIFO, not a regular file", "a
   directory, ...", "a character device, ..."); "cannot open it: <error>";
   then the text rules of ompext_calibration_check_text. */
char *ompext_calibration_read_file(const char *path, char *why, size_t cap);
/* The rules for a file's bytes: at most OMPEXT_CALIBRATION_MAX_FILE_BYTES
   ("larger than N bytes"), and text, without a NUL byte ("not a text file:
   a NUL byte at offset N").  0, or -1 with why. */
int ompext_calibration_check_text(const char *bytes, size_t len, char *why,
                                  size_t cap);
/* 1 when anything, of any type, is at path (it is not opened), else 0: a
   caller can tell "no such file" from a file the reader refuses. */
int ompext_calibration_path_exists(const char *path);

/* ---- default_path.c ----------------------------------------------------- */

/* Where ompext-calibrate writes the file of the machine with this hash and
   the plugin looks for it: $XDG_CONFIG_HOME/omp-ext/calibration-<hash>.txt,
   else $HOME/.config/omp-ext/calibration-<hash>.txt (a relative
   XDG_CONFIG_HOME is ignored).  0, or -1 (neither variable set, or the path
   does not fit in cap). */
int ompext_calibration_default_path(const char *hash, char *buf, size_t cap);

#endif /* OMPEXT_CALIBRATION_H */
