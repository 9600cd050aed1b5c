#!/usr/bin/env bash
# Inside the 16-vCPU, 2-package guest (tests/vm, vm.16.programs): the
# guest's topology; the integration programs on stock and ext, with the
# same results; the progress checks, ext against stock; the plans of bound
# teams of 8 and 16 against the model's prediction for this topology; and
# every collective for each team size from 2 to 16, on both runtimes.
#
#   guest_programs.sh <bin dir> <stock lib> <ext lib> <results dir>
#                     <progress_vs_stock.sh>
set -uo pipefail
bin=$1 stock_lib=$2 ext_lib=$3 out=$4/programs progress=$5
here=$(cd "$(dirname "$0")" && pwd)
. "$here/guest_lib.sh"
rm -rf "$out"
mkdir -p "$out"
topology="package:2 core:8 pu:1"

# --- The guest is the machine the checks are about.
got="$(nproc) $(hwloc-calc --number-of package all) $(hwloc-calc --number-of numanode all)"
if [ "$got" = "16 2 2" ]; then pass topology
else fail topology "nproc, packages, NUMA nodes: $got, want 16 2 2"; fi

# --- Integration programs, stock and ext: both pass, same results.
# same_results <name> <stdout filter> <program> <stock args> -- <ext args>
same_results() {
  local name=$1 filter=$2 prog=$3 sargs=() eargs=()
  shift 3
  while [ "$1" != -- ]; do sargs+=("$1"); shift; done
  shift
  eargs=("$@")
  run_on stock "$out/$name.stock" "$prog" "${sargs[@]}" || {
    fail "$name" "stock failed: $(tail -n 5 "$out/$name.stock" "$out/$name.stock.err")"; return; }
  OMPEXT_STATS=1 run_on ext "$out/$name.ext" "$prog" "${eargs[@]}" || {
    fail "$name" "ext failed: $(tail -n 5 "$out/$name.ext" "$out/$name.ext.err")"; return; }
  if ! diff <(sed -E "$filter" "$out/$name.stock") <(sed -E "$filter" "$out/$name.ext") \
    >"$out/$name.diff"; then
    fail "$name" "results differ: $(head -n 10 "$out/$name.diff")"
    return
  fi
  pass "$name"
}
counters='s/ plugin=[a-z]+ barriers=[0-9]+ reductions=[0-9]+ broadcasts=[0-9]+//'
# Fewer rounds of the barrier phase check (2000) and of each root (3000)
# than on the host: the emulation is slow.
for cc in clang gcc; do
  same_results "integration.$cc.omp_checks" "$counters" "$bin/omp_checks_$cc" \
    --expect-plugin=no --rounds=300 -- --expect-plugin=yes --expect-warnings=0 --rounds=300
  # Bound: the teams span both packages; OMPEXT_HIERARCHY=on gives every
  # collective one leader per package, whatever the plan's rule would pick.
  OMPEXT_HIERARCHY=on OMP_PROC_BIND=close OMP_PLACES=cores same_results \
    "integration.$cc.omp_checks.bound" "$counters" "$bin/omp_checks_$cc" \
    --expect-plugin=no --rounds=300 -- --expect-plugin=yes --expect-warnings=0 \
    --expect-domains --rounds=300
  OMPEXT_VERBOSE=1 same_results "integration.$cc.pause_checks" "" \
    "$bin/pause_checks_$cc" --expect-plugin=no -- --expect-plugin=yes
  same_results "integration.$cc.roots_checks" "" "$bin/roots_checks_$cc" \
    --expect-plugin=no --rounds=1000 -- --expect-plugin=yes --rounds=1000
done

# --- Progress, ext against stock (progress_vs_stock.sh: ext's fastest of 3
# runs at most 4 times stock's fastest): teams of 32 on 16 vCPUs whose
# workers wait in user code for tid 0.  Fewer rounds than on the host: the
# emulation is slow, and a stall shows in every round.
for cc in clang gcc; do
  for construct in barrier copyprivate reduction parallel; do
    name=progress.$cc.$construct
    if "$progress" 4 3 "$stock_lib" "$ext_lib" "$bin/progress_checks_$cc" \
      --construct=$construct --rounds=100 >"$out/$name" 2>&1; then
      pass "$name"
    else fail "$name" "$(tail -n 3 "$out/$name")"; fi
  done
done

# --- Plans: bound teams of 8 (one package) and 16 (both), as the model
# predicts for this topology (check_plan.sh).
for n in 8 16; do
  name=plan.$n
  if OMPEXT_VERBOSE=1 OMPEXT_STATS=1 OMP_PROC_BIND=close OMP_PLACES=cores \
    run_on ext "$out/$name" "$bin/vm_collectives_clang" --threads=$n \
    --rounds=20 --expect-bind=close &&
    "$here/check_plan.sh" "$bin/ompext-model" "$topology" $n 2 \
      "$out/$name.err" >"$out/$name.check" 2>&1; then
    pass "$name"
  else fail "$name" "$(cat "$out/$name.check" 2>/dev/null; tail -n 5 "$out/$name.err")"; fi
done

# --- Every collective, each team size 2..16, bound close, both runtimes
# and both compilers.  On ext each team past one package prints its layout
# (each collective on the leaders, flat or the runtime's), which must be
# the model's (check_plan.sh); with OMPEXT_HIERARCHY=on every collective
# runs on the leaders, with the same results.
for cc in clang gcc; do
  for rt in stock ext leaders; do
    name=teams.$cc.$rt
    lib=$rt hierarchy=auto
    [ $rt = leaders ] && lib=ext hierarchy=on
    if OMPEXT_HIERARCHY=$hierarchy OMPEXT_VERBOSE=1 OMPEXT_STATS=1 \
      OMP_PROC_BIND=close OMP_PLACES=cores run_on $lib "$out/$name" \
      "$bin/vm_collectives_$cc" --threads=2-16 --rounds=30 --expect-bind=close; then
      if [ $rt = leaders ] && ! [ "$(stats_field "$out/$name.err" domain_barriers)" -gt 0 ] 2>/dev/null; then
        fail "$name" "no barrier with one leader per package: $(tail -n 1 "$out/$name.err")"
      else pass "$name"; fi
    else fail "$name" "$(tail -n 5 "$out/$name" "$out/$name.err")"; fi
  done
  for rt in ext leaders; do
    diff "$out/teams.$cc.stock" "$out/teams.$cc.$rt" >/dev/null ||
      fail "teams.$cc.$rt.same" "stock and $rt printed different results"
  done
  for n in $(seq 9 16); do
    name=teams.$cc.layout.$n
    if CHECK_PLAN_STATS=0 "$here/check_plan.sh" "$bin/ompext-model" "$topology" \
      $n 2 "$out/teams.$cc.ext.err" >"$out/$name" 2>&1; then
      pass "$name"
    else fail "$name" "$(cat "$out/$name")"; fi
  done
done
finish
