/* Which OpenMP runtime library the process actually loaded. */
#ifndef SYNCBENCH_RUNTIME_INFO_H
#define SYNCBENCH_RUNTIME_INFO_H

#include <stdio.h>

struct runtime_info {
    char path[4096];     /* as the dynamic loader found it, "" if unknown */
    const char *flavour; /* "libomp" (LLVM, also serves GOMP_*) or "libgomp" */
};

void runtime_info_get(struct runtime_info *info);

/* `requirement` is "libomp", "libgomp" or the directory the runtime must
 * have been loaded from. Returns 0 when met, else -1 with a message. */
int runtime_info_check(const struct runtime_info *info, const char *requirement, FILE *err);

#endif
