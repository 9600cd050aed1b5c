/* The table of measurements and of the reference loops they are compared to. */
#ifndef SYNCBENCH_MEASUREMENTS_H
#define SYNCBENCH_MEASUREMENTS_H

#include <stddef.h>

#include "harness.h"

/* Each measurement family has its own reference, as in EPCC. */
enum reference_kind {
    REF_DELAY,            /* EPCC "reference time 1" */
    REF_ATOMIC,           /* EPCC "reference time 2" */
    REF_REDUCTION_INT,    /* EPCC "reference time 3" */
    REF_REDUCTION_DOUBLE,
    REF_REDUCTION_ARRAY_8, /* one per REDUCTION_ARRAY size, in bytes */
    REF_REDUCTION_ARRAY_512,
    REF_REDUCTION_ARRAY_4096,
    REF_REDUCTION_ARRAY_65536,
    REF_COUNT
};

struct reference_def {
    const char *name;
    kernel_fn run;
};

struct measurement_def {
    const char *name;  /* EPCC name with '_' for blanks, e.g. PARALLEL_FOR */
    size_t bytes;      /* payload size, 0 for pure synchronisation */
    enum reference_kind reference;
    kernel_fn run;
    const char *description;
};

size_t measurement_count(void);
const struct measurement_def *measurement_at(size_t index);
const struct reference_def *reference_for(enum reference_kind kind);

/* Canonical measurement name for `name` (already upper case, '_' for
 * blanks), resolving aliases; NULL when unknown. */
const char *measurement_canonical_name(const char *name);

#endif
