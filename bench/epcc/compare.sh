#!/usr/bin/env bash
# compare.sh: compare stock libomp, ext libomp (omp-ext) and GCC libgomp with
# syncbench, the EPCC-method synchronisation benchmark (and the gcc build's
# reductions on stock and ext). Run from anywhere
# (`make bench` runs it from the repository root); see bench/README.md.
#
# Each round runs every runtime once per thread count, in an order that
# rotates from round to round, so slow drifts of the machine hit all
# runtimes alike. Per (runtime, threads, measurement, bytes) the result is
# the median over rounds of each run's median overhead, with min and max.
# A measurement that hangs or crashes is recorded as missing, not retried.
# The README's headline table is rewritten from the new summary.md when it
# names this results folder (bench/epcc/headline.sh).
#
# Environment knobs (defaults in brackets; BENCH_QUICK=1 changes them):
#   BENCH_QUICK=1          short run: fewer rounds, measurements and thread counts
#   BENCH_ROUNDS           rounds                             [20; quick 5]
#   BENCH_THREADS          thread counts, e.g. "1 2 4 8"      [1..cores, 2x, 4x cores;
#                                                              quick 1, cores, 2x cores]
#   BENCH_TEST_TIME        syncbench --test-time, µs          [1000; quick 500]
#   BENCH_OUTER_REPS       syncbench --outer-repetitions      [20; quick 10]
#   BENCH_MEASURE          syncbench --measureonly list       [all; quick: a subset]
#   BENCH_MEASURE_TIMEOUT  seconds one measurement may take   [20; quick 10]
#   BENCH_DELAY_LENGTH     syncbench --delay-length for every run
#                                                             [calibrated once for 0.1 µs]
#   BENCH_RUN_TIMEOUT      seconds one process may take       [300; quick 60]
#   BENCH_STACKSIZE        OMP_STACKSIZE for all runs         [8M]
#   BENCH_MACHINE          results folder name                [<cpu-model>-<N>c]
#   BENCH_RESULTS_DIR      results folder                     [bench/results/$BENCH_MACHINE]
#   BENCH_BIN_DIR          where syncbench-clang/-gcc are     [build/ext/bin]
#   BENCH_STOCK_LIB_DIR    stock runtime                      [build/stock/lib]
#   BENCH_EXT_LIB_DIR      ext runtime                        [build/ext/lib]
#   BENCH_CALIBRATION      machine parameters for ext (OMPEXT_CALIBRATION)
#                                                             [measured now by ompext-calibrate]
#   BENCH_PHASES_REGIONS   regions per phases run (0: no phases) [20000; quick 5000]
#   BENCH_PATTERNS_TIME    patterns --test-time, ms (0: no patterns) [20; quick 5]
#   BENCH_CONTROL          1: run stock twice per round (stock-again, the A/A
#                          control beside "never slower"); 0: once  [1]
#   BENCH_STRICT=1         exit 1 if a value is missing or a run failed (tests)
# Relative paths are taken from the repository root.
set -euo pipefail

die() { printf 'compare.sh: error: %s\n' "$*" >&2; exit 1; }
say() { printf '%s\n' "$*" >&2; }

