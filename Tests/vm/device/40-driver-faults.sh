# Sourced by Tests/vm/device-tests.sh after device/lib.sh.
section "faults"
prev=$(current)
v4l2-ctl -d "$VIVID" -c inject_vidioc_streamon_error=1 2>&1
shoot --device "$VIVID" --size 320x180 --seconds 1 2> "$T/e.err"; rc=$?
# The driver refuses STREAMON (EINVAL): 69 (EX_UNAVAILABLE), and the message names the call.
check "streamon error: exit 69 (got $rc), message: $(head -c 200 "$T/e.err")" [ $rc -eq 69 ]
check "streamon error: the message names VIDIOC_STREAMON" grep -q "VIDIOC_STREAMON" "$T/e.err"
check "streamon error: previous shot intact" [ "$(current)" = "$prev" ]
check "streamon error: device not left streaming (next shot works)" shoot --device "$VIVID" --size 320x180 --fps 15 --seconds 1
prev=$(current)
v4l2-ctl -d "$VIVID" -c inject_vidioc_reqbufs_error=1 2>&1
shoot --device "$VIVID" --size 320x180 --seconds 1 2> "$T/e.err"; rc=$?
check "reqbufs error: exit 69 (got $rc), message: $(head -c 200 "$T/e.err")" [ $rc -eq 69 ]
check "reqbufs error: the message names VIDIOC_REQBUFS" grep -q "VIDIOC_REQBUFS" "$T/e.err"
check "reqbufs error: previous shot intact" [ "$(current)" = "$prev" ]

v4l2-ctl -d "$VIVID" -c percentage_of_dropped_buffers=30 2>&1
shoot --device "$VIVID" --size 320x180 --fps 15 --seconds 3 --json > "$T/d.json" 2> "$T/d.err"; rc=$?
v4l2-ctl -d "$VIVID" -c percentage_of_dropped_buffers=0 2>&1
if [ $rc -eq 0 ]; then
  dropped=$(json "$T/d.json" framesDropped); dur=$(json "$T/d.json" durationSeconds)
  check "dropped buffers counted ($dropped)" [ "$dropped" -gt 0 ]
  # The clip covers the 3 s asked even when the camera dropped its last frames before the end.
  check "dropped buffers: duration stays true ($dur s)" near "$dur" 3 0.05
else bad "dropped-buffers shot exit $rc: $(tail -c 300 "$T/d.err")"; fi
