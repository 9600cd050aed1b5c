#!/usr/bin/env bash
# lit_compare.sh's verdicts, on a stand-in for lit (fake_lit/lit/main.py)
# whose tests report planned results and times run by run:
#   - a test that fails once on ext and passes on every run after: passes,
#     and the first failure's output is printed;
#   - a test that fails again on ext when run again: fails;
#   - a test slow once on ext, then as fast as stock: passes;
#   - a test slow on ext every time: fails;
#   - a test that fails on stock too: not held against ext.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
export PYTHONDONTWRITEBYTECODE=1 # the stand-in lives in the source tree
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bad=0

# case <name> <expected exit> <stock plan line> <ext plan line>
case_() {
  local name=$1 want=$2 dir="$work/$1"
  mkdir -p "$dir/stock" "$dir/ext"
  echo "$3" >"$dir/stock/plan"
  echo "$4" >"$dir/ext/plan"
  local fake="$here/fake_lit/lit.py" rc=0
  "$here/lit_compare.sh" baseline "$fake" "$dir/stock" "$dir/stock.txt" \
    >"$dir/log" 2>&1
  LIT_RECHECK=3 "$here/lit_compare.sh" compare "$fake" "$dir/ext" \
    "$dir/stock.txt" "$dir/ext.txt" "$dir/stock" >>"$dir/log" 2>&1 || rc=$?
  if [ "$rc" != "$want" ]; then
    echo "check_lit_compare: $name: exit $rc, expected $want; its log:"
    sed 's/^/  /' "$dir/log"
    bad=1
  else
    echo "check_lit_compare: $name: exit $rc as expected"
  fi
}

case_ fails_once 0 "t/a.c PASS 1" "t/a.c FAIL,PASS 1"
grep -q "run 0: libomp :: t/a.c FAIL" "$work/fails_once/log" || {
  echo "check_lit_compare: fails_once: the failure's output was not printed"
  bad=1
}
case_ fails_again 1 "t/a.c PASS 1" "t/a.c FAIL,PASS,FAIL,PASS 1"
case_ slow_once 0 "t/a.c PASS 1" "t/a.c PASS 30,1"
case_ slow_always 1 "t/a.c PASS 1" "t/a.c PASS 30"
case_ fails_on_stock 0 "t/a.c FAIL 1" "t/a.c FAIL 1"
exit $bad
