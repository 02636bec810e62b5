#!/usr/bin/env bash
# Device tests: run INSIDE the qemu guest (Tests/vm/run-in-vm.sh) or on a host that has the vivid
# and v4l2loopback modules loaded (vivid n_devs=1; v4l2loopback video_nr=10 exclusive_caps=1).
# Each check prints PASS/FAIL; the last line is "N passed, M failed".
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=device/lib.sh
source "$HERE/device/lib.sh"
# One file per concern, in order: the disconnect is last (vivid is gone afterwards).
# DEVICE_TESTS="10 65" runs only the files with those numbers (while working on one concern).
for part in "$HERE"/device/[0-9][0-9]-*.sh; do
  if [ -n "${DEVICE_TESTS:-}" ] && ! grep -qw "$(basename "$part" | cut -c1-2)" <<< "$DEVICE_TESTS"; then continue; fi
  # shellcheck disable=SC1090
  source "$part"
done

section ""
rm -rf "$T"
echo "device tests took $SECONDS s"
# The failed checks again, last, where a log cut to its end still shows them.
for check in "${failed_checks[@]}"; do echo "failed: $check" | cut -c1-400; done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
