#!/usr/bin/env bash
# Fetch and unpack the LLVM sources omp-ext builds libomp from.
#
# Usage: cmake/fetch-llvm-source.sh <cache-dir> <release> <deb-package>
#          <deb-version> <tarball> <tarball-sha256> <top-directory>
#   e.g. <cache-dir> 19.1.7 llvm-toolchain-19 1:19.1.7-3~deb12u1
#          llvm-toolchain-19_19.1.7.orig.tar.xz <sha256> llvm-toolchain-19_19.1.7
# cmake/LLVMOpenMPSource.cmake holds the values of each supported release.
#
# Result: <cache-dir>/<top-directory>/{openmp,cmake,llvm/cmake,llvm/utils/lit}
# plus the stamp <cache-dir>/<top-directory>.extracted.
# Does nothing when the stamp exists.
#
# The sources come from the Debian source package <deb-package>
# (apt-get source). If the machine's apt configuration has no deb-src entry
# and we run as root, one is derived from the existing Debian "deb" entries.
# The orig tarball is verified by SHA-256 and kept in <cache-dir>/downloads/;
# putting a copy of <tarball> there beforehand skips the download entirely
# (offline use).
set -euo pipefail

me=fetch-llvm-source.sh
usage="usage: $me <cache-dir> <release> <deb-package> <deb-version> <tarball> <tarball-sha256> <top-directory>"

