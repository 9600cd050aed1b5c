/* Output (text table or CSV) and the self-check of the emitted rows. */
#ifndef SYNCBENCH_REPORT_H
#define SYNCBENCH_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "cli.h"
#include "runtime_info.h"
#include "stats.h"

#define REPORT_CSV_HEADER \
    "measurement,bytes,threads,median_overhead_us,mean_us,min_us,max_us,sd_us,outliers,samples"

struct run_header {
    int threads;
    int outer_reps;
    double test_time_us;
    double delay_time_us; /* requested; <= 0 when --delay-length was given */
    int delay_length;
    const struct runtime_info *runtime;
};

/* One measurement: its timings and those of its family's reference, both
 * in microseconds per inner repetition. */
struct report_row {
    const char *name;
    size_t bytes;
    int threads;
    unsigned long inner_reps;
    struct sample_stats test;
    struct sample_stats ref;
};

struct report {
    FILE *out;
    FILE *err;
    enum output_format format;
    int self_check;
    int expected_samples;
    int rows;
    int bad_rows;
};

void report_begin(struct report *r, const struct run_header *header);
void report_reference(struct report *r, const char *name, unsigned long inner_reps,
                      const struct sample_stats *s);
void report_row(struct report *r, const struct report_row *row);
/* Returns the number of problems found by the self-check (0 without it). */
int report_end(struct report *r, int expected_rows);

#endif
