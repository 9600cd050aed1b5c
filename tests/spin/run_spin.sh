#!/bin/sh
# Verify one Promela model of omp-ext's flag protocols with Spin.
#
#   run_spin.sh <model.pml> <ok|violation> [spin -D options...]
#
# Two runs, each in a fresh scratch directory (the verifier writes pan.*
# and trail files into its working directory):
#   safety    pan built with -DSAFETY -DNOCLAIM: assertions and invalid end
#             states (a process blocked for ever), exhaustive search;
#   liveness  pan built with the model's ltl property: pan -a -f, acceptance
#             cycles under weak fairness.
# Each run prints one summary line (states stored, depth, errors, time).
#
#   ok         fails if a run reports an error or an incomplete search
#              (search depth too small, out of memory, truncated search);
#   violation  fails unless at least one run reports an error (assertion
#              violated, invalid end state or acceptance cycle); used for
#              the deliberate mutations, to show that the checks bite.
#
# Environment:
#   SPIN          spin executable (default: spin)
#   PAN_CC        C compiler for pan (default: gcc, else cc)
#   PAN_CFLAGS    extra compiler flags for pan (e.g. -DCOLLAPSE)
#   PAN_DEPTH     pan -m, the search depth bound (default: 200000)
#   PAN_HASH      pan -w, log2 of the hash table slots (default: 22)
#   SPIN_SCRATCH  parent of the scratch directory (default: $TMPDIR or /tmp)
#   SPIN_KEEP     set to keep the scratch directory (for the trail)
#   SPIN_ONLY     "safety" or "liveness": run only that one
set -u

usage() {
  echo "usage: $0 <model.pml> <ok|violation> [spin -D options...]" >&2
  exit 2
}

[ $# -ge 2 ] || usage
model=$1
expect=$2
shift 2
case $expect in
ok | violation) ;;
*) usage ;;
esac
[ -r "$model" ] || { echo "$0: cannot read $model" >&2; exit 2; }

spin=${SPIN:-spin}
if [ -z "${PAN_CC:-}" ]; then
  if command -v gcc >/dev/null 2>&1; then PAN_CC=gcc; else PAN_CC=cc; fi
fi
depth=${PAN_DEPTH:-200000}
hash=${PAN_HASH:-22}
only=${SPIN_ONLY:-}

scratch=$(mktemp -d "${SPIN_SCRATCH:-${TMPDIR:-/tmp}}/spin.XXXXXX") || exit 2
if [ -z "${SPIN_KEEP:-}" ]; then
  trap 'rm -rf "$scratch"' EXIT
  trap 'rm -rf "$scratch"; exit 130' INT TERM
else
  echo "scratch directory kept: $scratch"
fi

# The spin options, for the trail replay (-D options have no spaces).
spin_opts="$*"
name=$(basename "$model")
cp "$model" "$scratch/$name" || exit 2
cd "$scratch" || exit 2

echo "model $name, spin options: ${*:-(none)}, expect $expect"
if ! "$spin" "$@" -a "$name" >spin.out 2>&1; then
  cat spin.out
  echo "FAIL: spin -a rejected the model"
  exit 1
fi

failures=0   # runs that reported an error
incomplete=0 # runs whose search was cut short or could not run

# One verification run: $1 label, $2 compile flags, $3 pan flags.
verify() {
  label=$1
  cflags=$2
  panflags=$3
  # shellcheck disable=SC2086
  if ! $PAN_CC -O2 -w $cflags ${PAN_CFLAGS:-} -o "pan_$label" pan.c \
      >"cc_$label.out" 2>&1; then
    cat "cc_$label.out"
    echo "[$label] FAIL: pan did not compile"
    incomplete=$((incomplete + 1))
    return
  fi
  # shellcheck disable=SC2086
  "./pan_$label" -m"$depth" -w"$hash" $panflags >"pan_$label.out" 2>&1
  out=pan_$label.out
  states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' "$out" | head -n 1)
  reached=$(sed -n 's/.*depth reached \([0-9]*\).*/\1/p' "$out" | head -n 1)
  errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' "$out" | head -n 1)
  secs=$(sed -n 's/^pan: elapsed time \([0-9.e+-]*\) seconds.*/\1/p' "$out" |
    head -n 1)
  what=$(grep -m 1 -E '^pan:[0-9]+: |^pan: (invalid end state|acceptance cycle|assertion)' \
    "$out")
  echo "[$label] states stored ${states:-?}, depth ${reached:-?}," \
    "errors ${errors:-?}, ${secs:-?} s${what:+: $what}"
  if [ -z "$errors" ]; then
    cat "$out"
    echo "[$label] FAIL: no result from pan"
    incomplete=$((incomplete + 1))
    return
  fi
  if [ "$errors" != 0 ]; then
    failures=$((failures + 1))
    if [ "$expect" = ok ]; then
      cat "$out"
      echo "[$label] the error trail (last steps):"
      # shellcheck disable=SC2086
      "$spin" $spin_opts -t -p -g -l "$name" 2>&1 | tail -n 60
    fi
  fi
  # An exhaustive search must have ended by itself (pan stops at the first
  # error, which is no incompleteness).
  if [ "$errors" = 0 ] && grep -q -E 'depth too small|Search not completed|out of memory|reached -DMEMLIM|max search depth too small' "$out"; then
    grep -E 'depth too small|Search not completed|out of memory|MEMLIM' "$out"
    echo "[$label] incomplete search"
    incomplete=$((incomplete + 1))
  fi
}

if [ "$only" != liveness ]; then
  verify safety "-DSAFETY -DNOCLAIM" ""
fi
if [ "$only" != safety ] && { [ "$expect" = ok ] || [ "$failures" = 0 ]; }; then
  verify liveness "-DNFAIR=3" "-a -f"
fi

case $expect in
ok)
  if [ "$failures" != 0 ] || [ "$incomplete" != 0 ]; then
    echo "FAIL: $name ${*:-}: $failures run(s) with errors, $incomplete incomplete"
    exit 1
  fi
  echo "PASS: $name ${*:-}: no error, exhaustive"
  ;;
violation)
  if [ "$failures" = 0 ]; then
    echo "FAIL: $name ${*:-}: the mutation was not caught"
    exit 1
  fi
  echo "PASS: $name ${*:-}: the mutation was caught"
  ;;
esac
exit 0
