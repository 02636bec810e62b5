# Sourced by Tests/vm/device-tests.sh after device/lib.sh.
section "recorder devices"
start_producer "$LOOP" -pix_fmt yuyv422 || bad "loopback producer did not start: $(cat "$T/producer.log")"
"$REC" devices > "$T/devices.txt" 2>&1
cat "$T/devices.txt"
check "devices lists vivid" grep -q "$VIVID .*vivid" "$T/devices.txt"
check "devices lists vivid with YUYV at 320x180" grep -q "YUYV .*320x180@" "$T/devices.txt"
check "devices lists vivid formats" grep -q "NV12 .*320x180@" "$T/devices.txt"
check "devices lists the loopback device" grep -q "$LOOP .*recorder-loopback" "$T/devices.txt"
"$REC" devices --json > "$T/devices.json"
check "devices --json parses and lists vivid" python3 "$HERE/device/shots.py" has-driver "$T/devices.json" vivid
