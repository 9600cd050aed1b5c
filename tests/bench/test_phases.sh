#!/usr/bin/env bash
# make bench's "Where a region's time goes": bench/epcc/phases.awk on
# made-up rounds (medians, overhead, handoffs, the floor sentence), and
# phases-clang itself on a runtime (its rows, its refusals; no timing).
#
#   test_phases.sh EPCC_DIR PHASES_BIN LIB_DIR
set -euo pipefail
dir=$1 bin=$2 lib=$3
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

# Three rounds; handoff 100 ns. stock: overhead 600 (region) and 500
# (reduction); ext: 450 (0.75: met) and 420 (target 0.8 * 500 = 400, floor
# 3 handoffs, 300: 20 ns to take off, 120 above the floor today).
{
    echo "round,runtime,kind,phase,threads,median_ns"
    for r in 1 2 3; do
        for rt in stock ext; do
            echo "$r,$rt,handoff,line,2,100"
            if [[ $rt == stock ]]; then reg=600 red=500; else reg=450 red=420; fi
            for kind in region reduction; do
                o=$reg
                [[ $kind == reduction ]] && o=$red
                echo "$r,$rt,$kind,fork,2,$((o / 2 + r))"
                echo "$r,$rt,$kind,primary,2,50"
                echo "$r,$rt,$kind,join,2,$((o / 4))"
                echo "$r,$rt,$kind,body,2,$((100 + r))"
                echo "$r,$rt,$kind,total,2,$((o + 100 + r))"
            done
        done
    done
} >"$work/phases.csv"
awk -f "$dir/median.awk" -f "$dir/phases.awk" "$work/phases.csv" >"$work/out.md"
check "handoff unit" "**100 ns** (median of 6 runs)." "$(grep -o '[*][*].*' "$work/out.md")"
check "region fork row" "| region | fork | 302 | 227 | 0.75 | 3.0 | 2.3 |" "$(grep '^| region | fork ' "$work/out.md")"
check "region overhead row" "| region | overhead | 600 | 450 | 0.75 | 6.0 | 4.5 |" \
    "$(grep '^| region | overhead ' "$work/out.md")"
check "region target met" "1" "$(grep -c 'PARALLEL.*take one handoff each: 200 ns[.].*The target is met[.]$' "$work/out.md")"
check "reduction above the floor" "1" \
    "$(grep -c 'REDUCTION.*allows ext 400 ns.*atomic add.*300 ns[.].*The target lies 100 ns above the floor: ext would have to take 20 ns off the paths around the 3 handoffs (120 ns today)[.]$' "$work/out.md")"

# A stock overhead under 3.75 handoffs puts a 0.8 target below the floor.
sed -e 's/^\([0-9]\),stock,reduction,total,2,.*/\1,stock,reduction,total,2,300/' \
    -e 's/^\([0-9]\),stock,reduction,body,2,.*/\1,stock,reduction,body,2,100/' "$work/phases.csv" >"$work/low.csv"
check "target below the floor" "1" \
    "$(awk -f "$dir/median.awk" -f "$dir/phases.awk" "$work/low.csv" |
        grep -c 'REDUCTION.*allows ext 160 ns.*The target lies 140 ns below that floor[.]$')"
check "nothing measured" "No phase was measured (bench/floor/phases.c did not run)." \
    "$(echo "round,runtime,kind,phase,threads,median_ns" | awk -f "$dir/median.awk" -f "$dir/phases.awk")"

# The program: a team of 2 gives a handoff and five phases of each region,
# all numbers; the reductions it checks came out right (exit 0).
run() { env -u LD_LIBRARY_PATH LD_LIBRARY_PATH="$lib" OMP_WAIT_POLICY=active "$@"; }
status=0
run OMP_NUM_THREADS=2 "$bin" --regions 300 >"$work/run.csv" || status=$?
check "phases-clang exit status" "0" "$status"
check "rows" "11" "$(awk -F, 'NR > 1 && NF == 4 && $3 == 2 && $4 ~ /^[0-9]+([.][0-9]+)?$/' "$work/run.csv" | wc -l)"
check "kinds and phases" "handoff/line reduction/body reduction/fork reduction/join reduction/primary reduction/total region/body region/fork region/join region/primary region/total" \
    "$(awk -F, 'NR > 1 { print $1 "/" $2 }' "$work/run.csv" | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')"
status=0
run OMP_NUM_THREADS=1 "$bin" --regions 300 >/dev/null 2>"$work/err" || status=$?
check "one thread is refused" "2" "$status"
status=0
run OMP_NUM_THREADS=2 "$bin" --regions 0 >/dev/null 2>&1 || status=$?
check "--regions 0 is refused" "2" "$status"
status=0
run OMP_NUM_THREADS=2 "$bin" --bogus >/dev/null 2>&1 || status=$?
check "an unknown option is refused" "2" "$status"

checks_done test_phases
