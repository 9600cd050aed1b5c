#!/usr/bin/env bash
# Inside the 64-vCPU, 4-package guest (tests/vm, vm.64.smoke): every
# collective (collectives.c) in a team of 64, bound close and spread over
# the cores, on stock and ext with the same results; on ext the team laid
# out over the packages as the model predicts (the close team's plan), and
# with OMPEXT_HIERARCHY=on every collective on the leaders.  Few
# rounds: at 64 vCPUs the emulation is slow.
#
#   guest_smoke64.sh <bin dir> <stock lib> <ext lib> <results dir>
set -uo pipefail
bin=$1 stock_lib=$2 ext_lib=$3 out=$4/smoke64
here=$(cd "$(dirname "$0")" && pwd)
. "$here/guest_lib.sh"
rm -rf "$out"
mkdir -p "$out"

got="$(nproc) $(hwloc-calc --number-of package all) $(hwloc-calc --number-of numanode all)"
if [ "$got" = "64 4 4" ]; then pass topology
else fail topology "nproc, packages, NUMA nodes: $got, want 64 4 4"; fi

export OMP_PLACES=cores
for cc in clang gcc; do
  for bind in close spread; do
    for rt in stock ext; do
      name=collectives.$cc.$bind.$rt
      if OMP_PROC_BIND=$bind OMPEXT_VERBOSE=1 OMPEXT_STATS=1 run_on $rt \
        "$out/$name" "$bin/vm_collectives_$cc" --threads=64 --rounds=20 \
        --expect-bind=$bind; then
        if [ $rt = ext ] && ! grep -q "team of 64: 4 package domains: " "$out/$name.err"; then
          fail "$name" "no layout over the packages: $(grep 'team of 64' "$out/$name.err")"
        else pass "$name"; fi
      else fail "$name" "exit $?: $(tail -n 5 "$out/$name" "$out/$name.err")"; fi
    done
    if ! diff "$out/collectives.$cc.$bind.stock" "$out/collectives.$cc.$bind.ext" >/dev/null; then
      fail "collectives.$cc.$bind.same" "stock and ext printed different results"
    fi
  done
done

# Every collective on the leaders (OMPEXT_HIERARCHY=on), whatever the
# plan's rule picks: the same results as stock.
name=collectives.clang.close.leaders
if OMPEXT_HIERARCHY=on OMP_PROC_BIND=close OMPEXT_STATS=1 run_on ext \
  "$out/$name" "$bin/vm_collectives_clang" --threads=64 --rounds=20 \
  --expect-bind=close; then
  if ! [ "$(stats_field "$out/$name.err" domain_barriers)" -gt 0 ] 2>/dev/null; then
    fail "$name" "no barrier with one leader per package ran"
  elif ! diff "$out/collectives.clang.close.stock" "$out/$name" >/dev/null; then
    fail "$name" "stock and the leaders printed different results"
  else pass "$name"; fi
else fail "$name" "exit $?: $(tail -n 5 "$out/$name" "$out/$name.err")"; fi

# The close team's plan against the model's prediction for this topology.
if "$here/check_plan.sh" "$bin/ompext-model" "package:4 core:16 pu:1" 64 4 \
  "$out/collectives.clang.close.ext.err" >"$out/plan.64" 2>&1; then
  pass plan.64
else fail plan.64 "$(cat "$out/plan.64")"; fi
finish
