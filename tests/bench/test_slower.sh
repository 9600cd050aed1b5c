#!/usr/bin/env bash
# bench/epcc/paired.awk and slower.awk on made-up rounds: the per-round
# ratio, the count of rounds with ext slower, the one-sided sign test and
# the A/A control's columns of make bench's "never slower" table (no
# timing).
#
#   test_slower.sh EPCC_DIR
set -euo pipefail
dir=$1
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

# 10 rounds: A slower in 9 of them, B in every other one, C never (level
# in one).
{
    echo "round,runtime,threads,measurement,bytes,median_overhead_us"
    for r in $(seq 1 10); do
        echo "$r,stock,2,A,0,1.0"
        if ((r <= 9)); then echo "$r,ext,2,A,0,1.1"; else echo "$r,ext,2,A,0,0.9"; fi
        echo "$r,stock,4,B,8,1.0"
        if ((r % 2 == 0)); then echo "$r,ext,4,B,8,1.2"; else echo "$r,ext,4,B,8,0.95"; fi
        echo "$r,stock,2,C,0,1.0"
        if ((r == 10)); then echo "$r,ext,2,C,0,1.0"; else echo "$r,ext,2,C,0,0.8"; fi
    done
} >"$work/raw.csv"
awk -f "$dir/median.awk" -f "$dir/paired.awk" "$work/raw.csv" >"$work/paired.csv"
check "paired header" "measurement,bytes,threads,rounds,median_ratio,iqr,rounds_slower" \
    "$(sed -n 1p "$work/paired.csv")"
check "A: 9 of 10 rounds slower" "A,0,2,10,1.1000,0.0000,9" "$(grep '^A,' "$work/paired.csv")"
check "B: 5 of 10 rounds slower" "10,5" "$(awk -F, '$1 == "B" { print $4 "," $7 }' "$work/paired.csv")"
check "C: no round slower" "C,0,2,10,0.8000,0.0000,0" "$(grep '^C,' "$work/paired.csv")"

awk -f "$dir/slower.awk" "$work/paired.csv" >"$work/slower.md"
# P(X >= 9) for 10 fair tosses: 11/1024; P(X >= 5): 638/1024.
check "A's row" "| A | 0 | 2 | 1.10 | +10% | 0.00 | 9 of 10 | 0.011 |" "$(grep '^| A ' "$work/slower.md")"
check "B's sign test" "0.623" "$(awk -F' [|] ' '$1 == "| B" { print $8 }' "$work/slower.md" | tr -d ' |')"
check "A first (largest gap)" "| A " "$(sed -n 3p "$work/slower.md" | cut -c1-4)"
check "C is not listed" "0" "$(grep -c '^| C ' "$work/slower.md" || true)"

# all=1 (make bench's "Program patterns"): every row, a faster one with its
# negative gap.
check "C listed with all=1" "| C | 0 | 2 | 0.80 | -20% | 0.00 | 0 of 10 | 1.000 |" \
    "$(awk -v all=1 -f "$dir/slower.awk" "$work/paired.csv" | grep '^| C ')"

# The A/A control (stock-again against stock): A 1.02 in every round, B
# 1.08 in 6 of 10 (0.97 in the others), C below 1.00.
{
    echo "round,runtime,threads,measurement,bytes,median_overhead_us"
    for r in $(seq 1 10); do
        echo "$r,stock,2,A,0,1.0"
        echo "$r,stock-again,2,A,0,1.02"
        echo "$r,stock,4,B,8,1.0"
        if ((r <= 6)); then echo "$r,stock-again,4,B,8,1.08"; else echo "$r,stock-again,4,B,8,0.97"; fi
        echo "$r,stock,2,C,0,1.0"
        echo "$r,stock-again,2,C,0,0.99"
    done
} >"$work/aa-raw.csv"
awk -v base=stock -v test=stock-again -f "$dir/median.awk" -f "$dir/paired.awk" "$work/aa-raw.csv" \
    >"$work/aa.csv"
awk -v control="$work/aa.csv" -f "$dir/slower.awk" "$work/paired.csv" >"$work/slower-aa.md"
check "control columns" "| A | 0 | 2 | 1.10 | +10% | 0.00 | 9 of 10 | 0.011 | 1.02 | 10 of 10 |" \
    "$(grep '^| A ' "$work/slower-aa.md")"
check "control of B" "1.08 | 6 of 10 |" "$(grep '^| B ' "$work/slower-aa.md" | grep -o '1.08 | 6 of 10 |')"
check "control header" "10" "$(sed -n 1p "$work/slower-aa.md" | tr -cd '|' | wc -c | awk '{ print $1 - 1 }')"
check "control's own rows" \
    "The A/A control itself: 2 of 3 rows above 1.00 per round, 1 above 1.05 (the largest 1.08: B 8 B, 4 threads)." \
    "$(tail -n 1 "$work/slower-aa.md")"
grep -v '^B,' "$work/aa.csv" >"$work/aa-no-b.csv"
check "a row the control lacks" "n/a | n/a |" \
    "$(awk -v control="$work/aa-no-b.csv" -f "$dir/slower.awk" "$work/paired.csv" | grep '^| B ' | grep -o 'n/a | n/a |')"
: >"$work/aa-empty.csv"
check "an empty control is no control" "$(cat "$work/slower.md")" \
    "$(awk -v control="$work/aa-empty.csv" -f "$dir/slower.awk" "$work/paired.csv")"

printf 'round,runtime,threads,measurement,bytes,median_overhead_us\n1,stock,2,C,0,1.0\n1,ext,2,C,0,0.9\n' >"$work/none.csv"
check "no slower row" "No measurement, size or thread count was slower on ext than on stock." \
    "$(awk -f "$dir/median.awk" -f "$dir/paired.awk" "$work/none.csv" | awk -f "$dir/slower.awk")"

checks_done test_slower
