#!/usr/bin/env bash
# bench/epcc/predicted.sh against ompext-model itself: the predicted band
# of each construct must be the plan's own ratios, --plan (a
# region with a reduction: its fork/join plus its reduction, summed before
# dividing), the verdict must follow the measured ratio and its iqr, and
# oversubscribed and one-thread rows must not be priced.
#
#   test_predicted.sh OMPEXT_MODEL PREDICTED_SH
set -euo pipefail
model=$1 predicted=$2
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

"$model" --params default --print-params >"$work/params.txt"

# ratio_lo,ratio_hi of ompext-model's own comparison: OP THREADS [BYTES]
band() {
    local -a bytes=()
    [[ -n ${3:-} ]] && bytes=(--bytes "$3")
    "$model" --params "$work/params.txt" --plan --op "$1" --threads "$2-$2" "${bytes[@]}" \
        --format csv | sed 's/"[^"]*"//' |
        awk -F, 'NR == 2 { a = $10 + 0; b = $11 + 0; if (a > b) { t = a; a = b; b = t }; printf "%.2f,%.2f\n", a, b }'
}
# the same for a region with a reduction: fork/join plus reduce, summed
region_band() {
    { "$model" --params "$work/params.txt" --plan --op fork_join --threads "$1-$1" --format csv | sed -n 2p
      "$model" --params "$work/params.txt" --plan --op reduce --threads "$1-$1" --bytes "$2" --format csv | sed -n 2p
    } | sed 's/"[^"]*"//' | awk -F, '{ e += $5; E += $6; s += $8; S += $9 }
        END { a = e / s; b = E / S; if (a > b) { t = a; a = b; b = t }; printf "%.2f,%.2f\n", a, b }'
}

barrier=$(band barrier 4)
copy=$(band copyprivate 3 4096)
region=$(region_band 4 4096)
# measured ratios, each against the band of its own team size: far below
# it, inside it, far above it, and below it by less than half the iqr
# (inside)
lo_of() { local b; b=$(band barrier "$1"); echo "${b%,*}"; }
hi_of() { local b; b=$(band barrier "$1"); echo "${b#*,}"; }
below=$(awk -v l="$(lo_of 4)" 'BEGIN { printf "%.4f", l / 2 }')
inside=$(awk -v l="$(lo_of 3)" -v h="$(hi_of 3)" 'BEGIN { printf "%.4f", (l + h) / 2 }')
above=$(awk -v h="$(hi_of 2)" 'BEGIN { printf "%.4f", h * 2 }')
near=$(awk -v l="$(lo_of 5)" 'BEGIN { printf "%.4f", l - 0.05 }')
cat >"$work/paired.csv" <<CSV
measurement,bytes,threads,rounds,median_ratio,iqr
BARRIER,0,4,5,$below,0.0100
BARRIER,0,3,5,$inside,0.0100
BARRIER,0,2,5,$above,0.0100
BARRIER,0,5,5,$near,0.2000
SINGLE_COPYPRIVATE,4096,3,5,0.5000,0.0100
REDUCTION_ARRAY,4096,4,5,0.5000,0.0100
BARRIER,0,1,5,1.0000,0.0100
BARRIER,0,16,5,1.0000,0.0100
ORDERED,0,2,5,1.0000,0.0100
CSV
"$predicted" "$model" "$work/params.txt" "$work/paired.csv" 8 >"$work/out.csv"
cat "$work/out.csv"
field() { awk -F, -v m="$1" -v b="$2" -v t="$3" -v f="$4" '$1 == m && $2 == b && $3 == t { print $f }' "$work/out.csv"; }

check "barrier band at 4 threads is the model's" "$barrier" "$(field BARRIER 0 4 11),$(field BARRIER 0 4 12)"
check "copyprivate 4 KiB band at 3 threads is the model's" "$copy" "$(field SINGLE_COPYPRIVATE 4096 3 11),$(field SINGLE_COPYPRIVATE 4096 3 12)"
check "array reduction band is fork/join plus reduce" "$region" "$(field REDUCTION_ARRAY 4096 4 11),$(field REDUCTION_ARRAY 4096 4 12)"
check "array reduction names both algorithms" "+" "$(field REDUCTION_ARRAY 4096 4 6 | tr -d 'a-z_-')"
check "far below the band" below "$(field BARRIER 0 4 13)"
check "inside the band" inside "$(field BARRIER 0 3 13)"
check "far above the band" above "$(field BARRIER 0 2 13)"
check "below by less than half the iqr counts as inside" inside "$(field BARRIER 0 5 13)"
check "more threads than cores is not priced" oversubscribed "$(field BARRIER 0 16 13)"
check "one thread has no row" "" "$(field BARRIER 0 1 13)"
check "a construct the model does not price has no row" "" "$(field ORDERED 0 2 13)"
check "rows: header + 7" 8 "$(wc -l <"$work/out.csv")"

status=0
"$predicted" "$model" "$work/params.txt" "$work/paired.csv" 0 >/dev/null 2>&1 || status=$?
check "bad core count exits 2" 2 "$status"
status=0
"$predicted" "$model" "$work/none.txt" "$work/paired.csv" 2 >/dev/null 2>&1 || status=$?
check "missing calibration exits 2" 2 "$status"

checks_done test_predicted
