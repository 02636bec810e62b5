#!/bin/bash
# Runs inside the systemd guest (Tests/vm/systemd-vm.sh), as a oneshot unit: installs recorder's
# unit, configuration, udev rules and (debug) binary by hand, then checks the service under a
# real systemd. Writes its exit status to /vm/status; shots to check go to /vm/artifacts.
set -uo pipefail
exec 2>&1
GUEST_NAME=systemd
. /vm/guest-checks.sh

echo "== systemd $(systemctl --version | head -n1 | cut -d' ' -f2), kernel $(uname -r)"
wait_for 60 test -e /dev/video0 || { fail "vivid made /dev/video0"; finish; }

section "install the unit, configuration, udev rules and binary by hand"
install -m 755 /vm/bin/recorder /usr/bin/recorder
install -m 644 /vm/recorder.service /etc/systemd/system/recorder.service
install -d /etc/recorder
install -m 644 /vm/recorder.conf /etc/recorder/recorder.conf
install -m 600 /dev/null /etc/recorder/kiosk-token
install -m 600 /dev/null /etc/recorder/kiosk-booth-token
install -m 600 /dev/null /etc/recorder/s3-credentials
# (the unit loads the guests' mail server's credential too: a missing file stops it, 243/CREDENTIALS)
install -m 600 /dev/null /etc/recorder/mail-credentials
install -D -m 644 /vm/recorder-sysusers.conf /etc/sysusers.d/recorder.conf && systemd-sysusers
install -m 644 /vm/60-recorder-camera.rules /vm/61-recorder-button.rules /etc/udev/rules.d/
check "systemd-sysusers made the service's user recorder and the button's group (recorder-button)" sh -c 'getent passwd recorder > /dev/null && getent group recorder-button > /dev/null'
# The test camera is vivid; a kiosk matches its own camera in the rule (see the rule's comments).
# Each key is set once (a key set twice is a configuration error): the shipped lines are replaced.
sed -i -e '/^kiosk\.device *=/d' -e '/^kiosk\.seconds *=/d' -e '/^kiosk\.countdown_seconds *=/d' /etc/recorder/recorder.conf
cat >> /etc/recorder/recorder.conf <<'CONF'
kiosk.device = /dev/recorder-camera
kiosk.seconds = 3
kiosk.countdown_seconds = 0
kiosk.trigger = auto
CONF
check "the configuration is valid (recorder config check)" recorder config check --config /etc/recorder/recorder.conf
# A shorter watchdog than the shipped 20 s, so the hang test takes seconds, not minutes.
mkdir -p /etc/systemd/system/recorder.service.d
printf '[Service]\nWatchdogSec=8\n' > /etc/systemd/system/recorder.service.d/test.conf
# A time service for timedatectl to report (NTP=yes): the root's systemd-timesyncd when it has one,
# else a stand-in unit named as the NTP service (ntp-units.d) that does nothing; either way, with no
# network to reach, whether the clock is synchronised is the kernel's own answer. Started with
# systemctl, not `timedatectl set-ntp` (whose daemon-reload outlasted its 25 s D-Bus call here).
ntp_unit=systemd-timesyncd.service
if ! systemctl cat $ntp_unit > /dev/null 2>&1; then
  ntp_unit=recorder-test-ntp.service
  printf '[Unit]\nDescription=time service stand-in (no network to synchronise from)\n[Service]\nExecStart=/bin/sleep infinity\n' \
    > /etc/systemd/system/$ntp_unit
  mkdir -p /etc/systemd/ntp-units.d && echo $ntp_unit > /etc/systemd/ntp-units.d/50-recorder-test.list
fi
udevadm control --reload
udevadm trigger --action=add --subsystem-match=video4linux
udevadm settle --timeout=30
check "udev rule names the camera /dev/recorder-camera" test -e /dev/recorder-camera
check "udev tags it for systemd (dev-recorder\\x2dcamera.device)" \
  wait_for 20 sh -c 'systemctl is-active "dev-recorder\\x2dcamera.device" >/dev/null'
systemctl daemon-reload
# (timedated reads ntp-units.d as it starts; asked once here, it is awake when the kiosk asks)
systemctl stop systemd-timedated 2> /dev/null
systemctl start $ntp_unit
timedatectl show -p NTP > /dev/null

