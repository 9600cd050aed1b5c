# Sourced by the guest_*.sh scripts of tests/vm (inside the guest): verdict
# lines, a clean OpenMP environment, running one program on each runtime.
# Every check prints "PASS <name>" or "FAIL <name>: <why>"; the script's
# exit status is 1 if any failed.
failures=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; failures=$((failures + 1)); }
finish() {
  echo "$(basename "$0"): $failures check(s) failed"
  [ "$failures" = 0 ]
}

# The caller's OpenMP settings would change what is checked: start clean.
for v in $(compgen -e); do
  case $v in OMP_* | KMP_* | OMPEXT | OMPEXT_*) unset "$v" ;; esac
done
export OMP_TOOL=disabled
# The model's built-in parameters, as ompext-model uses by default: a
# calibration of the host does not describe the guest.
export OMPEXT_CALIBRATION=default

# run_on <stock|ext> <out file> <program> [args...]: stdout to <out file>,
# stderr to <out file>.err; returns the program's status.
run_on() {
  local rt=$1 out=$2
  shift 2
  local lib=$stock_lib
  [ "$rt" = ext ] && lib=$ext_lib
  LD_LIBRARY_PATH=$lib "$@" >"$out" 2>"$out.err"
}

# stats_field <err file> <name>: a counter of the OMPEXT_STATS=1 line.
stats_field() {
  sed -n "s/.*omp-ext: stats:.* $2=\([0-9]*\).*/\1/p" "$1" | tail -n 1
}
