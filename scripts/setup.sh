#!/usr/bin/env bash
# Installs the Debian packages recorder needs. `setup.sh run`: build and run (and package: dpkg-dev,
# binutils); `setup.sh test`: also
# what the tests use (ffmpeg/ffprobe and curl as independent readers, qemu + Debian's kernel +
# vivid/v4l2loopback, debootstrap for the systemd guest, chromium + Playwright + the emoji font for the pages, and
# SeaweedFS from PyPI as the S3 server, nginx for the reverse-proxy test, iproute2 for the network namespace the security test's other machines live in,
# node and Debian's eslint for the pages' scripts, Info-ZIP's unzip to read exported archives, strace to read the order of
# the system calls that make a shot durable; aiosmtpd as the SMTP server the mail tests send to;
# hostapd, dnsmasq-base, wpasupplicant and iw for the booth's own Wi-Fi, tested in the device guest on
# mac80211_hwsim; lintian to judge the Debian package; prometheus (its promtool and its server) for the
# fleet's alert rules, checked, unit-tested and fired against a live kiosk, python3-yaml to read them).
set -euo pipefail
profile=${1:-run}
run_pkgs=(pkg-config libv4l-dev libasound2-dev libavcodec-dev libavformat-dev libswscale-dev libswresample-dev libavutil-dev libavfilter-dev fonts-dejavu-core fonts-symbola libcurl4-openssl-dev libssl-dev libqrencode-dev zlib1g-dev
          dpkg-dev binutils)
test_pkgs=(ffmpeg v4l-utils qemu-system-x86 linux-image-amd64 linux-headers-amd64 v4l2loopback-dkms dkms
           busybox-static kmod xz-utils zstd python3 python3-pip python3-venv curl util-linux
           chromium fonts-noto-color-emoji fontconfig debootstrap systemd time bc alsa-utils zbar-tools
           nginx-light openssl iproute2 nodejs eslint e2fsprogs procps unzip strace python3-aiosmtpd poppler-utils
           hostapd dnsmasq-base wpasupplicant iw lintian prometheus python3-yaml)
pkgs=("${run_pkgs[@]}")
[ "$profile" = test ] && pkgs+=("${test_pkgs[@]}")

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=; [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "setup: installing ${missing[*]}"
  $SUDO apt-get update -q
  # No service a package brings (nginx for the proxy test, prometheus for the alerts' test) is started by installing it: the tests
  # start their own, on loopback, and stop them.
  made_policy=
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d > /dev/null && $SUDO chmod 755 /usr/sbin/policy-rc.d && made_policy=1
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
  [ -z "$made_policy" ] || $SUDO rm -f /usr/sbin/policy-rc.d
fi
if ! command -v swift >/dev/null; then
  echo "setup: swift is not on PATH; install Swift 6.1 or newer (https://swift.org/install) and try again" >&2
  exit 69
fi
if [ "$profile" = test ]; then
  bash "$(dirname "$0")/../Tests/s3/seaweedfs.sh" fetch
  # Playwright for the browser test, pinned, in a venv of the project's (Debian's python is
  # externally managed); it drives Debian's own chromium, so no browser is downloaded.
  venv=$(dirname "$0")/../.cache/venv
  if ! "$venv/bin/python" -c 'import playwright, sys; from importlib.metadata import version; sys.exit(version("playwright") != "1.65.2")' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check playwright==1.65.2
  fi
fi