section "start: Type=notify, READY after the port is bound, STATUS= text"
start=$SECONDS
systemctl start recorder
rc=$?
check "systemctl start recorder succeeds (READY=1 arrived; took $((SECONDS - start)) s)" test $rc -eq 0
if [ $rc -ne 0 ]; then
  systemctl status recorder --no-pager -l 2>&1 | tail -n 30
  finish
fi
check "ActiveState=active, SubState=running" sh -c '[ "$(systemctl show -p ActiveState --value recorder)/$(systemctl show -p SubState --value recorder)" = active/running ]'
check "the port answers as soon as systemd says ready" sh -c 'curl -s --max-time 5 -o /dev/null -w "%{http_code}" http://127.0.0.1:8080/healthz | grep -q 200'
# nginx's way in (kiosk.proxy_socket, in RuntimeDirectory=recorder): another user (nginx's www-data;
# here nobody) reaches it, whatever the unit's UMask=0007.
check "the proxy's socket is there for nginx (/run/recorder/proxy.sock, mode 666) and answers another user" sh -c \
  '[ "$(stat -c %a /run/recorder/proxy.sock)" = 666 ] && setpriv --reuid=nobody --regid=nogroup --clear-groups curl -s --max-time 5 -o /dev/null -w "%{http_code}" --unix-socket /run/recorder/proxy.sock http://localhost/healthz | grep -q 200'
