#!/usr/bin/env bash
# Every test: installs what it needs, builds, runs the Swift tests (including the upload tests
# against a real SeaweedFS S3 server on loopback), then the device tests on real V4L2 drivers (Debian's kernel under qemu with vivid and v4l2loopback, or the host's own modules
# when it has them and VM=0), the kiosk page in headless chromium, and the service under a real
# systemd booted in qemu.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
swift build --build-tests
export RECORDER_BIN=$PWD/.build/debug/recorder
echo "== swift test"
swift test
echo "== systemd unit checks (systemd-analyze)"
bash Tests/systemd/verify-units.sh "$RECORDER_BIN"
echo "== kiosk page in a real browser (chromium + Playwright)"
.cache/venv/bin/python Tests/browser/kiosk_page.py "$RECORDER_BIN"
echo "== device tests (real V4L2 drivers)"
if [ "${VM:-1}" = 0 ]; then
  bash Tests/vm/device-tests.sh
else
  Tests/vm/run-in-vm.sh "bash Tests/vm/device-tests.sh"
fi
echo "== systemd tests (a real systemd booted under qemu)"
Tests/vm/systemd-vm.sh "$RECORDER_BIN"
