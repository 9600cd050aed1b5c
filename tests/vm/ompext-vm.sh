#!/usr/bin/env bash
# Run one command in a QEMU guest with many vCPUs in several packages, each
# package its own NUMA node: to see omp-ext's plans and run its checks on a
# bigger machine than this one.  The guest boots Debian's kernel (fetched
# once into a cache by guest-image.sh) on the host's root, read-only; the
# command runs with the caller's environment and working directory, and its
# output and exit status come back as if it had run here.
#
#   ompext-vm.sh [--cpus N] [--packages S] [--memory MB] [--timeout SEC]
#                [--rw DIR]... [--console FILE] [--] command [args...]
#
#   --cpus N       vCPUs (default 16), N/S cores in each package
#   --packages S   packages, each a NUMA node with its share of the memory
#                  (default 2)
#   --memory MB    guest memory (default 4096)
#   --timeout SEC  the whole run, boot included (default 600); past it the
#                  guest is stopped and the exit status is 124
#   --rw DIR       a host directory the command may write (at the same
#                  path); everything else is read-only, but /tmp, /dev/shm
#                  and /run are fresh and writable
#   --console FILE keep the guest's console there
#
# Exit status: the command's; 124 timeout; 125 the guest failed (its
# console's last lines are printed on stderr).  OMPEXT_VM_CACHE: the cache
# (default: the project's .cache/vm).  Emulated with QEMU's TCG on one host
# thread: times measured inside are not the algorithms' own.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cpus=16 packages=2 memory=4096 timeout_s=600 console= rws=()
usage() { sed -n '9,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --cpus) cpus=$2; shift 2 ;;
    --packages) packages=$2; shift 2 ;;
    --memory) memory=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --rw) rws+=("$(cd "$2" && pwd)"); shift 2 ;;
    --console) console=$2; shift 2 ;;
    --) shift; break ;;
    -*) usage ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || usage
die() { echo "ompext-vm: $*" >&2; exit 125; }
[[ $cpus =~ ^[0-9]+$ && $packages =~ ^[0-9]+$ && $cpus -ge $packages &&
  $packages -ge 1 && $((cpus % packages)) = 0 ]] ||
  die "--cpus must be a multiple of --packages"
[ $((memory % packages)) = 0 ] || die "--memory must be a multiple of --packages"
command -v qemu-system-x86_64 >/dev/null ||
  die "qemu-system-x86_64 not found (Debian package qemu-system-x86; make deps installs it)"

cache=${OMPEXT_VM_CACHE:-$here/../../.cache/vm}
"$here/guest-image.sh" "$cache" || die "cannot prepare the guest image"
cache=$(cd "$cache" && pwd)

# The control share: the job, the directories to mount, the results.
ctl=$(mktemp -d "${TMPDIR:-/tmp}/ompext-vm.XXXXXX")
trap 'rm -rf "$ctl"' EXIT
# Paths go through the kernel command line and QEMU's option lists.
for path in "$ctl" "$PWD" "${rws[@]}"; do
  [[ $path =~ [[:space:],] ]] && die "paths with spaces or commas are not supported: '$path'"
done
{
  echo '#!/bin/bash'
  export -p
  printf 'cd -- %q || exit 125\n' "$PWD"
  printf 'exec'
  printf ' %q' "$@"
  echo
} >"$ctl/job.sh"
: >"$ctl/mounts"
: >"$ctl/tmp-binds"
# What the job names under /tmp (its working directory, its arguments: a
# checkout or a build there) stays visible, read-only, over the guest's
# fresh /tmp: the whole top-level directory of each.
for path in "$PWD" "$@"; do
  case $path in /tmp/?*) ;; *) continue ;; esac
  rest=${path#/tmp/}
  top=/tmp/${rest%%/*}
  if [ -d "$top" ] && ! grep -qxF -- "$top" "$ctl/tmp-binds"; then
    echo "$top" >>"$ctl/tmp-binds"
  fi
done
shares=()
for i in "${!rws[@]}"; do
  echo "rw$i ${rws[$i]}" >>"$ctl/mounts"
  shares+=(-virtfs "local,path=${rws[$i]},mount_tag=rw$i,security_model=none,multidevs=remap")
done

per=$((cpus / packages)) numa=()
for ((p = 0; p < packages; p++)); do
  numa+=(-object "memory-backend-ram,id=mem$p,size=$((memory / packages))M"
    -numa "node,nodeid=$p,cpus=$((p * per))-$((p * per + per - 1)),memdev=mem$p")
done
log=${console:-$ctl/console.log}
rc=0
timeout -k 10 "$timeout_s" qemu-system-x86_64 \
  -accel tcg,thread=single -cpu max -M pc -m "${memory}M" \
  -smp "$cpus,sockets=$packages,cores=$per,threads=1" "${numa[@]}" \
  -nodefaults -display none -monitor none -no-reboot \
  -serial "file:$log" \
  -kernel "$cache/vmlinux" -initrd "$cache/initramfs.cpio.gz" \
  -append "console=ttyS0 quiet panic=-1 ompext.ctl=$ctl" \
  -virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap" \
  -virtfs "local,path=$ctl,mount_tag=ctl,security_model=none,multidevs=remap" \
  "${shares[@]}" </dev/null >"$ctl/qemu.out" 2>&1 || rc=$?

console_tail() { echo "ompext-vm: the guest's console, last lines:" >&2
  tail -n 30 "$log" | sed 's/^/  | /' >&2; cat "$ctl/qemu.out" >&2; }
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
  [ -f "$ctl/stdout" ] && cat "$ctl/stdout"
  [ -f "$ctl/stderr" ] && cat "$ctl/stderr" >&2
  echo "ompext-vm: stopped the guest after $timeout_s s" >&2
  console_tail
  exit 124
fi
if [ ! -f "$ctl/status" ]; then
  echo "ompext-vm: the guest ended without running the command (qemu exit $rc)" >&2
  console_tail
  exit 125
fi
cat "$ctl/stdout"
cat "$ctl/stderr" >&2
exit "$(cat "$ctl/status")"
