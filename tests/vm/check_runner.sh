#!/usr/bin/env bash
# vm.runner: what ompext-vm.sh promises its callers.  A small guest (2 vCPUs
# in 2 packages) runs a command that sees the caller's environment and
# working directory, 2 processors in 2 NUMA nodes, writes to a --rw
# directory but not elsewhere on the host's root; its stdout, stderr and
# exit status come back.  A command that outlives --timeout is stopped with
# status 124 and the console's tail.
#
#   check_runner.sh <ompext-vm.sh> <writable dir>
set -uo pipefail
vm=$1 dir=$2/runner
rm -rf "$dir"
mkdir -p "$dir/cwd"
bad=0
check() { # <what> <ok?>
  if [ "$2" = 0 ]; then echo "PASS $1"; else echo "FAIL $1"; bad=1; fi
}

cd "$dir/cwd"
export VM_RUNNER_VALUE="a b'c \$x"
rc=0
"$vm" --cpus 2 --packages 2 --timeout 120 --rw "$dir" -- sh -c '
  printf "%s|%s|%s|%s\n" "$VM_RUNNER_VALUE" "$PWD" "$(nproc)" \
    "$(cat /sys/devices/system/node/online)"
  echo written >"$PWD/../from-guest"
  touch "$PWD/../../runner-must-not-exist" 2>/dev/null && echo "root writable"
  echo to-stderr >&2
  exit 7' >"$dir/out" 2>"$dir/err" || rc=$?
cat "$dir/out" "$dir/err"
check "exit status 7 (got $rc)" "$([ "$rc" = 7 ]; echo $?)"
check "environment, directory, 2 vCPUs in NUMA nodes 0-1" \
  "$([ "$(cat "$dir/out")" = "$VM_RUNNER_VALUE|$dir/cwd|2|0-1" ]; echo $?)"
check "stderr" "$(grep -qx to-stderr "$dir/err"; echo $?)"
check "the --rw directory is writable" \
  "$([ "$(cat "$dir/from-guest" 2>/dev/null)" = written ]; echo $?)"
check "the rest of the host's root is not" \
  "$([ ! -e "$2/runner-must-not-exist" ]; echo $?)"
rm -f "$2/runner-must-not-exist"

rc=0
start=$(date +%s)
"$vm" --cpus 2 --packages 1 --timeout 25 -- sleep 1000 >"$dir/out" 2>"$dir/err" || rc=$?
took=$(($(date +%s) - start))
cat "$dir/err"
check "a command past --timeout: status 124 (got $rc)" "$([ "$rc" = 124 ]; echo $?)"
check "... stopped within the timeout and the kill's grace (${took} s)" \
  "$([ "$took" -lt 60 ]; echo $?)"
check "... the console's tail is printed" \
  "$(grep -q "the guest's console, last lines" "$dir/err" && grep -q '  | guest-init: 2 vCPUs; running' "$dir/err"; echo $?)"
exit $bad