status_text=$(prop StatusText)
echo "   StatusText: $status_text"
check "STATUS= says idle and where it listens" sh -c "echo '$status_text' | grep -q 'idle' && echo '$status_text' | grep -q '127.0.0.1:8080'"
check "runs as the system user recorder in group video, not root" sh -c '[ "$(ps -o user= -p $(systemctl show -p MainPID --value recorder))" = recorder ] && grep -q "^Groups:.*$(getent group video | cut -d: -f3)" /proc/$(systemctl show -p MainPID --value recorder)/status'
# The clock as the booth reports it (recorder_clock_synchronised, ClockNotSynchronised's input): what
# timedatectl says, asked from inside the unit's sandbox (D-Bus to timedated): 1 or 0 with a time
# service on (NTP=yes), absent without one.
ntp=$(timedatectl show -p NTP --value); synced=$(timedatectl show -p NTPSynchronized --value)
case "$ntp/$synced" in yes/yes) want=1 ;; yes/no) want=0 ;; *) want=absent ;; esac
metric=$(curl -s --max-time 10 http://127.0.0.1:8080/metrics | awk '$1 == "recorder_clock_synchronised" { print $2 + 0 }')
check "recorder_clock_synchronised is ${metric:-absent}, as timedatectl says (NTP=$ntp, NTPSynchronized=$synced: $want)" \
  test "${metric:-absent}" = "$want" -a "$ntp" = yes

section "shoot and post through the API"
json_post /api/shoot '{"seconds": 2, "countdown": 0}' > /dev/null
check "a shot records (state recording, then idle)" wait_for 60 state_is idle
status=$(api http://127.0.0.1:8080/api/status)
shot_id=$(echo "$status" | shot_id_of)
check "the shot is current ($shot_id)" test -n "$shot_id"
check "STATUS= follows the state (idle again)" sh -c 'systemctl show -p StatusText --value recorder | grep -q idle'
curl -s --max-time 20 -o /vm/artifacts/api-shot.mp4 http://127.0.0.1:8080/api/shot/current/video.mp4
echo 1.5 > /vm/artifacts/api-shot.min-seconds
post=$(json_post /api/post "{\"id\": \"$shot_id\", \"caption\": \"systemd test 🎥\"}")
post_id=$(echo "$post" | post_id_of)
check "POST /api/post queues the shot ($post_id)" test -n "$post_id"
check "the outbox drain uploads it to the local store" wait_for 60 test -f "/var/lib/recorder/store/videos/$post_id.mp4"
# (the video goes up first, then its poster, then the metadata that names it)
check "its metadata has the caption" wait_for 60 sh -c "grep -q 'systemd test' /var/lib/recorder/store/posts/$post_id.json"
# (the host reads the poster with ffprobe afterwards: the guest has none)
check "its poster is beside it, named by the metadata" sh -c \
  "cp /var/lib/recorder/store/thumbs/$post_id.jpg /vm/artifacts/poster.jpg && grep -q '\"thumbs/$post_id.jpg\"' /var/lib/recorder/store/posts/$post_id.json"
share=$(api "http://127.0.0.1:8080/api/posts/$post_id/share" | sed -n 's/.*"shareURL" *: *"\([^"]*\)".*/\1/p')
check "the post's share page (${share:-none}) opens with no token and plays its video byte for byte" sh -c \
  "[ -n '$share' ] && curl -sf --max-time 20 '$share' | grep -q 'systemd test' && curl -sf --max-time 30 -o /tmp/shared.mp4 '$share/video.mp4' && cmp -s /tmp/shared.mp4 /var/lib/recorder/store/videos/$post_id.mp4"
check "the store is in StateDirectory, the service's, shared with its group (recorder:recorder 2770; files the group's to write)" sh -c \
  "[ \"\$(stat -c '%U:%G %a' /var/lib/recorder)\" = 'recorder:recorder 2770' ] && [ \"\$(stat -c '%G %A' /var/lib/recorder/store/videos/$post_id.mp4)\" = 'recorder -rw-rw----' ]"

section "the watchdog: a stopped process is restarted"
pid=$(prop MainPID); restarts=$(prop NRestarts)
kill -STOP "$pid"
check "kill -STOP: the watchdog restarts the service" wait_for 90 sh -c "[ \"\$(systemctl show -p NRestarts --value recorder)\" -gt $restarts ] && [ \"\$(systemctl show -p MainPID --value recorder)\" != $pid ] && [ \"\$(systemctl show -p ActiveState --value recorder)\" = active ]"
check "after the restart it answers again" wait_for 60 sh -c 'curl -s --max-time 5 http://127.0.0.1:8080/healthz | grep -q true'
check "the earlier shot survived the restart (RuntimeDirectoryPreserve)" sh -c "curl -s --max-time 10 http://127.0.0.1:8080/api/status | grep -q '$shot_id'"

section "systemctl stop during a shot keeps the recorded part"
json_post /api/shoot '{"seconds": 60, "countdown": 0}' > /dev/null
wait_for 60 state_is recording
sleep 4
stop_start=$SECONDS
systemctl stop recorder
check "systemctl stop during a shot ends cleanly (Result=success, exit 0, $((SECONDS - stop_start)) s)" \
  sh -c '[ "$(systemctl show -p Result --value recorder)" = success ] && [ "$(systemctl show -p ExecMainStatus --value recorder)" = 0 ]'
kept=$(readlink -f /var/lib/recorder/workspace/current 2>/dev/null)
check "the stopped shot is kept as the current shot" sh -c "[ -f '$kept/video.mp4' ] && grep -q '\"endedEarly\" : \"stopped\"' '$kept/shot.json'"
[ -f "$kept/video.mp4" ] && cp "$kept/video.mp4" /vm/artifacts/stopped-shot.mp4 && echo 1.0 > /vm/artifacts/stopped-shot.min-seconds
check "journal shows the shot was finished on stop" sh -c 'journalctl -u recorder --no-pager | grep -q "finishing the shot under way"'

section "camera unplugged mid-shot, gone, and plugged back: recovers with no restart"
systemctl start recorder
wait_for 60 state_is idle
pid=$(prop MainPID); restarts=$(prop NRestarts)
json_post /api/shoot '{"seconds": 60, "countdown": 0}' > /dev/null
wait_for 60 state_is recording
sleep 3
# vivid's disconnect control acts as a USB unplug for whoever streams; it comes back by itself
# once the last user closes it, as a replugged camera would.
v4l2-ctl -d /dev/video0 -c disconnect=1 > /dev/null 2>&1
check "disconnect=1 during a shot ends the shot" wait_for 60 sh -c 'curl -s http://127.0.0.1:8080/api/status | grep -qE "\"state\":\"(idle|camera-missing)\""'
kept=$(readlink -f /var/lib/recorder/workspace/current 2>/dev/null)
check "the part recorded before the unplug is the current shot" sh -c "grep -q 'camera lost' '$kept/shot.json'"
[ -f "$kept/video.mp4" ] && cp "$kept/video.mp4" /vm/artifacts/unplugged-shot.mp4 && echo 1.0 > /vm/artifacts/unplugged-shot.min-seconds
check "journal reports the camera lost and the part kept" sh -c 'journalctl -u recorder --no-pager | grep -q "camera lost"'
# Now the camera is really gone (the module unloaded).
wait_for 30 rmmod vivid
check "vivid unloaded: state camera-missing" wait_for 60 state_is camera-missing
check "healthz says unhealthy (503) with the reason" sh -c 'curl -s --max-time 5 -w "%{http_code}" http://127.0.0.1:8080/healthz | grep -q "camera missing.*503"'
check "a shoot while the camera is missing gets 503" sh -c "curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' -d '{}' http://127.0.0.1:8080/api/shoot | grep -q 503"
check "STATUS= says the camera is missing" sh -c 'systemctl show -p StatusText --value recorder | grep -q "camera missing"'
insmod /usr/local/lib/recorder-vm-modules/vivid.ko n_devs=1
udevadm settle --timeout=30
check "vivid reloaded: the service sees the camera back (idle)" wait_for 60 state_is idle
check "... with no restart (same MainPID, NRestarts unchanged)" sh -c "[ \"\$(systemctl show -p MainPID --value recorder)\" = $pid ] && [ \"\$(systemctl show -p NRestarts --value recorder)\" = $restarts ]"
before=$(readlink -f /var/lib/recorder/workspace/current)
json_post /api/shoot '{"seconds": 2, "countdown": 0}' > /dev/null
check "the next shot works on the returned camera" wait_for 60 sh -c "c=\$(readlink -f /var/lib/recorder/workspace/current); [ \"\$c\" != '$before' ] && [ -f \"\$c/shot.json\" ] && ! grep -q 'camera lost' \"\$c/shot.json\""

section "the booth's button: its node alone, through group recorder-button, not input"
# A USB button (button.py: a uinput keyboard with one key, bus USB) and a USB keyboard beside it.
mkfifo /tmp/button.in /tmp/keyboard.in
python3 /vm/button.py serve "recorder test button" < /tmp/button.in > /tmp/button.out 2>&1 &
python3 /vm/button.py serve "recorder test keyboard" < /tmp/keyboard.in > /tmp/keyboard.out 2>&1 &
exec 7> /tmp/button.in 8> /tmp/keyboard.in
echo plug >&7; echo plug >&8
# (python starts slowly under emulation, the first time from a cold cache over 9p)
plugged=$SECONDS
wait_for 180 grep -q "done plug" /tmp/button.out; wait_for 60 grep -q "done plug" /tmp/keyboard.out
echo "   the virtual button and keyboard were made in $((SECONDS - plugged)) s"
udevadm settle --timeout=30
button=$(python3 /vm/button.py node "recorder test button"); keyboard=$(python3 /vm/button.py node "recorder test keyboard")
[ -n "$button" ] && [ -n "$keyboard" ] || { echo "   button.py said:"; cat /tmp/button.out /tmp/keyboard.out; ls -la /dev/uinput; ps -ef | grep '[b]utton.py'
  for d in /sys/class/input/event*; do echo "   ${d##*/}: $(cat "$d/device/name" 2>&1) bus $(cat "$d/device/id/bustype" 2>&1) $(ls -la /dev/input/${d##*/} 2>&1)"; done; }
check "udev gives the button's node ($button) to group recorder-button, mode 0640" sh -c "[ \"\$(stat -c '%G %a' '$button')\" = 'recorder-button 640' ]"
check "a keyboard that is no button stays group input's ($keyboard: $(stat -c '%G %a' "$keyboard"))" sh -c "[ \"\$(stat -c %G '$keyboard')\" = input ]"
main=$(prop MainPID)
check "the service is in group recorder-button and not in group input" sh -c \
  "grep '^Groups:' /proc/$main/status | grep -qw $(getent group recorder-button | cut -d: -f3) && ! grep '^Groups:' /proc/$main/status | grep -qw $(getent group input | cut -d: -f3)"
check "the kiosk finds the button (kiosk.trigger = auto) and reads it" wait_for 30 sh -c \
  "curl -s http://127.0.0.1:8080/api/status | json_of 's[\"trigger\"][\"state\"]' | grep -qx ready"
before=$(readlink -f /var/lib/recorder/workspace/current)
echo press >&7
check "a press on the button records a shot" wait_for 60 sh -c "c=\$(readlink -f /var/lib/recorder/workspace/current); [ \"\$c\" != '$before' ] && [ -f \"\$c/shot.json\" ]"
exec 7>&- 8>&-

section "on the event's network: tokens, its own address in the share link, only the local network let in"
# The booth's network card (a dummy one: 192.168.77.2 is the event's Wi-Fi), and an address outside
# the networks the unit allows (198.51.100.2, as a machine on the internet would be).
ip link add booth0 type dummy && ip addr add 192.168.77.2/24 dev booth0 && ip addr add 198.51.100.2/24 dev booth0 && ip link set booth0 up
head -c 24 /dev/urandom | base64 > /etc/recorder/kiosk-token
head -c 24 /dev/urandom | base64 > /etc/recorder/kiosk-booth-token
sed -i -e '/^kiosk\.listen *=/d' /etc/recorder/recorder.conf
echo 'kiosk.listen = 0.0.0.0:8080' >> /etc/recorder/recorder.conf
check "the configuration with tokens and every address is valid" recorder config check --config /etc/recorder/recorder.conf
systemctl restart recorder
operator="Authorization: Bearer $(cat /etc/recorder/kiosk-token)"
lan=http://192.168.77.2:8080
check "from the local network /healthz answers (IPAddressAllow)" wait_for 60 sh -c "curl -s --max-time 5 -o /dev/null -w '%{http_code}' $lan/healthz | grep -qx 200"
check "from an address beyond it nothing gets through (IPAddressDeny=any)" sh -c \
  "[ \"\$(curl -s --max-time 5 --interface 198.51.100.2 -o /dev/null -w '%{http_code}' http://198.51.100.2:8080/healthz)\" = 000 ]"
check "without a token the API says 401, however the path is spelt" sh -c \
  "for p in /api/status //api/status /api/status/ /api//admin/overview /metrics/ //api/preview.jpg; do [ \"\$(curl -s --path-as-is -o /dev/null -w '%{http_code}' $lan\$p)\" = 401 ] || exit 1; done"
curl -s -X POST -H "$operator" -H 'Content-Type: application/json' -d '{"seconds": 2, "countdown": 0}' $lan/api/shoot > /dev/null
wait_for 60 sh -c "curl -s -H '$operator' $lan/api/status | json_of 's[\"state\"]' | grep -qx idle"
lan_shot=$(curl -s -H "$operator" $lan/api/status | json_of 's["currentShot"]["id"]')
post_id=$(curl -s -X POST -H "$operator" -H 'Content-Type: application/json' -d "{\"id\": \"$lan_shot\", \"caption\": \"on the network\"}" $lan/api/post | json_of 's["id"]')
wait_for 60 test -f "/var/lib/recorder/store/posts/$post_id.json"
link=$(curl -s -H "$operator" "$lan/api/posts/$post_id/share" | json_of 's["shareURL"]')
echo "   the share link the QR code carries: $link"
check "the share link is the booth's address on the network, not loopback (the unit lets it list its addresses: AF_NETLINK)" \
  sh -c "case '$link' in http://192.168.77.2:8080/s/*|http://198.51.100.2:8080/s/*) exit 0 ;; *) exit 1 ;; esac"
curl -s -H "$operator" -o /vm/artifacts/share-qr.svg "$lan/api/posts/$post_id/qr.svg"
echo "$link" > /vm/artifacts/share-link.txt
check "a phone on the network opens it with no token" sh -c "curl -sf --max-time 20 '$link' | grep -q 'on the network'"
invocation=$(prop InvocationID)
check "this run of the service logged that it is ready on the network and no notice that links point at loopback" sh -c \
  "journalctl _SYSTEMD_INVOCATION_ID=$invocation --no-pager | grep -q 'ready: http://192.168.77.2:8080/' && ! journalctl _SYSTEMD_INVOCATION_ID=$invocation --no-pager | grep -q 'point at this machine.s loopback'"
systemctl stop recorder
finish
