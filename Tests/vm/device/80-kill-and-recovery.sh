# Sourced by Tests/vm/device-tests.sh after device/lib.sh.
section "kill -9 and recovery"
# kill -9 mid-shot (a crash or power cut): the next start recovers the clip as the current shot
"$REC" shoot --workspace "$WS" --device "$VIVID" --size 320x180 --fps 15 --seconds 60 > /dev/null 2>&1 &
pid=$!; wait_recording 3; kill -9 $pid; wait $pid 2>/dev/null
shoot --device "$VIVID" --size 320x180 --fps 15 --seconds 1 --json > "$T/k.json" 2> "$T/k.err"; rc=$?
check "kill -9: the next shoot recovers the clip and records its own ($rc: $(head -c 300 "$T/k.err"))" exits_saying $rc 0 "recovered an interrupted recording" "$T/k.err"
kept=$(ls -d "$WS"/kept/*/ 2>/dev/null | tail -n 1)
check "kill -9: the recovered clip is kept beside the new shot ($kept), shot.json marks it recovered" \
  recovered "${kept}shot.json"
check "kill -9: the recovered clip plays ($(probe "${kept}video.mp4" nb_read_frames) frames)" ffmpeg -v error -i "${kept}video.mp4" -f null -
check "kill -9: the new shot is current and not the recovered one" eval '! recovered "$WS/current/shot.json"'
