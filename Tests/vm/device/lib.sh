# Shared by the device test sections (sourced by Tests/vm/device-tests.sh, never run alone):
# the devices, the workspace, the PASS/FAIL counters and the helpers the sections use.
REC=${RECORDER_BIN:-$PWD/.build/debug/recorder}
VIVID=${VIVID_DEVICE:-/dev/video0}
LOOP=${LOOPBACK_DEVICE:-/dev/video10}
LOOP2=${LOOPBACK_DEVICE2:-/dev/video11}  # a second loopback node for MJPEG: a node keeps its first producer's format
T=$(mktemp -d /tmp/devtests.XXXXXX); chmod 755 "$T"
WS=$T/ws
pass=0; fail=0; failed_checks=()
ok()  { echo "PASS: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); failed_checks+=("$SECTION: $*"); }
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
seqstats() { python3 "$HERE/device/shots.py" seqstats "$FRAMES"; }
# Waits (up to 60 s) until a background shot is really recording (its fragmented file has data),
# then $1 seconds: under emulation start-up takes seconds, and a signal sent before the handler
# exists is lost. (Not until its first fragment of frames: under load the encoder writes that
# seconds late, and the overrun section's stall then came 13 s into a 20 s shot, too late for the
# three pairs after it that it needs; ci29.)
wait_recording() {
  for _ in $(seq 1 300); do
    ls "$WS"/.incoming-*/recording.mp4 >/dev/null 2>&1 && [ -s "$(ls "$WS"/.incoming-*/recording.mp4 | head -1)" ] && break
    sleep 0.2
  done
  sleep "$1"
}
probe() { ffprobe -v error -count_frames -select_streams v:0 -show_entries "stream=$2" -of default=nw=1:nk=1 "$1"; }
# "<width> <height> <frames decoded> <duration>" of a video in one ffprobe run; what the decoder
# complained of (any error is a damaged file) goes to $2.
probe_all() {
  ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=width,height,nb_read_frames:format=duration \
    -of default=nw=1:nk=1 "$1" 2> "$2" | tr '\n' ' '
}
current() { readlink "$WS/current"; }
json() { python3 "$HERE/device/shots.py" field "$1" "$2"; }
# json FILE KEY...: the keys' values, space-separated, from one reader (a program's start costs about
# a second under emulation, an FFmpeg program's several: the sections start as few as they can).
fields() { python3 "$HERE/device/shots.py" fields "$@"; }
# near A B TOLERANCE: |A - B| <= TOLERANCE (awk: a tenth of python's start under emulation).
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= t) }'; }
# Whether the shot.json at $1 says the shot was recovered after a crash.
recovered() { python3 "$HERE/device/shots.py" recovered "$1"; }

# Producer for v4l2loopback: frame N carries N in 8 black/white bars (see frame-index.py): bar b
# (x 40b to 40b+39) white (235) when bit b of N is set, else black (16); 256 frames of 320x240 gray.
# Written by Python, once up front: byte for byte what ffmpeg's geq filter made
# (lum='if(bitand(N,pow(2,floor(X/40))),235,16)'), which took 1-3 minutes under emulation.
python3 -c 'import sys
rows = [bytes(235 if n & (1 << (x // 40)) else 16 for x in range(320)) for n in range(256)]
open(sys.argv[1], "wb").write(b"".join(row * 240 for row in rows))' "$T/bars.gray"
start_producer() {  # $1: device, then extra ffmpeg output args
  local dev=$1; shift
  ffmpeg -v error -re -stream_loop -1 -f rawvideo -pix_fmt gray -s 320x240 -r 15 -i "$T/bars.gray" "$@" -f v4l2 "$dev" > "$T/producer.log" 2>&1 &
  PRODUCER=$!
  for _ in $(seq 1 50); do v4l2-ctl -d "$dev" --get-fmt-video 2>/dev/null | grep -q "Width/Height" && return 0; sleep 0.2; done
  return 1
}
stop_producer() { kill "$PRODUCER" 2>/dev/null; wait "$PRODUCER" 2>/dev/null; sleep 0.5; }

