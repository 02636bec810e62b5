#!/usr/bin/env bash
# Boots a real systemd under qemu (systemd-boot.sh: Debian's kernel with vivid, the debootstrapped
# Debian 12 root from systemd-root.sh, read-only under a tmpfs overlay so every run starts clean),
# and runs Tests/vm/systemd-guest.sh there as a systemd unit. That script installs recorder's unit and
# binary and checks the service for real (notify, watchdog, stop during a shot, camera unplug).
#   Tests/vm/systemd-vm.sh BINARY
# Prints the guest's report and exits with its status. Artifacts (journal, shots) land in
# .cache/systemd-vm-artifacts/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
binary=$(realpath "${1:?usage: systemd-vm.sh RECORDER_BINARY}")
. "$here/systemd-boot.sh"
swift_root=$(readelf -d "$binary" | sed -n 's/.*RUNPATH.*\[\(\/[^:]*\)\/usr\/lib\/swift\/linux.*/\1/p')

systemd_boot_work
mkdir -p "$work/bin"
cp "$binary" "$work/bin/recorder"
cp "$repo"/systemd/*.* "$work/"
cp "$here/systemd-guest.sh" "$work/guest.sh"
cp "$here/button.py" "$here/guest-checks.sh" "$work/"
systemd_boot systemd-vm "${swift_root:-/opt/swift}"
systemd_boot_probe_videos "$artifacts"
# Posters the guest's kiosk made: JPEGs at most 640 wide.
for poster in "$artifacts"/*.jpg; do
  [ -f "$poster" ] || continue
  picture=$(ffprobe -v error -show_entries stream=codec_name,width -of csv=p=0 "$poster" 2>/dev/null || echo none)
  if [ "${picture%%,*}" = mjpeg ] && [ "${picture##*,}" -le 640 ] 2>/dev/null; then
    echo "PASS: $(basename "$poster") is a JPEG $((${picture##*,})) wide (ffprobe)"; probed=$((probed + 1))
  else
    echo "FAIL: $(basename "$poster") is not a JPEG at most 640 wide (ffprobe: $picture)"
    status=1; bad=$((bad + 1))
  fi
done
# The QR code the kiosk made on the network, read here (chromium renders the SVG, zbarimg reads it:
# neither is in the guest): it must carry the link the guest printed, which is not loopback.
qr=$artifacts/share-qr.svg
want=$(cat "$artifacts/share-link.txt" 2>/dev/null || true)
read_qr=none
if [ -f "$qr" ]; then
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --screenshot="$work/qr.png" --window-size=400,400 "file://$qr" > /dev/null 2>&1
  read_qr=$(zbarimg -q --raw "$work/qr.png" 2>/dev/null || echo unreadable)
fi
if [ -n "$want" ] && [ "$read_qr" = "$want" ] && ! grep -q '//127\.' <<< "$read_qr"; then
  echo "PASS: the QR code of the kiosk on the network reads (zbarimg) as $read_qr, not loopback"; probed=$((probed + 1))
else
  echo "FAIL: the QR code of the kiosk on the network reads as '$read_qr', the guest's link is '${want:-none}'"
  status=1; bad=$((bad + 1))
fi
echo "kept shots: $probed passed, $bad failed"
exit "$status"
