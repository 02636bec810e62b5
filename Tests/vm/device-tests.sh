#!/usr/bin/env bash
# Device tests: run INSIDE the qemu guest (Tests/vm/run-in-vm.sh) or on a host that has the vivid
# and v4l2loopback modules loaded (vivid n_devs=1; v4l2loopback video_nr=10 exclusive_caps=1).
# Each check prints PASS/FAIL; the last line is "N passed, M failed".
set -u
REC=${RECORDER_BIN:-$PWD/.build/debug/recorder}
VIVID=${VIVID_DEVICE:-/dev/video0}
LOOP=${LOOPBACK_DEVICE:-/dev/video10}
LOOP2=${LOOPBACK_DEVICE2:-/dev/video11}  # a second loopback node for MJPEG: a node keeps its first producer's format
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/devtests.XXXXXX); chmod 755 "$T"
WS=$T/ws
pass=0; fail=0
ok()  { echo "PASS: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
check() { local name=$1; shift; if "$@"; then ok "$name"; else bad "$name"; fi; }
# Exit status $1 was $2 and file $4 says $3 (a grep pattern): one check, so both count.
exits_saying() { [ "$1" -eq "$2" ] && grep -q "$3" "$4"; }
# section NAME: prints how long the previous section took, then the new one's heading (the host's
# run-in-vm.sh names the last heading when the guest runs out of time).
SECTION=; SECTION_START=$SECONDS
section() {
  [ -n "$SECTION" ] && echo "   (section '$SECTION' took $((SECONDS - SECTION_START)) s)"
  SECTION=$1; SECTION_START=$SECONDS
  [ -n "$1" ] && echo "== $1"
}

for need in "$REC" v4l2-ctl ffmpeg ffprobe python3; do
  command -v "$need" >/dev/null || [ -x "$need" ] || { echo "FAIL: missing $need"; echo "0 passed, 1 failed"; exit 1; }
done
[ -e "$VIVID" ] || { echo "FAIL: $VIVID missing: vivid is not loaded"; echo "0 passed, 1 failed"; exit 1; }
[ -e "$LOOP" ] || { echo "FAIL: $LOOP missing: v4l2loopback is not loaded"; echo "0 passed, 1 failed"; exit 1; }

# Every shot logs the V4L2 sequence number of each recorded frame (RECORDER_FRAME_LOG): a gap is a
# frame dropped under load (allowed, and recorder must count it); a repeat is never allowed.
FRAMES=$T/frames.log
shoot() { RECORDER_FRAME_LOG=$FRAMES "$REC" shoot --workspace "$WS" "$@"; }
# "<recorded> <seqgaps> <repeats>" from the frame log.
seqstats() { python3 -c "
s=[int(l.split()[0]) for l in open('$FRAMES') if l.strip()]
print(len(s), sum(b-a-1 for a,b in zip(s,s[1:]) if b>a+1), sum(1 for a,b in zip(s,s[1:]) if b<=a))"; }
# Waits until a background shot is really recording (its fragmented file has data), then $1 seconds:
# under emulation start-up takes seconds, and a signal sent before the handler exists is lost.
wait_recording() {
  for _ in $(seq 1 150); do
    ls "$WS"/.incoming-*/recording.mp4 >/dev/null 2>&1 && [ -s "$(ls "$WS"/.incoming-*/recording.mp4 | head -1)" ] && break
    sleep 0.2
  done
  sleep "$1"
}
probe() { ffprobe -v error -count_frames -select_streams v:0 -show_entries "stream=$2" -of default=nw=1:nk=1 "$1"; }
current() { readlink "$WS/current"; }
json() { python3 -c "import json,sys; print(json.load(open('$1'))['$2'])"; }
near() { python3 -c "import sys; sys.exit(0 if abs($1 - $2) <= $3 else 1)"; }

# Producer for v4l2loopback: frame N carries N in 8 black/white bars (see frame-index.py).
# Rendered once up front: the geq filter is too slow under emulation to run in real time.
ffmpeg -v error -f lavfi -i "color=c=black:s=320x240:r=15,format=gray,geq=lum='if(bitand(N\,pow(2\,floor(X/40)))\,235\,16)'" \
  -frames:v 256 -f rawvideo -pix_fmt gray "$T/bars.gray"
start_producer() {  # $1: device, then extra ffmpeg output args
  local dev=$1; shift
  ffmpeg -v error -re -stream_loop -1 -f rawvideo -pix_fmt gray -s 320x240 -r 15 -i "$T/bars.gray" "$@" -f v4l2 "$dev" > "$T/producer.log" 2>&1 &
  PRODUCER=$!
  for _ in $(seq 1 50); do v4l2-ctl -d "$dev" --get-fmt-video 2>/dev/null | grep -q "Width/Height" && return 0; sleep 0.2; done
  return 1
}
stop_producer() { kill "$PRODUCER" 2>/dev/null; wait "$PRODUCER" 2>/dev/null; sleep 0.5; }

section "recorder devices"
start_producer "$LOOP" -pix_fmt yuyv422 || bad "loopback producer did not start: $(cat "$T/producer.log")"
"$REC" devices > "$T/devices.txt" 2>&1
cat "$T/devices.txt"
check "devices lists vivid with YUYV 320x180" grep -q "vivid" "$T/devices.txt"
check "devices lists vivid formats" grep -q "NV12 .*320x180@" "$T/devices.txt"
check "devices lists the loopback device" grep -q "$LOOP .*recorder-loopback" "$T/devices.txt"
"$REC" devices --json > "$T/devices.json"
check "devices --json parses" python3 -c "import json; d=json.load(open('$T/devices.json')); assert any(x['driver']=='vivid' for x in d)"

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

section "vivid raw formats and sizes"
for fmt in yuyv nv12 yu12 rgb24; do
  for size in 320x180 640x360; do
    shoot --device "$VIVID" --format "$fmt" --size "$size" --fps 15 --seconds 2 --json > "$T/s.json" 2> "$T/s.err"; rc=$?
    if [ $rc -ne 0 ]; then bad "vivid $fmt $size exit $rc: $(tail -c 300 "$T/s.err")"; continue; fi
    v="$WS/current/video.mp4"
    wh=$(probe "$v" width,height | tr '\n' x); frames=$(probe "$v" nb_read_frames)
    dur=$(ffprobe -v error -show_entries format=duration -of default=nw=1:nk=1 "$v")
    dropped=$(json "$T/s.json" framesDropped); read -r logged seqgaps repeats <<< "$(seqstats)"
    # A busy machine may drop frames (counted: the sequence gaps); none may be recorded twice,
    # and no more can be recorded than 2 s hold.
    if [ "$wh" = "${size}x" ] && near "$((frames + dropped))" 30 4 && [ "$frames" -le 31 ] && [ "$frames" -ge 3 ] \
       && [ "$logged" = "$frames" ] && [ "$repeats" = 0 ] && [ "$seqgaps" = "$dropped" ] \
       && near "$dur" 2 0.15 && ffmpeg -v error -i "$v" -f null - 2>/dev/null && [ "$(json "$T/s.json" inputFormat)" = "$fmt" ]; then
      ok "vivid $fmt $size: $frames frames + $dropped dropped, $dur s, none repeated"
    else
      bad "vivid $fmt $size: size $wh frames $frames dropped $dropped (log: $logged recorded, gaps $seqgaps, repeats $repeats) duration $dur input $(json "$T/s.json" inputFormat)"
    fi
  done
done

section "faults"
prev=$(current)
v4l2-ctl -d "$VIVID" -c inject_vidioc_streamon_error=1 2>&1
shoot --device "$VIVID" --size 320x180 --seconds 1 2> "$T/e.err"; rc=$?
check "streamon error: non-zero exit ($rc), message: $(head -c 200 "$T/e.err")" [ $rc -ne 0 ]
check "streamon error: previous shot intact" [ "$(current)" = "$prev" ]
check "streamon error: device not left streaming (next shot works)" shoot --device "$VIVID" --size 320x180 --fps 15 --seconds 1
prev=$(current)
v4l2-ctl -d "$VIVID" -c inject_vidioc_reqbufs_error=1 2>&1
shoot --device "$VIVID" --size 320x180 --seconds 1 2> "$T/e.err"; rc=$?
check "reqbufs error: non-zero exit ($rc), message: $(head -c 200 "$T/e.err")" [ $rc -ne 0 ]
check "reqbufs error: previous shot intact" [ "$(current)" = "$prev" ]

v4l2-ctl -d "$VIVID" -c percentage_of_dropped_buffers=30 2>&1
shoot --device "$VIVID" --size 320x180 --fps 15 --seconds 3 --json > "$T/d.json" 2> "$T/d.err"; rc=$?
v4l2-ctl -d "$VIVID" -c percentage_of_dropped_buffers=0 2>&1
if [ $rc -eq 0 ]; then
  dropped=$(json "$T/d.json" framesDropped); dur=$(json "$T/d.json" durationSeconds)
  check "dropped buffers counted ($dropped)" [ "$dropped" -gt 0 ]
  check "dropped buffers: duration stays true ($dur s)" near "$dur" 3 0.3
else bad "dropped-buffers shot exit $rc: $(tail -c 300 "$T/d.err")"; fi

section "busy device and permissions"
# busy: another process streams from the device
v4l2-ctl -d "$VIVID" --set-fmt-video=width=320,height=180 --stream-mmap --stream-count=100000 > /dev/null 2>&1 &
holder=$!; sleep 2
shoot --device "$VIVID" --size 320x180 --seconds 1 2> "$T/b.err"; rc=$?
kill $holder; wait $holder 2>/dev/null
check "busy device: exit 75 ($rc), message: $(head -c 200 "$T/b.err")" exits_saying $rc 75 busy "$T/b.err"

# permission: a node this user cannot open
getent group video >/dev/null || groupadd -r video 2>/dev/null || true
chgrp video "$VIVID"; chmod 660 "$VIVID"
mkdir -p "$T/nobody"; chmod 777 "$T/nobody"
setpriv --reuid=65534 --regid=65534 --clear-groups "$REC" shoot --workspace "$T/nobody/ws" --device "$VIVID" --seconds 1 2> "$T/p.err"; rc=$?
chmod 600 "$VIVID"; chgrp root "$VIVID"
check "permission denied: exit 77 ($rc), message names group video: $(head -c 300 "$T/p.err")" exits_saying $rc 77 "group 'video'" "$T/p.err"

section "Ctrl-C mid-shot"
"$REC" shoot --workspace "$WS" --device "$VIVID" --size 320x180 --fps 15 --seconds 60 > "$T/i.out" 2> "$T/i.err" &
pid=$!; wait_recording 2; kill -INT $pid; wait $pid; rc=$?
check "SIGINT: exit 0 ($rc)" [ $rc -eq 0 ]
check "SIGINT: reported as stopped ($(cat "$T/i.out" "$T/i.err" | tail -c 400))" grep -q "ended early: stopped" "$T/i.out"
check "SIGINT: shorter file plays" ffmpeg -v error -i "$WS/current/video.mp4" -f null -

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

section "kill -9 and recovery"
# kill -9 mid-shot (a crash or power cut): the next start recovers the clip as the current shot
"$REC" shoot --workspace "$WS" --device "$VIVID" --size 320x180 --fps 15 --seconds 60 > /dev/null 2>&1 &
pid=$!; wait_recording 3; kill -9 $pid; wait $pid 2>/dev/null
shoot --device "$VIVID" --size 320x180 --fps 15 --seconds 1 --json > "$T/k.json" 2> "$T/k.err"; rc=$?
check "kill -9: the next shoot recovers the clip and records its own ($rc: $(head -c 300 "$T/k.err"))" exits_saying $rc 0 "recovered an interrupted recording" "$T/k.err"
kept=$(ls -d "$WS"/kept/*/ 2>/dev/null | tail -n 1)
check "kill -9: the recovered clip is kept beside the new shot ($kept), shot.json marks it recovered" \
  python3 -c "import json,sys; sys.exit(0 if json.load(open('${kept}shot.json')).get('recovered') else 1)"
check "kill -9: the recovered clip plays ($(probe "${kept}video.mp4" nb_read_frames) frames)" ffmpeg -v error -i "${kept}video.mp4" -f null -
check "kill -9: the new shot is current and not the recovered one" python3 -c "import json,sys; sys.exit(1 if json.load(open('$WS/current/shot.json')).get('recovered') else 0)"

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

section ""
rm -rf "$T"
echo "device tests took $SECONDS s"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