if [[ $# -gt 0 ]]; then
    case $1 in
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "no arguments expected (configure with BENCH_* variables, see --help)" ;;
    esac
fi

script_dir=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(cd -- "$script_dir/../.." && pwd)
cd "$repo_root"

# ---- configuration ------------------------------------------------------------

cores=$(nproc)

# 1..cores (powers of two and cores itself above 8 cores), then 2x and 4x cores.
default_threads() {
    local t list=()
    if ((cores <= 8)); then
        for ((t = 1; t <= cores; t++)); do list+=("$t"); done
    else
        for ((t = 1; t < cores; t *= 2)); do list+=("$t"); done
        list+=("$cores")
    fi
    echo "${list[*]} $((2 * cores)) $((4 * cores))"
}


if [[ ${BENCH_QUICK:-0} == 1 ]]; then
    mode=quick
    rounds=${BENCH_ROUNDS:-5}
    test_time=${BENCH_TEST_TIME:-500}
    outer_reps=${BENCH_OUTER_REPS:-10}
    measure=${BENCH_MEASURE-PARALLEL,BARRIER,BARRIER_VAR,SINGLE,SINGLE_COPYPRIVATE:8,SINGLE_COPYPRIVATE:65536,CRITICAL,REDUCTION,REDUCTION_ARRAY}
    threads=${BENCH_THREADS:-1 $cores $((2 * cores))}
    measure_timeout=${BENCH_MEASURE_TIMEOUT:-10}
    run_timeout=${BENCH_RUN_TIMEOUT:-60}
else
    mode=default
    # 20 rounds: a row whose ratio moves from process to process needs
    # them (with 10, 8 slower rounds of 10 were still a coin toss at 5 %).
    rounds=${BENCH_ROUNDS:-20}
    test_time=${BENCH_TEST_TIME:-1000}
    outer_reps=${BENCH_OUTER_REPS:-20}
    measure=${BENCH_MEASURE-}
    threads=${BENCH_THREADS:-$(default_threads)}
    measure_timeout=${BENCH_MEASURE_TIMEOUT:-20}
    run_timeout=${BENCH_RUN_TIMEOUT:-300}
fi
stacksize=${BENCH_STACKSIZE:-8M}
if [[ $mode == quick ]]; then phases_regions=${BENCH_PHASES_REGIONS:-5000}; else phases_regions=${BENCH_PHASES_REGIONS:-20000}; fi
if [[ $mode == quick ]]; then patterns_time=${BENCH_PATTERNS_TIME:-5}; else patterns_time=${BENCH_PATTERNS_TIME:-20}; fi
control=${BENCH_CONTROL:-1}
bin_dir=${BENCH_BIN_DIR:-build/ext/bin}
stock_lib=${BENCH_STOCK_LIB_DIR:-build/stock/lib}
ext_lib=${BENCH_EXT_LIB_DIR:-build/ext/lib}
# shellcheck source=bench/epcc/machine_slug.sh
source "$script_dir/machine_slug.sh"
machine=${BENCH_MACHINE:-$(machine_slug "$cores")}
results_dir=${BENCH_RESULTS_DIR:-bench/results/$machine}

# Thread counts: positive integers, duplicates dropped, order kept.
read -r -a requested_threads <<<"$threads"
threads=$(printf '%s\n' "${requested_threads[@]}" | awk '!seen[$0]++' | tr '\n' ' ' | sed 's/ $//')
for t in $threads; do
    [[ $t =~ ^[1-9][0-9]*$ ]] || die "BENCH_THREADS: '$t' is not a positive integer"
done
[[ -n $threads ]] || die "BENCH_THREADS is empty"
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "BENCH_ROUNDS must be a positive integer"
[[ $run_timeout =~ ^[1-9][0-9]*$ ]] || die "BENCH_RUN_TIMEOUT must be a positive integer"
[[ $measure_timeout =~ ^[1-9][0-9]*$ ]] || die "BENCH_MEASURE_TIMEOUT must be a positive integer"
[[ $machine =~ ^[A-Za-z0-9._-]+$ ]] || die "BENCH_MACHINE may only use letters, digits, '.', '_', '-'"
[[ $phases_regions =~ ^[0-9]+$ ]] || die "BENCH_PHASES_REGIONS must be a non-negative integer"
[[ $patterns_time =~ ^[0-9]+$ ]] || die "BENCH_PATTERNS_TIME must be a non-negative integer (milliseconds)"
[[ $control == [01] ]] || die "BENCH_CONTROL must be 0 or 1"

# ---- runtimes -----------------------------------------------------------------

# stock-again and stock-again-gcc are the A/A control: the stock runtime a
# second time in every round, in the rotation like any other runtime. Its
# per-round ratio to stock is what this run's noise alone makes of two
# identical runtimes, printed beside every "never slower" row.
runtimes=(stock ext libgomp)
((control)) && runtimes+=(stock-again)
declare -A rt_bin rt_lib rt_require rt_path
rt_bin=([stock]=$bin_dir/syncbench-clang [ext]=$bin_dir/syncbench-clang [libgomp]=$bin_dir/syncbench-gcc
        [stock-gcc]=$bin_dir/syncbench-gcc [ext-gcc]=$bin_dir/syncbench-gcc
        [stock-again]=$bin_dir/syncbench-clang [stock-again-gcc]=$bin_dir/syncbench-gcc)

for bin in "$bin_dir/syncbench-clang" "$bin_dir/syncbench-gcc" "$bin_dir/ompext-calibrate" "$bin_dir/ompext-model"; do
    [[ -x $bin ]] || die "$bin not found; run 'make build' first"
done
for dir in "$stock_lib" "$ext_lib"; do
    [[ -e $dir/libomp.so.5 && -e $dir/libgomp.so.1 ]] ||
        die "$dir does not hold an OpenMP runtime (libomp.so.5, libgomp.so.1); run 'make build' first"
done
stock_lib=$(cd "$stock_lib" && pwd)
ext_lib=$(cd "$ext_lib" && pwd)
rt_lib=([stock]=$stock_lib [ext]=$ext_lib [libgomp]= [stock-gcc]=$stock_lib [ext-gcc]=$ext_lib
        [stock-again]=$stock_lib [stock-again-gcc]=$stock_lib)
rt_require=([stock]=$stock_lib [ext]=$ext_lib [libgomp]=libgomp [stock-gcc]=$stock_lib [ext-gcc]=$ext_lib
            [stock-again]=$stock_lib [stock-again-gcc]=$stock_lib)
same_runtime=0
[[ $(realpath "$stock_lib/libomp.so.5") == $(realpath "$ext_lib/libomp.so.5") ]] && same_runtime=1

# The environment of every run: each thread pinned to one CPU (the thread
# counts above count CPUs), active waiting, no tools. OMP_PLACES=threads,
# not cores: where libomp reads the CPUs as hardware threads of fewer cores
# (some virtual machines: 2 CPUs as one core), "cores" leaves threads
# free to move between CPUs.
omp_env=(OMP_PROC_BIND=close OMP_PLACES=threads OMP_WAIT_POLICY=active OMP_TOOL=disabled
         OMP_STACKSIZE="$stacksize")

# run_syncbench RUNTIME THREADS ARGS... : one benchmark process, time-limited.
# The runtime is swapped by LD_LIBRARY_PATH (none for the system libgomp)
# and syncbench itself refuses to run on any other runtime (exit 3).
run_syncbench() {
    local rt=$1 nthreads=$2
    shift 2
    run_on "$rt" "$nthreads" "${rt_bin[$rt]}" --require-runtime "${rt_require[$rt]}" "$@"
}

# run_on RUNTIME THREADS PROGRAM ARGS... : PROGRAM in the environment of
# every run, on RUNTIME's library (and its OMPEXT_* settings), time-limited.
run_on() {
    local rt=$1 nthreads=$2
    shift 2
    local -a env_vars=("${omp_env[@]}" OMP_NUM_THREADS="$nthreads")
    [[ -n ${rt_lib[$rt]} ]] && env_vars+=(LD_LIBRARY_PATH="${rt_lib[$rt]}")
    [[ -n ${rt_env[$rt]:-} ]] && env_vars+=("${rt_env[$rt]}")
    timeout -k 5 "$run_timeout" env -u LD_LIBRARY_PATH "${env_vars[@]}" "$@"
}

measure_args=()
[[ -n $measure ]] && measure_args=(--measureonly "$measure")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ext runs on this machine's parameters, as a user who ran ompext-calibrate
# does: the cost model picks each collective's parameters from them, and
# tells a reduction's size by them (docs/ARCHITECTURE.md).
if [[ -n ${BENCH_CALIBRATION:-} ]]; then
    calibration=$BENCH_CALIBRATION
    [[ -f $calibration ]] || calibration=$repo_root/$calibration
    [[ -f $calibration ]] || die "BENCH_CALIBRATION: no file $BENCH_CALIBRATION"
    calibration_origin="given (BENCH_CALIBRATION)"
else
    say "compare.sh: calibrating this machine (ompext-calibrate, about 10 s)"
    "$bin_dir/ompext-calibrate" -o "$work/calibration.txt" >"$work/calibrate.log" 2>&1 ||
        { cat "$work/calibrate.log" >&2; die "ompext-calibrate failed"; }
    calibration=$work/calibration.txt
    calibration_origin="measured by ompext-calibrate before the runs"
fi
declare -A rt_env=([stock]= [ext]="OMPEXT_CALIBRATION=$calibration" [libgomp]=
                   [stock-gcc]= [ext-gcc]="OMPEXT_CALIBRATION=$calibration"
                   [stock-again]= [stock-again-gcc]=)

# preflight RUNTIME: one run that names the runtime really loaded.
preflight() {
    local info
    # prints "<libomp|libgomp> <path> threads=1"
    if ! info=$(run_syncbench "$1" 1 --print-runtime 2>"$work/preflight.err"); then
        cat "$work/preflight.err" >&2
        die "the $1 runtime cannot be used (see above)"
    fi
    rt_path[$1]=$(awk '{ print $2 }' <<<"$info")
    rt_path[$1]=${rt_path[$1]#"$repo_root/"}   # reports name no local paths
}
for rt in "${runtimes[@]}"; do
    preflight "$rt"
done
# One delay length for every run.  Each syncbench process would otherwise
# calibrate its own (from 56 to 153 iterations for 0.1 us in one series of
# processes on a 2-core virtual machine, before the calibration took the
# fastest of several probes), so the runtimes compared did different work
# per repetition; and an overhead need not be the same at every delay
# length (ORDERED at 2 threads: about 0.19 us up to 153 iterations, 0.31 us
# at 186, either one from process to process in between).  The median of
# three calibrations, on the stock runtime at one thread.
if [[ -n ${BENCH_DELAY_LENGTH:-} ]]; then
    [[ $BENCH_DELAY_LENGTH =~ ^[1-9][0-9]*$ ]] || die "BENCH_DELAY_LENGTH must be a positive integer"
    delay_length=$BENCH_DELAY_LENGTH
    delay_origin="given (BENCH_DELAY_LENGTH)"
else
    delay_length=$(for probe in 1 2 3; do
        run_syncbench stock 1 --print-delay-length || exit 1
    done | sort -n | sed -n 2p) || die "syncbench --print-delay-length failed"
    [[ $delay_length =~ ^[1-9][0-9]*$ ]] || die "syncbench --print-delay-length printed '$delay_length'"
    delay_origin="for 0.1 µs, the median of 3 calibrations before the runs"
fi
# The LLVM release of the runtimes (stock and ext are built from the same
# one), as the ext runtime names it when it loads the plugin.
llvm_release=$(OMPEXT_VERBOSE=1 run_syncbench ext 1 --print-runtime 2>&1 >/dev/null |
    sed -n 's/.* into libomp of LLVM \([0-9][0-9.]*\)$/\1/p' | head -n 1)
[[ -n $llvm_release ]] || die "the ext runtime did not load the plugin (OMPEXT_VERBOSE=1 names no LLVM release)"
run_syncbench stock 1 --list "${measure_args[@]}" 2>"$work/list.err" |
    awk '{ print $1, $2 }' >"$work/measurements" ||
    { cat "$work/list.err" >&2; die "bad BENCH_MEASURE '$measure'"; }
# Every measurement as NAME:BYTES, the form --measureonly takes.
mapfile -t all_items < <(awk '{ print $1 ":" $2 }' "$work/measurements")
# gcc binaries on stock and ext: GCC compiles a reduction itself (an
# atomic, or a lock around the combine), so a gcc-built program's
# reductions never reach either libomp, while its fork/join and barriers
# do. The reductions run on both as well ("stock-gcc", "ext-gcc").
mapfile -t gcc_items < <(printf '%s\n' "${all_items[@]}" | grep '^REDUCTION' || true)
if ((${#gcc_items[@]} > 0)); then
    runtimes+=(stock-gcc ext-gcc)
    preflight stock-gcc
    preflight ext-gcc
    if ((control)); then
        runtimes+=(stock-again-gcc)
        preflight stock-again-gcc
    fi
fi

# ---- the interleaved runs --------------------------------------------------------

read -r -a thread_list <<<"$threads"
nruntimes=${#runtimes[@]}
total_runs=$((rounds * ${#thread_list[@]} * nruntimes))
raw=$work/raw.csv
echo "round,runtime,threads,measurement,bytes,median_overhead_us,mean_us,min_us,max_us,sd_us,outliers,samples" >"$raw"
runs_log=$work/runs.csv
echo "round,runtime,threads,status,seconds,blamed" >"$runs_log"
declare -A last_seconds  # "runtime/threads" -> seconds the last run took
declare -A excluded      # "runtime/threads/NAME:BYTES" -> why it is no longer run

duration() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

# Seconds still needed: the last duration of each remaining run's
# (runtime, threads) pair, or the mean so far.
estimate_left() {
    local done_runs=$1 elapsed=$2 round=$3 ti=$4 left=0 r i rt
    ((done_runs > 0)) || { echo "?"; return; }
    local mean=$((elapsed / done_runs))
    for ((r = round; r <= rounds; r++)); do
        for ((i = (r == round ? ti : 0); i < ${#thread_list[@]}; i++)); do
            for rt in "${runtimes[@]}"; do
                left=$((left + ${last_seconds[$rt/${thread_list[i]}]:-$mean}))
            done
        done
    done
    duration "$left"
}

status_name() {
    case $1 in
        0) echo ok ;;
        4) echo measurement-timeout ;;
        124 | 137) echo run-timeout ;;
        13[0-9] | 1[4-9][0-9]) echo "crash-signal-$(($1 - 128))" ;;
        *) echo "exit-$1" ;;
    esac
}

# measure RUNTIME THREADS ROUND: one run of every measurement not excluded
# for this (runtime, threads). If the process hangs (per-measurement limit,
# exit 4), is killed or crashes, the first measurement without a row is
# blamed, excluded from now on, and the run resumes after it.
measure() {
    local rt=$1 nthreads=$2 round=$3 item status started blamed
    local -a todo=() rest=() items=("${all_items[@]}")
    local -A got
    [[ $rt == *-gcc ]] && items=("${gcc_items[@]}")
    for item in "${items[@]}"; do
        [[ -z ${excluded[$rt/$nthreads/$item]:-} ]] && todo+=("$item")
    done
    if ((${#todo[@]} == 0)); then
        say "compare.sh:   nothing left to run for $rt at $nthreads threads"
        return
    fi
    while ((${#todo[@]} > 0)); do
        started=$SECONDS
        status=0
        run_syncbench "$rt" "$nthreads" --format csv --test-time "$test_time" \
            --delay-length "$delay_length" \
            --outer-repetitions "$outer_reps" --measurement-timeout "$measure_timeout" \
            --measureonly "$(IFS=,; echo "${todo[*]}")" >"$work/run.csv" 2>"$work/run.err" ||
            status=$?
        # Keep the rows that were completed, even from a killed run.
        awk -F, -v OFS=, -v round="$round" -v rt="$rt" -v t="$nthreads" \
            'NR > 1 && NF == 10 && $3 == t { print round, rt, t, $1, $2, $4, $5, $6, $7, $8, $9, $10 }' \
            "$work/run.csv" >>"$raw"
        got=()
        while IFS= read -r item; do got[$item]=1; done \
            < <(awk -F, 'NR > 1 && NF == 10 { print $1 ":" $2 }' "$work/run.csv")
        rest=()
        for item in "${todo[@]}"; do
            [[ -z ${got[$item]:-} ]] && rest+=("$item")
        done

        # Usage errors and a wrong runtime are the driver's or the build's fault.
        if ((status == 2 || status == 3)); then
            cat "$work/run.err" >&2
            die "syncbench refused to run ($rt, $nthreads threads, exit $status)"
        fi
        blamed=
        if ((status != 0)); then
            say "compare.sh:   $rt, $nthreads threads: $(status_name "$status")"
            sed -n '1,5s/^/    /p' "$work/run.err" >&2
            if ((${#rest[@]} > 0)); then
                blamed=${rest[0]}
                excluded[$rt/$nthreads/$blamed]="$(status_name "$status") in round $round"
                say "compare.sh:   no result for $blamed; it is skipped from now on for $rt at $nthreads threads"
                rest=("${rest[@]:1}")
            fi
        fi
        echo "$round,$rt,$nthreads,$(status_name "$status"),$((SECONDS - started)),$blamed" >>"$runs_log"
        ((status != 0 && ${#rest[@]} > 0)) || break
        todo=("${rest[@]}")
    done
}

# Where a region's time goes (bench/floor/phases.c): once per round on stock
# and ext, in the rounds' rotating order, with a team of one thread per
# CPU; x86 only, and needs two CPUs.
phases_bin=$bin_dir/phases-clang
phases_raw=$work/phases.csv
echo "round,runtime,kind,phase,threads,median_ns" >"$phases_raw"
phases_problems=
run_phases=0
((phases_regions > 0 && cores >= 2)) && [[ -x $phases_bin ]] && run_phases=1
# run_per_cpu KIND ROUND RT OUT BIN ARGS...: one run of BIN on RT with a
# team of one thread per CPU, stdout to OUT. A failed run shows the first
# lines of its stderr, sets run_problem to its line for the summary and
# returns 1.
run_per_cpu() {
    run_threads "$1" "$2" "$3" "$cores" "${@:4}"
}
# run_threads KIND ROUND RUNTIME THREADS OUT COMMAND...: a run of THREADS
# threads; on failure, its reason in run_problem.
run_threads() {
    local kind=$1 round=$2 rt=$3 nthreads=$4 out=$5 status=0
    shift 5
    run_on "$rt" "$nthreads" "$@" >"$out" 2>"$out.err" || status=$?
    ((status == 0)) && return 0
    sed -n '1,5s/^/    /p' "$out.err" >&2
    run_problem="- round $round, $kind on $rt: $(status_name "$status")"$'\n'
    return 1
}
measure_phases() {
    local round=$1 j rt
    for ((j = 0; j < 2; j++)); do
        rt=ext
        (((round + j) % 2 == 0)) && rt=stock
        if ! run_per_cpu phases "$round" "$rt" "$work/phases-run.csv" \
            "$phases_bin" --regions "$phases_regions"; then
            phases_problems+=$run_problem
            continue
        fi
        awk -F, -v OFS=, -v round="$round" -v rt="$rt" 'NR > 1 && NF == 4 { print round, rt, $1, $2, $3, $4 }' \
            "$work/phases-run.csv" >>"$phases_raw"
    done
}

# Program patterns (bench/patterns/patterns.c: changing team sizes, nested
# and if(false) regions, tasks, taskloops, dynamic loops): once per round
# on stock and ext, the clang build and the gcc build, in a rotating order,
# with a team of one thread per CPU. A run with a wrong result keeps none
# of its rows.
patterns_raw=$work/patterns.csv
echo "round,runtime,threads,measurement,bytes,median_overhead_us" >"$patterns_raw"
patterns_problems=
run_patterns=0
((patterns_time > 0)) && [[ -x $bin_dir/patterns-clang && -x $bin_dir/patterns-gcc ]] && run_patterns=1
measure_patterns() {
    local round=$1 j rt bin
    local -a order=(stock ext stock-gcc ext-gcc)
    for ((j = 0; j < ${#order[@]}; j++)); do
        rt=${order[(round + j) % ${#order[@]}]}
        bin=$bin_dir/patterns-clang
        [[ $rt == *-gcc ]] && bin=$bin_dir/patterns-gcc
        if ! run_per_cpu patterns "$round" "$rt" "$work/patterns-run.csv" \
            "$bin" --test-time "$patterns_time"; then
            patterns_problems+=$run_problem
            continue
        fi
        awk -F, -v OFS=, -v round="$round" -v rt="$rt" 'NR > 1 && NF == 3 { print round, rt, $2, $1, 0, $3 }' \
            "$work/patterns-run.csv" >>"$patterns_raw"
        ((run_hybrid)) && measure_hybrid "$round" "$rt"
        ((run_fortran)) && measure_fortran "$round" "$rt"
    done
}

# Patterns fortran-PARALLEL, -BARRIER, -REDUCTION, -SINGLE_COPYPRIVATE: the
# Fortran twin of four syncbench rows (bench/fortran/fsyncbench.f90, EPCC's
# overhead per construct), built by flang beside the clang build (stock,
# ext) and by gfortran beside the gcc build (stock-gcc, ext-gcc).
run_fortran=0
((run_patterns)) && [[ -x $bin_dir/fsyncbench-flang && -x $bin_dir/fsyncbench-gfortran ]] &&
    run_fortran=1
measure_fortran() {
    local round=$1 rt=$2 bin=$bin_dir/fsyncbench-flang
    [[ $rt == *-gcc ]] && bin=$bin_dir/fsyncbench-gfortran
    if ! run_per_cpu fortran "$round" "$rt" "$work/fortran-run.csv" "$bin" "$patterns_time"; then
        patterns_problems+=$run_problem
        return
    fi
    awk -F, -v OFS=, -v round="$round" -v rt="$rt" \
        'NR > 1 && NF == 3 { print round, rt, $2, "fortran-" $1, 0, $3 }' \
        "$work/fortran-run.csv" >>"$patterns_raw"
}

# Patterns hybrid-RxT: the step of tests/hybrid/hybrid_step.c (8 regions
# with a reduction, one with a barrier, a copyprivate and tasks, a halo
# exchange and an MPI_Allreduce) as R MPI ranks of T threads, time per step
# over the step loop: 8 ranks of one thread per CPU each, sharing the cores
# without any runtime knowing; one rank per CPU of one thread; one rank of
# one thread per CPU.  Steps per shape: a run of 0.2-1 s here.
hybrid_shapes=("8 $cores 500" "$cores 1 20000" "1 $cores 5000")
[[ $mode == quick ]] && hybrid_shapes=("8 $cores 200" "$cores 1 5000" "1 $cores 1000")
run_hybrid=0
((run_patterns)) && [[ -x $bin_dir/hybrid_step-clang && -x $bin_dir/hybrid_step-gcc ]] &&
    command -v mpirun >/dev/null && run_hybrid=1
measure_hybrid() {
    local round=$1 rt=$2 bin=$bin_dir/hybrid_step-clang shape ranks threads steps
    [[ $rt == *-gcc ]] && bin=$bin_dir/hybrid_step-gcc
    for shape in "${hybrid_shapes[@]}"; do
        read -r ranks threads steps <<<"$shape"
        if ! run_threads hybrid "$round" "$rt" "$threads" "$work/hybrid-run.txt" \
            env MPI_RUN_TIMEOUT="$run_timeout" "$repo_root/tests/hybrid/mpi_run.sh" "$ranks" \
            "$bin" --steps "$steps" --cells 256; then
            patterns_problems+=$run_problem
            continue
        fi
        awk -v OFS=, -v round="$round" -v rt="$rt" -v steps="$steps" \
            -v name="hybrid-${ranks}x$threads" -v t="$threads" \
            '$1 == "elapsed" { print round, rt, t, name, 0, $2 / steps * 1e6 }' \
            "$work/hybrid-run.txt" >>"$patterns_raw"
    done
}

say "compare.sh: $mode mode: $rounds rounds x threads {$threads} x {${runtimes[*]}} = $total_runs runs"
say "compare.sh: test time $test_time us, $outer_reps outer repetitions, limits ${measure_timeout}s per measurement and ${run_timeout}s per run"
say "compare.sh: results -> $results_dir"
((same_runtime)) && say "compare.sh: WARNING: stock and ext are the same library; this is not a real comparison"

start_time=$SECONDS
run_no=0
for ((round = 1; round <= rounds; round++)); do
    for ((ti = 0; ti < ${#thread_list[@]}; ti++)); do
        nthreads=${thread_list[ti]}
        for ((j = 0; j < nruntimes; j++)); do
            rt=${runtimes[(round + ti + j) % nruntimes]}   # rotating order
            run_no=$((run_no + 1))
            printf 'compare.sh: [%d/%d] round %d/%d, %2d threads, %-7s (elapsed %s, ~%s left)\n' \
                "$run_no" "$total_runs" "$round" "$rounds" "$nthreads" "$rt" \
                "$(duration $((SECONDS - start_time)))" \
                "$(estimate_left $((run_no - 1)) $((SECONDS - start_time)) "$round" "$ti")" >&2
            run_start=$SECONDS
            measure "$rt" "$nthreads" "$round"
            last_seconds[$rt/$nthreads]=$((SECONDS - run_start))
        done
    done
    ((run_phases)) && measure_phases "$round"
    ((run_patterns)) && measure_patterns "$round"
done
elapsed=$((SECONDS - start_time))
say "compare.sh: $total_runs runs done in $(duration "$elapsed")"

# ---- aggregation and reports -----------------------------------------------------

mkdir -p "$results_dir"
cp "$raw" "$results_dir/raw.csv"
cp "$calibration" "$results_dir/calibration.txt"
if ((run_phases)); then cp "$phases_raw" "$results_dir/phases.csv"; else rm -f "$results_dir/phases.csv"; fi
if ((run_patterns)); then cp "$patterns_raw" "$results_dir/patterns.csv"; else rm -f "$results_dir/patterns.csv"; fi
awk -v runtimes="${runtimes[*]}" -v threads="$threads" -v partial="stock-gcc ext-gcc stock-again-gcc" \
    -f "$script_dir/median.awk" -f "$script_dir/aggregate.awk" \
    "$work/measurements" "$raw" >"$results_dir/results.csv"
awk -f "$script_dir/median.awk" -f "$script_dir/paired.awk" "$raw" >"$work/paired.csv"
# The A/A control's per-round ratios (empty files without it).
: >"$work/paired-aa.csv"
: >"$work/paired-gcc-aa.csv"
if ((control)); then
    awk -v base=stock -v test=stock-again -f "$script_dir/median.awk" -f "$script_dir/paired.awk" "$raw" \
        >"$work/paired-aa.csv"
    awk -v base=stock-gcc -v test=stock-again-gcc -f "$script_dir/median.awk" -f "$script_dir/paired.awk" "$raw" \
        >"$work/paired-gcc-aa.csv"
fi
awk -f "$script_dir/table.awk" "$work/paired.csv" "$results_dir/results.csv" >"$work/table.md"
awk -v base=stock-gcc -v test=ext-gcc -f "$script_dir/median.awk" -f "$script_dir/paired.awk" "$raw" \
    >"$work/paired-gcc.csv"
bash "$script_dir/predicted.sh" "$bin_dir/ompext-model" "$calibration" "$work/paired.csv" "$cores" \
    >"$results_dir/predicted.csv"

first_line() { "$@" 2>/dev/null | head -n 1 || true; }
cpu_model=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || true)
gomp_pkg=$(dpkg-query -W -f='${Version}' libgomp1 2>/dev/null || true)
bench_vars=$(env | grep -E '^BENCH_[A-Z_]+=' | sort | tr '\n' ' ' || true)
bench_vars=${bench_vars//"$repo_root/"/}
problems=$(awk -F, 'NR > 1 && $4 != "ok" {
        printf "- round %s, %s, %s threads: %s%s\n", $1, $2, $3, $4, ($6 == "" ? "" : "; no result for " $6 ", not run again")
    }' "$runs_log")

{
    echo "# syncbench: stock libomp vs ext libomp vs GCC libgomp"
    echo
    if ((same_runtime)); then
        echo "**WARNING: stock and ext were the same library: not a real comparison.**"
        echo
    fi
    echo "Median overhead per construct in microseconds (median over rounds of each run's"
    echo "median overhead; lower is better). Ratios below 1 mean ext is faster; \"per"
    echo "round\" is the median of each round's ext/stock, which drifts of the machine"
    echo "that hit both runtimes of a round alike do not move."
    echo "Min/max over rounds and the number of contributing runs are in \`results.csv\`;"
    echo "every run's rows are in \`raw.csv\`."
    echo
    echo "## Machine"
    echo
    echo "- CPU: ${cpu_model:-unknown}, $cores cores available"
    echo "- kernel: $(uname -sr)"
    echo "- compilers: $(first_line clang --version); $(first_line gcc --version)"
    echo "- LLVM release of stock and ext: $llvm_release"
    echo "- runtimes: stock = \`${rt_path[stock]}\`; ext = \`${rt_path[ext]}\`; libgomp = \`${rt_path[libgomp]}\`${gomp_pkg:+ (libgomp1 $gomp_pkg)}"
    echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ), wall time $(duration "$elapsed")"
    echo "- command: \`${bench_vars}bench/epcc/compare.sh\`"
    echo
    echo "## Method"
    echo
    echo "- syncbench (bench/epcc), EPCC OpenMP microbenchmark v4.0 method: test time"
    echo "  $test_time µs, $outer_reps outer repetitions (+1 warm-up) per measurement"
    echo "- delay: $delay_length iterations in every run ($delay_origin)"
    echo "- $mode mode: $rounds rounds; each round runs every runtime once per thread count,"
    echo "  the order of the runtimes rotating between rounds and thread counts"
    echo "- threads: $threads"
    echo "- environment: ${omp_env[*]} OMP_NUM_THREADS=<threads>"
    echo "- ext's machine parameters: \`calibration.txt\` ($calibration_origin), as OMPEXT_CALIBRATION"
    echo "- stock and ext: the clang build (syncbench-clang) with LD_LIBRARY_PATH set to the"
    echo "  runtime; libgomp: the gcc build (syncbench-gcc) on the system libgomp;"
    echo "  stock-gcc and ext-gcc: the gcc build's reductions on stock and ext"
    ((control)) && echo "- A/A control: stock-again (and stock-again-gcc), the stock runtime a second time in every round"
    echo "- limits: ${measure_timeout}s per measurement (syncbench --measurement-timeout), ${run_timeout}s"
    echo "  per process; a measurement that hangs or crashes gets no value, is not run again"
    echo "  for that runtime and thread count, and the run resumes after it; missing values show as n/a"
    if [[ -n $problems ]]; then
        echo
        echo "Runs that did not finish (process exit status and the measurement blamed):"
        echo
        echo "$problems"
    fi
    echo
    echo "## Results"
    echo
    echo "![overhead against threads](summary.png)"
    echo
    cat "$work/table.md"
    echo
    echo "## Never slower"
    echo
    echo "Every measurement, size and thread count where ext/stock per round is above"
    echo "1.00 in this run, with the gap (per-round ratio minus 1), the spread of the"
    echo "rounds' ratios (iqr), how many rounds had ext slower, and the one-sided sign"
    echo "test: the chance of at least that many slower rounds if each round were a"
    echo "coin toss between the runtimes. A large value (say above 0.05) means this"
    echo "run cannot tell the gap from its noise."
    if ((control)); then
        echo "\"A/A\" is the control: the same per-round ratio and count for the stock"
        echo "runtime's second run of each round against its first, two runs that differ by"
        echo "nothing but this machine's noise."
    fi
    echo
    awk -v control="$work/paired-aa.csv" -f "$script_dir/slower.awk" "$work/paired.csv"
    echo
    if ((${#gcc_items[@]} > 0)); then
        echo "## gcc binaries on stock and ext"
        echo
        echo "GCC compiles a reduction itself (an atomic, or a lock around the combine),"
        echo "so the reductions of a gcc-built program never reach either libomp; its"
        echo "fork/join and barriers do. syncbench-gcc ran its reductions on both"
        echo "(\`stock-gcc\`, \`ext-gcc\`: LD_LIBRARY_PATH set to the runtime, libgomp.so.1"
        echo "being libomp there) in the same rounds, beside the system libgomp."
        echo
        awk -v a=stock-gcc -v b=ext-gcc -v c=libgomp -f "$script_dir/table.awk" \
            "$work/paired-gcc.csv" "$results_dir/results.csv"
        echo
        echo "Never slower, gcc binaries (ext-gcc/stock-gcc per round above 1.00):"
        echo
        awk -v control="$work/paired-gcc-aa.csv" -f "$script_dir/slower.awk" "$work/paired-gcc.csv"
        echo
    fi
    echo "## Measured against predicted"
    echo
    echo "The cost model's ext/stock for each construct it prices: what the plugin's"
    echo "plan runs, from this run's calibration (\`ompext-model --params"
    echo "calibration.txt --plan --op OP --threads N\`; a region with a reduction is its"
    echo "fork/join plus its reduction), beside the measured per-round ratio. The band runs from min/min"
    echo "to max/max; \"inside\" means the middle half of the rounds' ratios overlaps"
    echo "it. Every value is in \`predicted.csv\`; docs/scaling.md says where the model"
    echo "and this machine are known to disagree."
    echo
    echo "![measured against predicted ext/stock](predicted.png)"
    echo
    awk -f "$script_dir/size_label.awk" -f "$script_dir/predicted_table.awk" "$results_dir/predicted.csv"
    echo
    if ((run_phases)); then
        echo "## Where a region's time goes"
        echo
        echo "bench/floor/phases.c on stock and ext, once per round, $cores threads (same"
        echo "environment): the primary's time-stamp counter before a region to the"
        echo "latest worker's first stamp in the body (fork), to the primary's own (primary);"
        echo "the latest last stamp in the body to the primary's stamp after the region"
        echo "(join: the arrival reaching the primary, and a reduction's combine); the"
        echo "primary's body; before to after (total); overhead = total - body, as EPCC"
        echo "counts it. Medians over the rounds of each run's median over"
        echo "$phases_regions regions; every run's rows are in \`phases.csv\`."
        echo
        if [[ -n $phases_problems ]]; then
            echo "Runs that did not finish:"
            echo
            printf '%s\n' "$phases_problems"
        fi
        awk -f "$script_dir/median.awk" -f "$script_dir/phases.awk" "$phases_raw"
        echo
    fi
    if ((run_patterns)); then
        echo "## Program patterns"
        echo
        echo "bench/patterns/patterns.c on stock and ext, once per round, $cores threads"
        echo "(same environment), built by clang (stock, ext) and by gcc (stock-gcc,"
        echo "ext-gcc): constructs combined as programs combine them. Each run times"
        echo "blocks of steps of ${patterns_time} ms or more and gives the median of five; the"
        echo "table has the medians over rounds of the time per step. Every run's rows"
        echo "are in \`patterns.csv\`. \`patterns --list\` says what each step does."
        if ((run_hybrid)); then
            echo "hybrid-RxT: R MPI ranks of T threads (tests/hybrid/hybrid_step.c, the same"
            echo "builds), time per step of the step loop; hybrid-8x$cores shares the cores."
        fi
        if ((run_fortran)); then
            echo "fortran-*: the Fortran twin of four syncbench rows (bench/fortran/fsyncbench.f90),"
            echo "EPCC's overhead per construct, built by flang in the clang columns and by"
            echo "gfortran in the gcc columns."
        fi
        echo
        if [[ -n $patterns_problems ]]; then
            echo "Runs that did not finish or got a wrong result (their rows are left out):"
            echo
            printf '%s\n' "$patterns_problems"
        fi
        awk -v runtimes="stock ext stock-gcc ext-gcc" -f "$script_dir/median.awk" \
            -f "$script_dir/patterns.awk" "$patterns_raw"
        echo
        echo "Per round, every pattern (the gap is negative where ext was faster):"
        echo
        echo "clang build, ext/stock:"
        echo
        awk -f "$script_dir/median.awk" -f "$script_dir/paired.awk" "$patterns_raw" |
            awk -v all=1 -f "$script_dir/slower.awk"
        echo
        echo "gcc build, ext-gcc/stock-gcc:"
        echo
        awk -v base=stock-gcc -v test=ext-gcc -f "$script_dir/median.awk" -f "$script_dir/paired.awk" \
            "$patterns_raw" | awk -v all=1 -f "$script_dir/slower.awk"
        echo
    fi
    echo "## Targets of the issue \"Model-optimized collectives\""
    echo
    echo "Ratios are ext/stock medians of this run, the status is theirs; \"per"
    echo "round\" is the median of the rounds' ratios (the targets were set for a"
    echo "2-core machine: 8 threads is 4x oversubscribed there)."
    echo
    awk -f "$script_dir/targets.awk" "$work/paired.csv" "$results_dir/results.csv"
} >"$results_dir/summary.md"

if command -v gnuplot >/dev/null; then
    awk -v png="$results_dir/summary.png" -v cores="$cores" \
        -v title="syncbench overhead (median of $rounds rounds), $machine" \
        -f "$script_dir/size_label.awk" -f "$script_dir/panels.awk" -f "$script_dir/plot.awk" "$results_dir/results.csv" >"$work/plot.gp"
    gnuplot "$work/plot.gp" 2>"$work/gnuplot.err" ||
        { cat "$work/gnuplot.err" >&2; say "compare.sh: gnuplot failed; no summary.png"; }
    if awk -v png="$results_dir/predicted.png" -v cores="$cores" \
        -v title="ext/stock, measured (median of $rounds rounds) and predicted by the model, $machine" \
        -f "$script_dir/size_label.awk" -f "$script_dir/panels.awk" -f "$script_dir/predicted_plot.awk" "$results_dir/predicted.csv" \
        >"$work/predicted.gp"; then
        gnuplot "$work/predicted.gp" 2>"$work/gnuplot.err" ||
            { cat "$work/gnuplot.err" >&2; say "compare.sh: gnuplot failed; no predicted.png"; }
    fi
else
    say "compare.sh: gnuplot not found; skipping summary.png (apt-get install gnuplot-nox)"
fi

# The README's headline table, where it is made from this summary
# (bench/epcc/headline.sh; the test bench.headline holds the two together).
readme=$repo_root/README.md
if [[ -f $readme ]] &&
    grep -qxF "<!-- headline: ${results_dir#"$repo_root"/}/summary.md -->" "$readme"; then
    "$script_dir/headline.sh" --update "$readme" &&
        say "compare.sh: README.md's headline table is now this run's"
fi

cat "$work/table.md"
if [[ ${BENCH_STRICT:-0} == 1 ]]; then
    missing=$(awk -F, 'NR > 1 && $8 == 0' "$results_dir/results.csv" | wc -l)
    if ((${#gcc_items[@]} > 0)) && (($(wc -l <"$work/paired-gcc.csv") < 2)); then
        die "strict mode: no gcc-binary reduction was measured on both stock and ext"
    fi
    [[ -z $phases_problems ]] || die "strict mode: phases runs failed:
$phases_problems"
    [[ -z $patterns_problems ]] || die "strict mode: patterns runs failed:
$patterns_problems"
    if [[ -n $problems || $missing -gt 0 ]]; then
        die "strict mode: $missing missing value(s)${problems:+; unfinished runs:
$problems}"
    fi
fi
# BCAST rows: ompext_bcast against copyprivate and MPI_Bcast, interleaved
# rounds of their own (bench/bcast/bcast_bench.sh, about 2 minutes).
if [[ $mode != quick && -x $bin_dir/bcast_bench-clang ]]; then
    BCAST_BIN_DIR=$bin_dir BCAST_EXT_LIB=$ext_lib BCAST_STOCK_LIB=$stock_lib \
        "$script_dir/../bcast/bcast_bench.sh" "$results_dir/bcast.md" ||
        say "compare.sh: bench/bcast/bcast_bench.sh failed; no bcast.md"
fi
extra_files=
((run_phases)) && extra_files=phases.csv,
((run_patterns)) && extra_files+=patterns.csv,
say "compare.sh: wrote $results_dir/{results.csv,raw.csv,predicted.csv,${extra_files}summary.md$(command -v gnuplot >/dev/null && echo ,summary.png,predicted.png)}"
