#!/usr/bin/env bash
# LLVM's libomp test suite on the stock and the ext runtime.
#
#   lit_compare.sh baseline <lit.py> <stock test dir> <results file>
#   lit_compare.sh compare  <lit.py> <ext test dir> <baseline file> <results file>
#
# baseline: runs the suite on stock and records each test's result.
# compare:  runs it on ext (the environment chooses the plugin paths and the
#           wait policy) and fails if any test that passed on stock does not
#           pass on ext.  Results lines: "<RESULT> <test name>".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=$1 lit=$2 testdir=$3

run_suite() { # <test dir> <results file>
  local log="$2.log"
  # lit exits non-zero when any test fails; the comparison decides here.
  python3 "$here/lit_env.py" "$lit" -v -j "${LIT_JOBS:-2}" --no-progress-bar \
    "$1" >"$log" 2>&1 || true
  { grep -E '^(PASS|FAIL|XFAIL|XPASS|UNSUPPORTED|UNRESOLVED|TIMEOUT): ' "$log" ||
    true; } | sed -E 's/^([A-Z]+): [^:]+ :: ([^ ]+) \([0-9]+ of [0-9]+\)$/\1 \2/' |
    sort -k2 >"$2"
  if [ ! -s "$2" ]; then
    echo "lit_compare: no test results in $log" >&2
    tail -20 "$log" >&2
    exit 2
  fi
  echo "lit_compare: $(wc -l <"$2") tests: $(cut -d' ' -f1 "$2" | sort | uniq -c | tr '\n' ' ')"
}

case "$mode" in
baseline)
  run_suite "$testdir" "$4"
  ;;
compare)
  baseline=$4 results=$5
  run_suite "$testdir" "$results"
  regressions=$(join -j2 <(sort -k2 "$baseline") <(sort -k2 "$results") |
    awk '$2 == "PASS" && $3 != "PASS" { print $1 " (stock PASS, ext " $3 ")" }')
  if [ -n "$regressions" ]; then
    echo "lit_compare: tests that pass on stock but not on ext:"
    echo "$regressions" | head -100
    exit 1
  fi
  echo "lit_compare: every test that passes on stock passes on ext"
  ;;
*)
  echo "usage: lit_compare.sh baseline|compare ..." >&2
  exit 2
  ;;
esac
