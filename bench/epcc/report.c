/* Output formats. Every measurement row is rendered as a CSV line first;
 * with --self-check that exact text is parsed back and validated, so the
 * check covers what a consumer of the output would read. */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { CSV_FIELDS = 10 };

/* Overheads as EPCC defines them: mean against the reference mean, median
 * against the reference median; the extremes against the reference median. */
struct overheads {
    double median, mean, min, max;
};

static struct overheads overheads_of(const struct report_row *row)
{
    return (struct overheads){
        .median = row->test.median - row->ref.median,
        .mean = row->test.mean - row->ref.mean,
        .min = row->test.min - row->ref.median,
        .max = row->test.max - row->ref.median,
    };
}

static void render_csv(char *line, size_t size, const struct report_row *row)
{
    const struct overheads o = overheads_of(row);
    snprintf(line, size, "%s,%zu,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%d,%d\n", row->name,
             row->bytes, row->threads, o.median, o.mean, o.min, o.max, row->test.sd,
             row->test.outliers, row->test.count);
}

static int field_long(const char *text, long *out)
{
    char *end;
    errno = 0;
    *out = strtol(text, &end, 10);
    return errno || end == text || *end != '\0' ? -1 : 0;
}

static int field_double(const char *text, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(text, &end);
    return errno || end == text || *end != '\0' || !isfinite(*out) ? -1 : 0;
}

/* Parse a rendered line back; NULL when it is well-formed, else why not. */
static const char *check_csv(const char *line, const struct report_row *row,
                             int expected_samples)
{
    char copy[512];
    char *fields[CSV_FIELDS];
    int count = 0;

    if (strlen(line) >= sizeof copy || line[strlen(line) - 1] != '\n')
        return "line too long or unterminated";
    snprintf(copy, sizeof copy, "%s", line);
    copy[strlen(copy) - 1] = '\0';
    for (char *p = copy;;) {
        if (count == CSV_FIELDS)
            return "too many fields";
        fields[count++] = p;
        char *comma = strchr(p, ',');
        if (!comma)
            break;
        *comma = '\0';
        p = comma + 1;
    }
    if (count != CSV_FIELDS)
        return "wrong number of fields";
    if (strcmp(fields[0], row->name) != 0 || strpbrk(fields[0], " \t\"") || !fields[0][0])
        return "bad measurement name";

    long bytes, threads, outliers, samples;
    if (field_long(fields[1], &bytes) || bytes < 0 || (size_t)bytes != row->bytes)
        return "bad bytes";
    if (field_long(fields[2], &threads) || threads < 1 || threads != row->threads)
        return "bad threads";

    double value[5]; /* median, mean, min, max, sd */
    for (int i = 0; i < 5; i++)
        if (field_double(fields[3 + i], &value[i]))
            return "a timing is not a finite number";
    if (value[4] < 0.0 || value[2] > value[0] || value[0] > value[3])
        return "inconsistent statistics (need sd >= 0, min <= median <= max)";

    if (field_long(fields[9], &samples) || samples != expected_samples)
        return "bad sample count";
    if (field_long(fields[8], &outliers) || outliers < 0 || outliers > samples)
        return "bad outlier count";
    return NULL;
}

void report_begin(struct report *r, const struct run_header *h)
{
    r->rows = r->bad_rows = 0;
    r->expected_samples = h->outer_reps;
    if (r->format == FORMAT_CSV) {
        fprintf(r->out, "%s\n", REPORT_CSV_HEADER);
    } else {
        fprintf(r->out, "# syncbench (omp-ext), EPCC OpenMP microbenchmark v4.0 method\n");
        fprintf(r->out, "# threads %d, runtime %s (%s)\n", h->threads, h->runtime->flavour,
                h->runtime->path[0] ? h->runtime->path : "path unknown");
        fprintf(r->out, "# outer repetitions %d (+1 warm-up), test time %.2f us\n",
                h->outer_reps, h->test_time_us);
        if (h->delay_time_us > 0.0)
            fprintf(r->out, "# delay length %d iterations (for %.4f us)\n",
                    h->delay_length, h->delay_time_us);
        else
            fprintf(r->out, "# delay length %d iterations (given)\n", h->delay_length);
        fprintf(r->out, "# microseconds per repetition; overhead = test - reference "
                        "(median vs median, mean vs mean)\n\n");
        fprintf(r->out, "%-20s %8s %11s %10s %10s %10s %10s %10s %9s %4s %3s\n",
                "measurement", "bytes", "inner_reps", "time_med", "ovh_med", "ovh_mean",
                "ovh_min", "ovh_max", "sd", "outl", "n");
    }
    fflush(r->out);
}

void report_reference(struct report *r, const char *name, unsigned long inner_reps,
                      const struct sample_stats *s)
{
    if (r->format != FORMAT_TEXT)
        return;
    fprintf(r->out, "%-20s %8s %11lu %10.4f %10s %10s %10s %10s %9.4f %4d %3d\n", name, "-",
            inner_reps, s->median, "-", "-", "-", "-", s->sd, s->outliers, s->count);
    fflush(r->out);
}

void report_row(struct report *r, const struct report_row *row)
{
    char line[512];

    render_csv(line, sizeof line, row);
    r->rows++;
    if (r->self_check) {
        const char *problem = check_csv(line, row, r->expected_samples);
        if (problem) {
            r->bad_rows++;
            fprintf(r->err, "syncbench: self-check: %s: %s in: %s", row->name, problem, line);
        }
    }
    if (r->format == FORMAT_CSV) {
        fputs(line, r->out);
    } else {
        const struct overheads o = overheads_of(row);
        fprintf(r->out, "%-20s %8zu %11lu %10.4f %10.4f %10.4f %10.4f %10.4f %9.4f %4d %3d\n",
                row->name, row->bytes, row->inner_reps, row->test.median, o.median, o.mean,
                o.min, o.max, row->test.sd, row->test.outliers, row->test.count);
    }
    fflush(r->out); /* rows survive if the run is killed later */
}

int report_end(struct report *r, int expected_rows)
{
    if (!r->self_check)
        return 0;
    int problems = r->bad_rows;
    if (r->rows != expected_rows) {
        fprintf(r->err, "syncbench: self-check: %d rows emitted, %d expected\n", r->rows,
                expected_rows);
        problems++;
    }
    if (problems == 0)
        fprintf(r->err, "syncbench: self-check passed (%d rows)\n", r->rows);
    return problems;
}
