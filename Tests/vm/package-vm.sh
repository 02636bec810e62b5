#!/usr/bin/env bash
# The Debian package (scripts/package.sh), checked on the host and then for real in the systemd
# guest's clean Debian root (systemd-boot.sh), which has no network:
# - on the host, with Debian's tools: lintian reports no error (its warnings are listed), dpkg-deb
#   shows every file in its place and the configuration as conffiles, Depends names the package of
#   every library the binary links (readelf, dpkg -S) and of the FFmpeg libraries it opens, bad
#   input to package.sh is refused with its status; the binary is at most 24 MiB (issue 51) and its
#   kiosk lives through a chunked body over a route's limit (scripts/release-ld's conformances);
# - a local repository of the Debian packages it needs that the root lacks (planned by apt against
#   the root's own dpkg status, apt-get download, dpkg-scanpackages), and "a newer build" (the
#   same binary as VERSION=<version>+1);
# - in the guest, Tests/vm/package-guest.sh: apt-get install, then, before any configuration is
#   edited, the organiser's booth (issue 49): its kiosk forwarded to this machine's loopback, where
#   Tests/vm/package-event.py drives this machine's chromium through the operator page's Event
#   section (name, questions, consent, an uploaded frame, Wi-Fi, a mail server that is this
#   machine's own SMTP server, at 10.0.2.2 for the guest, with a test mail), restarts the booth
#   from the page, and has a guest record, post and get the mail; the guest then checks what
#   `recorder config show` says and that nothing under /etc changed. Then a shot posted, the
#   upgrade with a post queued and a shot under way, remove, reinstall, purge; the videos it kept
#   are read here with ffprobe.
#   Tests/vm/package-vm.sh dist/recorder_<version>_<arch>.deb
# Prints a PASS/FAIL line per check and exits 1 when any failed. Artifacts (apt's and the
# maintainer scripts' output, the journal, videos) land in .cache/package-vm-artifacts/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
deb=$(realpath "${1:?usage: package-vm.sh dist/recorder_VERSION_ARCH.deb}")
cd "$repo"
. "$here/systemd-boot.sh"
passed=0; failed=0
pass() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }
# free_port: a loopback port nothing listens on now.
free_port() {
  python3 -c 'import random, socket
for _ in range(500):
    p = random.randint(23000, 29999)
    with socket.socket() as s:
        try: s.bind(("127.0.0.1", p)); print(p); break
        except OSError: pass'
}
phase_start=$SECONDS
phase() { echo "   (took $((SECONDS - phase_start)) s)"; phase_start=$SECONDS; echo "== $1"; }

systemd_boot_work
host=$work/host
mkdir -p "$host/tree" "$work/dist"
echo "== the package on the host: $(basename "$deb")"
version=$(dpkg-deb -f "$deb" Version)
arch=$(dpkg-deb -f "$deb" Architecture)
check "its version is RecorderVersion's ($version)" \
  grep -q "static let string = \"$version\"" Sources/Settings/RecorderVersion.swift
dpkg-deb -x "$deb" "$host/tree"
dpkg-deb -c "$deb" | awk '{ print $NF }' | sed 's|^\./|/|' > "$host/contents"
for path in /usr/bin/recorder /lib/systemd/system/recorder.service /usr/lib/sysusers.d/recorder.conf \
            /lib/udev/rules.d/60-recorder-camera.rules /lib/udev/rules.d/61-recorder-button.rules \
            /usr/share/man/man1/recorder.1.gz /usr/share/bash-completion/completions/recorder \
            /usr/share/zsh/vendor-completions/_recorder /usr/share/fish/vendor_completions.d/recorder.fish \
            /etc/recorder/recorder.conf /etc/nginx/sites-available/recorder /etc/nginx/conf.d/recorder.conf \
            /etc/nginx/snippets/recorder-share.conf \
            /usr/share/doc/recorder/copyright /usr/share/doc/recorder/changelog.gz \
            /usr/share/recorder/prometheus/recorder-alerts.yml /usr/share/recorder/prometheus/recorder-dashboard.json \
            /usr/share/recorder/prometheus/prometheus-scrape.yml; do
  check "it holds $path" grep -qxF "$path" "$host/contents"
