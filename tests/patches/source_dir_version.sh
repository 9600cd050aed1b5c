#!/usr/bin/env bash
# OMPEXT_LLVM_SOURCE_DIR: the release is read from the tree, and a release
# omp-ext does not support, or a tree whose release cannot be told, is
# refused at configure time with a message that names it; so is an
# unsupported OMPEXT_LLVM_VERSION.
#
#   source_dir_version.sh <cmake> <omp-ext source dir> <scratch dir>
set -euo pipefail
cmake=$1 src=$2 scratch=$3
rm -rf "$scratch"; mkdir -p "$scratch"; cd "$scratch"
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# fake_tree <dir> <major> <minor> <patch>: just enough of an llvm-project
# tree for the checks (no version file when <major> is empty).
fake_tree() {
  mkdir -p "$1/openmp/runtime/src" "$1/cmake/Modules" "$1/llvm"
  : > "$1/openmp/runtime/src/kmp.h"
  if [ -n "$2" ]; then
    printf 'if(NOT DEFINED LLVM_VERSION_MAJOR)\n  set(LLVM_VERSION_MAJOR %s)\nendif()\nif(NOT DEFINED LLVM_VERSION_MINOR)\n  set(LLVM_VERSION_MINOR %s)\nendif()\nif(NOT DEFINED LLVM_VERSION_PATCH)\n  set(LLVM_VERSION_PATCH %s)\nendif()\n' \
      "$2" "$3" "$4" > "$1/cmake/Modules/LLVMVersion.cmake"
  fi
}

configure() { # tree build-dir
  "$cmake" -S "$src" -B "$2" -G Ninja -DOMPEXT_LLVM_SOURCE_DIR="$PWD/$1" \
    -DOMPEXT_TEST_OTHER_VERSION=OFF >"$2.log" 2>&1
}

fake_tree llvm-17 17 0 6
if configure llvm-17 b17; then
  fail "a tree of LLVM 17.0.6 was accepted"
else
  tr -s ' \n' ' ' < b17.log | grep -q "is LLVM 17.0.6; omp-ext supports 19.1.7, 16.0.6 only" ||
    fail "the refusal of 17.0.6 does not say why: $(tail -20 b17.log)"
fi

fake_tree unknown "" "" ""
if configure unknown bunknown; then
  fail "a tree without a release was accepted"
else
  tr -s ' \n' ' ' < bunknown.log | grep -q "cannot tell which LLVM release this tree is" ||
    fail "the refusal of a tree without a release does not say why: $(tail -20 bunknown.log)"
fi

# A supported release passes the check (the rest of the configure step may
# go on or fail on the made-up tree; only the release matters here), and
# wins over OMPEXT_LLVM_VERSION.
fake_tree llvm-16 16 0 6
configure llvm-16 b16 || true
tr -s ' \n' ' ' < b16.log | grep -q "omp-ext: LLVM 16.0.6 sources (user-provided)" ||
  fail "a tree of LLVM 16.0.6 was not taken as 16.0.6: $(tail -20 b16.log)"

# A release that is not supported, asked for by name: refused before any
# download.
if "$cmake" -S "$src" -B bversion -G Ninja -DOMPEXT_LLVM_VERSION=18.1.8 \
     -DOMPEXT_LLVM_CACHE_DIR="$PWD/no-cache" >bversion.log 2>&1; then
  fail "OMPEXT_LLVM_VERSION=18.1.8 was accepted"
else
  tr -s ' \n' ' ' < bversion.log | grep -q "OMPEXT_LLVM_VERSION=18.1.8 is not supported; choose one of 19.1.7, 16.0.6" ||
    fail "the refusal of OMPEXT_LLVM_VERSION=18.1.8 does not say why: $(tail -20 bversion.log)"
  [ ! -e no-cache ] || fail "OMPEXT_LLVM_VERSION=18.1.8 started a download"
fi

if [ "$failures" -ne 0 ]; then
  echo "source_dir_version: $failures failure(s)" >&2
  exit 1
fi
echo "source_dir_version: release read from the tree, unsupported ones refused: ok"
