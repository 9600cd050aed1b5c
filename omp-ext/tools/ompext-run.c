/*
 * ompext-run: run a command with the omp-ext OpenMP runtime.
 *
 * The runtime (libomp.so with its libomp.so.5 / libgomp.so.1 / libiomp5.so
 * aliases, and libompext.so) lives in ../lib relative to this executable,
 * both in the build tree (build/ext/bin -> build/ext/lib) and when installed
 * (<prefix>/bin -> <prefix>/lib). That directory is prepended to
 * LD_LIBRARY_PATH and the command is exec'd, so programs built with clang
 * (libomp.so.5), gcc (libgomp.so.1) or icc (libiomp5.so) pick it up.
 */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef OMPEXT_RUN_LIBDIR_REL
#define OMPEXT_RUN_LIBDIR_REL "../lib"
#endif

#define PROG "ompext-run"

static void usage(FILE *out)
{
    fprintf(out,
            PROG ": run a program on the omp-ext OpenMP runtime.\n"
            "example: " PROG " ./prog   (OMPEXT_VERBOSE=1 shows what runs)\n"
            "\n"
            "usage: " PROG " [options] [--] <command> [args...]\n"
            "\n"
            "Runs <command> with the omp-ext OpenMP runtime: prepends the\n"
            "runtime's library directory (" OMPEXT_RUN_LIBDIR_REL
            " relative to this program)\n"
            "to LD_LIBRARY_PATH, then executes <command> (searched in PATH).\n"
            "\n"
            "options:\n"
            "  -h, --help         show this help and exit\n"
            "  --print-lib-dir    print the runtime library directory and exit\n");
}

/* Directory holding the runtime; written to buf (PATH_MAX bytes). */
static int find_lib_dir(char *buf)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n < 0) {
        fprintf(stderr, PROG ": cannot locate own executable via /proc/self/exe: %s\n",
                strerror(errno));
        return -1;
    }
    exe[n] = '\0';

    char *slash = strrchr(exe, '/');
    if (slash == NULL) {
        fprintf(stderr, PROG ": unexpected executable path '%s'\n", exe);
        return -1;
    }
    slash[1] = '\0';

    char candidate[PATH_MAX];
    int len = snprintf(candidate, sizeof candidate, "%s%s", exe, OMPEXT_RUN_LIBDIR_REL);
    if (len < 0 || (size_t)len >= sizeof candidate) {
        fprintf(stderr, PROG ": path too long: %s%s\n", exe, OMPEXT_RUN_LIBDIR_REL);
        return -1;
    }
    if (realpath(candidate, buf) == NULL) {
        fprintf(stderr, PROG ": runtime library directory %s: %s\n", candidate,
                strerror(errno));
        return -1;
    }
    return 0;
}

static int check_runtime(const char *lib_dir)
{
    char lib[PATH_MAX];
    int len = snprintf(lib, sizeof lib, "%s/libomp.so", lib_dir);
    if (len < 0 || (size_t)len >= sizeof lib) {
        fprintf(stderr, PROG ": path too long: %s/libomp.so\n", lib_dir);
        return -1;
    }
    if (access(lib, R_OK) != 0) {
        fprintf(stderr,
                PROG ": no OpenMP runtime in %s (%s: %s); build or install "
                "omp-ext first\n",
                lib_dir, lib, strerror(errno));
        return -1;
    }
    return 0;
}

static int prepend_library_path(const char *lib_dir)
{
    const char *old = getenv("LD_LIBRARY_PATH");
    size_t size = strlen(lib_dir) + 1 + (old ? strlen(old) + 1 : 0);
    char *value = malloc(size);
    if (value == NULL) {
        fprintf(stderr, PROG ": out of memory\n");
        return -1;
    }
    if (old != NULL && old[0] != '\0')
        snprintf(value, size, "%s:%s", lib_dir, old);
    else
        snprintf(value, size, "%s", lib_dir);
    if (setenv("LD_LIBRARY_PATH", value, 1) != 0) {
        fprintf(stderr, PROG ": cannot set LD_LIBRARY_PATH: %s\n", strerror(errno));
        free(value);
        return -1;
    }
    free(value);
    return 0;
}

int main(int argc, char **argv)
{
    int print_lib_dir = 0;
    int i = 1;

    for (; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) {
            i++;
            break;
        }
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(arg, "--print-lib-dir") == 0) {
            print_lib_dir = 1;
            continue;
        }
        if (arg[0] == '-' && arg[1] != '\0') {
            fprintf(stderr, PROG ": unknown option '%s' (use -- before a command "
                            "starting with '-')\n", arg);
            usage(stderr);
            return 2;
        }
        break;
    }

    char lib_dir[PATH_MAX];
    if (find_lib_dir(lib_dir) != 0)
        return 2;

    if (print_lib_dir) {
        printf("%s\n", lib_dir);
        return 0;
    }

    if (i >= argc) {
        fprintf(stderr, PROG ": no command given\n");
        usage(stderr);
        return 2;
    }

    if (check_runtime(lib_dir) != 0 || prepend_library_path(lib_dir) != 0)
        return 2;

    execvp(argv[i], &argv[i]);
    int err = errno;
    fprintf(stderr, PROG ": cannot execute '%s': %s\n", argv[i], strerror(err));
    return err == ENOENT ? 127 : 126;
}