done
# The shipped rules as the package installs them, read by Debian's promtool (the server's own reader).
check "promtool accepts the alert rules the package installs" \
  bash -c 'promtool check rules "$1" > /dev/null' _ "$host/tree/usr/share/recorder/prometheus/recorder-alerts.yml"
dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles > "$host/conffiles"
check "every file under /etc is a conffile ($(wc -l < "$host/conffiles") of them)" \
  diff <(grep '^/etc/.*[^/]$' "$host/contents" | sort) <(sort "$host/conffiles")
# The booth's Wi-Fi: whatever systemd/wifi/ holds, under /etc/recorder/wifi/ (units beside recorder's).
if [ -d systemd/wifi ]; then
  while IFS= read -r -d '' file; do
    rel=${file#systemd/wifi/}
    case "$rel" in
      *.service|*.socket|*.timer|*.path|*.target) want=/lib/systemd/system/${rel##*/} ;;
      *) want=/etc/recorder/wifi/$rel ;;
    esac
    check "systemd/wifi/$rel is $want, the same bytes" cmp -s "$file" "$host/tree$want"
  done < <(find systemd/wifi -type f -print0)
fi
for pair in nginx-recorder.conf:/etc/nginx/sites-available/recorder nginx-recorder-http.conf:/etc/nginx/conf.d/recorder.conf \
            nginx-recorder-share.conf:/etc/nginx/snippets/recorder-share.conf; do
  check "systemd/${pair%%:*} is ${pair#*:}, the same bytes" cmp -s "systemd/${pair%%:*}" "$host/tree${pair#*:}"
done
# Every server a phone reaches includes the one list of share locations, from where the package puts it.
for server in /etc/nginx/sites-available/recorder /etc/recorder/wifi/nginx-wifi.conf /etc/recorder/wifi/nginx-wifi-tls.conf; do
  check "$server includes /etc/nginx/snippets/recorder-share.conf" grep -qx '    include /etc/nginx/snippets/recorder-share.conf;' "$host/tree$server"
done
check "the shipped unit starts /usr/bin/recorder, the binary the package holds" \
  sh -c "grep -qx 'ExecStart=/usr/bin/recorder kiosk' '$host/tree/lib/systemd/system/recorder.service' && [ -x '$host/tree/usr/bin/recorder' ]"
