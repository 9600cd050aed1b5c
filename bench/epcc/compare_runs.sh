#!/usr/bin/env bash
# compare_runs.sh: the ext/stock ratios of two compare.sh runs, row by row.
#
# usage: compare_runs.sh LABEL_A RAW_CSV_A LABEL_B RAW_CSV_B
#   RAW_CSV_*  compare.sh's raw.csv of each run
#
# Each run's ratio is paired.awk's (the median over rounds of each round's
# ext/stock, as in summary.md's "per round"), its spread the interquartile
# range of those per-round ratios; compare_runs.awk judges the rows and
# prints a Markdown table and one summary line.
set -euo pipefail
if [ $# -ne 4 ]; then
    echo "usage: $0 LABEL_A RAW_CSV_A LABEL_B RAW_CSV_B" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
paired() { awk -f "$here/median.awk" -f "$here/paired.awk" "$1"; }
awk -v a="$1" -v b="$3" -f "$here/compare_runs.awk" <(paired "$2") <(paired "$4")
