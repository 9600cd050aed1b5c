#!/usr/bin/env bash
# LLVM's libomp test suite on the stock and the ext runtime.
#
#   lit_compare.sh baseline <lit.py> <stock test dir> <results file>
#   lit_compare.sh compare  <lit.py> <ext test dir> <baseline file> <results file>
#
# baseline: runs the suite on stock and records each test's result and time.
# compare:  runs it on ext (the environment chooses the plugin paths and the
#           wait policy) and fails if any test that passed on stock does not
#           pass on ext, or takes more than LIT_TIME_RATIO times stock's time
#           and more than LIT_TIME_FLOOR seconds (lit_results.py).
# Results lines: "<RESULT> <test name> <seconds>".
#
# Environment:
#   LIT_JOBS        tests run at once                        [2]
#   LIT_FILTER      only the tests whose name matches (lit --filter)
#   LIT_CPUS        confine the whole run to these CPUs (taskset -c); "first":
#                   the first CPU this script may run on
#   LIT_TIME_RATIO  ext/stock time that fails a test         [4]
#   LIT_TIME_FLOOR  ... when ext took more seconds than this  [5]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=$1 lit=$2 testdir=$3

run_suite() { # <test dir> <results file>
  local log="$2.log" args=(-v -j "${LIT_JOBS:-2}" --no-progress-bar
    --time-tests -o "$2.json")
  local prefix=()
  [ -n "${LIT_FILTER:-}" ] && args+=(--filter "$LIT_FILTER")
  local cpus=${LIT_CPUS:-}
  [ "$cpus" = first ] && cpus=$(taskset -pc $$ | sed -E 's/.*: *//; s/[-,].*//')
  [ -n "$cpus" ] && prefix=(taskset -c "$cpus")
  rm -f "$2.json"
  # lit exits non-zero when any test fails; the comparison decides here.
  "${prefix[@]}" python3 "$here/lit_env.py" "$lit" "${args[@]}" "$1" \
    >"$log" 2>&1 || true
  if [ ! -s "$2.json" ]; then
    echo "lit_compare: no test results from lit (log: $log)" >&2
    tail -20 "$log" >&2
    exit 2
  fi
  python3 "$here/lit_results.py" extract "$2.json" "$2"
}

case "$mode" in
baseline)
  run_suite "$testdir" "$4"
  ;;
compare)
  run_suite "$testdir" "$5"
  python3 "$here/lit_results.py" compare "$4" "$5" \
    "${LIT_TIME_RATIO:-4}" "${LIT_TIME_FLOOR:-5}"
  ;;
*)
  echo "usage: lit_compare.sh baseline|compare ..." >&2
  exit 2
  ;;
esac
