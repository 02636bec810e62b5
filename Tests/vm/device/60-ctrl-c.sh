# Sourced by Tests/vm/device-tests.sh after device/lib.sh.
section "Ctrl-C mid-shot"
"$REC" shoot --workspace "$WS" --device "$VIVID" --size 320x180 --fps 15 --seconds 60 > "$T/i.out" 2> "$T/i.err" &
pid=$!; wait_recording 2; kill -INT $pid; wait $pid; rc=$?
check "SIGINT: exit 0 ($rc)" [ $rc -eq 0 ]
check "SIGINT: reported as stopped ($(cat "$T/i.out" "$T/i.err" | tail -c 400))" grep -q "ended early: stopped" "$T/i.out"
check "SIGINT: shorter file plays" ffmpeg -v error -i "$WS/current/video.mp4" -f null -
