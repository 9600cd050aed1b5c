/*
 * The machine's fingerprint: the CPU model (from /proc/cpuinfo) and a
 * summary of the topology (from hwloc), and a short stable hash of both,
 * 64-bit FNV-1a as 16 hex digits.  Nothing that changes between runs on the
 * same machine (date, load, host name, measured values) goes into it.
 *
 * CPU model: the "model name" line (x86, some others), with "cpu family",
 * "model" and "stepping" appended when present (a virtual machine may show
 * only a generic name); else "cpu model", "Hardware", "cpu" or the ARM
 * "CPU implementer"/"CPU part" pair.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "calibrate.h"

#include <ctype.h>
#include <string.h>

/* The value of the first "key : value" line whose key is `key`. */
static int cpuinfo_value(FILE *f, const char *key, char *out, size_t cap) {
  rewind(f);
  char line[4096];
  size_t klen = strlen(key);
  while (fgets(line, sizeof(line), f)) {
    if (strncmp(line, key, klen) != 0)
      continue;
    const char *p = line + klen;
    while (*p == ' ' || *p == '\t')
      ++p;
    if (*p != ':')
      continue;
    ++p;
    while (*p == ' ' || *p == '\t')
      ++p;
    /* Copy with runs of blanks collapsed, trailing ones dropped. */
    size_t n = 0;
    int blank = 0;
    for (; *p && *p != '\n' && n + 1 < cap; ++p) {
      if (isspace((unsigned char)*p)) {
        blank = 1;
        continue;
      }
      if (blank && n > 0 && n + 2 < cap)
        out[n++] = ' ';
      blank = 0;
      out[n++] = *p;
    }
    out[n] = '\0';
    return n > 0;
  }
  return 0;
}

void cal_cpu_model(const char *cpuinfo_path, char *buf, size_t cap) {
  snprintf(buf, cap, "unknown");
  FILE *f = fopen(cpuinfo_path ? cpuinfo_path : "/proc/cpuinfo", "r");
  if (!f)
    return;
  char v[256], fam[32], mod[32], step[32];
  if (cpuinfo_value(f, "model name", v, sizeof(v))) {
    int hf = cpuinfo_value(f, "cpu family", fam, sizeof(fam));
    int hm = cpuinfo_value(f, "model", mod, sizeof(mod));
    int hs = cpuinfo_value(f, "stepping", step, sizeof(step));
    if (hf && hm && hs)
      snprintf(buf, cap, "%s (family %s, model %s, stepping %s)", v, fam, mod,
               step);
    else
      snprintf(buf, cap, "%s", v);
  } else if (cpuinfo_value(f, "cpu model", v, sizeof(v)) ||
             cpuinfo_value(f, "Hardware", v, sizeof(v)) ||
             cpuinfo_value(f, "cpu", v, sizeof(v))) {
    snprintf(buf, cap, "%s", v);
  } else {
    char impl[32], part[32];
    if (cpuinfo_value(f, "CPU implementer", impl, sizeof(impl)) &&
        cpuinfo_value(f, "CPU part", part, sizeof(part)))
      snprintf(buf, cap, "implementer %s part %s", impl, part);
  }
  fclose(f);
}

void cal_hash_hex(const char *s, char out[17]) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
    h ^= *p;
    h *= 0x100000001b3ull;
  }
  snprintf(out, 17, "%016llx", (unsigned long long)h);
}

void cal_fingerprint_from(const char *cpu, const char *topology,
                          cal_fingerprint_t *fp) {
  snprintf(fp->cpu, sizeof(fp->cpu), "%s", cpu);
  snprintf(fp->topology, sizeof(fp->topology), "%s", topology);
  char key[sizeof(fp->cpu) + sizeof(fp->topology) + 2];
  snprintf(key, sizeof(key), "%s\n%s", fp->cpu, fp->topology);
  cal_hash_hex(key, fp->hash);
}

void cal_fingerprint_make(const cal_topo_t *t, cal_fingerprint_t *fp) {
  char cpu[256], topo[128];
  cal_cpu_model(NULL, cpu, sizeof(cpu));
  snprintf(topo, sizeof(topo), "packages=%d cores=%d pus=%d l3=%d",
           t->packages, t->cores, t->pus, t->l3s);
  cal_fingerprint_from(cpu, topo, fp);
}
