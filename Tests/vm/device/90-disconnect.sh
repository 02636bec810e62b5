# Sourced by Tests/vm/device-tests.sh after device/lib.sh.
section "disconnect"
# disconnect mid-shot (last: vivid is gone afterwards)
prev=$(current)
"$REC" shoot --workspace "$WS" --device "$VIVID" --size 320x180 --fps 15 --seconds 60 --json > "$T/x.json" 2> "$T/x.err" &
pid=$!; wait_recording 2; v4l2-ctl -d "$VIVID" -c disconnect=1 2>&1; wait $pid; rc=$?
echo "  $(tail -c 400 "$T/x.err") $(tail -c 300 "$T/x.json")"
check "disconnect: exit 69 ($rc)" [ $rc -eq 69 ]
check "disconnect: message says the camera was lost" grep -q "was lost" "$T/x.err"
check "disconnect: recorded part kept as the current shot" [ "$(current)" != "$prev" ]
check "disconnect: recorded part plays" ffmpeg -v error -i "$WS/current/video.mp4" -f null -