check "the shipped unit is the repository's" cmp -s systemd/recorder.service "$host/tree/lib/systemd/system/recorder.service"
depends=$(dpkg-deb -f "$deb" Depends)
echo "   Depends: $depends"
echo "   Recommends: $(dpkg-deb -f "$deb" Recommends)"
names=$(sed 's/([^)]*)//g; s/[,|]/\n/g' <<< "$depends" | tr -d ' ' | sort -u)
for lib in $(readelf -d "$host/tree/usr/bin/recorder" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
  path=$(ldconfig -p | awk -v s="$lib" '$1 == s && !found { print $NF; found = 1 }')
  # (dpkg knows a file by the path its package ships, /lib or /usr/lib: merged /usr has both)
  owner=$(for p in "$path" "$(realpath "$path")" "/usr${path#/usr}" "${path#/usr}"; do dpkg -S "$p" 2> /dev/null && break; done | awk -F: 'NR == 1 { print $1 }')
  check "Depends names $owner, whose $lib the binary links (readelf, dpkg -S)" grep -qxF "$owner" <<< "$names"
done
# Opened with dlopen (Sources/CFFmpeg/shim.h, cff_soname), and the reel's title font.
for pkg in libavutil57 libavcodec59 libavformat59 libswscale6 libswresample4 libavfilter8 fonts-dejavu-core fonts-symbola; do
  check "Depends names $pkg" grep -qxF "$pkg" <<< "$names"
done
check "Suggests (never Recommends, which apt installs by default) chromium, nginx-light, hostapd and dnsmasq-base" \
  sh -c "[ -z \"\$(dpkg-deb -f '$deb' Recommends)\" ] && for p in chromium nginx-light hostapd dnsmasq-base; do dpkg-deb -f '$deb' Suggests | grep -q \$p || exit 1; done"
check "the binary has no library search path (lintian's custom-library-search-path)" \
  sh -c "! readelf -d '$host/tree/usr/bin/recorder' | grep -qE '\\((RUNPATH|RPATH)\\)'"
lintian_status=0
lintian --tag-display-limit 0 -I "$deb" > "$host/lintian" 2>&1 || lintian_status=$?
check "lintian reports no error (exit $lintian_status; $(grep -c '^E: ' "$host/lintian" || true) errors, $(grep -c '^W: ' "$host/lintian" || true) warnings)" \
  sh -c "[ $lintian_status = 0 ] && ! grep -q '^E: ' '$host/lintian'"
sed 's/^/   lintian: /' "$host/lintian"
cp "$host/lintian" "$work/artifacts/lintian.txt"
# Bad input to package.sh: each refused with its status and no package made.
# refused STATUS WORDS VAR=VALUE...: package.sh with those settings exits STATUS, saying WORDS.
refused() {
  local want=$1 words=$2 rc=0; shift 2
  env "$@" bash scripts/package.sh > /dev/null 2> "$host/refused" || rc=$?
  check "package.sh refuses $* (exit $rc, want $want): $(head -c 160 "$host/refused")" \
    sh -c "[ $rc = $want ] && grep -q '$words' '$host/refused'"
}
refused 64 'not a version' VERSION=1.0-1 RECORDER_BINARY="$host/tree/usr/bin/recorder"
printf 'int main(void) { return 0; }\n' > "$host/rpath.c"
${CC:-cc} -o "$host/with-rpath" "$host/rpath.c" -Wl,-rpath,'$ORIGIN'
refused 65 'library search path' RECORDER_BINARY="$host/with-rpath"
check "Depends asks for the glibc of the binary's packed relocations (GLIBC_ABI_DT_RELR: libc6 >= 2.36)" \
  sh -c "! readelf -V '$host/tree/usr/bin/recorder' | grep -q GLIBC_ABI_DT_RELR || dpkg-deb -f '$deb' Depends | grep -q 'libc6 (>= 2.36)'"
# The binary held at 24 MiB (issue 51): this package's, and one a byte over refused (70).
limit=$((24 * 1024 * 1024))
check "the binary is at most 24 MiB ($(stat -c %s "$host/tree/usr/bin/recorder") bytes of $limit)" \
  test "$(stat -c %s "$host/tree/usr/bin/recorder")" -le "$limit"
cp "$host/tree/usr/bin/recorder" "$host/over-limit"
# (zeros after the end: the ELF file still reads as it did)
[ "$(stat -c %s "$host/over-limit")" -gt "$limit" ] || truncate -s $((limit + 1)) "$host/over-limit"
refused 70 'over the 25165824 (24 MiB)' RECORDER_BINARY="$host/over-limit"
rm -f "$host/over-limit"
# The release binary's kiosk lives through a chunked body over /login's limit. Linked as a static
# library's members and no more (scripts/release-ld without its pass for conformances), the binary
# lacked a conformance only the runtime looks up, and this request killed the kiosk (SIGSEGV).
kiosk_port=$(free_port)
mkdir -p "$host/kiosk-home"; : > "$host/kiosk.conf"
env -u RECORDER_CONFIG HOME="$host/kiosk-home" "$host/tree/usr/bin/recorder" kiosk --config "$host/kiosk.conf" \
  --listen "127.0.0.1:$kiosk_port" > "$host/kiosk.log" 2>&1 &
kiosk_pid=$!
for _ in $(seq 150); do curl -fsS -o /dev/null "http://127.0.0.1:$kiosk_port/healthz" 2> /dev/null && break; sleep 0.2; done
head -c 3000 /dev/zero | tr '\0' a | curl -s -o /dev/null -H 'Transfer-Encoding: chunked' --data-binary @- "http://127.0.0.1:$kiosk_port/login" || true
check "the release binary's kiosk answers /healthz after a chunked body over /login's limit (the conformances only the runtime looks up are linked)" \
  curl -fsS -o /dev/null "http://127.0.0.1:$kiosk_port/healthz"
kill "$kiosk_pid" 2> /dev/null || true
kiosk_status=0; wait "$kiosk_pid" || kiosk_status=$?
check "the release binary's kiosk stops on SIGTERM with 0 (exit $kiosk_status)" test "$kiosk_status" = 0

# What `apt-get install ./recorder_*.deb` brings into a clean Debian 12, planned against the
# systemd guest's root (issue 49: 438 packages, 363 MB, CUPS, avahi and pocketsphinx through
# chromium's Recommends, nginx's default site started on port 80, hostapd.service enabled):
# - as apt does it by default (Recommends too): no service, browser or desktop of recorder's own
#   asking (FFmpeg's libraries still recommend things of theirs: counted, not refused);
# - as the README says (--no-install-recommends): only what the booth needs.
# plan_packages [APT OPTION...]: the packages apt would install, one a line.
plan_packages() {
  apt-get -s -q -o Dir::State::status="$sysroot/var/lib/dpkg/status" -o Debug::NoLocking=1 install "$@" "$deb" 2>&1 |
    sed -n 's/^Inst \([^ ]*\) .*/\1/p' | grep -v '^recorder$' || true
}
# megabytes PACKAGE...: their installed size, as their control files give it. (one apt-cache for
# them all: each call reads apt's whole cache, 8 s on a busy machine: 9 minutes for the two plans)
megabytes() {
  [ $# -gt 0 ] || { echo 0; return; }
  apt-cache show --no-all-versions "$@" 2> /dev/null | sed -n 's/^Installed-Size: //p' |
    awk '{ kb += $1 } END { printf "%.0f", kb / 1024 }'
}
default_plan=$(plan_packages)
unwanted=$(grep -E '^(nginx|hostapd|dnsmasq|chromium|cups|avahi|x11|xserver|pulseaudio|pipewire|libreoffice)' <<< "$default_plan" | paste -sd' ' || true)
echo "   apt-get install (Recommends included): $(wc -w <<< "$default_plan") packages, $(megabytes $default_plan) MB"
check "apt-get install ./$(basename "$deb") as apt does by default brings no service, browser or desktop (${unwanted:-none})" test -z "$unwanted"
lean_plan=$(plan_packages --no-install-recommends)
echo "   apt-get install --no-install-recommends: $(wc -w <<< "$lean_plan") packages, $(megabytes $lean_plan) MB: $(paste -sd' ' <<< "$lean_plan")"
unused=$(grep -E '^(pocketsphinx-|mesa-|libllvm)' <<< "$lean_plan" | paste -sd' ' || true)
check "apt-get install --no-install-recommends (the README's) brings at most 32 packages ($(wc -w <<< "$lean_plan")) and nothing recorder does not use (${unused:-none})" \
  test "$(wc -w <<< "$lean_plan")" -le 32 -a -z "$unused"

phase "a newer build, and a local repository of what the clean root lacks"
newer_version=$version+1
newer=$(VERSION=$newer_version RECORDER_BINARY="$host/tree/usr/bin/recorder" bash scripts/package.sh)
check "package.sh made $(basename "$newer")" test -f "$newer"
check "dpkg orders $newer_version after $version" dpkg --compare-versions "$newer_version" gt "$version"
cp "$deb" "$newer" "$work/dist/"
# What apt would install into the root, planned against the root's own dpkg status with this
# machine's package lists; the .debs are kept in .cache/package-debs across runs.
plan() {
  apt-get -s -q -o Dir::State::status="$sysroot/var/lib/dpkg/status" -o Debug::NoLocking=1 \
    install --no-install-recommends "$deb" 2>&1 | sed -n 's/^Inst \([^ ]*\) \(\[[^]]*\] \)\?(\([^ ]*\) .*/\1=\3/p' | grep -v '^recorder='
}
debs=$cache/package-debs
mkdir -p "$debs" "$work/repo"
fetch_all() {
  local entry
  for entry in $(plan); do
    ls "$debs/${entry%%=*}_"*.deb 2> /dev/null | grep -F "_$(sed 's/:/%3a/' <<< "${entry#*=}")_" > /dev/null && continue
    (cd "$debs" && apt-get download -q "$entry" > /dev/null 2>&1) || return 1
  done
}
if ! fetch_all; then
  echo "   (a package was not downloadable: apt-get update, and plan again)"
  apt-get update -q > /dev/null 2>&1 || true
  fetch_all || true
fi
wanted=$(plan)
missing=0
for entry in $wanted; do
  file=$(ls "$debs/${entry%%=*}_$(sed 's/:/%3a/' <<< "${entry#*=}")_"*.deb 2> /dev/null | awk 'NR == 1')
  if [ -n "$file" ]; then cp "$file" "$work/repo/"; else echo "   not downloaded: $entry"; missing=$((missing + 1)); fi
done
check "the repository holds the $(wc -w <<< "$wanted") packages apt plans for the root (apt-get download)" test "$missing" = 0
(cd "$work/repo" && dpkg-scanpackages --multiversion . /dev/null > Packages 2> /dev/null)
echo "   repository: $(ls "$work/repo" | grep -c '\.deb$') packages, $(du -sh "$work/repo" | cut -f1)"
check "dpkg-scanpackages indexed them" test "$(grep -c '^Package:' "$work/repo/Packages")" = "$(wc -w <<< "$wanted")"
{ echo "OLD=/vm/dist/$(basename "$deb")"; echo "OLD_VERSION=$version"
  echo "NEW=/vm/dist/$(basename "$newer")"; echo "NEW_VERSION=$newer_version"; } > "$work/packages.env"
cp "$here/package-guest.sh" "$work/guest.sh"
cp "$here/guest-checks.sh" "$work/"
# The fleet's Prometheus files as the source has them, for the guest to compare the installed ones with.
rm -rf "$work/prometheus" && cp -r packaging/prometheus "$work/prometheus"

phase "in the systemd guest: install, the organiser's booth from this machine's browser, shoot and post, upgrade with a post queued, remove, reinstall, purge"
rm -f "$newer"
# The kiosk's page reaches this machine's browser through qemu's user network (a forwarded port),
# and the guest's mail reaches this machine's SMTP server at 10.0.2.2.
event_port=$(free_port)
mkdir -p "$work/event"
.cache/venv/bin/python "$here/package-event.py" "$work/event" "$event_port" > "$work/event/host.log" 2>&1 &
event_job=$!
SYSTEMD_BOOT_NET="hostfwd=tcp:127.0.0.1:$event_port-:18080" systemd_boot package-vm
# (the host's side ends once the guest said it is done, or gave up waiting for it)
[ -f "$work/event/done" ] || touch "$work/event/stop"
wait "$event_job" || true
echo "== the organiser's booth, as this machine's browser drove it (Tests/vm/package-event.py):"
sed 's/^/   /' "$work/event/host.log"
cp "$work/event/host.log" "$artifacts/event-host.log" 2>/dev/null || true
cp "$work/event/"*.png "$artifacts/" 2>/dev/null || true
passed=$((passed + $(grep -c '^PASS: ' "$work/event/host.log" || true)))
failed=$((failed + $(grep -c '^FAIL: ' "$work/event/host.log" || true)))
grep -q '^event host: ' "$work/event/host.log" || { echo "FAIL: the host's browser side did not finish"; failed=$((failed + 1)); }
guest=$(sed -n 's/^package: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$work/output")
[ -n "$guest" ] || guest="0 1"
passed=$((passed + ${guest% *})); failed=$((failed + ${guest#* }))
[ "$status" = 0 ] || [ "${guest#* }" != 0 ] || { echo "FAIL: the guest exited $status"; failed=$((failed + 1)); }
systemd_boot_probe_videos "$artifacts"
passed=$((passed + probed)); failed=$((failed + bad))
phase "done"
echo "package (host and guest): $passed passed, $failed failed"
[ "$failed" -eq 0 ]
