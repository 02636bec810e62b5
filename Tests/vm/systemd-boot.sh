# Sourced by the scripts that boot a real systemd under qemu (systemd-vm.sh: the service's tests;
# package-vm.sh: the Debian package's): Debian's kernel with vivid, the debootstrapped Debian 12
# root from systemd-root.sh (read-only, with a tmpfs overlay so every run starts clean), and a
# oneshot unit that runs the guest script as /vm/guest.sh, then powers off.
#   . Tests/vm/systemd-boot.sh
#   systemd_boot_work            # $work: a fresh folder the guest sees as /vm (artifacts/ in it)
#   cp GUEST_SCRIPT "$work/guest.sh"; cp ... "$work/"
#   systemd_boot NAME [SWIFT_RUNTIME_DIR]   # boots, copies the artifacts to .cache/NAME-artifacts,
#                                           # prints the guest's report; $status: its exit status
#   SYSTEMD_BOOT_NET=hostfwd=tcp:127.0.0.1:PORT-:GUESTPORT systemd_boot ...
#                                           # a network card (qemu's user network: the host's
#                                           # loopback is 10.0.2.2; the guest brings it up itself)
#   systemd_boot_probe_videos DIR            # ffprobe every DIR/*.mp4 (its .min-seconds beside it)
boot_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
boot_repo=$(cd "$boot_here/../.." && pwd)
timeout_s=${VM_TIMEOUT:-1800}
die() { echo "systemd-vm: $*" >&2; exit 70; }
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 is missing: run scripts/setup.sh test"
[ -x /bin/busybox ] || die "/bin/busybox (busybox-static) is missing: run scripts/setup.sh test"
. "$boot_here/kernel.sh"
kver=$(vm_kernel_version) || die "no /boot/vmlinuz-* with matching /lib/modules: install linux-image-amd64"
sysroot=$("$boot_here/systemd-root.sh") || die "cannot build the Debian root (see above)"
cache=$boot_repo/.cache

initrd=$cache/systemd-initrd-$kver.cpio.gz
if [ ! -f "$initrd" ] || [ "$boot_here/systemd-boot.sh" -nt "$initrd" ] || [ "$boot_here/kernel.sh" -nt "$initrd" ]; then
  root=$(mktemp -d)
  trap 'rm -rf "$root"' EXIT
  mkdir -p "$root"/{bin,proc,sys,dev,lower,upper,newroot}
  cp /bin/busybox "$root/bin/busybox"
  vm_pack_modules "$root" "$kver" virtio_pci 9pnet_virtio 9p overlay vivid dummy uinput evdev virtio_net
  { vm_init_head; cat <<'INIT'; } > "$root/init"
opts=trans=virtio,version=9p2000.L,msize=524288
# The read-only shares are cached in the guest (nothing changes them while it runs): every exec
# under emulation would otherwise read its program and libraries again over 9p.
mount -t 9p -o "$opts,ro,cache=loose" sysroot /lower || echo "vm: cannot mount the Debian root"
mount -t tmpfs -o size=1500m tmpfs /upper
mkdir -p /upper/data /upper/work
mount -t overlay overlay -o lowerdir=/lower,upperdir=/upper/data,workdir=/upper/work /newroot || echo "vm: overlay failed"
mkdir -p /newroot/vm /newroot/opt/swift /newroot/usr/local/lib/recorder-vm-modules
mount -t 9p -o "$opts" work /newroot/vm || echo "vm: cannot mount the work share"
mount -t 9p -o "$opts,ro,cache=loose" swift /newroot/opt/swift || echo "vm: no Swift runtime share"
# vivid again, for the test that unloads and reloads it (an unplugged camera coming back).
cp /mods/*-vivid.ko /newroot/usr/local/lib/recorder-vm-modules/vivid.ko
cat > /newroot/etc/systemd/system/vm-test.service <<UNIT
[Unit]
Description=recorder systemd tests
After=multi-user.target systemd-udev-settle.service
[Service]
Type=oneshot
ExecStart=/bin/bash /vm/guest.sh
StandardOutput=file:/vm/output
StandardError=inherit
ExecStopPost=/bin/systemctl --no-block poweroff
TimeoutStartSec=0
UNIT
mkdir -p /newroot/etc/systemd/system/multi-user.target.wants
ln -s /etc/systemd/system/vm-test.service /newroot/etc/systemd/system/multi-user.target.wants/vm-test.service
umount /proc /sys
mount --move /dev /newroot/dev 2>/dev/null || umount /dev
exec switch_root /newroot /sbin/init
INIT
  chmod +x "$root/init"
  (cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$initrd.tmp"
  mv "$initrd.tmp" "$initrd"
  rm -rf "$root"; trap - EXIT
fi

systemd_boot_work() {
  work=$(mktemp -d "$cache/systemd-run.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/artifacts"
}

systemd_boot() {
  local name=$1 swift_root=${2:-/opt/swift} qemu_status running net=(-nic none)
  artifacts=$cache/$name-artifacts
  [ -z "${SYSTEMD_BOOT_NET:-}" ] || net=(-nic "user,model=virtio-net-pci,$SYSTEMD_BOOT_NET")
  set +e
  timeout "$timeout_s" qemu-system-x86_64 -accel tcg -m 3072 -smp 2 -nographic -no-reboot "${net[@]}" \
    -kernel "/boot/vmlinuz-$kver" -initrd "$initrd" \
    -append "console=ttyS0 panic=-1 quiet systemd.show_status=0 systemd.log_level=warning" \
    -virtfs "local,path=$sysroot,mount_tag=sysroot,security_model=passthrough,readonly=on,multidevs=remap" \
    -virtfs "local,path=$swift_root,mount_tag=swift,security_model=passthrough,readonly=on,multidevs=remap" \
    -virtfs "local,path=$work,mount_tag=work,security_model=passthrough" > "$work/console" 2>&1
  qemu_status=$?
  set -e
  rm -rf "$artifacts"
  cp -r "$work/artifacts" "$artifacts"
  cp "$work/console" "$artifacts/console.log"
  [ -f "$work/output" ] && cat "$work/output"
  if [ ! -f "$work/status" ]; then
    running=$(grep '^== ' "$work/output" 2>/dev/null | tail -n 1)
    if [ "$qemu_status" = 124 ]; then
      echo "systemd-vm: the guest ran out of its ${timeout_s} s (VM_TIMEOUT) during: ${running:-boot, before any section}" >&2
    else
      echo "systemd-vm: the guest did not report a status (qemu exit $qemu_status, last section: ${running:-none}); console:" >&2
    fi
    tail -n 40 "$work/console" >&2
    exit 70
  fi
  status=$(cat "$work/status")
  probed=0; bad=0
}

# Shots the guest kept, checked here with ffprobe (an independent reader the guest does not have).
systemd_boot_probe_videos() {
  local video duration name min
  for video in "$1"/*.mp4; do
    [ -f "$video" ] || continue
    duration=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$video" 2>/dev/null || echo none)
    name=$(basename "$video" .mp4)
    min=$(cat "$1/$name.min-seconds" 2>/dev/null || echo 0.5)
    if [ "$duration" != none ] && awk -v d="$duration" -v m="$min" 'BEGIN { exit !(d >= m) }'; then
      echo "PASS: $name.mp4 plays (ffprobe: ${duration} s, at least $min s)"; probed=$((probed + 1))
    else
      echo "FAIL: $name.mp4 does not play or is too short (ffprobe: $duration, wanted at least $min s)"
      status=1; bad=$((bad + 1))
    fi
  done
}
