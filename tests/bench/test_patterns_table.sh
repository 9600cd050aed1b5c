#!/usr/bin/env bash
# bench/epcc/patterns.awk on made-up rounds: make bench's "Program
# patterns" table, the median over rounds of each runtime's time per step,
# n/a where a runtime has none (no timing).
#
#   test_patterns_table.sh EPCC_DIR
set -euo pipefail
dir=$1
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

{
    echo "round,runtime,threads,measurement,bytes,median_overhead_us"
    echo "1,stock,2,resize,0,1.0"
    echo "1,ext,2,resize,0,0.8"
    echo "2,stock,2,resize,0,1.4"
    echo "2,ext,2,resize,0,0.6"
    echo "3,stock,2,resize,0,1.2"
    echo "3,ext,2,resize,0,0.7"
    echo "1,stock-gcc,2,tasks,0,5.0"
    echo "2,stock-gcc,2,tasks,0,7.0"
} >"$work/raw.csv"
awk -v runtimes="stock ext stock-gcc ext-gcc" -f "$dir/median.awk" -f "$dir/patterns.awk" \
    "$work/raw.csv" >"$work/table.md"
check "header" "| pattern | threads | stock (µs) | ext (µs) | stock-gcc (µs) | ext-gcc (µs) |" \
    "$(sed -n 1p "$work/table.md")"
check "resize: medians of 3 rounds" "| resize | 2 | 1.200 | 0.700 | n/a | n/a |" \
    "$(grep '^| resize ' "$work/table.md")"
check "tasks: median of 2 rounds, the others n/a" "| tasks | 2 | n/a | n/a | 6.000 | n/a |" \
    "$(grep '^| tasks ' "$work/table.md")"
check "rows in first-seen order" "resize tasks" \
    "$(awk -F' [|] ' 'NR > 2 { sub(/^[|] /, "", $1); printf "%s%s", sep, $1; sep = " " }' "$work/table.md")"

checks_done test_patterns_table
