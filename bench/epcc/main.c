/* syncbench: EPCC-method measurement of OpenMP synchronisation overheads.
 *
 * For every selected measurement: time its family's reference loop (once,
 * on first use), scale the inner repetitions to the test time, do one
 * warm-up run and the outer repetitions, and report the overhead per
 * repetition, i.e. test time minus reference time. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "delay.h"
#include "harness.h"
#include "measurements.h"
#include "report.h"
#include "runtime_info.h"
#include "watchdog.h"

/* 4 is WATCHDOG_EXIT_STATUS */
enum exit_status { EXIT_OK = 0, EXIT_CHECK = 1, EXIT_USAGE = 2, EXIT_RUNTIME = 3 };

static int team_size(void)
{
    int n = 1;
#pragma omp parallel
    if (omp_get_thread_num() == 0)
        n = omp_get_num_threads();
    return n;
}

/* --list honours --measureonly, so a driver can expand a selection. */
static void list_measurements(const struct config *cfg, FILE *out)
{
    for (size_t i = 0; i < measurement_count(); i++) {
        if (!cli_selected(cfg, i))
            continue;
        const struct measurement_def *m = measurement_at(i);
        fprintf(out, "%-20s %8zu  %s\n", m->name, m->bytes, m->description);
    }
}

static int count_selected(const struct config *cfg)
{
    int n = 0;
    for (size_t i = 0; i < measurement_count(); i++)
        n += cli_selected(cfg, i);
    return n;
}

/* Scratch space and the references timed so far, owned by main(). */
struct run_state {
    double *samples;
    double *scratch;
    struct timing_result refs[REF_COUNT];
    int ref_done[REF_COUNT];
    unsigned long errors;
    int failures;
};

static const struct timing_result *reference_result(struct run_state *st, enum reference_kind kind,
                                                    const struct kernel_args *args,
                                                    const struct timing_params *params,
                                                    struct report *rep)
{
    const struct reference_def *ref = reference_for(kind);
    if (!st->ref_done[kind]) {
        if (time_kernel(ref->run, args, params, st->samples, st->scratch, &st->refs[kind])) {
            fprintf(stderr, "syncbench: %s: could not scale inner repetitions "
                            "(loop optimised away?)\n", ref->name);
            return NULL;
        }
        st->ref_done[kind] = 1;
        report_reference(rep, ref->name, st->refs[kind].inner_reps, &st->refs[kind].stats);
    }
    return &st->refs[kind];
}

static void run_measurements(const struct config *cfg, const struct kernel_args *args,
                             struct run_state *st, struct report *rep)
{
    const struct timing_params params = {cfg->outer_reps, cfg->test_time_us};

    for (size_t i = 0; i < measurement_count(); i++) {
        if (!cli_selected(cfg, i))
            continue;
        const struct measurement_def *m = measurement_at(i);
        watchdog_arm(cfg->measurement_timeout_s); /* covers the reference too */
        const struct timing_result *ref = reference_result(st, m->reference, args, &params, rep);
        struct timing_result test;
        if (!ref || time_kernel(m->run, args, &params, st->samples, st->scratch, &test)) {
            if (ref)
                fprintf(stderr, "syncbench: %s: could not scale inner repetitions\n", m->name);
            st->failures++;
            continue;
        }
        st->errors += test.errors;
        if (test.errors)
            fprintf(stderr, "syncbench: %s (%zu bytes): %lu verification error(s)\n", m->name,
                    m->bytes, test.errors);
        const struct report_row row = {m->name, m->bytes, args->nthreads, test.inner_reps,
                                       test.stats, ref->stats};
        report_row(rep, &row);
    }
    watchdog_arm(0);
}

int main(int argc, char **argv)
{
    struct config cfg;
    if (cli_parse(argc, argv, &cfg, stderr)) {
        fprintf(stderr, "usage: %s [options]  (see --help)\n", argv[0]);
        return EXIT_USAGE;
    }
    if (cfg.action == ACTION_HELP) {
        cli_usage(stdout, argv[0]);
        return EXIT_OK;
    }
    if (cfg.action == ACTION_LIST) {
        list_measurements(&cfg, stdout);
        return EXIT_OK;
    }

    const int nthreads = team_size(); /* also starts the thread pool */
    struct runtime_info runtime;
    runtime_info_get(&runtime);
    if (cfg.require_runtime && runtime_info_check(&runtime, cfg.require_runtime, stderr))
        return EXIT_RUNTIME;
    if (cfg.action == ACTION_PRINT_RUNTIME) {
        printf("%s %s threads=%d\n", runtime.flavour, runtime.path[0] ? runtime.path : "-",
               nthreads);
        return EXIT_OK;
    }

    if (cfg.measurement_timeout_s && watchdog_install()) {
        perror("syncbench: sigaction");
        return EXIT_CHECK;
    }
    const int delay_length = cfg.delay_length ? cfg.delay_length
                                              : delay_length_for(cfg.delay_time_us);
    if (cfg.action == ACTION_PRINT_DELAY_LENGTH) {
        printf("%d\n", delay_length);
        return EXIT_OK;
    }
    omp_lock_t lock;
    omp_init_lock(&lock);
    const struct kernel_args args = {0, nthreads, delay_length, cfg.self_check, &lock};

    struct run_state st = {0};
    st.samples = malloc((size_t)cfg.outer_reps * sizeof *st.samples);
    st.scratch = malloc((size_t)cfg.outer_reps * sizeof *st.scratch);
    if (!st.samples || !st.scratch) {
        fprintf(stderr, "syncbench: out of memory\n");
        return EXIT_CHECK;
    }

    const struct run_header header = {nthreads, cfg.outer_reps, cfg.test_time_us,
                                      cfg.delay_length ? 0.0 : cfg.delay_time_us,
                                      delay_length, &runtime};
    struct report rep = {stdout, stderr, cfg.format, cfg.self_check, 0, 0, 0};
    report_begin(&rep, &header);
    run_measurements(&cfg, &args, &st, &rep);
    const int problems = report_end(&rep, count_selected(&cfg));

    omp_destroy_lock(&lock);
    free(st.samples);
    free(st.scratch);
    if (st.errors && cfg.self_check)
        fprintf(stderr, "syncbench: self-check: %lu verification error(s)\n", st.errors);
    return (problems || st.errors || st.failures) ? EXIT_CHECK : EXIT_OK;
}
