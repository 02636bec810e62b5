#!/usr/bin/env bash
# Every test: installs what it needs, builds, then runs two lines of stages side by side. In a
# qemu guest: the device tests on real V4L2 drivers (Debian's kernel under qemu with vivid and
# v4l2loopback, or the host's own modules when it has them and VM=0). On the host: the Swift tests
# (including the upload tests against a real SeaweedFS S3 server on loopback), the kiosk pages in
# headless chromium, the kiosk on a hostile network and the service under a real systemd booted in
# qemu, and the Debian package installed, upgraded and purged there. After the device tests, on their
# line: power cuts (qemu killed while shooting and posting).
# Prints each stage's time; ends by checking that no process the tests started is still running.
set -euo pipefail
cd "$(dirname "$0")/.."

# Every process the tests start inherits this marker (Tests/leftovers.py finds them by it), so
# none outlives the run: not on success, not on failure, not on Ctrl-C.
export RECORDER_TEST_RUN="run-$$-$(date +%s)"
stop_leftovers() { python3 Tests/leftovers.py "$RECORDER_TEST_RUN" --kill > /dev/null 2>&1 || true; }
# On a failure on the host's side, what the device tests' guest (below) had done by then is shown too.
on_exit() {
  if [ -n "${guests_job:-}" ] && [ -z "${guests_shown:-}" ] && [ -f "$vm_log" ]; then
    echo "== the device tests' guest had got this far when the run ended:"; sed 's/^/[vm] /' "$vm_log" | tail -n 60
  fi
  stop_leftovers
}
trap on_exit EXIT
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
rm -f .cache/systemd-root.status .cache/package.status
{ bash Tests/vm/systemd-root.sh > .cache/systemd-root.out 2>&1; echo $? > .cache/systemd-root.status; } &
systemd_root_job=$!
swift build --build-tests
export RECORDER_BIN=$PWD/.build/debug/recorder
# The Debian package's release build, beside the stages below at the lowest priority (it takes the
# CPU the others leave); the package's stage, at the end of the guests' line, waits for it.
{ nice -n 19 bash scripts/package.sh > .cache/package.path 2> .cache/package.log; echo $? > .cache/package.status; } &
# From here two lines of stages run side by side: the guests' line (the device tests in their qemu
# guest, then the power cuts, qemu killed under a guest shooting and posting, then the Debian
# package installed in the systemd guest) and, on the host,
# everything else (the page and docs checks, swift test, the browser, the hostile network, then
# the systemd tests, which boot a guest of their own). Under software emulation a guest keeps
# about one core busy, so alone the stages left the other idle for long stretches; side by side
# the run is about a third shorter. The host's line runs at a lower priority (nice): the device
# guest's real-time recordings (sound sync, a slow or fast card) come first. The guests' output
# is shown when they end, each line marked "[vm]".
vm_log=.cache/vm-stages.log
vm_times=.cache/vm-stages.times
vm_failed=.cache/vm-stages.failed
# guest_stage NAME COMMAND...: one stage of the guests' line, timed like the host's.
guest_stage() {
  local name=$1 start=$SECONDS status=0; shift
  echo "== $name"
  "$@" || status=$?
  echo "== ($name took $((SECONDS - start)) s)"
  printf '%-44s %4d s\n' "$name" $((SECONDS - start)) >> "$vm_times"
  [ "$status" = 0 ] || echo "$name: exit $status" >> "$vm_failed"
  return $status
}
guests() {
  set -uo pipefail
  local status=0
  # In a session of its own whose scheduling group has nice -10: the kernel's autogroups share the
  # CPU between sessions first, and the host's stages start sessions of their own (SeaweedFS,
  # browsers), where nice 10 alone did not hold (ci22: the sync rig's own clock came out 1.3% off).
  if [ "${VM:-1}" = 0 ]; then set -- bash Tests/vm/device-tests.sh; else set -- Tests/vm/run-in-vm.sh "bash Tests/vm/device-tests.sh"; fi
  guest_stage "device tests (real V4L2 drivers)" \
    setsid -w bash -c 'echo -10 > /proc/self/autogroup 2> /dev/null || true; exec "$@"' first "$@" || status=1
  # The power cuts follow on this line (the host's is the longer one): what they check is what a
  # cut leaves on disk, not timing, so they need no priority.
  # A few cuts per run (the seed is printed: POWER_CUT_SEED replays it); POWER_CUTS=N for more.
  guest_stage "power cuts: qemu killed while shooting and posting, ext4 on a virtual disk, local store and S3" \
    bash Tests/vm/power-cut.sh both "${POWER_CUTS:-2}" || status=1
  # The package's guest last on this line: it was the host's last stage, after the systemd guest,
  # and took the run past its budget (ci21: the host's line reached it at 36 minutes, while this
  # line had been idle since 26).
  guest_stage "the Debian package: lintian; in the systemd guest installed, set up from the operator page, upgraded with a post queued, removed, reinstalled, purged" \
    package_stage || status=1
  return $status
}
# package_stage: waits for the release build and the Debian root (both made beside the build).
package_stage() {
  local waited=0
  while [ ! -s .cache/package.status ] || [ ! -s .cache/systemd-root.status ]; do
    sleep 5; waited=$((waited + 5))
    [ "$waited" -lt 3600 ] || { echo "FAIL: the release build or the Debian root never finished"; return 1; }
  done
  [ "$waited" = 0 ] || echo "   (waited $waited s for the release build and the Debian root)"
  [ "$(cat .cache/systemd-root.status)" = 0 ] || { tail -n 5 .cache/systemd-root.out; echo "FAIL: the Debian root (Tests/vm/systemd-root.sh) failed"; return 1; }
  # (from the release build's table of sizes on, when there is one: a binary over 24 MiB names its module there)
  [ "$(cat .cache/package.status)" = 0 ] || { if grep -q '^binary-size:' .cache/package.log; then sed -n '/^binary-size:/,$p' .cache/package.log; else tail -n 30 .cache/package.log; fi
    echo "FAIL: scripts/package.sh failed (.cache/package.log)"; return 1; }
  Tests/vm/package-vm.sh "$(cat .cache/package.path)"
}
: > "$vm_times"; : > "$vm_failed"
( guests ) > "$vm_log" 2>&1 &
guests_job=$!
show_guests() {
  guests_shown=1
  echo "== the guests' line (device tests, power cuts, the Debian package), as it ran beside the host's stages:"; sed 's/^/[vm] /' "$vm_log"
}

