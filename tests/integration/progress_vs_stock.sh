#!/usr/bin/env bash
# Time a program on the ext runtime against the stock one, in the same test.
#
#   progress_vs_stock.sh <max ratio> <runs> <stock lib dir> <ext lib dir>
#                        <program> [program args...]
#
# The program prints "elapsed <seconds>" (progress_checks.c,
# task_state_checks.c).  It runs <runs> times on each runtime, alternating
# stock and ext so that a change in the machine's load hits both.  The test
# fails if the median ext time is more than <max ratio> times the median
# stock time, or if any run fails.  An ext run is stopped once it has
# taken 10 times the bound for its round's stock time (and at least 1 s),
# and then counts as over the bound: a stall fails fast instead of running
# into the test's timeout.
set -euo pipefail
max_ratio=$1 runs=$2 stock=$3 ext=$4
shift 4

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

stock_times=() ext_times=()
for ((r = 1; r <= runs; r++)); do
  s=$(LD_LIBRARY_PATH=$stock "$@") || { echo "stock run failed: $s"; exit 1; }
  s=$(printf '%s\n' "$s" | awk '$1 == "elapsed" { print $2 }')
  [ -n "$s" ] || { echo "stock run printed no elapsed time"; exit 1; }
  limit=$(awk -v s="$s" -v b="$max_ratio" 'BEGIN { l = 10 * b * s;
    printf "%.2f", l < 1 ? 1 : l }')
  out=$(LD_LIBRARY_PATH=$ext timeout "$limit" "$@") && rc=0 || rc=$?
  if [ $rc = 124 ]; then
    e="stopped after $limit"
  elif [ $rc != 0 ]; then
    echo "ext run failed (exit $rc): $out"
    exit 1
  else
    e=$(printf '%s\n' "$out" | awk '$1 == "elapsed" { print $2 }')
    [ -n "$e" ] || { echo "ext run printed no elapsed time"; exit 1; }
  fi
  echo "round $r: stock ${s}s ext ${e}s"
  stock_times+=("$s")
  # A stopped run is over the bound by construction.
  [ "${e%% *}" = stopped ] && e=$(awk -v l="$limit" 'BEGIN { print 10 * l }')
  ext_times+=("$e")
done

stock_median=$(printf '%s\n' "${stock_times[@]}" | median)
ext_median=$(printf '%s\n' "${ext_times[@]}" | median)
ratio=$(awk -v e="$ext_median" -v s="$stock_median" 'BEGIN { printf "%.2f", e / s }')
echo "median: stock ${stock_median}s ext ${ext_median}s, ext/stock $ratio (bound $max_ratio)"
if awk -v r="$ratio" -v b="$max_ratio" 'BEGIN { exit !(r > b) }'; then
  echo "progress_vs_stock: ext takes more than $max_ratio times stock's time"
  exit 1
fi
