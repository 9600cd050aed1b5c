#!/usr/bin/env bash
# Inside the 16-vCPU, 2-package guest (tests/vm, vm.16.lit, after
# lit_vm.sh compiled the tests): LLVM's libomp lit tests on stock, then on
# ext with every plugin path on, compared test for test by
# tests/upstream/lit_compare.sh with its rules (a test that passes on stock
# passes on ext, within 4 times stock's time past 5 s).
#
#   guest_lit.sh <stock lib> <ext lib> <lit dir> <lit.py> <tests/upstream>
#                <lit filter>
set -uo pipefail
stock_lib=$1 ext_lib=$2 out=$3 lit=$4 upstream=$5
here=$(cd "$(dirname "$0")" && pwd)
. "$here/guest_lib.sh"
# One test at a time: the emulation runs every vCPU on one host thread, so
# tests run at once only share it, and each one's time would depend on
# which others overlap it.
export LIT_FILTER=$6 LIT_JOBS=1 LIT_RECHECK=3 OMPEXT_VM_LIT=run
if ! "$upstream/lit_compare.sh" baseline "$lit" "$out/stock-root" \
  "$out/stock.txt" >"$out/stock.log" 2>&1; then
  fail lit.stock "$(tail -n 5 "$out/stock.log")"
elif n=$(grep -c '^PASS' "$out/stock.txt"); [ "$n" -lt 10 ]; then
  fail lit.stock "only $n tests passed on stock: $(cat "$out/stock.txt")"
else
  pass "lit.stock ($n tests pass)"
  if OMPEXT_PLUGIN=$ext_lib/libompext.so OMPEXT=on KMP_FORCE_REDUCTION=tree \
    "$upstream/lit_compare.sh" compare "$lit" "$out/ext-root" "$out/stock.txt" \
    "$out/ext.txt" "$out/stock-root" >"$out/ext.log" 2>&1; then
    pass "lit.ext ($(grep -c '^PASS' "$out/ext.txt") tests pass)"
  else fail lit.ext "$(tail -n 20 "$out/ext.log")"; fi
fi
cat "$out/stock.txt" "$out/ext.txt" 2>/dev/null
finish