stage "the pages' scripts: syntax, ESLint, no inline script or style, node --test on the page logic"
nice -n 10 bash Tests/pages/check.sh
stage "man page and shell completions are what the command tree generates"
nice -n 10 bash scripts/make-docs.sh --check
stage "the fleet's Prometheus files: promtool checks the rules and runs their unit tests, the dashboard's JSON read"
nice -n 10 bash Tests/prometheus/check.sh
stage "swift test"
# The test binary the build made, run as swift test runs it, in three processes side by side. Swift
# Testing runs a synchronous test on one of Swift concurrency's threads, of which a 2-core machine
# has two, and a thread blocked in a wait is not made up for (two tasks that sleep(6) held back a
# third's 0.2 s sleep until 6.2 s). So the suites that wait synchronously on processes starved the
# async ones (the kiosk's, the state hook's, the camera manager's, the test clock's and change
# signal's, the preflight's, which have time limits: ci6, beside other builds, saw the last three
# starved past their minute) for minutes: those run in a process of their own, the S3 suites (each test a SeaweedFS server and recorder processes) in
# another, and the rest in the third.
s3_suites='S3(Upload|Feed|Streaming|Parallel|Preflight)Tests'
async_suites='KioskServiceTests\.|CameraManagerTests|TestClockTests|ChangeSignalTests|PreflightCheckTests'
run_tests() { NO_COLOR=1 nice -n 10 .build/debug/recorderPackageTests.xctest --testing-library swift-testing "$@"; }
run_tests --filter "$s3_suites" > .cache/s3-tests.log 2>&1 &
s3_tests=$!
run_tests --filter "$async_suites" > .cache/async-tests.log 2>&1 &
async_tests=$!
set +e
run_tests --skip "$s3_suites|$async_suites" 2>&1 | tee .cache/rest-tests.log
rest_status=${PIPESTATUS[0]}
set -e
if wait "$s3_tests"; then s3_status=0; else s3_status=$?; fi
if wait "$async_tests"; then async_status=0; else async_status=$?; fi
echo "== the S3 suites, in their own process beside the rest:"; cat .cache/s3-tests.log
echo "== the kiosk's and the camera manager's (async) suites, in their own process beside the rest:"; cat .cache/async-tests.log
[ "$rest_status" = 0 ] && [ "$s3_status" = 0 ] && [ "$async_status" = 0 ] || {
  # The failed checks again, at the end of the log where a CI summary shows them.
  { grep -h '^✘' .cache/rest-tests.log .cache/s3-tests.log .cache/async-tests.log || true; } | cut -c1-400 | tail -n 20 | sed 's/^/FAIL: /'
  echo "FAIL: swift test: the S3 suites exited $s3_status, the async suites $async_status, the rest $rest_status"; exit 1; }
