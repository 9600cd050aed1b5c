#!/bin/sh
# Runs a program with OMPEXT_CALIBRATION naming a file the plugin must
# refuse, and checks that the plugin said why (the program itself checks
# the one warning and the default parameters).
#
#   calibration_refused.sh <kind> <path> <reason> <program> [args...]
#
# kind: what to put at <path> first
#   fifo        a FIFO nobody writes to (opening it must not wait)
#   nul         valid lines, then a NUL byte, then more lines
#   text=LINES  a plain parameter file of these lines (printf %b escapes)
#   as-is       nothing: <path> is there already (a directory, /dev/null)
# The program runs under timeout: a plugin that blocks fails the test in
# seconds instead of hanging the suite.
set -eu
kind=$1 path=$2 reason=$3
shift 3

case $kind in
  fifo) rm -f "$path" && mkfifo "$path" ;;
  nul) printf 'R_L 2\nR_R 90\n\000R_I 120\n' >"$path" ;;
  text=*) printf '%b\n' "${kind#text=}" >"$path" ;;
  as-is) ;;
  *) echo "calibration_refused.sh: unknown kind '$kind'" >&2; exit 2 ;;
esac

err=$(mktemp)
trap 'rm -f "$err"' EXIT
rc=0
OMPEXT_CALIBRATION=$path timeout 120 "$@" 2>"$err" || rc=$?
cat "$err" >&2
if [ "$rc" = 124 ]; then
  echo "calibration_refused.sh: the program did not finish in 120 s" >&2
  exit 1
fi
[ "$rc" = 0 ] || exit "$rc"
if ! grep -qF "OMPEXT_CALIBRATION=$path not used ($reason" "$err"; then
  echo "calibration_refused.sh: no warning saying '$reason'" >&2
  exit 1
fi
