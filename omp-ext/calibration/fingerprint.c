/*
 * The machine fingerprint (see calibration.h): the CPU model read from
 * /proc/cpuinfo, the counts written as "packages=P cores=C pus=U l3=L",
 * and the FNV-1a hash of "<cpu>\n<topology>".
 *
 * Every detail here (which cpuinfo keys, how blanks collapse, the buffer
 * sizes that truncate, the text hashed) decides the hash that calibration
 * files already written carry: change none of them.
 */
#include "calibration.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

/* The value of the first "key : value" line whose key starts with key, runs
   of blanks collapsed to one space, trailing blanks dropped; 1 if found and
   not empty. */
static int cpuinfo_value(FILE *f, const char *key, char *out, size_t cap) {
  rewind(f);
  char line[4096];
  const size_t key_len = strlen(key);
  while (fgets(line, sizeof(line), f)) {
    if (strncmp(line, key, key_len) != 0)
      continue;
    const char *p = line + key_len;
    while (*p == ' ' || *p == '\t')
      ++p;
    if (*p != ':')
      continue;
    ++p;
    while (*p == ' ' || *p == '\t')
      ++p;
    size_t n = 0;
    int after_blank = 0;
    for (; *p && *p != '\n' && n + 1 < cap; ++p) {
      if (isspace((unsigned char)*p)) {
        after_blank = 1;
        continue;
      }
      if (after_blank && n > 0 && n + 2 < cap)
        out[n++] = ' ';
      after_blank = 0;
      out[n++] = *p;
    }
    out[n] = '\0';
    return n > 0;
  }
  return 0;
}

void ompext_calibration_cpu_model(const char *cpuinfo_path, char *buf,
                                  size_t cap) {
  snprintf(buf, cap, "unknown");
  FILE *f = fopen(cpuinfo_path ? cpuinfo_path : "/proc/cpuinfo", "r");
  if (!f)
    return;
  char name[256], family[32], model[32], stepping[32];
  if (cpuinfo_value(f, "model name", name, sizeof(name))) {
    const int has_family = cpuinfo_value(f, "cpu family", family,
                                         sizeof(family));
    const int has_model = cpuinfo_value(f, "model", model, sizeof(model));
    const int has_stepping =
        cpuinfo_value(f, "stepping", stepping, sizeof(stepping));
    if (has_family && has_model && has_stepping)
      snprintf(buf, cap, "%s (family %s, model %s, stepping %s)", name,
               family, model, stepping);
    else
      snprintf(buf, cap, "%s", name);
  } else if (cpuinfo_value(f, "cpu model", name, sizeof(name)) ||
             cpuinfo_value(f, "Hardware", name, sizeof(name)) ||
             cpuinfo_value(f, "cpu", name, sizeof(name))) {
    snprintf(buf, cap, "%s", name);
  } else {
    char implementer[32], part[32];
    if (cpuinfo_value(f, "CPU implementer", implementer,
                      sizeof(implementer)) &&
        cpuinfo_value(f, "CPU part", part, sizeof(part)))
      snprintf(buf, cap, "implementer %s part %s", implementer, part);
  }
  fclose(f);
}

void ompext_calibration_hash_hex(const char *s,
                                 char out[OMPEXT_CALIBRATION_HASH_SIZE]) {
  uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64-bit offset basis */
  for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
    h ^= *p;
    h *= 0x100000001b3ull; /* FNV-1a 64-bit prime */
  }
  snprintf(out, OMPEXT_CALIBRATION_HASH_SIZE, "%016llx",
           (unsigned long long)h);
}

void ompext_calibration_fingerprint_make(
    const char *cpu_model, const ompext_calibration_counts_t *counts,
    ompext_calibration_fingerprint_t *fp) {
  /* The CPU model is hashed as stored, cut to the size of fp->cpu. */
  snprintf(fp->cpu, sizeof(fp->cpu), "%s", cpu_model);
  snprintf(fp->topology, sizeof(fp->topology),
           "packages=%d cores=%d pus=%d l3=%d", counts->packages,
           counts->cores, counts->pus, counts->l3s);
  char key[sizeof(fp->cpu) + sizeof(fp->topology) + 2];
  snprintf(key, sizeof(key), "%s\n%s", fp->cpu, fp->topology);
  ompext_calibration_hash_hex(key, fp->hash);
}
