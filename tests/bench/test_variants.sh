#!/usr/bin/env bash
# bench/epcc/variants.sh: its refusals of bad input, and a tiny A/A end to
# end on the stock runtime: the rounds interleave in alternating order,
# each variant's settings reach its runs, and every variant gets its table
# (no timing).
#
#   test_variants.sh EPCC_DIR BIN_DIR STOCK_LIB_DIR
set -euo pipefail
dir=$1 bin_dir=$2 stock=$3
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
export VARIANTS_BIN_DIR=$bin_dir VARIANTS_ARGS="--outer-repetitions 3 --test-time 50"

# refuses ARGS...: the exit status, 2 for a usage error, and no table.
refuses() { local rc=0; bash "$dir/variants.sh" "$@" >"$work/out" 2>"$work/err" || rc=$?; echo "$rc $(grep -c '^|' "$work/out" || true)"; }
check "too few arguments" "2 0" "$(refuses 1 BARRIER a="$stock")"
check "rounds not a number" "2 0" "$(refuses x BARRIER a="$stock" b="$stock")"
check "a variant without a directory" "2 0" "$(refuses 1 BARRIER a="$stock" b)"
check "a directory that is not there" "2 0" "$(refuses 1 BARRIER a="$stock" b="$work/none")"
check "a setting that is not VAR=VALUE" "2 0" "$(refuses 1 BARRIER a="$stock" b="$stock":OMPEXT_SPIN)"
check "a name given twice" "2 0" "$(refuses 1 BARRIER a="$stock" a="$stock")"
check "an unknown build" "2 0" "$(VARIANTS_BUILD=icc refuses 1 BARRIER a="$stock" b="$stock")"
check "the message names the setting" "1" \
    "$(refuses 1 BARRIER a="$stock" b="$stock":OMPEXT_SPIN >/dev/null; grep -c "'OMPEXT_SPIN' is not VAR=VALUE" "$work/err")"

# Two rounds of three variants; "one" runs a team of one (its setting
# overrides the team size), so its rows pair with nobody's.
VARIANTS_RAW=$work/raw.csv VARIANTS_THREADS=2 bash "$dir/variants.sh" 2 BARRIER \
    base="$stock" again="$stock" one="$stock":OMP_NUM_THREADS=1 >"$work/out"
check "the order: as given, then reversed" "base again one one again base" \
    "$(awk -F, 'NR > 1 { printf "%s%s", sep, $2; sep = " " }' "$work/raw.csv")"
check "the setting reached the runs" "1 1" \
    "$(awk -F, '$2 == "one" { printf "%s%s", sep, $3; sep = " " }' "$work/raw.csv")"
check "the others ran the team size" "2 2 2 2" \
    "$(awk -F, 'NR > 1 && $2 != "one" { printf "%s%s", sep, $3; sep = " " }' "$work/raw.csv")"
check "a table per variant" "2" "$(grep -c '^### ' "$work/out")"
check "again's row: both rounds paired" "1" \
    "$(grep -c '^| BARRIER | 0 | 2 | [0-9.]* | [-+][0-9]*% | [0-9.]* | [0-2] of 2 | [0-9.]* |$' "$work/out")"
check "again's header names the ratio" "1" "$(grep -c '| again/base per round |' "$work/out")"
check "one pairs with nothing" "1" "$(grep -c '^No measurement' "$work/out")"
checks_done test_variants
