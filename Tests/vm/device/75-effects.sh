# Sourced by Tests/vm/device-tests.sh after device/lib.sh.
# Effects and loudness on real drivers (issue 53), read back by ffprobe and ffmpeg, not recorder:
# - slow motion on vivid: at 320x180 its fastest is 60 fps (YUYV): the shot asks for it, plays it at
#   30 fps with every recorded picture once (as many as the frame log says the camera delivered and
#   recorder recorded) and lasts twice the take; at 640x480 vivid's fastest is 25 fps: nothing is
#   slowed, and the shot says the camera is too slow;
# - loudness: a 1 kHz tone at -40, -25 and -12 dBFS played into snd-aloop (hw:Loopback,0,0) and
#   recorded from its capture side: ffmpeg's ebur128 reads -16 +- 1 LUFS and a true peak at most
#   -1 dBTP (the test beep, and the pictures' packets copied untouched, are the host's
#   LoudnessTests); a take with nothing played is silent and left as it is.
section "effects: slow motion on vivid at its fastest"
# Keys of a shot JSON (dotted), space-separated, "None" for one absent (one Python start for them
# all: a second or more each under emulation).
shot_key() { python3 -c 'import json, sys
doc, out = json.load(open(sys.argv[1])), []
for key in sys.argv[2:]:
    v = doc
    for k in key.split("."): v = v.get(k) if isinstance(v, dict) else None
    out.append(str(v))
print(" ".join(out))' "$@"; }
rm -f "$FRAMES"
shoot --device "$VIVID" --format yuyv --size 320x180 --effect slowmo --audio none --seconds 4 --json > "$T/slow.json" 2> "$T/slow.err"; rc=$?
check "slow motion at 320x180 exits 0 ($rc: $(tail -c 300 "$T/slow.err"))" [ $rc -eq 0 ]
if [ $rc -eq 0 ]; then
  # (no /dev/fd in the guest: no process substitution)
  set -- $(seqstats); recorded=$1 gaps=$2 repeats=$3
  dir="$WS/$(current)"
  set -- $(probe_all "$dir/take.mp4" "$T/take.err"); take_frames=$3 take_seconds=$4
  set -- $(probe_all "$dir/video.mp4" "$T/slow-probe.err"); slow_frames=$3 slow_seconds=$4
  # Each picture at twice its time in the take (so the take's 60 fps play at 30; a picture the
  # busy guest dropped leaves its gap, twice as long, never a made-up picture in it).
  stretched=$(for f in take video; do ffprobe -v error -select_streams v:0 -show_entries packet=pts_time -of csv=p=0 "$dir/$f.mp4" | tr '\n' ' '; echo; done |
    python3 -c 'import sys
take, slow = ([float(x) for x in line.split()] for line in sys.stdin.read().splitlines()[:2])
print("yes" if len(take) == len(slow) and all(abs(2 * a - b) < 0.002 for a, b in zip(sorted(take), sorted(slow))) else "no")')
  fast=$(shot_key "$T/slow.json" effect.slowMotion.recordedFrameRate effect.slowMotion.factor)
  check "the camera delivered 60 fps at 320x180 and it plays 2x slower (recorded fps, factor: $fast)" [ "$fast" = "60 2" ]
  check "every recorded picture once: the frame log's $recorded ($gaps dropped by the busy guest, $repeats repeated), the take's $take_frames, slow motion's $slow_frames" \
    [ "$recorded $slow_frames $repeats" = "$take_frames $take_frames 0" ]
  twice=no; near "$slow_seconds" "$(awk -v s="$take_seconds" 'BEGIN { print 2 * s }')" 0.1 && [ "$stretched" = yes ] && twice=yes
  check "slow motion lasts twice the take ($slow_seconds s, the take $take_seconds s), each picture at twice its time ($stretched)" [ $twice = yes ]
  check "both decode without an error ($(cat "$T/take.err" "$T/slow-probe.err" | head -c 200))" [ "$(cat "$T/take.err" "$T/slow-probe.err")" = "" ]
fi
shoot --device "$VIVID" --format yuyv --size 640x480 --effect slowmo --audio none --seconds 2 --json > "$T/slow25.json" 2> "$T/slow25.err"; rc=$?
check "slow motion at 640x480 (vivid's fastest there is 25 fps) exits 0 ($rc)" [ $rc -eq 0 ]
if [ $rc -eq 0 ]; then
  said=$(shot_key "$T/slow25.json" effect.notRendered.cameraTooSlow.fastest effect.slowMotion.cameraLimited)
  check "the shot says the camera is too slow (cameraTooSlow fps, cameraLimited: $said)" [ "$said" = "25 True" ]
  set -- $(probe_all "$WS/$(current)/video.mp4" "$T/slow25-probe.err"); frames=$3 seconds=$4
  plain=no; near "$seconds" 2 0.3 && [ ! -e "$WS/$(current)/take.mp4" ] && plain=yes
  check "and is its take, not slowed: $frames pictures in $seconds s, no take.mp4 beside it" [ $plain = yes ]
fi

section "loudness: tones through snd-aloop"
MIC=hw:CARD=Loopback,DEV=1
# Integrated loudness and true peak of a file's sound, by ffmpeg's ebur128: "I TP".
r128() { ffmpeg -hide_banner -nostats -i "$1" -map 0:a:0 -af ebur128=peak=true -f null - 2>&1 |
  awk '/Integrated loudness/ { i = 1 } i && /I:/ { I = $2; i = 0 } /True peak/ { p = 1 } p && /Peak:/ { P = $2; p = 0 } END { print I, P }'; }
# (40 s of tone: under emulation a busy guest may take many seconds to start a shot)
# (one period of 48 samples, repeated: an ffmpeg start and 40 s of tone take a minute under
# emulation; the three tones from one Python start)
python3 -c 'import math, struct, sys, wave
for level in sys.argv[2:]:
    period = b"".join(struct.pack("<hh", s, s) for s in (round(32767 * 10 ** (float(level) / 20) * math.sin(2 * math.pi * i / 48)) for i in range(48)))
    w = wave.open(f"{sys.argv[1]}/tone{level}.wav", "wb"); w.setnchannels(2); w.setsampwidth(2); w.setframerate(48000); w.writeframes(period * 40000); w.close()' "$T" -40 -25 -12
for level in -40 -25 -12; do
  aplay -q -D hw:Loopback,0,0 "$T/tone$level.wav" > "$T/aplay.log" 2>&1 & APLAY=$!
  sleep 1
  shoot --device testsrc --size 320x240 --audio "$MIC" --seconds 3 --json > "$T/tone.json" 2> "$T/tone.err"; rc=$?
  kill $APLAY 2>/dev/null; wait $APLAY 2>/dev/null
  if [ $rc -ne 0 ]; then bad "a tone at $level dBFS: the shot exits $rc ($(tail -c 300 "$T/tone.err"))"; continue; fi
  set -- $(r128 "$WS/current/video.mp4"); I=${1:-} TP=${2:-}
  level_ok=no; near "$I" -16 1 && awk -v p="$TP" 'BEGIN { exit !(p <= -1) }' && level_ok=yes
  read -r before after <<< "$(shot_key "$T/tone.json" audio.loudness.before.integratedLUFS audio.loudness.after.integratedLUFS)"
  check "a tone at $level dBFS ($before LUFS recorded) reads $I LUFS, true peak $TP dBTP (shot: $after LUFS)" [ $level_ok = yes ]
done
# Nothing played: the silent-take guard calls it silent, and it is left as it is.
shoot --device testsrc --size 320x240 --audio "$MIC" --seconds 3 --json > "$T/quiet.json" 2> "$T/quiet.err"; rc=$?
quiet="$rc $(shot_key "$T/quiet.json" audio.check.result audio.loudness.left)"
check "a take with nothing played is silent and left as recorded (exit, audio.check, audio.loudness.left: $quiet)" [ "$quiet" = "0 silent {'silent': {}}" ]
