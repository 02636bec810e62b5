# Sourced by the VM scripts: picks Debian's kernel and packs its modules into an initramfs tree.

# The newest kernel that has both an image and modules; never a hard-coded version.
vm_kernel_version() {
  local k
  for k in $(ls /lib/modules 2>/dev/null | sort -V -r); do
    if [ -f "/boot/vmlinuz-$k" ]; then echo "$k"; return 0; fi
  done
  return 1
}

# vm_pack_modules ROOT KVER MODULE...: copies each module and its dependencies, in load order,
# decompressed, to ROOT/mods/NN-name.ko and lists them in ROOT/modules.order.
vm_pack_modules() {
  local root=$1 kver=$2 n=0 mod kind path name dest packed=" "
  shift 2
  mkdir -p "$root/mods"
  : > "$root/modules.order"
  for mod in "$@"; do
    while read -r kind path _; do
      [ "$kind" = insmod ] || continue
      name=$(basename "$path"); name=${name%.xz}; name=${name%.zst}
      # A dependency shared by two modules (videodev, snd) is packed and loaded once.
      case "$packed" in *" $name "*) continue ;; esac
      packed="$packed$name "
      n=$((n + 1)); dest="mods/$(printf %02d $n)-$name"
      case "$path" in
        *.xz) xz -dc "$path" > "$root/$dest" ;;
        *.zst) zstd -qdc "$path" > "$root/$dest" ;;
        *) cp "$path" "$root/$dest" ;;
      esac
      echo "/$dest" >> "$root/modules.order"
    done < <(modprobe -S "$kver" --show-depends "$mod")
  done
}

# The start of every guest's /init: busybox, the kernel's file systems, and the packed modules
# loaded in order (vivid as one device; v4l2loopback, when packed, as two loopback nodes; snd-aloop,
# when packed, as the card "Loopback" with two substreams per device, after snd, snd-timer and
# snd-pcm, which --show-depends lists first; mac80211_hwsim, when packed, as two Wi-Fi radios that
# hear each other, after cfg80211 and mac80211). devtmpfs makes /dev/video* and /dev/snd/* alike.
vm_init_head() {
  cat <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
while read -r m; do
  case "$m" in
    *-vivid.ko) insmod "$m" n_devs=1 ;;
    *-v4l2loopback.ko) insmod "$m" devices=2 video_nr=10,11 card_label=recorder-loopback,recorder-loopback-2 exclusive_caps=1,1 ;;
    *-snd-aloop.ko) insmod "$m" id=Loopback pcm_substreams=2 ;;
    *-mac80211_hwsim.ko) insmod "$m" radios=2 ;;
    *) insmod "$m" ;;
  esac || echo "vm: insmod $m failed"
done < /modules.order
INIT
}
