/* Command-line parsing, driven by a table of options. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "measurements.h"

#define DEFAULT_OUTER_REPS 20
#define DEFAULT_TEST_TIME_US 1000.0
#define DEFAULT_DELAY_TIME_US 0.1

struct option_def {
    const char *name;
    const char *metavar; /* NULL for a flag that takes no value */
    int (*apply)(struct config *cfg, const char *value, FILE *err);
    const char *help;
};

/* ---- value parsers -------------------------------------------------------- */

static int parse_positive_long(const char *option, const char *text, long max,
                               long *out, FILE *err)
{
    char *end;
    errno = 0;
    const long value = strtol(text, &end, 10);
    if (errno || end == text || *end != '\0' || value <= 0 || value > max) {
        fprintf(err, "syncbench: %s needs an integer in 1..%ld, got '%s'\n",
                option, max, text);
        return -1;
    }
    *out = value;
    return 0;
}

static int parse_positive_double(const char *option, const char *text,
                                 double *out, FILE *err)
{
    char *end;
    errno = 0;
    const double value = strtod(text, &end);
    if (errno || end == text || *end != '\0' || !isfinite(value) || value <= 0.0) {
        fprintf(err, "syncbench: %s needs a positive number, got '%s'\n",
                option, text);
        return -1;
    }
    *out = value;
    return 0;
}

/* ---- --measureonly ------------------------------------------------------ */

/* "64", "4K", "4KiB", "1M", "1MiB" (upper-cased already). */
static int parse_bytes(const char *text, size_t *out)
{
    static const struct {
        const char *suffix;
        size_t factor;
    } units[] = {{"", 1}, {"B", 1}, {"K", 1024}, {"KIB", 1024},
                 {"M", 1048576}, {"MIB", 1048576}};
    char *end;
    errno = 0;
    const unsigned long value = strtoul(text, &end, 10);
    if (errno || end == text || text[0] == '-')
        return -1;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(end, units[i].suffix) == 0) {
            *out = (size_t)value * units[i].factor;
            return 0;
        }
    }
    return -1;
}

/* Select the measurements matching one item: NAME or NAME:BYTES, where NAME
 * is matched case-insensitively with blanks or '-' standing for '_'. */
static int select_item(struct config *cfg, const char *item, size_t length, FILE *err)
{
    char name[64];
    size_t bytes = 0;
    int any_size = 1;

    while (length > 0 && isspace((unsigned char)*item))
        item++, length--;
    while (length > 0 && isspace((unsigned char)item[length - 1]))
        length--;
    if (length == 0)
        return 0;
    if (length >= sizeof name) {
        fprintf(err, "syncbench: measurement name too long: '%.*s'\n", (int)length, item);
        return -1;
    }
    for (size_t i = 0; i < length; i++) {
        const unsigned char c = (unsigned char)item[i];
        name[i] = (c == ' ' || c == '-') ? '_' : (char)toupper(c);
    }
    name[length] = '\0';

    char *colon = strchr(name, ':');
    if (colon) {
        *colon = '\0';
        if (parse_bytes(colon + 1, &bytes)) {
            fprintf(err, "syncbench: bad size in '%.*s'\n", (int)length, item);
            return -1;
        }
        any_size = 0;
    }

    const char *canonical = measurement_canonical_name(name);
    if (!canonical) {
        fprintf(err, "syncbench: unknown measurement '%.*s' (see --list)\n",
                (int)length, item);
        return -1;
    }
    int matched = 0;
    for (size_t i = 0; i < measurement_count(); i++) {
        const struct measurement_def *m = measurement_at(i);
        if (strcmp(m->name, canonical) == 0 && (any_size || m->bytes == bytes)) {
            cfg->selected[i] = 1;
            matched = 1;
        }
    }
    if (!matched) {
        fprintf(err, "syncbench: %s has no %zu-byte variant (see --list)\n",
                canonical, bytes);
        return -1;
    }
    return 0;
}

static int apply_measureonly(struct config *cfg, const char *value, FILE *err)
{
    cfg->filtered = 1;
    for (const char *item = value;; ) {
        const char *comma = strchr(item, ',');
        const size_t length = comma ? (size_t)(comma - item) : strlen(item);
        if (select_item(cfg, item, length, err))
            return -1;
        if (!comma)
            return 0;
        item = comma + 1;
    }
}

/* ---- the other options -------------------------------------------------------- */

static int apply_outer_reps(struct config *cfg, const char *value, FILE *err)
{
    long reps;
    if (parse_positive_long("--outer-repetitions", value, 1000000, &reps, err))
        return -1;
    cfg->outer_reps = (int)reps;
    return 0;
}

static int apply_test_time(struct config *cfg, const char *value, FILE *err)
{
    return parse_positive_double("--test-time", value, &cfg->test_time_us, err);
}

static int apply_delay_time(struct config *cfg, const char *value, FILE *err)
{
    return parse_positive_double("--delay-time", value, &cfg->delay_time_us, err);
}

static int apply_delay_length(struct config *cfg, const char *value, FILE *err)
{
    long length;
    if (parse_positive_long("--delay-length", value, 1000000000, &length, err))
        return -1;
    cfg->delay_length = (int)length;
    return 0;
}

static int apply_measurement_timeout(struct config *cfg, const char *value, FILE *err)
{
    long seconds;
    if (parse_positive_long("--measurement-timeout", value, 86400, &seconds, err))
        return -1;
    cfg->measurement_timeout_s = (unsigned)seconds;
    return 0;
}

static int apply_format(struct config *cfg, const char *value, FILE *err)
{
    static const struct {
        const char *name;
        enum output_format format;
    } formats[] = {{"text", FORMAT_TEXT}, {"csv", FORMAT_CSV}};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        if (strcmp(value, formats[i].name) == 0) {
            cfg->format = formats[i].format;
            return 0;
        }
    }
    fprintf(err, "syncbench: --format must be text or csv, got '%s'\n", value);
    return -1;
}

