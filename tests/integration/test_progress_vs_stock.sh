#!/usr/bin/env bash
# integration.progress_vs_stock: the judge of the progress tests
# (progress_vs_stock.sh) on a stand-in program whose time depends on the
# runtime it is given (the last part of LD_LIBRARY_PATH: "stock" or "ext")
# and on a script of times per run, so that each verdict is known:
#   - the measured noise (a quarter of either runtime's runs in a second
#     mode, 10 times the first) passes;
#   - ext slower in every run (a stall: 13 times) fails;
#   - one ext run that never ends is stopped and fails, at once;
#   - with PROGRESS_JUDGE=median (ranks sharing the processors), ext slower
#     in most rounds fails even when its fastest run is stock's, and one
#     slow round in five passes.
#
#   test_progress_vs_stock.sh <progress_vs_stock.sh> <scratch dir>
set -euo pipefail
judge=$1 dir=$2
mkdir -p "$dir"
fake=$dir/fake_program.sh
# The stand-in: run number k of runtime R sleeps the k-th time of the list
# in $dir/R.times ("hang": much longer than any stop), then prints it.
cat > "$fake" <<'FAKE'
#!/usr/bin/env bash
set -eu
rt=${LD_LIBRARY_PATH##*/} list=$FAKE_DIR/$rt.times count=$FAKE_DIR/$rt.count
k=$(( $(cat "$count" 2>/dev/null || echo 0) + 1 ))
echo "$k" > "$count"
t=$(sed -n "${k}p" "$list")
if [ "$t" = hang ]; then sleep 1000; fi
sleep "$t"
echo "elapsed $t"
FAKE
chmod +x "$fake"
mkdir -p "$dir/lib/stock" "$dir/lib/ext"

fails=0
# case <name> <expected: pass|fail> <expected text> <stock times> <ext times>
case_() {
  local name=$1 want=$2 text=$3
  printf '%s\n' $4 > "$dir/stock.times"
  printf '%s\n' $5 > "$dir/ext.times"
  rm -f "$dir/stock.count" "$dir/ext.count"
  local out rc
  out=$(FAKE_DIR=$dir PROGRESS_JUDGE=${JUDGE:-fastest} "$judge" ${BOUND:-4} 5 "$dir/lib/stock" "$dir/lib/ext" "$fake" 2>&1) &&
    rc=0 || rc=$?
  local got=pass
  [ $rc = 0 ] || got=fail
  if [ $got != "$want" ] || ! grep -qF -- "$text" <<<"$out"; then
    echo "FAIL: $name: wanted $want with '$text', got $got:"
    echo "$out"
    fails=$((fails + 1))
  else
    echo "ok: $name ($got)"
  fi
}

# Noise as measured: ext's median (3 of 5 in the slow mode) is 10 times
# stock's, its fastest run is not.
case_ noise pass "ext/stock 1.00; median per-round ext/stock 10.00; judged: fastest (bound 4)" \
  "0.02 0.02 0.02 0.02 0.20" "0.20 0.20 0.02 0.20 0.02"
# A stall: every ext run 13 times stock's.
case_ stall fail "ext's fastest run takes more than 4 times stock's fastest" \
  "0.02 0.02 0.02 0.02 0.02" "0.26 0.26 0.26 0.26 0.26"
# A run that never ends: stopped after 10 s, and the test fails there.
case_ hang fail "round 2: stock 0.02s ext stopped after 10.00s" \
  "0.02 0.02 0.02 0.02 0.02" "0.02 hang 0.02 0.02 0.02"

# Ranks sharing the cores (tests/hybrid): 4 of 5 ext rounds 3 times
# stock's, the fifth as fast as stock's fastest.
JUDGE=median BOUND=2 case_ shared-slow fail \
  "ext's median per-round ratio to stock is above 2" \
  "0.02 0.02 0.02 0.02 0.02" "0.06 0.06 0.02 0.06 0.06"
# One round in five 3 times stock's (noise of a shared machine).
JUDGE=median BOUND=2 case_ shared-noise pass "median per-round ext/stock 1.00" \
  "0.02 0.02 0.02 0.02 0.02" "0.02 0.06 0.02 0.02 0.02"

[ $fails = 0 ] || { echo "$fails case(s) failed"; exit 1; }
echo "progress_vs_stock judge: all cases as expected"
