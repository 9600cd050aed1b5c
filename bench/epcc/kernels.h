/* The measured OpenMP kernels and their reference (delay-only) loops. */
#ifndef SYNCBENCH_KERNELS_H
#define SYNCBENCH_KERNELS_H

#include "harness.h"

/* kernels_sync.c: constructs that only synchronise */
unsigned long reference_delay(const struct kernel_args *a);
unsigned long kernel_parallel(const struct kernel_args *a);
unsigned long kernel_for(const struct kernel_args *a);
unsigned long kernel_parallel_for(const struct kernel_args *a);
unsigned long kernel_barrier(const struct kernel_args *a);
unsigned long kernel_barrier_var(const struct kernel_args *a);
unsigned long kernel_single(const struct kernel_args *a);
unsigned long kernel_critical(const struct kernel_args *a);
unsigned long kernel_lock_contended(const struct kernel_args *a);
unsigned long kernel_lock_uncontended(const struct kernel_args *a);
unsigned long kernel_ordered(const struct kernel_args *a);

/* kernels_data.c: constructs that move or combine data */
unsigned long kernel_copyprivate_8(const struct kernel_args *a);
unsigned long kernel_copyprivate_64(const struct kernel_args *a);
unsigned long kernel_copyprivate_4096(const struct kernel_args *a);
unsigned long kernel_copyprivate_65536(const struct kernel_args *a);
unsigned long kernel_copyprivate_1048576(const struct kernel_args *a);
unsigned long kernel_copyprivate_rewrite_4096(const struct kernel_args *a);
unsigned long kernel_copyprivate_rewrite_65536(const struct kernel_args *a);
unsigned long kernel_copyprivate_rewrite_1048576(const struct kernel_args *a);
unsigned long reference_atomic(const struct kernel_args *a);
unsigned long kernel_atomic(const struct kernel_args *a);
unsigned long reference_reduction_int(const struct kernel_args *a);
unsigned long kernel_reduction_int(const struct kernel_args *a);
unsigned long reference_reduction_double(const struct kernel_args *a);
unsigned long kernel_reduction_double(const struct kernel_args *a);
/* REDUCTION_ARRAY, one reference and kernel per array length in doubles */
unsigned long reference_reduction_array_1(const struct kernel_args *a);
unsigned long kernel_reduction_array_1(const struct kernel_args *a);
unsigned long reference_reduction_array_64(const struct kernel_args *a);
unsigned long kernel_reduction_array_64(const struct kernel_args *a);
unsigned long reference_reduction_array_512(const struct kernel_args *a);
unsigned long kernel_reduction_array_512(const struct kernel_args *a);
unsigned long reference_reduction_array_8192(const struct kernel_args *a);
unsigned long kernel_reduction_array_8192(const struct kernel_args *a);

#endif
