#!/bin/sh
# The choice ompext-model prints for --op bcast is the one the plugin takes
# at run time (OMPEXT_VERBOSE=1), both on the built-in default parameters.
#   model_choice.sh <ompext-model> <program> <threads> <bytes>...
# Each bytes must be one the program broadcasts (omp_bcast_checks.c).
set -u
model=$1 program=$2 threads=$3
shift 3
run=$(OMP_NUM_THREADS=$threads OMPEXT_VERBOSE=1 OMPEXT_CALIBRATION=default \
  "$program" 12 2>&1) || { echo "$run"; echo "FAIL: the program failed"; exit 1; }
status=0
for bytes in "$@"; do
  want=$("$model" --op bcast --bytes "$bytes" --threads "$threads" |
    sed -n "s/^# \(team of $threads: ompext_bcast of $bytes bytes: .*\)/\1/p")
  got=$(printf '%s\n' "$run" |
    sed -n "s/^omp-ext: \(team of $threads: ompext_bcast of $bytes bytes: .*\)/\1/p" |
    head -n 1)
  if [ -z "$want" ] || [ "$want" != "$got" ]; then
    echo "FAIL: ompext-model says '$want', the run '$got'"
    status=1
  else
    echo "ok: $got"
  fi
done
exit $status
