#!/usr/bin/env bash
# variants.sh: runtimes or settings against one base, interleaved, round by
# round: the A/B runs behind a decision (does a change to a lock, a spin or
# a barrier make a row slower?) in one command.
#
# usage: variants.sh ROUNDS MEASURES BASE VARIANT...
#   ROUNDS    rounds; each runs every variant once, the order reversed in
#             every other round, so a slow drift of the machine falls on
#             all variants alike
#   MEASURES  syncbench's --measureonly list, e.g. REDUCTION_ARRAY:65536
#   BASE, VARIANT  NAME=LIB_DIR[:VAR=VALUE[,VAR=VALUE...]]: a runtime
#             directory (build/stock/lib, build/ext/lib, or `libgomp` for
#             the system's) and the settings of its runs, e.g.
#             ext-queuing=build/ext/lib:OMPEXT_ATOMIC_LOCK=stock
#
# Environment:
#   VARIANTS_THREADS  team size (2)
#   VARIANTS_BUILD    clang or gcc: which syncbench (clang)
#   VARIANTS_BIN_DIR  where syncbench-{clang,gcc} are (build/ext/bin)
#   VARIANTS_ARGS     syncbench's timing options
#                     (--outer-repetitions 20 --test-time 1000)
#   VARIANTS_RAW      keep the per-run rows in this CSV file
#
# Every run has make bench's environment (threads bound close, one per
# place, active waiting, no tool) and the delay length calibrated once on
# BASE, and must load the runtime its variant names (--require-runtime).
# Output (Markdown): per variant, each row's per-round ratio to BASE (the
# median over rounds), its interquartile range, the rounds it was slower
# and the one-sided sign test (paired.awk and slower.awk, as make bench).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo_root=$(cd "$here/../.." && pwd)
die() { echo "variants.sh: $*" >&2; exit 2; }

(($# >= 4)) || die "usage: $0 ROUNDS MEASURES BASE VARIANT... (NAME=LIB_DIR[:VAR=VALUE,...])"
rounds=$1 measures=$2
shift 2
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "ROUNDS: '$rounds' is not a positive number"
threads=${VARIANTS_THREADS:-2}
[[ $threads =~ ^[1-9][0-9]*$ ]] || die "VARIANTS_THREADS: '$threads' is not a positive number"
build=${VARIANTS_BUILD:-clang}
[[ $build == clang || $build == gcc ]] || die "VARIANTS_BUILD: '$build' is neither clang nor gcc"
bin=${VARIANTS_BIN_DIR:-$repo_root/build/ext/bin}/syncbench-$build
[[ -x $bin ]] || die "no $bin (run make build first)"
read -r -a timing <<<"${VARIANTS_ARGS:---outer-repetitions 20 --test-time 1000}"

names=() libs=() settings=()
for spec in "$@"; do
    [[ $spec =~ ^([A-Za-z0-9_.+-]+)=([^:]+)(:(.*))?$ ]] ||
        die "'$spec' is not NAME=LIB_DIR[:VAR=VALUE,...]"
    name=${BASH_REMATCH[1]} lib=${BASH_REMATCH[2]} vars=${BASH_REMATCH[4]}
    for seen in "${names[@]}"; do [[ $seen != "$name" ]] || die "variant '$name' named twice"; done
    if [[ $lib != libgomp ]]; then
        [[ -d $lib ]] || die "$name: no directory $lib"
        lib=$(cd "$lib" && pwd)
    fi
    if [[ -n $vars ]]; then
        IFS=, read -r -a pairs <<<"$vars"
        for pair in "${pairs[@]}"; do
            [[ $pair =~ ^[A-Za-z_][A-Za-z0-9_]*=.*$ ]] || die "$name: '$pair' is not VAR=VALUE"
        done
    fi
    names+=("$name") libs+=("$lib") settings+=("$vars")
done

# run VARIANT_INDEX ARGS... : one syncbench process of that variant.
run() {
    local i=$1
    shift
    local -a env_vars=(OMP_PROC_BIND=close OMP_PLACES=threads OMP_WAIT_POLICY=active
                       OMP_TOOL=disabled OMP_NUM_THREADS="$threads")
    local require=${libs[i]}
    [[ ${libs[i]} != libgomp ]] && env_vars+=(LD_LIBRARY_PATH="${libs[i]}")
    if [[ -n ${settings[i]} ]]; then
        local -a pairs
        IFS=, read -r -a pairs <<<"${settings[i]}"
        env_vars+=("${pairs[@]}")
    fi
    timeout -k 5 300 env -u LD_LIBRARY_PATH "${env_vars[@]}" "$bin" --require-runtime "$require" "$@"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

delay_length=$(for probe in 1 2 3; do run 0 --print-delay-length || exit 1; done | sort -n | sed -n 2p) ||
    die "syncbench --print-delay-length failed on ${names[0]}"
[[ $delay_length =~ ^[1-9][0-9]*$ ]] || die "syncbench --print-delay-length printed '$delay_length'"

raw=$work/raw.csv
echo "round,runtime,threads,measurement,bytes,median_overhead_us" >"$raw"
n=${#names[@]}
for ((r = 1; r <= rounds; r++)); do
    for ((k = 0; k < n; k++)); do
        i=$(((r % 2) ? k : n - 1 - k))
        out=$(run "$i" --measureonly "$measures" --format csv --delay-length "$delay_length" "${timing[@]}") ||
            die "round $r, ${names[i]}: syncbench failed (exit $?)"
        awk -F, -v round="$r" -v name="${names[i]}" \
            'NR > 1 { print round "," name "," $3 "," $1 "," $2 "," $4 }' <<<"$out" >>"$raw"
    done
done
[[ -n ${VARIANTS_RAW:-} ]] && cp "$raw" "$VARIANTS_RAW"

echo "$rounds rounds, $threads threads, syncbench-$build, delay length $delay_length; base ${names[0]}"
for ((i = 1; i < n; i++)); do
    echo
    echo "### ${names[i]} against ${names[0]}"
    echo
    awk -v base="${names[0]}" -v test="${names[i]}" -f "$here/median.awk" -f "$here/paired.awk" "$raw" |
        awk -v all=1 -v ratio="${names[i]}/${names[0]}" -f "$here/slower.awk"
done