stage "systemd unit checks (systemd-analyze)"
bash Tests/systemd/verify-units.sh "$RECORDER_BIN"
stage "kiosk pages in a real browser (chromium + Playwright): the operator's with its checks, its Event section and the morning after, and the guest's at three sizes, with its consent screen, its Wi-Fi code, its mail keyboard, out of service, a branding frame and the effects; the host's gallery (recorder serve, 300 posts) at a phone's and a desktop's size"
# (the gallery's page: about a minute, most of it the two Download all zips of 300 clips)
for page in kiosk_page booth_page consent_page login_page reel_page wifi_page mail_page preflight_page away_page frame_page organiser_page effects_page event_page gallery_page; do
  nice -n 10 .cache/venv/bin/python "Tests/browser/$page.py" "$RECORDER_BIN"
done
stage "a fleet of two kiosks on SeaweedFS: recorder fleet, the fleet page in chromium, Debian's prometheus firing and resolving the shipped alerts"
# (about 50 s, most of it waiting on 2 s heartbeats and 1 s evaluations: Tests/prometheus/fleet_live.py)
nice -n 10 .cache/venv/bin/python Tests/prometheus/fleet_live.py "$RECORDER_BIN"
stage "the kiosk on a hostile network: every route bent every way, an HTTP fuzz, the proxy, readers that never read, a crowd, slow bodies"
for check in routes_fuzz proxy_test stalled_readers exhaustion slow_bodies sessions share_lookups; do
  nice -n 10 .cache/venv/bin/python "Tests/security/$check.py" "$RECORDER_BIN"
done
stage "links that outlive the booth: SeaweedFS, two booths, two recorder serve behind the shipped nginx site (a server killed with -9, Download all, 300 phones at once); a share server's request pacing"
# About 80 s on a quiet machine (five posts shot and uploaded, a 9 MB clip of noise, two servers),
# the crowd of 300 phones about 35 s more measured beside a release build (its namespace's 300
# addresses, 300 TLS connections and 1,500 answers through one nginx worker); the pacing about 12 s.
nice -n 10 .cache/venv/bin/python Tests/serve/share_servers.py "$RECORDER_BIN"
nice -n 10 .cache/venv/bin/python Tests/serve/serve_pace.py "$RECORDER_BIN"
stage "systemd tests (a real systemd booted under qemu)"
wait "$systemd_root_job"
[ "$(cat .cache/systemd-root.status 2> /dev/null)" = 0 ] || { echo "the Debian root made during the build failed (trying again):"; tail -n 5 .cache/systemd-root.out; }
Tests/vm/systemd-vm.sh "$RECORDER_BIN"
stage "waiting for the guests' line (beside the host's stages since the build)"
if wait "$guests_job"; then guests_status=0; else guests_status=$?; fi
show_guests
while IFS= read -r line; do times+=("$line  (beside the others)"); done < "$vm_times"
[ "$guests_status" = 0 ] || { grep -E '^(failed: |FAIL: )' "$vm_log" | tail -n 20; sed 's/^/FAIL: /' "$vm_failed"; echo "FAIL: the guests' line failed (its log is above, each line marked [vm])"; exit 1; }

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
