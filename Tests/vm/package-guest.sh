#!/bin/bash
# Runs inside the systemd guest (Tests/vm/package-vm.sh boots it; see systemd-boot.sh), as a oneshot
# unit, in the clean Debian root with no network: installs recorder's Debian package with apt from
# a local repository of the Debian packages it needs (/vm/repo), then takes and posts a shot from
# vivid through the API, upgrades to a newer build with a post queued (the local store made
# unwritable) and a shot under way, removes and reinstalls it, and purges it, checking at each step
# what the organiser keeps; between, the organiser's commands (as root, and as a member of the group
# recorder) find the service's posts, outbox and tokens with no option. /vm/packages.env names the
# two packages. Writes its exit status to /vm/status; videos for the host to check go to /vm/artifacts.
set -uo pipefail
exec 2>&1 3>&1
GUEST_NAME=package
. /vm/guest-checks.sh
. /vm/packages.env
export DEBIAN_FRONTEND=noninteractive
state_dir=/var/lib/recorder
store=$state_dir/store
etc=/etc/recorder
status_of() { api http://127.0.0.1:8080/api/status | json_of "$1" 2>/dev/null; }
depth_is() { api http://127.0.0.1:8080/api/status | grep -q "\"depth\":$1[,}]"; }
installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
# store_writable yes|no: the local store as a disk that is there or not (the service's own user
# owns it; without the write bits an upload fails as a dead store would, and is retried).
store_writable() {
  if [ "$1" = yes ]; then find "$state_dir/store" -type d -exec chmod ug+w {} +; else find "$state_dir/store" -type d -exec chmod a-w {} +; fi
}
# timed COMMAND...: runs it and says how long it took (apt under emulation is most of this test's time).
# (to the report's descriptor 3, whatever the command's output is redirected to)
timed() { local start=$SECONDS rc=0; "$@" || rc=$?; echo "   ($1 ${2:-} ${3:-}: $((SECONDS - start)) s)" >&3; return $rc; }
# stamp: each line of standard input after the guest's seconds, so a slow step shows in apt's log.
stamp() { while IFS= read -r line; do echo "[$SECONDS] $line"; done; }
# shoot SECONDS: a shot through the API; waits until it is recording.
shoot() {
  json_post /api/shoot "{\"seconds\": $1, \"countdown\": 0}" > /dev/null
  wait_for 60 state_is recording
}
current_shot() { status_of 's["currentShot"]["id"]'; }
digest() { sha256sum "$@" | cut -c1-64; }
# delivered ID: the post's video and metadata are in the store, and the video is the one the
# metadata's SHA-256 names.
delivered() {
  [ -f "$store/posts/$1.json" ] && [ -f "$store/videos/$1.mp4" ] &&
    [ "$(json_of 's["sha256"]' < "$store/posts/$1.json" 2>/dev/null)" = "$(digest "$store/videos/$1.mp4")" ]
}

echo "== systemd $(systemctl --version | head -n1 | cut -d' ' -f2), kernel $(uname -r), apt $(apt-get --version | head -n1 | cut -d' ' -f2)"
wait_for 60 test -e /dev/video0 || { fail "vivid made /dev/video0"; finish; }

section "install: apt-get install ./$(basename "$OLD") from a local repository, no network"
check "before: the root lacks libavfilter8, which only recorder's Depends brings" sh -c '! dpkg-query -W -f="\${Status}" libavfilter8 2>/dev/null | grep -q "ok installed"'
rm -f /etc/apt/sources.list.d/*
echo 'deb [trusted=yes] file:/vm/repo ./' > /etc/apt/sources.list
timed apt-get update -q > /vm/artifacts/apt-update.log 2>&1
check "apt-get update reads the local repository ($(grep -c '^Package:' /vm/repo/Packages) packages)" grep -q 'file:/vm/repo' /vm/artifacts/apt-update.log
# What an earlier version (its DynamicUser=) left: the state directory under /var/lib/private,
# root's alone, a dynamic user's files 0600 in 0700 folders, /var/lib/recorder a link to it.
install -d -m 700 /var/lib/private
install -d -o 61234 -g 61234 -m 700 /var/lib/private/recorder /var/lib/private/recorder/outbox /var/lib/private/recorder/outbox/sent
printf '{"id": "EARLIERxx1"}\n' > /var/lib/private/recorder/outbox/sent/EARLIERxx1.json
chown 61234:61234 /var/lib/private/recorder/outbox/sent/EARLIERxx1.json && chmod 600 /var/lib/private/recorder/outbox/sent/EARLIERxx1.json
ln -s private/recorder /var/lib/recorder
cp "$OLD" /tmp/ && old_deb=/tmp/$(basename "$OLD")
timed apt-get install -y -q --no-install-recommends "$old_deb" 2>&1 | stamp > /vm/artifacts/install.log
rc=$?
check "apt-get install ./$(basename "$OLD") succeeds (exit $rc)" test $rc -eq 0
[ $rc -eq 0 ] || { tail -n 30 /vm/artifacts/install.log; finish; }
check "dpkg has recorder $OLD_VERSION installed" sh -c "[ \"\$(dpkg-query -W -f='\${Version}' recorder)\" = '$OLD_VERSION' ]"
check "Depends brought libavfilter8, fonts-dejavu-core and fonts-symbola" sh -c 'for p in libavfilter8 fonts-dejavu-core fonts-symbola libavcodec59 libqrencode4; do [ "$(dpkg-query -W -f="\${Status}" $p)" = "install ok installed" ] || exit 1; done'
for path in /usr/bin/recorder /lib/systemd/system/recorder.service /usr/lib/sysusers.d/recorder.conf \
            /lib/udev/rules.d/60-recorder-camera.rules /lib/udev/rules.d/61-recorder-button.rules \
            /usr/share/man/man1/recorder.1.gz /usr/share/bash-completion/completions/recorder \
            /etc/recorder/recorder.conf /etc/nginx/sites-available/recorder /etc/nginx/conf.d/recorder.conf \
            /etc/nginx/snippets/recorder-share.conf; do
  check "the package installed $path" test -f "$path"
done
# The fleet's Prometheus files where the package puts them (rule_files: in Prometheus' own
# configuration names them there): the shipped set, each packaging/prometheus/'s bytes (package-vm.sh
# hands those in /vm/prometheus), dpkg's; Debian's promtool reads the installed rules when this root
# has it (Tests/prometheus/check.sh runs it on the same bytes in CI).
prom=/usr/share/recorder/prometheus
check "the shipped set has the alert rules and the dashboard ($(ls /vm/prometheus | paste -sd' '))" \
  test -f /vm/prometheus/recorder-alerts.yml -a -f /vm/prometheus/recorder-dashboard.json
check "$prom holds the shipped set and nothing else" diff <(ls /vm/prometheus) <(ls "$prom")
for file in /vm/prometheus/*; do
  check "$prom/${file##*/} is packaging/prometheus/${file##*/}'s bytes, and dpkg's" \
    sh -c "cmp -s '$file' '$prom/${file##*/}' && [ \"\$(dpkg -S '$prom/${file##*/}' | cut -d: -f1)\" = recorder ]"
done
if command -v promtool > /dev/null; then
  check "promtool accepts the installed alert rules" sh -c "promtool check rules '$prom/recorder-alerts.yml' > /dev/null"
else
  echo "   (no promtool in this root: the installed rules are checked as packaging/prometheus/'s bytes)"
fi
check "recorder --version says $OLD_VERSION's source version" sh -c "recorder --version | grep -q '^recorder ${OLD_VERSION%%+*}'"
check "the configuration and the nginx server are conffiles" sh -c \
  "dpkg-query -W -f='\${Conffiles}' recorder | grep -q ' /etc/recorder/recorder.conf ' && dpkg-query -W -f='\${Conffiles}' recorder | grep -q ' /etc/nginx/sites-available/recorder '"
for token in kiosk-token kiosk-booth-token; do
  check "postinst made $etc/$token: root's, the group recorder's to read (mode 640), 43 URL-safe characters (32 random bytes)" sh -c \
    "[ \"\$(stat -c '%U:%G %a' $etc/$token)\" = 'root:recorder 640' ] && grep -qxE '[A-Za-z0-9_-]{43}' $etc/$token"
done
check "... and the two tokens differ" sh -c "! cmp -s $etc/kiosk-token $etc/kiosk-booth-token"
for secret in s3-credentials mail-credentials serve-token; do
  check "postinst made an empty $etc/$secret, root:recorder 640, for the unit's LoadCredential= and the commands" sh -c \
    "[ \"\$(stat -c '%s %U:%G %a' $etc/$secret)\" = '0 root:recorder 640' ]"
done
check "postinst says how to log in: /login on the booth's screen with the booth's token, /admin with the operator's" sh -c \
  "grep -q 'http://127.0.0.1:8080/login' /vm/artifacts/install.log && grep -q 'kiosk-booth-token' /vm/artifacts/install.log && grep -q 'http://127.0.0.1:8080/admin' /vm/artifacts/install.log"
check "... and never prints a token" sh -c "! grep -qF \"\$(cat $etc/kiosk-token)\" /vm/artifacts/install.log && ! grep -qF \"\$(cat $etc/kiosk-booth-token)\" /vm/artifacts/install.log"
grep -A 6 'recorder: the kiosk runs' /vm/artifacts/install.log | sed 's/^/   | /'
check "systemd-sysusers made the service's user and group recorder and the button's group (recorder-button)" sh -c \
  'getent passwd recorder > /dev/null && getent group recorder > /dev/null && getent group recorder-button > /dev/null'
check "udev's rules took effect: vivid is /dev/recorder-camera, tagged for systemd" sh -c \
  'test -e /dev/recorder-camera && systemctl is-active "dev-recorder\\x2dcamera.device" > /dev/null'
check "the service is enabled and running (postinst started it)" sh -c 'systemctl is-enabled recorder > /dev/null && [ "$(systemctl show -p ActiveState --value recorder)" = active ]'
check "nothing else was started: no web server on port 80, no nginx, hostapd or dnsmasq unit" sh -c \
  '! ss -ltnH | grep -qE ":80 " && ! systemctl list-units --all --no-legend "nginx*" "hostapd*" "dnsmasq*" | grep -q .'
check "it runs /usr/bin/recorder as the system user recorder" sh -c \
  "[ \"\$(readlink /proc/\$(systemctl show -p MainPID --value recorder)/exe)\" = /usr/bin/recorder ] && [ \"\$(ps -o user= -p \$(systemctl show -p MainPID --value recorder))\" = recorder ]"
check "its state directory is /var/lib/recorder, the group's to share (recorder:recorder, mode 2770)" sh -c \
  "[ \"\$(stat -c '%U:%G %a' $state_dir)\" = 'recorder:recorder 2770' ] && [ ! -L $state_dir ]"
check "an earlier version's dynamic user's files were moved out of /var/lib/private, the service's, shared with the group" sh -c \
  "[ \"\$(stat -c '%U:%G %a' $state_dir/outbox/sent/EARLIERxx1.json)\" = 'recorder:recorder 660' ] && [ \"\$(stat -c '%U:%G %a' $state_dir/outbox/sent)\" = 'recorder:recorder 2770' ] && [ ! -e /var/lib/private/recorder ]"

section "the organiser's booth from the fresh install: the operator page in the host's browser (issue 49)"
# Nothing configured yet: the package's recorder.conf as it was installed. The page is forwarded
# to the host (qemu's user network: this side's port 18080, by systemd's own socket proxy, to the
# kiosk's loopback address), whose browser drives it (Tests/vm/package-event.py); the host's SMTP
# server is 10.0.2.2 from here.
check "recorder.conf is the package's, as installed" sh -c "dpkg-query -W -f='\${Conffiles}' recorder | grep ' /etc/recorder/recorder.conf ' | grep -q \"\$(md5sum < $etc/recorder.conf | cut -d' ' -f1)\""
# (the card qemu gives: the interface with a device behind it, not lo or the dummy module's)
nic=$(for n in /sys/class/net/*; do [ -e "$n/device" ] && basename "$n"; done | head -n 1)
ip link set "$nic" up && ip addr add 10.0.2.15/24 dev "$nic" && ip route add default via 10.0.2.2
systemd-run --unit recorder-forward --quiet /usr/bin/systemd-socket-activate -l 0.0.0.0:18080 /lib/systemd/systemd-socket-proxyd 127.0.0.1:8080
touch /tmp/before-the-organiser
ip -br addr | sed 's/^/   | /'
forwarded() { [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 20 "http://10.0.2.15:18080/healthz")" = 200 ]; }
check "the kiosk answers through the forward on the guest's network address ($nic, 10.0.2.15:18080)" wait_for 30 forwarded
event_pid=$(prop MainPID)
mkdir -p /vm/event
cp $etc/kiosk-token /vm/event/operator-token && cp $etc/kiosk-booth-token /vm/event/booth-token
echo ready > /vm/event/ready
check "the host's browser set the booth up and a guest got their mail (its checks are the host's)" wait_for 1500 test -f /vm/event/done
rm -f /vm/event/operator-token /vm/event/booth-token
layer=$state_dir/kiosk/operator-settings.json
check "the operator page saved its settings in the kiosk's state directory ($layer)" test -f "$layer"
shown=$(recorder config show --json 2> /vm/artifacts/config-show.err)
echo "$shown" > /vm/artifacts/config-show.json
for key in $(cat /vm/event/keys 2> /dev/null); do
  origin=$(echo "$shown" | json_of "s['$key']['origin']" 2> /dev/null)
  check "recorder config show (root, no option) names the operator page as $key's origin ($origin)" sh -c "echo '$origin' | grep -q '^operator page, '"
done
check "... for the page's every key (the host's list: $(wc -l < /vm/event/keys 2> /dev/null || echo 0))" test "$(wc -l < /vm/event/keys 2> /dev/null || echo 0)" -ge 10
check "recorder config check (root, no option) judges the booth's settings ok, as the kiosk did" sh -c 'recorder config check | grep -qx ok'
in_place() {
  [ "$(prop MainPID)" = "$event_pid" ] && [ "$(prop NRestarts)" = 0 ] && [ "$(prop ActiveState)" = active ] &&
    journalctl -u recorder --no-pager | grep -q "restarting to take the operator page's settings"
}
check "the kiosk restarted in place: the same process under systemd (MainPID $event_pid), no restart by systemd, active" in_place
changed=$(find /etc -newer /tmp/before-the-organiser 2> /dev/null | head -n 20)
check "nothing was written under /etc meanwhile${changed:+: $changed}" test -z "$changed"
systemctl stop recorder-forward
# Back to the fresh install's settings for the rest: the organiser's layer goes (the page's own reset).
rm -rf "$layer" "$state_dir/kiosk/operator"
systemctl restart recorder

section "log in with the package's tokens, take and post a shot from vivid"
# The admin's own settings (the conffile edited, which the upgrade must keep): smaller shots, for
# the emulated CPU, and short retries.
printf 'shoot.size = 640x360\nshoot.fps = 15\nretry.max_seconds = 3\n' >> $etc/recorder.conf
systemctl restart recorder
login_role() { curl -s --max-time 20 -X POST -H 'Content-Type: application/json' -d "{\"token\": \"$(cat "$1")\"}" http://127.0.0.1:8080/login | json_of 's["role"]' 2>/dev/null; }
check "without a token the API says 401" sh -c '[ "$(curl -s -o /dev/null -w "%{http_code}" http://127.0.0.1:8080/api/status)" = 401 ]'
check "/login with the booth's token logs in as the booth" test "$(login_role $etc/kiosk-booth-token)" = booth
check "/login with the operator's token logs in as the operator" test "$(login_role $etc/kiosk-token)" = operator
API_TOKEN=$(cat $etc/kiosk-token)
shoot 2
check "a 2 s shot records from vivid and ends" wait_for 90 state_is idle
first_shot=$(current_shot)
check "it is the current shot ($first_shot)" test -n "$first_shot"
first_post=$(json_post /api/post "{\"id\": \"$first_shot\", \"caption\": \"from the package\"}" | json_of 's["id"]' 2>/dev/null)
check "POST /api/post queues it ($first_post)" test -n "$first_post"
check "the drain delivers it to the local store (video matches its metadata's SHA-256)" wait_for 90 delivered "$first_post"
cp "$store/videos/$first_post.mp4" /vm/artifacts/first-post.mp4 2>/dev/null && echo 1.5 > /vm/artifacts/first-post.min-seconds

section "the highlight reel: libavfilter and the title card's font, from Depends, under the unit"
json_post /api/admin/reel '{"since": "2000-01-01"}' > /dev/null
reel_state() { status_of_reel=$(api http://127.0.0.1:8080/api/admin/reel | json_of 's["state"]' 2>/dev/null); [ "$status_of_reel" = done ] || [ "$status_of_reel" = failed ]; }
wait_for 600 reel_state
check "the kiosk made the reel (state ${status_of_reel:-none}; $(api http://127.0.0.1:8080/api/admin/reel | json_of 's.get("error") or ""' 2>/dev/null))" test "$status_of_reel" = done
api -o /vm/artifacts/reel.mp4 http://127.0.0.1:8080/api/admin/reel.mp4 && echo 2.5 > /vm/artifacts/reel.min-seconds

section "the organiser's commands find the service's data: as root, with no option"
# (issue 49: they looked in root's ~/.local: \`recorder export\` exported 0 posts and exited 0 while
# the booth held 3, and doctor found no token while the operator page did)
check "recorder config show: the places are the package's (/usr/lib/recorder/recorder.conf)" sh -c \
  "recorder config show --json | json_of 's[\"outbox\"][\"value\"] == \"$state_dir/outbox\" and s[\"outbox\"][\"origin\"].startswith(\"/usr/lib/recorder/recorder.conf:\")' | grep -qx True"
recorder feed --json > /vm/artifacts/feed.json 2> /vm/artifacts/feed.err
check "recorder feed lists the service's post ($first_post)" sh -c \
  "json_of '[e[\"id\"] for e in s[\"entries\"]]' < /vm/artifacts/feed.json | grep -q '$first_post'"
rc=0; (cd /root && recorder export --since 2000-01-01 -o event.zip --json) > /vm/artifacts/export.json 2>&1 || rc=$?
check "recorder export -o event.zip exports it (exit $rc), every file as its SHA256SUMS says (sha256sum -c)" sh -c \
  "[ $rc = 0 ] && cd /root && python3 -m zipfile -e event.zip . && cd event && sha256sum -c --quiet SHA256SUMS && [ -f $first_post/$first_post.mp4 ]"
recorder doctor --json > /vm/artifacts/doctor.json 2> /vm/artifacts/doctor.err
check "recorder doctor finds both tokens, as the operator page does ($(json_of '[c["what"] for c in s["checks"] if c["id"] == "tokens"]' < /vm/artifacts/doctor.json 2>/dev/null))" sh -c \
  "json_of '[c[\"status\"] for c in s[\"checks\"] if c[\"id\"] == \"tokens\"] == [\"ok\"]' < /vm/artifacts/doctor.json | grep -qx True"
# (nothing root's commands made may be kept from the service: its fetched videos, the locks)
owned_by_service() { [ -z "$(find $state_dir /var/cache/recorder \( ! -user recorder -o ! -group recorder \) -print -quit 2>/dev/null)" ]; }
check "... and whatever they made there is the service's (user and group recorder)" owned_by_service

section "... and as a member of the group recorder"
useradd --create-home --shell /bin/bash anna && usermod -aG recorder anna
as_anna() { runuser -u anna -- "$@"; }
check "anna (group recorder) lists the service's post with recorder feed" sh -c \
  "runuser -u anna -- recorder feed --json | json_of '[e[\"id\"] for e in s[\"entries\"]]' | grep -q '$first_post'"
as_anna recorder doctor --json --skip camera,microphone,trigger > /vm/artifacts/doctor-anna.json 2>&1
check "anna's recorder doctor finds both tokens (root:recorder, mode 640)" sh -c \
  "json_of '[c[\"status\"] for c in s[\"checks\"] if c[\"id\"] == \"tokens\"] == [\"ok\"]' < /vm/artifacts/doctor-anna.json | grep -qx True"
rc=0; (cd /home/anna && as_anna recorder export --since 2000-01-01 -o event --quiet) > /vm/artifacts/export-anna.txt 2>&1 || rc=$?
check "anna exports the posts into her home (exit $rc)" sh -c "[ $rc = 0 ] && cd /home/anna/event && sha256sum -c --quiet SHA256SUMS"
useradd --create-home --shell /bin/bash guest
rc=0; runuser -u guest -- recorder feed > /vm/artifacts/feed-guest.txt 2>&1 || rc=$?
check "a user outside the group is refused, not shown a store of its own (exit $rc)" sh -c "[ $rc != 0 ] && ! grep -q 'no posts in /home' /vm/artifacts/feed-guest.txt"
sed 's/^/   | /' /vm/artifacts/feed-guest.txt | head -n 3

section "a post queued while the store is unwritable, and a shot under way: upgrade to $NEW_VERSION"
shoot 2
wait_for 90 state_is idle
queued_shot=$(current_shot)
store_writable no
queued_post=$(json_post /api/post "{\"id\": \"$queued_shot\", \"caption\": \"queued across the upgrade\"}" | json_of 's["id"]' 2>/dev/null)
check "POST /api/post queues $queued_post" test -n "$queued_post"
check "the store refuses it: it stays queued (outbox depth 1, the error said)" wait_for 60 sh -c \
  "curl -s -H 'Authorization: Bearer $API_TOKEN' http://127.0.0.1:8080/api/status | json_of 's[\"outbox\"][\"depth\"] == 1 and bool(s[\"outbox\"][\"lastError\"])' | grep -qx True"
check "recorder outbox (root, no option) lists the service's queued post, in $state_dir/outbox" sh -c \
  "recorder outbox list --json | json_of '[r[\"id\"] for r in s if r[\"directory\"].startswith(\"$state_dir/outbox/\")]' | grep -q '$queued_post'"
# Root's flush and the service's drain take the same outbox lock: one waits its turn or is told
# the outbox is busy (75), never both at once. (Root writes where the service may not: the store
# is made read-only for it too, a bind mount, for the flush's time.)
mount --bind "$store" "$store" && mount -o remount,bind,ro "$store"
rc=0; recorder outbox flush --attempts 1 --json > /vm/artifacts/flush.json 2>&1 || rc=$?
umount "$store"
check "recorder outbox flush (root) tries it and leaves it queued (exit $rc: 73 the store's read-only disk, or 75 busy: $(json_of 's.get("failure")' < <(tail -n 1 /vm/artifacts/flush.json) 2>/dev/null))" \
  sh -c "[ $rc = 73 ] || [ $rc = 75 ]"
check "... it is still queued" depth_is 1
check "... and what the flush wrote in the outbox is still the service's" owned_by_service
tokens_before=$(cat $etc/kiosk-token $etc/kiosk-booth-token | digest)
pid=$(prop MainPID)
invocation=$(prop InvocationID)
shoot 600
sleep 3
cp "$NEW" /tmp/ && new_deb=/tmp/$(basename "$NEW")
timed apt-get install -y -q --no-install-recommends "$new_deb" 2>&1 | stamp > /vm/artifacts/upgrade.log
rc=$?
check "apt-get install ./$(basename "$NEW") upgrades (exit $rc)" test $rc -eq 0
[ $rc -eq 0 ] || tail -n 30 /vm/artifacts/upgrade.log
check "dpkg has recorder $NEW_VERSION" sh -c "[ \"\$(dpkg-query -W -f='\${Version}' recorder)\" = '$NEW_VERSION' ]"
check "the service was restarted (a new process) and is running" sh -c "[ \"\$(systemctl show -p MainPID --value recorder)\" != '$pid' ] && [ \"\$(systemctl show -p ActiveState --value recorder)\" = active ]"
check "the admin's edit of the conffile is kept" grep -qx 'retry.max_seconds = 3' $etc/recorder.conf
check "the old build finished the shot under way as it stopped" sh -c "journalctl _SYSTEMD_INVOCATION_ID=$invocation --no-pager | grep -q 'finishing the shot under way'"
check "the tokens are the same" test "$(cat $etc/kiosk-token $etc/kiosk-booth-token | digest)" = "$tokens_before"
wait_for 60 state_is idle
kept=$(readlink -f /var/lib/recorder/workspace/current)
check "the shot under way was finished at the restart and kept as the current shot" sh -c \
  "[ -f '$kept/video.mp4' ] && grep -q '\"endedEarly\" : \"stopped\"' '$kept/shot.json' && [ \"\$(basename '$kept')\" != '$queued_shot' ]"
[ -f "$kept/video.mp4" ] && cp "$kept/video.mp4" /vm/artifacts/upgrade-stopped-shot.mp4 && echo 1.0 > /vm/artifacts/upgrade-stopped-shot.min-seconds
still_queued() { depth_is 1 && [ ! -f "$store/posts/$1.json" ]; }
check "the post is still queued after the upgrade, not in the store" still_queued "$queued_post"
store_writable yes
check "the store writable again: the new build delivers the queued post" wait_for 90 delivered "$queued_post"
check "... and the outbox is empty" wait_for 30 depth_is 0
cp "$store/videos/$queued_post.mp4" /vm/artifacts/queued-post.mp4 2>/dev/null && echo 1.5 > /vm/artifacts/queued-post.min-seconds

section "remove keeps the configuration and every recording; a reinstall carries on"
store_writable no
last_shot=$(current_shot)
removed_post=$(json_post /api/post "{\"id\": \"$last_shot\", \"caption\": \"queued across a removal\"}" | json_of 's["id"]' 2>/dev/null)
check "a post ($removed_post) is queued for the unwritable store" wait_for 60 depth_is 1
store_before=$(cd "$store" && find . -type f | sort | xargs sha256sum | digest)
timed apt-get remove -y -q recorder 2>&1 | stamp > /vm/artifacts/remove.log
rc=$?
check "apt-get remove recorder (exit $rc)" test $rc -eq 0
check "the service is stopped and the binary gone" sh -c '[ "$(systemctl show -p ActiveState --value recorder)" != active ] && [ ! -e /usr/bin/recorder ]'
check "dpkg keeps its configuration (state rc)" sh -c "[ \"\$(dpkg-query -W -f='\${db:Status-Abbrev}' recorder)\" = 'rc ' ]"
check "the configuration and both tokens are still there" sh -c "[ -f $etc/recorder.conf ] && [ -f /etc/nginx/sites-available/recorder ] && [ \"\$(cat $etc/kiosk-token $etc/kiosk-booth-token | sha256sum | cut -c1-64)\" = '$tokens_before' ]"
check "the queued post is still in the outbox" sh -c "ls $state_dir/outbox/queue | grep -q -- '-$removed_post\$'"
check "the store is untouched" test "$(cd "$store" && find . -type f | sort | xargs sha256sum | digest)" = "$store_before"
timed apt-get install -y -q --no-install-recommends "$new_deb" 2>&1 | stamp > /vm/artifacts/reinstall.log
rc=$?
check "apt-get install ./$(basename "$NEW") again (exit $rc), and the service runs" sh -c "[ $rc -eq 0 ] && [ \"\$(systemctl show -p ActiveState --value recorder)\" = active ]"
check "the tokens are the same" test "$(cat $etc/kiosk-token $etc/kiosk-booth-token | digest)" = "$tokens_before"
wait_for 60 state_is idle
check "the last shot is still the current one ($last_shot)" test "$(current_shot)" = "$last_shot"
check "the post queued before the removal is still queued" depth_is 1
store_writable yes
check "... and is delivered once the store is back" wait_for 90 delivered "$removed_post"

section "purge removes the configuration and says where the recordings stay"
# (every file of the recordings, by name and content, to compare after)
recordings() { (cd $state_dir && find . -type f | sort | xargs sha256sum | digest); }
recordings_before=$(recordings)
timed apt-get purge -y -q recorder 2>&1 | stamp > /vm/artifacts/purge.log
rc=$?
check "apt-get purge recorder (exit $rc)" test $rc -eq 0
sed -n '/] recorder: /p' /vm/artifacts/purge.log | sed 's/^/   | /'
check "dpkg no longer knows recorder" sh -c '! dpkg-query -W -f="\${Status}" recorder 2>/dev/null | grep -q installed'
check "$etc is gone (configuration, tokens, S3 credentials)" test ! -e $etc
check "the nginx files, the unit, the sysusers file and the udev rules are gone" sh -c \
  '! ls /etc/nginx/sites-available/recorder /etc/nginx/conf.d/recorder.conf /etc/nginx/snippets/recorder-share.conf /lib/systemd/system/recorder.service /usr/lib/sysusers.d/recorder.conf /lib/udev/rules.d/6?-recorder-*.rules 2> /dev/null | grep -q .'
check "systemd no longer knows the unit" sh -c '[ "$(systemctl show -p LoadState --value recorder)" = not-found ]'
check "the cache is gone" sh -c '[ ! -e /var/cache/private/recorder ] && [ ! -e /var/cache/recorder ]'
check "purge says where the recordings stay ($state_dir)" grep -q "recordings stay in $state_dir" /vm/artifacts/purge.log
check "the recordings stay, every file as it was: the last shot, the outbox's records, the store" \
  test "$(recordings)" = "$recordings_before"
check "... with each delivered post's video" sh -c "for id in $first_post $queued_post $removed_post; do [ -f $state_dir/store/videos/\$id.mp4 ] || exit 1; done"
echo "   what is left of recorder:"
ls -d /etc/recorder /etc/nginx/sites-*/recorder /lib/systemd/system/recorder.service /etc/systemd/system/*/recorder.service \
  /var/lib/recorder /var/lib/private/recorder /var/cache/recorder /var/cache/private/recorder /var/lib/systemd/deb-systemd-helper-*/recorder.service* \
  /usr/bin/recorder /usr/share/doc/recorder 2> /dev/null | sed 's/^/   | /'
getent group recorder-button | sed 's/^/   | group (system groups are not removed): /'
finish
