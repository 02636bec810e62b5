#!/usr/bin/env bash
# Checks systemd/recorder.service (and the Wi-Fi's units, systemd/wifi/) with systemd's own tools:
# - `systemd-analyze verify` must print nothing (it exits 0 even on errors, so its output is the
#   verdict), run against a scratch root holding the unit, the built binary at its ExecStart path
#   and this machine's stock units;
# - `systemd-analyze security` must rate the unit's exposure at most 2.0.
#   Tests/systemd/verify-units.sh RECORDER_BINARY
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
binary=${1:?usage: verify-units.sh RECORDER_BINARY}
command -v systemd-analyze >/dev/null || { echo "FAIL: systemd-analyze is missing (apt-get install systemd)"; exit 1; }
passed=0; failed=0
pass() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/usr/bin" "$root/etc/systemd/system" "$root/usr/lib/systemd"
cp "$binary" "$root/usr/bin/recorder"
cp "$repo/systemd/recorder.service" "$root/etc/systemd/system/"
cp -r /usr/lib/systemd/system "$root/usr/lib/systemd/"
out=$(systemd-analyze verify --man=no --root="$root" recorder.service 2>&1)
if [ -z "$out" ]; then pass "systemd-analyze verify recorder.service prints nothing"; else fail "systemd-analyze verify: $out"; fi

# The booth's own Wi-Fi (systemd/wifi/, docs/venue.md): its two template units, for an interface,
# with the programs they run where the units name them.
mkdir -p "$root/usr/sbin"
for program in hostapd dnsmasq ip; do cp "/usr/sbin/$program" "$root/usr/sbin/"; done
cp "$repo/systemd/wifi/recorder-wifi@.service" "$repo/systemd/wifi/recorder-wifi-dns@.service" "$root/etc/systemd/system/"
out=$(systemd-analyze verify --man=no --root="$root" recorder-wifi@wlan0.service recorder-wifi-dns@wlan0.service 2>&1)
if [ -z "$out" ]; then pass "systemd-analyze verify recorder-wifi@wlan0.service recorder-wifi-dns@wlan0.service prints nothing"; else fail "systemd-analyze verify (Wi-Fi units): $out"; fi

# The share server's unit (recorder serve): verified the same way, and rated the same.
cp "$repo/systemd/recorder-serve.service" "$root/etc/systemd/system/"
out=$(systemd-analyze verify --man=no --root="$root" recorder-serve.service 2>&1)
if [ -z "$out" ]; then pass "systemd-analyze verify recorder-serve.service prints nothing"; else fail "systemd-analyze verify recorder-serve.service: $out"; fi
report=$(systemd-analyze security --offline=true "$repo/systemd/recorder-serve.service" 2>&1)
exposure=$(echo "$report" | sed -n 's/.*Overall exposure level for recorder-serve.service: \([0-9.]*\).*/\1/p')
if [ -n "$exposure" ] && awk -v e="$exposure" 'BEGIN { exit !(e <= 2.0) }'; then
  pass "systemd-analyze security: recorder-serve.service's exposure $exposure (at most 2.0)"
else
  fail "systemd-analyze security: recorder-serve.service's exposure '${exposure:-?}' is over 2.0"; echo "$report" | grep -E "^✗" | head -20
fi
for key in DynamicUser=yes PrivateDevices=yes "DevicePolicy=closed" CacheDirectory= ProtectSystem=strict IPAddressDeny=any \
           "SocketBindAllow=tcp:8090" "SocketBindDeny=any" MemoryMax= "ExecStart=/usr/bin/recorder serve"; do
  if grep -q "^$key" "$repo/systemd/recorder-serve.service"; then pass "recorder-serve.service sets $key"; else fail "recorder-serve.service lacks $key"; fi
done
if grep -q "^DeviceAllow=" "$repo/systemd/recorder-serve.service"; then fail "recorder-serve.service allows a device"; else pass "recorder-serve.service allows no device"; fi

# The check itself must be able to fail: a unit with a misspelt key is reported.
printf '[Service]\nExecStart=/usr/bin/recorder kiosk\nWatchdogSecs=5\n' > "$root/etc/systemd/system/broken.service"
out=$(systemd-analyze verify --man=no --root="$root" broken.service 2>&1)
if echo "$out" | grep -q "Unknown key"; then pass "a misspelt key is caught by the same check"; else fail "verify missed a misspelt key: $out"; fi

report=$(systemd-analyze security --offline=true "$repo/systemd/recorder.service" 2>&1)
exposure=$(echo "$report" | sed -n 's/.*Overall exposure level for recorder.service: \([0-9.]*\).*/\1/p')
if [ -n "$exposure" ] && awk -v e="$exposure" 'BEGIN { exit !(e <= 2.0) }'; then
  pass "systemd-analyze security: exposure $exposure (at most 2.0)"
else
  fail "systemd-analyze security: exposure '${exposure:-?}' is over 2.0"; echo "$report" | grep -E "^✗" | head -20
fi
# (a static user, recorder, whose group the organisers join: what DynamicUser= implied is set by hand)
for key in Type=notify WatchdogSec= User=recorder Group=recorder StateDirectoryMode=2770 CacheDirectoryMode=2770 UMask=0007 \
           ProtectHome=yes PrivateTmp=yes RemoveIPC=yes NoNewPrivileges=yes RestrictSUIDSGID=yes \
           "SupplementaryGroups=video audio recorder-button" "DeviceAllow=char-video4linux rw" \
           "DeviceAllow=char-alsa rw" "DeviceAllow=char-input r" \
           StateDirectory= CacheDirectory= LoadCredential= ProtectSystem=strict Restart=on-failure \
           "RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6 AF_NETLINK" IPAddressDeny=any IPAddressAllow= "SocketBindAllow=tcp:8080" "SocketBindDeny=any" \
           LimitNOFILE= MemoryMax= TasksMax=; do
  if grep -q "^$key" "$repo/systemd/recorder.service"; then pass "recorder.service sets $key"; else fail "recorder.service lacks $key"; fi
done
echo "units: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
