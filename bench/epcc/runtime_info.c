/* Identify the loaded OpenMP runtime (glibc dynamic-loader interfaces). */
#define _GNU_SOURCE
#include "runtime_info.h"

#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

/* File names under which the runtimes are loaded (DT_NEEDED or symlinks). */
static const char *const runtime_names[] = {"libomp.so", "libgomp.so", "libiomp5.so"};

static int is_runtime_name(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (size_t i = 0; i < sizeof runtime_names / sizeof runtime_names[0]; i++)
        if (strncmp(base, runtime_names[i], strlen(runtime_names[i])) == 0)
            return 1;
    return 0;
}

static int find_runtime(struct dl_phdr_info *object, size_t size, void *data)
{
    struct runtime_info *info = data;
    (void)size;
    if (object->dlpi_name && is_runtime_name(object->dlpi_name)) {
        snprintf(info->path, sizeof info->path, "%s", object->dlpi_name);
        return 1;
    }
    return 0;
}

void runtime_info_get(struct runtime_info *info)
{
    info->path[0] = '\0';
    dl_iterate_phdr(find_runtime, info);
    /* Only LLVM's runtime has the __kmpc_* entry points. */
    info->flavour = dlsym(RTLD_DEFAULT, "__kmpc_fork_call") ? "libomp" : "libgomp";
}

int runtime_info_check(const struct runtime_info *info, const char *requirement, FILE *err)
{
    if (strcmp(requirement, "libomp") == 0 || strcmp(requirement, "libgomp") == 0) {
        if (strcmp(requirement, info->flavour) == 0)
            return 0;
        fprintf(err, "syncbench: runtime is %s (%s), required %s\n", info->flavour,
                info->path[0] ? info->path : "unknown path", requirement);
        return -1;
    }

    char wanted[PATH_MAX], loaded_dir[PATH_MAX], copy[sizeof info->path];
    snprintf(copy, sizeof copy, "%s", info->path);
    if (!info->path[0] || !realpath(requirement, wanted) ||
        !realpath(dirname(copy), loaded_dir) || strcmp(wanted, loaded_dir) != 0) {
        fprintf(err, "syncbench: OpenMP runtime loaded from '%s', not from '%s'"
                     " (check LD_LIBRARY_PATH and the binary's RPATH/RUNPATH)\n",
                info->path[0] ? info->path : "unknown", requirement);
        return -1;
    }
    return 0;
}
