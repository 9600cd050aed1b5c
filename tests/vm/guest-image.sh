#!/usr/bin/env bash
# Prepare the guest of tests/vm/ompext-vm.sh in a cache directory: Debian's
# amd64 kernel (downloaded with apt-get, unpacked, never installed), its ELF
# vmlinux (QEMU boots it through its PVH entry, which skips the bzImage's
# decompression, slow under emulation) and a busybox initramfs with the 9p
# modules and tests/vm/guest-init.
#
#   guest-image.sh <cache dir>
#
# Quick when the cache is complete; several callers at once take turns (a
# lock in the cache directory).  Prints nothing on success.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cache=${1:?usage: guest-image.sh <cache dir>}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)
exec 9>"$cache/.lock"
flock 9

# The init script is part of the image: rebuild the initramfs when it changes.
stamp=$(cksum <"$here/guest-init" | cut -d' ' -f1)
if [ -s "$cache/vmlinux" ] && [ -s "$cache/initramfs.cpio.gz" ] &&
  [ "$(cat "$cache/init.stamp" 2>/dev/null)" = "$stamp" ]; then
  exit 0
fi

die() { echo "guest-image: $*" >&2; exit 1; }
command -v busybox >/dev/null || die "busybox not found (Debian package busybox-static; make deps installs it)"
busybox --list | grep -x cpio >/dev/null || die "this busybox has no cpio applet (use busybox-static)"
command -v xz >/dev/null || die "xz not found (Debian package xz-utils)"

# The kernel: the unsigned image behind Debian's linux-image-amd64.
if [ ! -s "$cache/kernel/boot.ok" ]; then
  pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
    sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n 1)
  [ -n "$pkg" ] || die "apt-cache knows no linux-image-amd64 (run apt-get update)"
  rm -rf "$cache/kernel" "$cache/deb"
  mkdir -p "$cache/deb"
  # apt-get download as root warns that the _apt user cannot write here.
  (cd "$cache/deb" && apt-get download -q "$pkg-unsigned" >/dev/null 2>&1) ||
    (cd "$cache/deb" && apt-get download -q "$pkg-unsigned") ||
    die "apt-get download $pkg-unsigned failed (run apt-get update?)"
  dpkg -x "$cache"/deb/*.deb "$cache/kernel"
  rm -rf "$cache/deb"
  echo "$pkg" >"$cache/kernel/boot.ok"
fi
bz=$(ls "$cache"/kernel/boot/vmlinuz-* | head -n 1)
kver=${bz##*/vmlinuz-}
moddir=$cache/kernel/lib/modules/$kver
[ -d "$moddir" ] || die "no modules for $kver in the kernel package"

# vmlinux: the compressed payload of the bzImage, found by its magic bytes.
if [ ! -s "$cache/vmlinux" ]; then
  for magic in '\xfd7zXZ\x00' '\x1f\x8b\x08' '\x28\xb5\x2f\xfd'; do
    case $magic in
      '\xfd7zXZ\x00') unpack=(xz -dc) ;;
      '\x1f\x8b\x08') unpack=(gzip -dc) ;;
      *) unpack=(zstd -dc) ;;
    esac
    command -v "${unpack[0]}" >/dev/null || continue
    for off in $(LC_ALL=C grep -obUaP "$magic" "$bz" | cut -d: -f1); do
      # The payload is followed by other data: the unpacker complains at it.
      tail -c +$((off + 1)) "$bz" | "${unpack[@]}" >"$cache/vmlinux.tmp" 2>/dev/null || true
      if [ "$(head -c 4 "$cache/vmlinux.tmp" | od -An -c | tr -d ' ')" = '177ELF' ]; then
        mv "$cache/vmlinux.tmp" "$cache/vmlinux"
        break 2
      fi
    done
  done
  rm -f "$cache/vmlinux.tmp"
  [ -s "$cache/vmlinux" ] || die "no ELF vmlinux found inside $bz"
fi

# The initramfs: busybox, the init and the modules for the 9p root, in an
# order where each module's dependencies come first (read from the module's
# own "depends=" field: there is no depmod output in the package).
work=$cache/initramfs.d
rm -rf "$work"
mkdir -p "$work"/{bin,dev,proc,sys,newroot,share,modules}
cp "$(command -v busybox)" "$work/bin/busybox"
cp "$here/guest-init" "$work/init"
chmod 755 "$work/init"
order=()
add_module() { # <name>
  local name=$1 f dep
  for done_name in "${order[@]}"; do [ "$done_name" = "$name" ] && return 0; done
  f=$(find "$moddir" -name "$name.ko" -o -name "$name.ko.xz" | head -n 1)
  [ -n "$f" ] || {
    # Built into the kernel: nothing to load.
    grep -q "/$name.ko" "$moddir/modules.builtin" 2>/dev/null && return 0
    die "module $name not in $kver"
  }
  case $f in *.xz) xz -dc "$f" >"$work/modules/$name.ko" ;; *) cp "$f" "$work/modules/$name.ko" ;; esac
  for dep in $(tr '\0' '\n' <"$work/modules/$name.ko" | sed -n 's/^depends=//p' | tr ',' ' '); do
    add_module "${dep//-/_}"
  done
  order+=("$name")
}
for m in virtio_pci 9pnet_virtio 9p; do add_module "$m"; done
printf '%s\n' "${order[@]}" >"$work/modules/order"
(cd "$work" && find . | busybox cpio -o -H newc 2>/dev/null | gzip -1 >"$cache/initramfs.cpio.gz")
rm -rf "$work"
echo "$stamp" >"$cache/init.stamp"