static int apply_self_check(struct config *cfg, const char *value, FILE *err)
{
    (void)value, (void)err;
    cfg->self_check = 1;
    return 0;
}

static int apply_require_runtime(struct config *cfg, const char *value, FILE *err)
{
    (void)err;
    cfg->require_runtime = value;
    return 0;
}

static int apply_list(struct config *cfg, const char *value, FILE *err)
{
    (void)value, (void)err;
    cfg->action = ACTION_LIST;
    return 0;
}

static int apply_print_runtime(struct config *cfg, const char *value, FILE *err)
{
    (void)value, (void)err;
    cfg->action = ACTION_PRINT_RUNTIME;
    return 0;
}

static int apply_print_delay_length(struct config *cfg, const char *value, FILE *err)
{
    (void)value, (void)err;
    cfg->action = ACTION_PRINT_DELAY_LENGTH;
    return 0;
}

static int apply_help(struct config *cfg, const char *value, FILE *err)
{
    (void)value, (void)err;
    cfg->action = ACTION_HELP;
    return 0;
}

#define STR_(x) #x
#define STR(x) STR_(x)

static const struct option_def options[] = {
    {"--measureonly", "NAME[:BYTES][,...]", apply_measureonly,
     "run only these measurements (repeatable; default: all)"},
    {"--outer-repetitions", "N", apply_outer_reps,
     "timed runs per measurement after one warm-up run (default " STR(DEFAULT_OUTER_REPS) ")"},
    {"--test-time", "US", apply_test_time,
     "target length of one run in microseconds (default " STR(DEFAULT_TEST_TIME_US) ")"},
    {"--delay-time", "US", apply_delay_time,
     "work per repetition in microseconds (default " STR(DEFAULT_DELAY_TIME_US) ")"},
    {"--delay-length", "N", apply_delay_length,
     "work per repetition in delay iterations (default: from --delay-time)"},
    {"--format", "text|csv", apply_format, "output format (default text)"},
    {"--measurement-timeout", "SEC", apply_measurement_timeout,
     "exit 4 if one measurement (with its reference) takes longer (default: no limit)"},
    {"--self-check", NULL, apply_self_check,
     "verify the constructs' results and copied data, and the emitted rows; exit 1 on any error"},
    {"--require-runtime", "DIR|libomp|libgomp", apply_require_runtime,
     "exit 3 unless the OpenMP runtime was loaded from DIR / is of that kind"},
    {"--print-runtime", NULL, apply_print_runtime,
     "print the OpenMP runtime in use and the team size, then exit"},
    {"--print-delay-length", NULL, apply_print_delay_length,
     "print the delay length (iterations) the run would use, then exit"},
    {"--list", NULL, apply_list, "list the (selected) measurements: name, bytes, description; then exit"},
    {"--help", NULL, apply_help, "show this help"},
    {"-h", NULL, apply_help, NULL},
};

void cli_usage(FILE *out, const char *prog)
{
    fprintf(out, "Usage: %s [options]\n"
                 "EPCC-method OpenMP synchronisation overhead benchmark (omp-ext).\n"
                 "Team size comes from OMP_NUM_THREADS.\n\nOptions:\n", prog);
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        if (!options[i].help)
            continue;
        char left[64];
        snprintf(left, sizeof left, "%s%s%s", options[i].name,
                 options[i].metavar ? " " : "", options[i].metavar ? options[i].metavar : "");
        fprintf(out, "  %-38s %s\n", left, options[i].help);
    }
    fprintf(out, "\nOptions taking a value also accept --option=value.\n"
                 "Exit status: 0 ok, 1 verification/self-check failure, 2 usage error,\n"
                 "3 wrong runtime (--require-runtime), 4 --measurement-timeout exceeded.\n");
}

static const struct option_def *find_option(const char *arg, size_t name_length)
{
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (strlen(options[i].name) == name_length &&
            strncmp(arg, options[i].name, name_length) == 0)
            return &options[i];
    return NULL;
}

int cli_parse(int argc, char **argv, struct config *cfg, FILE *err)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->outer_reps = DEFAULT_OUTER_REPS;
    cfg->test_time_us = DEFAULT_TEST_TIME_US;
    cfg->delay_time_us = DEFAULT_DELAY_TIME_US;
    cfg->format = FORMAT_TEXT;
    cfg->action = ACTION_RUN;

    if (measurement_count() > SYNCBENCH_MAX_MEASUREMENTS) {
        fprintf(err, "syncbench: too many measurements for SYNCBENCH_MAX_MEASUREMENTS\n");
        return -1;
    }

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *equals = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        const size_t name_length = equals ? (size_t)(equals - arg) : strlen(arg);
        const struct option_def *opt = find_option(arg, name_length);
        const char *value = NULL;

        if (!opt) {
            fprintf(err, "syncbench: unknown argument '%s' (try --help)\n", arg);
            return -1;
        }
        if (opt->metavar) {
            if (equals)
                value = equals + 1;
            else if (i + 1 < argc)
                value = argv[++i];
            else {
                fprintf(err, "syncbench: %s needs a value (%s)\n", opt->name, opt->metavar);
                return -1;
            }
        } else if (equals) {
            fprintf(err, "syncbench: %s takes no value\n", opt->name);
            return -1;
        }
        if (opt->apply(cfg, value, err))
            return -1;
    }
    return 0;
}

int cli_selected(const struct config *cfg, size_t index)
{
    return !cfg->filtered || (index < SYNCBENCH_MAX_MEASUREMENTS && cfg->selected[index]);
}