if [ $# -ne 7 ]; then
  echo "$usage" >&2
  exit 2
fi
for arg in "$@"; do
  if [ -z "$arg" ]; then
    echo "$me: empty argument ($usage)" >&2
    exit 2
  fi
done
RELEASE=$2
DEB_PKG=$3
DEB_VERSION=$4
TARBALL=$5
TARBALL_SHA256=$6
TOPDIR=$7
case "$TARBALL$TOPDIR" in
  */*) echo "$me: <tarball> and <top-directory> are names, not paths" >&2; exit 2 ;;
esac
if ! [[ "$TARBALL_SHA256" =~ ^[0-9a-f]{64}$ ]]; then
  echo "$me: <tarball-sha256> must be 64 lowercase hex digits, got '$TARBALL_SHA256'" >&2
  exit 2
fi
SUBDIRS=(openmp cmake llvm/cmake llvm/utils/lit)
DEBSRC_NAME=ompext-deb-src

APT_DIR=/etc/apt
SOURCES_D=$APT_DIR/sources.list.d

mkdir -p "$1"
cache=$(cd "$1" && pwd)
tree=$cache/$TOPDIR
stamp=$cache/$TOPDIR.extracted
downloads=$cache/downloads
log=$cache/fetch.log

# Serialise concurrent configure runs sharing one cache.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$cache/.lock"
  flock 9
fi

if [ -f "$stamp" ] && [ -f "$tree/openmp/runtime/src/kmp.h" ]; then
  exit 0
fi

tried=()
tmp=""
cleanup() { [ -n "$tmp" ] && rm -rf "$tmp"; return 0; }
trap cleanup EXIT

fail() {
  {
    echo
    echo "==================================================================="
    echo "omp-ext: could not obtain the LLVM $RELEASE OpenMP sources."
    echo "  problem: $1"
    if [ "${#tried[@]}" -gt 0 ]; then
      echo "  what was tried:"
      local t
      for t in "${tried[@]}"; do echo "    - $t"; done
    fi
    [ -s "$log" ] && echo "  apt/tar output: $log"
    echo "  what to do (any one of):"
    echo "    - run the configure step as root (e.g. 'sudo make build') so a"
    echo "      deb-src entry can be added and 'apt-get source' can run;"
    echo "    - add a deb-src entry for Debian 12 yourself and run 'apt-get update';"
    echo "    - put $TARBALL (sha256 $TARBALL_SHA256)"
    echo "      into $downloads/ and re-run;"
    echo "    - configure with -DOMPEXT_LLVM_SOURCE_DIR=/path/to/llvm-project-$RELEASE"
    echo "      (a checkout or release tarball of llvm-project $RELEASE)."
    echo "==================================================================="
  } >&2
  exit 1
}

is_root() { [ "$(id -u)" -eq 0 ]; }

have_deb_src() {
  local f
  for f in "$APT_DIR/sources.list" "$SOURCES_D"/*.list; do
    [ -f "$f" ] || continue
    grep -Eq '^[[:space:]]*deb-src[[:space:]]' "$f" && return 0
  done
  for f in "$SOURCES_D"/*.sources; do
    [ -f "$f" ] || continue
    grep -Eiq '^[[:space:]]*Types:.*(^|[[:space:]])deb-src([[:space:]]|$)' "$f" && return 0
  done
  return 1
}

# Derive deb-src entries from the machine's own Debian apt entries.
add_deb_src() {
  local src
  if [ -f "$SOURCES_D/debian.sources" ]; then
    src=$SOURCES_D/debian.sources
    sed -E 's/^([[:space:]]*)Types:.*$/\1Types: deb-src/I' "$src" \
      > "$SOURCES_D/$DEBSRC_NAME.sources"
    tried+=("created $SOURCES_D/$DEBSRC_NAME.sources from $src (Types: deb -> deb-src)")
    return 0
  fi
  if [ -f "$APT_DIR/sources.list" ] && grep -Eq '^[[:space:]]*deb[[:space:]]' "$APT_DIR/sources.list"; then
    src=$APT_DIR/sources.list
    { echo "# deb-src entries derived from $src by omp-ext"
      grep -E '^[[:space:]]*deb[[:space:]]' "$src" | sed -E 's/^([[:space:]]*)deb([[:space:]])/\1deb-src\2/'
    } > "$SOURCES_D/$DEBSRC_NAME.list"
    tried+=("created $SOURCES_D/$DEBSRC_NAME.list from the 'deb' lines of $src")
    return 0
  fi
  return 1
}

apt_update() {
  tried+=("apt-get update")
  echo "$me: apt-get update" >&2
  # Errors from unrelated third-party repositories must not stop us; the
  # following 'apt-get source' decides.
  DEBIAN_FRONTEND=noninteractive apt-get update >>"$log" 2>&1 || \
    echo "$me: warning: 'apt-get update' reported errors (see $log)" >&2
}

# apt-get source into $tmp/dl; argument: package spec.
apt_source() {
  tried+=("apt-get source --download-only $1 (in a temporary directory)")
  echo "$me: apt-get source --download-only $1" >&2
  rm -rf "$tmp/dl"
  mkdir -p "$tmp/dl"
  chmod 755 "$tmp" "$tmp/dl"
  (cd "$tmp/dl" && apt-get source --download-only "$1") >>"$log" 2>&1 && \
    [ -f "$tmp/dl/$TARBALL" ]
}

sha_ok() { echo "$TARBALL_SHA256  $1" | sha256sum --check --status 2>/dev/null; }

mkdir -p "$downloads"
: > "$log"
tmp=$(mktemp -d "$cache/tmp.XXXXXX")

# 1. The orig tarball: reuse a verified copy, otherwise apt-get source.
if [ -f "$downloads/$TARBALL" ] && sha_ok "$downloads/$TARBALL"; then
  echo "$me: using cached $downloads/$TARBALL" >&2
else
  if [ -f "$downloads/$TARBALL" ]; then
    echo "$me: $downloads/$TARBALL has the wrong checksum; downloading again" >&2
    rm -f "$downloads/$TARBALL"
  fi
  command -v apt-get >/dev/null 2>&1 || fail "apt-get not found (omp-ext expects Debian 12)"

  updated=0
  if ! have_deb_src; then
    if is_root; then
      add_deb_src || fail "no deb-src entry in the apt configuration, and neither $SOURCES_D/debian.sources nor 'deb' lines in $APT_DIR/sources.list to derive one from"
      apt_update
      updated=1
    else
      tried+=("looked for deb-src entries in $APT_DIR/sources.list and $SOURCES_D: none")
      fail "apt has no deb-src entries and adding one needs root (not running as root)"
    fi
  fi

  got=0
  if apt_source "$DEB_PKG=$DEB_VERSION"; then
    got=1
  elif [ "$updated" -eq 0 ] && is_root; then
    apt_update
    apt_source "$DEB_PKG=$DEB_VERSION" && got=1
  fi
  if [ "$got" -eq 0 ]; then
    # Another Debian revision of the package ships the same upstream
    # tarball; the checksum below makes sure it is the identical file.
    apt_source "$DEB_PKG" && got=1
  fi
  [ "$got" -eq 1 ] || fail "'apt-get source' could not download $DEB_PKG $DEB_VERSION (is the source index there? non-root users need an existing deb-src entry and an up-to-date 'apt-get update')"

  tried+=("verified sha256 of $TARBALL")
  sha_ok "$tmp/dl/$TARBALL" || fail "$TARBALL downloaded by apt-get has an unexpected sha256 (expected $TARBALL_SHA256)"
  mv -f "$tmp/dl/$TARBALL" "$downloads/$TARBALL"
  rm -rf "$tmp/dl"
fi

# 2. Unpack only what the standalone runtime build needs.
patterns=()
for d in "${SUBDIRS[@]}"; do patterns+=("$TOPDIR/$d/*"); done
echo "$me: extracting ${SUBDIRS[*]} from $TARBALL" >&2
tried+=("tar -xJf $downloads/$TARBALL ${SUBDIRS[*]}")
tar -xJf "$downloads/$TARBALL" -C "$tmp" --wildcards "${patterns[@]}" >>"$log" 2>&1 \
  || fail "extracting $downloads/$TARBALL failed (disk full? corrupt file? delete it and re-run)"
[ -f "$tmp/$TOPDIR/openmp/runtime/src/kmp.h" ] || fail "the tarball does not contain $TOPDIR/openmp/runtime/src/kmp.h"

rm -rf "$tree" "$stamp"
mv "$tmp/$TOPDIR" "$tree"
printf '%s\n' "$DEB_PKG $DEB_VERSION" "$TARBALL $TARBALL_SHA256" "${SUBDIRS[*]}" > "$stamp"
rm -f "$log"
echo "$me: LLVM sources ready in $tree" >&2
