/* Command-line options. */
#ifndef SYNCBENCH_CLI_H
#define SYNCBENCH_CLI_H

#include <stddef.h>
#include <stdio.h>

#define SYNCBENCH_MAX_MEASUREMENTS 64

enum output_format { FORMAT_TEXT, FORMAT_CSV };
enum cli_action { ACTION_RUN, ACTION_LIST, ACTION_HELP, ACTION_PRINT_RUNTIME, ACTION_PRINT_DELAY_LENGTH };

struct config {
    int outer_reps;
    double test_time_us;
    double delay_time_us;
    int delay_length; /* 0: calibrate from delay_time_us */
    enum output_format format;
    int self_check;
    const char *require_runtime; /* NULL, "libomp", "libgomp" or a directory */
    unsigned measurement_timeout_s; /* 0: no limit */
    enum cli_action action;
    int filtered; /* --measureonly was given */
    unsigned char selected[SYNCBENCH_MAX_MEASUREMENTS];
};

/* Fill `cfg` from the command line (defaults first). Returns 0, or -1 after
 * printing a diagnostic to `err`. */
int cli_parse(int argc, char **argv, struct config *cfg, FILE *err);

void cli_usage(FILE *out, const char *prog);

/* Whether the measurement at `index` (see measurements.h) is to be run. */
int cli_selected(const struct config *cfg, size_t index);

#endif
