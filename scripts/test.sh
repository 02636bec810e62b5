#!/usr/bin/env bash
# Every test: installs what it needs, builds, runs the Swift tests (including the upload tests
# against a real SeaweedFS S3 server on loopback), then the device tests on real V4L2 drivers (Debian's kernel under qemu with vivid and v4l2loopback, or the host's own modules
# when it has them and VM=0).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
swift build --build-tests
export RECORDER_BIN=$PWD/.build/debug/recorder
echo "== swift test"
swift test
echo "== device tests (real V4L2 drivers)"
if [ "${VM:-1}" = 0 ]; then
  bash Tests/vm/device-tests.sh
else
  Tests/vm/run-in-vm.sh "bash Tests/vm/device-tests.sh"
fi
