#!/usr/bin/env bash
# Check (and, when running as root, install) the Debian packages omp-ext needs.
#
# Usage: cmake/install-deps.sh [--check]
#   --check   only report missing packages, never install (exit 1 if any).
#
# Quick when everything is present: a single dpkg-query call.
set -euo pipefail

packages=(
  clang            # project C/C++ compiler and the compiler of both runtimes
  gcc              # GNU OpenMP (libgomp ABI) benchmark/test programs
  cmake
  ninja-build
  make
  xz-utils         # unpacking the LLVM source tarball
  dpkg-dev         # apt-get source needs dpkg-source tooling
  llvm-14-tools    # lit, FileCheck, not for the upstream libomp tests
  clang-19         # compiler of LLVM 19's own libomp tests (tests/upstream)
  libomp-dev       # clang -fopenmp at link time
  libomp-14-dev    # libarcher.so: Archer, the OMPT data-race tool (tests/ompt)
  libhwloc-dev
  hwloc
  libbenchmark-dev
  gnuplot-nox
  python3
  patch
  pkg-config
  spin             # Promela model checker for the flag protocols (tests/spin)
  libclang-rt-14-dev  # clang's libFuzzer and sanitizer runtimes (tests/fuzz)
  openmpi-bin      # mpirun: hybrid MPI+OpenMP ranks (tests/hybrid, make bench)
  libopenmpi-dev   # mpicc and MPI's headers
  gfortran         # Fortran programs on libgomp's entry points (tests/fortran)
  flang-19         # LLVM's Fortran compiler, on libomp's entry points
  qemu-system-x86  # guests of many vCPUs in several packages (tests/vm)
  busybox-static   # the guests' initramfs (tests/vm/guest-image.sh)
)

check_only=0
case "${1:-}" in
  --check) check_only=1 ;;
  -h|--help)
    sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
    exit 0 ;;
  "") ;;
  *) echo "install-deps.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
esac

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "install-deps.sh: dpkg-query not found; omp-ext expects Debian 12 (bookworm)." >&2
  echo "install-deps.sh: install these packages with your package manager: ${packages[*]}" >&2
  exit 1
fi

# One dpkg-query for all packages; unknown packages are reported on stderr
# and simply do not show up as installed.
installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${packages[@]}" 2>/dev/null || true)

missing=()
for p in "${packages[@]}"; do
  if ! grep -qx "$p installed" <<<"$installed"; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

echo "install-deps.sh: missing Debian packages: ${missing[*]}"

if [ "$check_only" -eq 1 ]; then
  exit 1
fi

if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps.sh: not running as root, so nothing was installed. Run:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
echo "install-deps.sh: apt-get update"
if ! apt-get update; then
  echo "install-deps.sh: warning: 'apt-get update' reported errors; trying the install anyway" >&2
fi
echo "install-deps.sh: apt-get install -y --no-install-recommends ${missing[*]}"
if ! apt-get install -y --no-install-recommends "${missing[@]}"; then
  echo "install-deps.sh: error: could not install: ${missing[*]}" >&2
  echo "install-deps.sh: check your apt sources/network, then re-run 'make deps'." >&2
  exit 1
fi
echo "install-deps.sh: all dependencies installed"
