#!/usr/bin/env bash
# Every test: installs what it needs, builds, runs the Swift tests (including the upload tests
# against a real SeaweedFS S3 server on loopback), then the device tests on real V4L2 drivers (Debian's kernel under qemu with vivid and v4l2loopback, or the host's own modules
# when it has them and VM=0), power cuts (qemu killed while shooting and posting), the kiosk page in
# headless chromium, and the service under a real systemd booted in qemu. Prints each stage's time; ends by checking that no process the tests
# started is still running.
set -euo pipefail
cd "$(dirname "$0")/.."

# Every process the tests start inherits this marker (Tests/leftovers.py finds them by it), so
# none outlives the run: not on success, not on failure, not on Ctrl-C.
export RECORDER_TEST_RUN="run-$$-$(date +%s)"
stop_leftovers() { python3 Tests/leftovers.py "$RECORDER_TEST_RUN" --kill > /dev/null 2>&1 || true; }
trap stop_leftovers EXIT
trap 'echo "test.sh: interrupted during ${stage_name:-set-up}; stopping every process the tests started" >&2; stop_leftovers; exit 130' INT TERM

run_start=$SECONDS; stage_name=; stage_start=$SECONDS
times=()
# stage NAME: ends the previous stage (its time is printed and kept for the summary), starts NAME.
stage() {
  if [ -n "$stage_name" ]; then
    times+=("$(printf '%-44s %4d s' "$stage_name" $((SECONDS - stage_start)))")
    echo "== ($stage_name took $((SECONDS - stage_start)) s)"
  fi
  stage_name=$1; stage_start=$SECONDS
  [ -z "$1" ] || echo "== $1"
}

stage "set-up (packages, SeaweedFS, Playwright)"
bash scripts/setup.sh test
stage "build (debug, with tests)"
# Meanwhile the systemd guest's Debian root is made (debootstrap: downloading and unpacking, about
# a minute and a half of the systemd stage otherwise); that stage waits for it, and a failure here is
# tried again and reported there.
mkdir -p .cache
bash Tests/vm/systemd-root.sh > .cache/systemd-root.out 2>&1 &
systemd_root_job=$!
swift build --build-tests
export RECORDER_BIN=$PWD/.build/debug/recorder
stage "the pages' scripts: syntax, ESLint, no inline script or style, node --test on the page logic"
bash Tests/pages/check.sh
stage "man page and shell completions are what the command tree generates"
bash scripts/make-docs.sh --check
stage "swift test"
swift test
stage "systemd unit checks (systemd-analyze)"
bash Tests/systemd/verify-units.sh "$RECORDER_BIN"
stage "kiosk pages in a real browser (chromium + Playwright): the operator's, and the guest's at three sizes, with its consent screen"
.cache/venv/bin/python Tests/browser/kiosk_page.py "$RECORDER_BIN"
.cache/venv/bin/python Tests/browser/booth_page.py "$RECORDER_BIN"
.cache/venv/bin/python Tests/browser/consent_page.py "$RECORDER_BIN"
.cache/venv/bin/python Tests/browser/login_page.py "$RECORDER_BIN"
.cache/venv/bin/python Tests/browser/reel_page.py "$RECORDER_BIN"
stage "the kiosk on a hostile network: every route bent every way, an HTTP fuzz, the proxy, a crowd"
.cache/venv/bin/python Tests/security/routes_fuzz.py "$RECORDER_BIN"
.cache/venv/bin/python Tests/security/proxy_test.py "$RECORDER_BIN"
.cache/venv/bin/python Tests/security/exhaustion.py "$RECORDER_BIN"
stage "device tests (real V4L2 drivers)"
if [ "${VM:-1}" = 0 ]; then
  bash Tests/vm/device-tests.sh
else
  Tests/vm/run-in-vm.sh "bash Tests/vm/device-tests.sh"
fi
stage "power cuts: qemu killed while shooting and posting, ext4 on a virtual disk, local store and S3"
# A few cuts per run (the seed is printed: POWER_CUT_SEED replays it); POWER_CUTS=N for more.
bash Tests/vm/power-cut.sh both "${POWER_CUTS:-2}"
stage "systemd tests (a real systemd booted under qemu)"
wait "$systemd_root_job" || { echo "the Debian root made during the build failed (trying again):"; tail -n 5 .cache/systemd-root.out; }
Tests/vm/systemd-vm.sh "$RECORDER_BIN"

stage "no process the tests started is left running"
# First show that the check can fail: a process left on purpose must be found.
sleep 600 &
decoy=$!
# (leftovers.py exits 1 when it finds anything, the decoy included: its list is what counts here.)
found=$(python3 Tests/leftovers.py "$RECORDER_TEST_RUN" || true)
if grep -q "^$decoy " <<< "$found"; then
  echo "PASS: the check finds a process left running on purpose ($decoy)"
else
  echo "FAIL: the leftover check did not find a process left running on purpose"; kill "$decoy"; exit 1
fi
kill "$decoy"; wait "$decoy" 2>/dev/null || true
# Give a service a few seconds to finish its graceful shutdown before calling it a leftover.
if ! left=$(python3 Tests/leftovers.py "$RECORDER_TEST_RUN" --wait 10); then
  echo "FAIL: processes the tests started are still running (stopped now):"
  echo "$left"
  exit 1
fi
echo "PASS: none"
stage ""
echo "== stage times"
printf '  %s\n' "${times[@]}"
echo "  total $((SECONDS - run_start)) s"
