#!/usr/bin/env bash
# Builds (once) the Debian 12 root file system that the systemd tests boot under qemu: systemd as
# PID 1, udev, and the libraries recorder needs at run time, from Debian's own packages with
# debootstrap. Cached under .cache/; rebuilt when this script changes. Prints the root's path.
#   Tests/vm/systemd-root.sh            # build if needed, print the path
# Needs: debootstrap (scripts/setup.sh test), root, and Debian's package mirror.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=$repo/.cache
root=$cache/systemd-root-bookworm
version=$(sha256sum "$here/systemd-root.sh" | cut -c1-16)
die() { echo "systemd-root: $*" >&2; exit 70; }

if [ -f "$root/.recorder-root" ] && [ "$(cat "$root/.recorder-root")" = "$version" ]; then
  echo "$root"; exit 0
fi
[ "$(id -u)" -eq 0 ] || die "debootstrap needs root: run as root (CI does)"
command -v debootstrap >/dev/null || die "debootstrap is missing: run scripts/setup.sh test"
# The same mirror apt uses on this machine, so CI needs no other host.
mirror=${DEBIAN_MIRROR:-$(sed -n 's/^URIs: *\(http[^ ]*\/debian\)\/*$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -n1)}
[ -n "$mirror" ] || mirror=$(sed -n 's/^deb \(http[^ ]*\/debian\)\/* bookworm .*/\1/p' /etc/apt/sources.list 2>/dev/null | head -n1)
mirror=${mirror:-http://deb.debian.org/debian}
pkgs=systemd,systemd-sysv,udev,libnss-systemd,dbus,kmod,procps,curl,ca-certificates,v4l-utils,libv4l-0,libasound2,libcurl4,libavcodec59,libavformat59,libswscale6,libswresample4,libavutil57,libqrencode4,iproute2,python3
mkdir -p "$cache"
rm -rf "$root.tmp"
echo "systemd-root: debootstrap bookworm from $mirror (a few minutes, once)" >&2
debootstrap --variant=minbase --include="$pkgs" bookworm "$root.tmp" "$mirror" > "$cache/debootstrap.log" 2>&1 ||
  { tail -n 30 "$cache/debootstrap.log" >&2; die "debootstrap failed (log: $cache/debootstrap.log)"; }
echo recorder-vm > "$root.tmp/etc/hostname"
# A quiet, quick boot: no login prompts, no waiting for a network that is not there.
ln -sf /dev/null "$root.tmp/etc/systemd/system/getty@.service"
ln -sf /dev/null "$root.tmp/etc/systemd/system/serial-getty@.service"
ln -sf /dev/null "$root.tmp/etc/systemd/system/systemd-networkd-wait-online.service"
rm -rf "$root.tmp/var/cache/apt/archives"/*.deb
echo "$version" > "$root.tmp/.recorder-root"
rm -rf "$root"
mv "$root.tmp" "$root"
echo "$root"
