# Sourced by Tests/vm/device-tests.sh after device/lib.sh.
section "injected DQBUF faults"
# Faults vivid cannot produce on demand, injected in front of libv4l2 (Tests/vm/v4l2-faults.c):
# a DQBUF that hands back a buffer index that was never mapped, and DQBUF saying EAGAIN forever
# after poll said ready. Before the fixes the first read past the mapped buffers and the second spun
# a core forever; now the first is a clear error and the second a stall after --stall-timeout.
if ${CC:-cc} -shared -fPIC -o "$T/v4l2-faults.so" "$HERE/v4l2-faults.c" -ldl 2> "$T/cc.err"; then
  prev=$(current)
  LD_PRELOAD=$T/v4l2-faults.so RECORDER_TEST_V4L2_FAULT=bad-index:10 timeout 120 \
    "$REC" shoot --workspace "$WS" --device "$VIVID" --size 320x180 --fps 15 --seconds 3 > /dev/null 2> "$T/f.err"; rc=$?
  check "bad buffer index: exit 69 ($rc), message: $(tail -c 250 "$T/f.err")" exits_saying $rc 69 "returned buffer 10[0-9][0-9] of" "$T/f.err"
  check "bad buffer index: previous shot intact" [ "$(current)" = "$prev" ]
  LD_PRELOAD=$T/v4l2-faults.so RECORDER_TEST_V4L2_FAULT=eagain:10 timeout 120 \
    "$REC" shoot --workspace "$WS" --device "$VIVID" --size 320x180 --fps 15 --seconds 20 --stall-timeout 2 --json > "$T/g.json" 2> "$T/g.err"; rc=$?
  check "EAGAIN after a ready poll: a stall, exit 69, not a loop forever ($rc: $(tail -c 250 "$T/g.err"))" exits_saying $rc 69 "delivered no frame for 2 s" "$T/g.err"
  check "EAGAIN after a ready poll: the 10 frames before it kept and playable ($(probe "$WS/current/video.mp4" nb_read_frames))" \
    [ "$(probe "$WS/current/video.mp4" nb_read_frames)" = 10 ]
  check "after the faults the camera records again" shoot --device "$VIVID" --size 320x180 --fps 15 --seconds 1
else
  bad "cannot build the fault injector with ${CC:-cc}: $(head -c 300 "$T/cc.err")"
fi
