#!/usr/bin/env bash
# Boots Debian's own kernel under qemu (software emulation) with vivid and v4l2loopback loaded (and
# mac80211_hwsim's two Wi-Fi radios, with the ciphers WPA2 needs: the booth's own Wi-Fi) and
# runs one command inside it, against this machine's file system (read-only, cached in the guest:
# every exec under emulation would otherwise read its program and ~130 FFmpeg libraries again over
# 9p) with a tmpfs /tmp. recorder ($RECORDER_BIN, else the debug build) is copied into the guest's
# /tmp and named there by $RECORDER_BIN.
# A repository under /tmp (a CI checkout, say) is shared on its own, at the same path.
# Prints the command's output and exits with its exit status.
#   Tests/vm/run-in-vm.sh 'v4l2-ctl --list-devices'
# For the power-cut test (Tests/vm/power-cut.sh):
#   VM_DISK=FILE        a raw disk image, the guest's /dev/vda (cache=writeback: the guest's flushes
#                       reach the host's disk; what the guest has not flushed is lost with qemu)
#   VM_NET=1            a network card (qemu's user network: the host's loopback is 10.0.2.2)
#   VM_CUT_AFTER=SECS   SECS after the guest creates /tmp/vm/armed, qemu is killed with SIGKILL
#                       (the guest gets no chance to flush): a power cut. Exits 0 after a cut.
# Needs: qemu-system-x86 linux-image-amd64 v4l2loopback-dkms busybox-static kmod (scripts/setup.sh test).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cmd=${1:?usage: run-in-vm.sh COMMAND}
case "$repo" in *[[:space:]]*) echo "run-in-vm: the repository path must not contain spaces: $repo" >&2; exit 70 ;; esac
timeout_s=${VM_TIMEOUT:-1800}

die() { echo "run-in-vm: $*" >&2; exit 70; }
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 is missing: run scripts/setup.sh test"
[ -x /bin/busybox ] || die "/bin/busybox (busybox-static) is missing: run scripts/setup.sh test"

. "$here/kernel.sh"
kver=$(vm_kernel_version) || die "no /boot/vmlinuz-* with matching /lib/modules: install linux-image-amd64"
modprobe -S "$kver" --show-depends v4l2loopback >/dev/null 2>&1 ||
  die "v4l2loopback is not built for $kver: install linux-headers-amd64 v4l2loopback-dkms (dkms builds it)"

cache=$repo/.vm
mkdir -p "$cache"
initrd=$cache/initrd-$kver.cpio.gz
if [ ! -f "$initrd" ] || [ "$here/run-in-vm.sh" -nt "$initrd" ] || [ "$here/kernel.sh" -nt "$initrd" ]; then
  root=$(mktemp -d)
  trap 'rm -rf "$root"' EXIT
  mkdir -p "$root"/{bin,proc,sys,dev,host,mods}
  cp /bin/busybox "$root/bin/busybox"
  vm_pack_modules "$root" "$kver" virtio_pci 9pnet_virtio 9p vivid v4l2loopback snd-aloop uinput evdev virtio_blk ext4 virtio_net mac80211_hwsim ccm ctr cmac
  { vm_init_head; cat <<'INIT'; } > "$root/init"
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=524288,cache=loose hostroot /host || echo "vm: cannot mount host root"
mount --bind /dev /host/dev; mount --bind /proc /host/proc; mount --bind /sys /host/sys
mount -t tmpfs -o size=1g tmpfs /host/tmp
repo=$(sed -n 's/.*recorder_repo=\([^ ]*\).*/\1/p' /proc/cmdline)
case "$repo" in
  /tmp/*) mkdir -p "/host$repo"
          mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=524288,cache=loose repo "/host$repo" || echo "vm: cannot mount the repository" ;;
esac
mkdir -p /host/tmp/vm
mount -t 9p -o trans=virtio,version=9p2000.L,msize=524288 work /host/tmp/vm || echo "vm: cannot mount work share"
chroot /host /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp TERM=dumb \
  /bin/bash /tmp/vm/cmd.sh > /host/tmp/vm/output 2>&1
echo $? > /host/tmp/vm/status
sync
poweroff -f
INIT
  chmod +x "$root/init"
  # (two guests may start at once: each writes its own copy, the last rename wins)
  (cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$initrd.tmp.$$"
  mv "$initrd.tmp.$$" "$initrd"
  rm -rf "$root"; trap - EXIT
fi

work=$(mktemp -d "$cache/run.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The guest runs its own copy of recorder from its tmpfs: read over 9p once, not at every start,
# and a rebuild on the host while the guest runs cannot change the binary under it (the host root
# is cached in the guest).
binary=${RECORDER_BIN:-$repo/.build/debug/recorder}
guest_bin=
if [ -x "$binary" ]; then
  cp "$binary" "$work/recorder"
  guest_bin='mkdir -p /tmp/bin && cp /tmp/vm/recorder /tmp/bin/recorder && export RECORDER_BIN=/tmp/bin/recorder || exit 70'
fi
printf 'cd %q || exit 70\n%s\n%s\n' "$PWD" "$guest_bin" "$cmd" > "$work/cmd.sh"
extra=()
[ -n "${VM_DISK:-}" ] && extra+=(-drive "file=$VM_DISK,format=raw,if=virtio,cache=writeback")
[ "${VM_NET:-0}" = 1 ] && extra+=(-nic user,model=virtio-net-pci)
set +e
timeout "$timeout_s" qemu-system-x86_64 -accel tcg -m 2048 -smp 2 -nographic -no-reboot \
  -kernel "/boot/vmlinuz-$kver" -initrd "$initrd" -append "console=ttyS0 panic=-1 quiet recorder_repo=$repo" \
  -virtfs local,path=/,mount_tag=hostroot,security_model=passthrough,readonly=on,multidevs=remap \
  -virtfs "local,path=$repo,mount_tag=repo,security_model=passthrough,readonly=on,multidevs=remap" \
  -virtfs "local,path=$work,mount_tag=work,security_model=passthrough" "${extra[@]}" > "$work/console" 2>&1 &
vm=$!
if [ -n "${VM_CUT_AFTER:-}" ]; then
  # The cut: SIGKILL to qemu itself (timeout's child), never a shutdown the guest could see.
  (
    while [ ! -f "$work/armed" ] && kill -0 "$vm" 2>/dev/null; do sleep 0.1; done
    [ -f "$work/armed" ] || exit 0
    sleep "$VM_CUT_AFTER"
    pkill -KILL -P "$vm" && touch "$work/cut"
  ) &
  cutter=$!
fi
# (bash would print "Killed" and the whole qemu command line after a cut)
wait "$vm" 2> /dev/null
qemu_status=$?
[ -n "${cutter:-}" ] && wait "$cutter"
set -e
[ -f "$work/output" ] && cat "$work/output"
if [ -f "$work/cut" ]; then
  echo "run-in-vm: power cut: qemu killed ${VM_CUT_AFTER} s after the guest was ready for it"
  exit 0
fi
if [ ! -f "$work/status" ]; then
  running=$(grep '^== ' "$work/output" 2>/dev/null | tail -n 1)
  if [ "$qemu_status" = 124 ]; then
    echo "run-in-vm: the guest ran out of its ${timeout_s} s (VM_TIMEOUT) during: ${running:-start-up, before any section}" >&2
  else
    echo "run-in-vm: the guest did not report a status (qemu exit $qemu_status, last section: ${running:-none}); console:" >&2
  fi
  tail -n 40 "$work/console" >&2
  exit 70
fi
exit "$(cat "$work/status")"
