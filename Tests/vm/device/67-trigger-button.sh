# Sourced by Tests/vm/device-tests.sh after device/lib.sh.
# The booth's button, read by the kiosk itself (kiosk.trigger): a virtual USB keyboard made through
# uinput (Tests/vm/button.py), so the kernel's own input core and evdev deliver its key, repeat
# it while held, and remove the device when it is "unplugged".
section "the booth's button (uinput keyboard through evdev)"
BNAME="recorder test button"
BTN=$HERE/button.py
KBASE=http://127.0.0.1:8091
rm -f "$T/button.in"; mkfifo "$T/button.in"
python3 "$BTN" serve "$BNAME" < "$T/button.in" > "$T/button.out" 2>&1 &
BTN_PID=$!
exec 9> "$T/button.in"
button_done=0
button() {  # one command to the virtual button; returns once it is done
  echo "$*" >&9; button_done=$((button_done + 1))
  for _ in $(seq 1 900); do [ "$(grep -c '^done' "$T/button.out")" -ge $button_done ] && return 0; sleep 0.1; done
  echo "button: '$*' not done: $(cat "$T/button.out")"; return 1
}
# Presses the button while another program reads the device; $T/spy.out: the key events it saw.
spied_press() {
  rm -f "$T/spy.ready"
  python3 "$BTN" spy "$NODE" 4 "$T/spy.ready" > "$T/spy.out" & local spy=$!
  # (up to 60 s: a spy not yet reading when the press comes would see nothing whatever the grab)
  for _ in $(seq 1 600); do [ -e "$T/spy.ready" ] && break; kill -0 $spy 2>/dev/null || break; sleep 0.1; done
  button press; wait $spy
}
kwait() { python3 "$BTN" wait "$KBASE" "$1" "${2:-60}"; }
kget() { python3 "$BTN" get "$KBASE" "$1"; }

# The kiosk's API is on loopback, which the device guest does not bring up by itself.
ip link set lo up 2>/dev/null || busybox ip link set lo up
check "uinput is there (/dev/uinput)" [ -e /dev/uinput ]
button plug
NODE=$(python3 "$BTN" node "$BNAME")
check "the virtual button is an input device ($NODE)" [ -n "$NODE" ]
echo "input devices: $(for d in /sys/class/input/event*; do printf '%s=%s(bus %s); ' "${d##*/}" "$(cat "$d/device/name")" "$(cat "$d/device/id/bustype")"; done)"
# Not taken, any reader sees its key: the control for the check that the kiosk takes it.
spied_press; seen=$(cat "$T/spy.out")
check "not taken, another reader sees the key ($seen key events)" [ "$seen" -ge 2 ]

# auto: the default kiosk.trigger_match (button|switch|pedal|foot) finds it by name; a 6 s shot, no
# countdown, small (shoot.size and shoot.fps are the kiosk's too): 720p is too slow to encode under emulation.
RECORDER_KIOSK_TRIGGER=auto RECORDER_SHOOT_SIZE=320x240 RECORDER_SHOOT_FPS=15 RECORDER_SHOOT_PRESET=ultrafast "$REC" kiosk --device testsrc --listen 127.0.0.1:8091 --seconds 6 --countdown 0 \
  --workspace "$T/kws" --outbox "$T/kob" --store-dir "$T/kstore" --create > "$T/kiosk.log" 2>&1 &
KPID=$!
check "the kiosk takes the button by its name (kiosk.trigger = auto)" \
  kwait "s['trigger']['state'] == 'ready' and s['trigger']['name'] == '$BNAME' and s['trigger']['device'] == '$NODE'" 180
spied_press; seen=$(cat "$T/spy.out")
check "taken (EVIOCGRAB): no other reader sees its key, so no browser does ($seen key events)" [ "$seen" -eq 0 ]
check "that press started a shot" kwait "s['trigger']['presses'] == 1 and (s['state'] != 'idle' or s['currentShot'] is not None)" 60
check "... which is made, full length (no second press), as shoot.size says (320x240)" \
  kwait "s['state'] == 'idle' and s['currentShot'] and s['currentShot']['durationSeconds'] > 5.5 and s['currentShot']['width'] == 320" 120
shot1=$(kget "s['currentShot']['id']")

# A second press while recording stops the shot early. (Under emulation a press has taken 2.6 s to
# stop a shot: 6 s shots leave it room after the 1 s a kept shot must last.)
button press-stop "$KBASE"
check "press, press again while recording: the shot stops early" \
  kwait "s['state'] == 'idle' and s['currentShot']['id'] != '$shot1' and s['currentShot'].get('endedEarly') == 'stopped' and s['currentShot']['durationSeconds'] < 5.95 and s['trigger']['presses'] == 3" 120
shot2=$(kget "s['currentShot']['id']")

# Held down for 2 s (the kernel repeats the key every 33 ms after 250 ms): one press, not a stop.
button hold 2
check "a held key is one press: the shot it starts runs its full length" \
  kwait "s['state'] == 'idle' and s['currentShot']['id'] != '$shot2' and s['currentShot']['durationSeconds'] > 5.5 and s['trigger']['presses'] == 4" 120
shot3=$(kget "s['currentShot']['id']")

# A bouncing contact: edges 3 ms apart on press and on release.
button chatter
check "a bouncing contact is one press: the shot runs its full length" \
  kwait "s['state'] == 'idle' and s['currentShot']['id'] != '$shot3' and s['currentShot']['durationSeconds'] > 5.5 and s['trigger']['presses'] == 5" 120
shot4=$(kget "s['currentShot']['id']")

# Unplugged: said, the kiosk goes on; plugged in again: taken again, and it works.
button unplug
check "unplugged: the status says so" kwait "s['trigger']['state'] == 'unplugged'" 30
check "unplugged: the kiosk goes on answering" curl -fsS -o /dev/null "$KBASE/healthz"
check "unplugged: the journal says so" grep -q "button unplugged: $BNAME" "$T/kiosk.log"
button plug
NODE=$(python3 "$BTN" node "$BNAME")
check "plugged in again: taken again ($NODE)" kwait "s['trigger']['state'] == 'ready' and s['trigger']['device'] == '$NODE'" 30
button press
check "plugged in again: its press starts a shot" \
  kwait "s['state'] == 'idle' and s['currentShot']['id'] != '$shot4' and s['trigger']['presses'] == 6" 120

kill -TERM $KPID; wait $KPID; rc=$?
check "the kiosk stops cleanly with the button held (exit $rc)" [ $rc -eq 0 ]
spied_press; seen=$(cat "$T/spy.out")
check "once the kiosk has stopped, the button is free again ($seen key events)" [ "$seen" -ge 2 ]
grep -i "button" "$T/kiosk.log" | head -20
exec 9>&-
wait $BTN_PID
