#!/usr/bin/env bash
# predicted.sh: the cost model's ext/stock ratio beside the measured one.
#
#   predicted.sh OMPEXT_MODEL CALIBRATION PAIRED_CSV CORES > predicted.csv
#
# For every row of PAIRED_CSV (paired.awk's per-round ext/stock medians)
# whose construct the model prices, ompext-model --plan prices what the
# plugin's plan runs and stock's [min, max] with CALIBRATION (the run's
# machine parameters):
#
#   BARRIER                  barrier
#   SINGLE_COPYPRIVATE:B     copyprivate of B bytes
#   PARALLEL                 fork_join
#   REDUCTION, REDUCTION_DOUBLE, REDUCTION_ARRAY:B
#                            fork_join + reduce of B bytes (syncbench times
#                            a whole parallel region with a reduction)
#
# and the verdict says where the measured ratio fell against the predicted
# band (between the min/min and max/max ratios): "inside" when the middle
# half of the rounds' ratios (the median +- iqr/2) overlaps the band, else
# "below" (ext did better than predicted) or "above" (worse).  A team of one thread has nothing to
# predict; a team larger than CORES is oversubscribed, outside the model
# (one thread per core), and gets the verdict "oversubscribed" with no band.
#
# Output (CSV): measurement,bytes,threads,measured_ratio,iqr,ext_algorithm,
# ext_min_ns,ext_max_ns,stock_min_ns,stock_max_ns,ratio_lo,ratio_hi,verdict
set -euo pipefail

die() { printf 'predicted.sh: error: %s\n' "$*" >&2; exit 2; }
(($# == 4)) || die "usage: predicted.sh OMPEXT_MODEL CALIBRATION PAIRED_CSV CORES"
model=$1 calibration=$2 paired=$3 cores=$4
[[ -x $model ]] || die "$model is not an executable ompext-model"
[[ -f $calibration ]] || die "no calibration file $calibration"
[[ -f $paired ]] || die "no paired CSV $paired"
[[ $cores =~ ^[1-9][0-9]*$ ]] || die "CORES must be a positive integer, not '$cores'"

# predict OP THREADS [BYTES] -> "algorithm,min,max,stock_min,stock_max"
# (what the plugin's plan runs, ompext-model --plan, and stock's, in ns),
# priced on one package as the calibration measured it, whatever
# OMPEXT_TOPOLOGY says; the quoted parameters column is dropped
predict() {
    local -a bytes=()
    [[ -n ${3:-} ]] && bytes=(--bytes "$3")
    env -u OMPEXT_TOPOLOGY "$model" --params "$calibration" --plan --op "$1" --threads "$2-$2" "${bytes[@]}" \
        --format csv |
        sed 's/"[^"]*"//' | awk -F, 'NR == 2 { print $3 "," $5 "," $6 "," $8 "," $9 }'
}

echo "measurement,bytes,threads,measured_ratio,iqr,ext_algorithm,ext_min_ns,ext_max_ns,stock_min_ns,stock_max_ns,ratio_lo,ratio_hi,verdict"
while IFS=, read -r name bytes threads _rounds ratio iqr _slower; do
    [[ $name == measurement ]] && continue
    case $name in
        BARRIER) ops=(barrier) ;;
        SINGLE_COPYPRIVATE) ops=(copyprivate) ;;
        PARALLEL) ops=(fork_join) ;;
        REDUCTION | REDUCTION_DOUBLE | REDUCTION_ARRAY) ops=(fork_join reduce) ;;
        *) continue ;;
    esac
    ((threads >= 2)) || continue
    if ((threads > cores)); then
        echo "$name,$bytes,$threads,$ratio,$iqr,,,,,,,,oversubscribed"
        continue
    fi
    parts=()
    for op in "${ops[@]}"; do
        case $op in
            reduce | copyprivate) part=$(predict "$op" "$threads" "$bytes") ;;
            *) part=$(predict "$op" "$threads") ;;
        esac
        [[ -n $part ]] || die "ompext-model printed nothing for $op at $threads threads"
        parts+=("$part")
    done
    # Sum the parts (a region with a reduction: its fork/join plus its
    # reduction), name ext's algorithms, and place the measured ratio.
    printf '%s\n' "${parts[@]}" | awk -F, -v OFS=, -v name="$name" -v bytes="$bytes" \
        -v threads="$threads" -v ratio="$ratio" -v iqr="$iqr" '
        { alg = alg (NR > 1 ? "+" : "") $1; emin += $2; emax += $3; smin += $4; smax += $5 }
        END {
            a = emin / smin; b = emax / smax
            lo = a < b ? a : b; hi = a < b ? b : a
            verdict = ratio + iqr / 2 < lo ? "below" : (ratio - iqr / 2 > hi ? "above" : "inside")
            printf "%s,%s,%s,%s,%s,%s,%.1f,%.1f,%.1f,%.1f,%.2f,%.2f,%s\n", name, bytes, threads,
                ratio, iqr, alg, emin, emax, smin, smax, lo, hi, verdict
        }'
done <"$paired"
