# Sourced by Tests/vm/device-tests.sh after device/lib.sh.
section "known frames through v4l2loopback (YUYV)"
shoot --device "$LOOP" --seconds 3 --fps 15 --json > "$T/loop.json" 2> "$T/loop.err"; rc=$?
stop_producer
check "loopback yuyv shot exits 0 ($rc: $(tail -c 300 "$T/loop.err"))" [ $rc -eq 0 ]
if [ $rc -eq 0 ]; then
  v="$WS/current/video.mp4"
  out=$(python3 "$HERE/frame-index.py" "$v" "$FRAMES"); prc=$?; echo "  $out"
  check "loopback frames in order, each once, each the picture its buffer number says" [ $prc -eq 0 ]
  check "loopback size 320x240" [ "$(probe "$v" width,height | tr '\n' x)" = "320x240x" ]
  frames=$(probe "$v" nb_read_frames); dropped=$(json "$T/loop.json" framesDropped)
  check "loopback dropped frames counted as the sequence gaps ($dropped; $out)" [ "$dropped" = "$(seqstats | cut -d' ' -f2)" ]
  check "loopback frames + dropped ~ 3 s x 15 fps ($frames + $dropped)" near "$((frames + dropped))" 45 6
fi

section "MJPEG through v4l2loopback"
start_producer "$LOOP2" -c:v mjpeg -q:v 3 -pix_fmt yuvj422p || bad "mjpeg producer did not start: $(cat "$T/producer.log")"
shoot --device "$LOOP2" --seconds 2 --fps 15 --format mjpeg --json > "$T/mjpeg.json" 2> "$T/mjpeg.err"; rc=$?
stop_producer
check "mjpeg shot exits 0 ($rc: $(tail -c 300 "$T/mjpeg.err"))" [ $rc -eq 0 ]
if [ $rc -eq 0 ]; then
  check "mjpeg input reported" [ "$(json "$T/mjpeg.json" inputFormat)" = mjpeg ]
  out=$(python3 "$HERE/frame-index.py" "$WS/current/video.mp4" "$FRAMES"); prc=$?; echo "  $out"
  check "mjpeg frames decoded in order, each once, within tolerance" [ $prc -eq 0 ]
fi
