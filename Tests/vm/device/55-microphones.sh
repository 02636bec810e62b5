# Sourced by Tests/vm/device-tests.sh after device/lib.sh.
# snd-aloop (id=Loopback pcm_substreams=2, loaded by Tests/vm/kernel.sh) is the sound card: two
# PCM devices, each with capture substreams. Checked through recorder alone (no arecord).
section "microphones (snd-aloop)"
check "snd-aloop is loaded as card Loopback ($(ls /dev/snd 2>&1 | tr '\n' ' '))" grep -q "\[Loopback *\]" /proc/asound/cards
"$REC" devices > "$T/mics.txt" 2>&1; rc=$?
# The microphones section of `recorder devices`: "Microphones:" and the lines after it. (A file,
# not <(...): the guest has no /dev/fd.)
sed -n '/^Microphones:/,$p' "$T/mics.txt" > "$T/mics-section.txt"
cat "$T/mics-section.txt"; grep "^No microphone" "$T/mics.txt"
check "devices exits 0 ($rc)" [ $rc -eq 0 ]
check "devices lists hw:CARD=Loopback,DEV=0 as a microphone" grep -qx "  hw:CARD=Loopback,DEV=0  Loopback" "$T/mics-section.txt"
check "devices lists hw:CARD=Loopback,DEV=1 as a microphone" grep -qx "  hw:CARD=Loopback,DEV=1  Loopback" "$T/mics-section.txt"
check "devices still lists the cameras before the microphones" grep -q "^\[0\] $VIVID " "$T/mics.txt"
# vivid and snd-aloop are both platform devices (/sys/devices/platform/...): not one USB device.
check "no platform card is taken for a camera's microphone" bash -c '! grep -q "microphone of" "$1"' _ "$T/mics.txt"
"$REC" devices --json > "$T/mics.json"
check "devices --json: still an array of cameras, none given a microphone" python3 -c '
import json, sys
devices = json.load(open(sys.argv[1]))
sys.exit(0 if isinstance(devices, list) and devices and not any("microphone" in d for d in devices) else 1)' "$T/mics.json"

# A user who may not open the card's control node is told which group to join, not "no microphone".
controls=$(ls /dev/snd/controlC* 2>/dev/null)
modes=$(stat -c '%a %g %n' $controls)
chgrp audio $controls; chmod 660 $controls
setpriv --reuid=65534 --regid=65534 --clear-groups "$REC" devices > "$T/mics-nobody.txt" 2>&1; rc=$?
while read -r mode group node; do chgrp "$group" "$node"; chmod "$mode" "$node"; done <<< "$modes"
check "devices as a user outside group audio: exit 0 ($rc), names group audio: $(grep -i microphone "$T/mics-nobody.txt")" \
  exits_saying $rc 0 "No microphone found: /dev/snd/controlC[0-9]* cannot be opened by this user (it belongs to group 'audio')" "$T/mics-nobody.txt"
