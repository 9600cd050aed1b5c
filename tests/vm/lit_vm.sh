#!/usr/bin/env bash
# vm.16.lit: LLVM's libomp lit suites barrier/ and parallel/ run in the
# 16-vCPU, 2-package guest, stock against ext (guest_lit.sh).  Compiling
# is most of a lit test's time and the emulation makes it ten times
# slower, while the program does not depend on the machine it is built
# on: the tests are compiled here first (lit with every run step a no-op),
# into directories the guest then shares writable, where lit runs them
# with every compile step a no-op.  Each runtime has its own directory
# with a copy of its build's lit.site.cfg, pointed there (vm_site.py
# chooses the no-ops by OMPEXT_VM_LIT).
#
#   lit_vm.sh <ompext-vm.sh> <results dir> <lit.py> <tests/upstream>
#             <stock lit dir> <ext lit dir> <stock lib> <ext lib>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
vm=$1 out=$2/lit lit=$3 upstream=$4 stock_dir=$5 ext_dir=$6 stock_lib=$7 ext_lib=$8
filter='^libomp :: (barrier|parallel)/'
rm -rf "$out"
mkdir -p "$out"
for rt in stock ext; do
  src=$stock_dir
  [ $rt = ext ] && src=$ext_dir
  mkdir -p "$out/$rt-root"
  { sed "s|^config.libomp_obj_root = .*|config.libomp_obj_root = \"$out/$rt-root\"|" \
      "$src/lit.site.cfg"
    cat "$here/vm_site.py"; } >"$out/$rt-root/lit.site.cfg"
  # The compile pass: its verdicts mean nothing (every run is "true").
  OMPEXT_VM_LIT=compile python3 "$lit" -q -j 2 --filter "$filter" \
    "$out/$rt-root" >"$out/$rt-compile.log" 2>&1 || true
done
n=$(find "$out/stock-root" "$out/ext-root" -name '*.tmp' -type f -perm -u+x | wc -l)
echo "lit_vm: $n test programs compiled on the host"
"$vm" --cpus 16 --packages 2 --timeout 480 --rw "$2" -- \
  bash "$here/guest_lit.sh" "$stock_lib" "$ext_lib" "$out" "$lit" "$upstream" "$filter"
