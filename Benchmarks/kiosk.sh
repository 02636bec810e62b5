#!/usr/bin/env bash
# What the kiosk service costs: CPU while idle (no viewer, no shot); the guest page's live mirror
# (GET /api/preview.mjpeg, 640x360 at 15 fps from the test pattern, one viewer): pictures a second,
# latency (each picture's age when sent, X-Age-Ms) and the CPU it adds, against the ffmpeg CLI
# making the same stream (testsrc2 640x360 15 fps to MJPEG, -f mpjpeg, in real time); and CPU per
# recorded minute at 720p30 from the built-in test pattern, against the ffmpeg CLI recording the
# same pattern (testsrc2, libx264 veryfast crf 23, in real time) for the same length.
#   Benchmarks/kiosk.sh                         # 60 s idle, 30 s of mirror, a 60 s shot
#   IDLE_SECONDS=20 MIRROR_SECONDS=10 SHOT_SECONDS=20 Benchmarks/kiosk.sh
#   REC=.build/debug/recorder Benchmarks/kiosk.sh   # another build
# The idle figure is the service's own cost: it must stay under 1% of one core.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v ffmpeg >/dev/null || { echo "install ffmpeg (scripts/setup.sh test)"; exit 69; }
command -v curl >/dev/null || { echo "install curl (scripts/setup.sh test)"; exit 69; }
if [ -z "${REC:-}" ]; then
  REC=$(bash scripts/build-release.sh 2>/dev/null)  # as scripts/run.sh builds it
fi
IDLE_SECONDS=${IDLE_SECONDS:-60}
MIRROR_SECONDS=${MIRROR_SECONDS:-30}
SHOT_SECONDS=${SHOT_SECONDS:-60}
OUT=Benchmarks/out/kiosk; rm -rf "$OUT"; mkdir -p "$OUT"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
ticks=$(getconf CLK_TCK)
cpu_seconds() { awk -v t="$ticks" '{ print ($14 + $15) / t }' "/proc/$1/stat"; }
state() { curl -s "http://127.0.0.1:$port/api/status" | sed -n 's/.*"state":"\([a-z-]*\)".*/\1/p'; }

env -u RECORDER_CONFIG "$REC" kiosk --device testsrc --listen "127.0.0.1:$port" --countdown 0 \
  --workspace "$OUT/ws" --outbox "$OUT/outbox" --store-dir "$OUT/store" --create 2> "$OUT/kiosk.log" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null' EXIT
for _ in $(seq 100); do [ "$(state)" = idle ] && break; sleep 0.1; done
sleep 2  # start-up work is not idle work
c0=$(cpu_seconds $pid); t0=$(date +%s.%N)
sleep "$IDLE_SECONDS"
c1=$(cpu_seconds $pid); t1=$(date +%s.%N)
idle=$(echo "($c1 - $c0) / ($t1 - $t0) * 100" | bc -l)

# The live mirror: one viewer reads the stream; the pictures, their ages and the CPU it costs.
python3 - "http://127.0.0.1:$port/api/preview.mjpeg" "$MIRROR_SECONDS" "$pid" "$ticks" > "$OUT/mirror.txt" <<'PY'
import statistics, sys, time, urllib.request
url, seconds, pid, ticks = sys.argv[1], float(sys.argv[2]), sys.argv[3], int(sys.argv[4])
def cpu():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / ticks
stream = urllib.request.urlopen(url, timeout=10)
def part():
    headers = {}
    while True:
        line = stream.readline().strip()
        if not line:
            if headers: break
            continue
        if b":" in line:
            k, v = line.split(b":", 1)
            headers[k.strip().lower()] = v.strip()
    stream.read(int(headers[b"content-length"]))
    return int(headers.get(b"x-age-ms", b"0"))
for _ in range(15):  # the camera opens, the first pictures come
    part()
c0, t0, ages = cpu(), time.monotonic(), []
while time.monotonic() - t0 < seconds:
    ages.append(part())
elapsed = time.monotonic() - t0
used = (cpu() - c0) / elapsed * 100
ages.sort()
print(f"{len(ages) / elapsed:.1f} {statistics.median(ages)} {ages[int(len(ages) * 0.95)]} {used:.2f}")
PY
read -r m_fps m_age m_age95 m_cpu < "$OUT/mirror.txt"
/usr/bin/env time -f "%U %S" -o "$OUT/ffmpeg-mirror.time" ffmpeg -v error -y -re -f lavfi -i "testsrc2=size=640x360:rate=15" \
  -t "$MIRROR_SECONDS" -c:v mjpeg -q:v 5 -f mpjpeg /dev/null
ff_mirror=$(awk -v s="$MIRROR_SECONDS" '{ print ($1 + $2) / s * 100 }' "$OUT/ffmpeg-mirror.time")
sleep 12  # the preview lets the camera go after 10 s without a viewer

c0=$(cpu_seconds $pid)
curl -s -X POST -H 'Content-Type: application/json' -d "{\"seconds\": $SHOT_SECONDS, \"countdown\": 0}" "http://127.0.0.1:$port/api/shoot" > /dev/null
sleep 1
while [ "$(state)" != idle ]; do sleep 0.2; done
c1=$(cpu_seconds $pid)
rec_per_min=$(echo "($c1 - $c0) * 60 / $SHOT_SECONDS" | bc -l)

/usr/bin/env time -f "%U %S" -o "$OUT/ffmpeg.time" ffmpeg -v error -y -re -f lavfi -i "testsrc2=size=1280x720:rate=30" \
  -t "$SHOT_SECONDS" -c:v libx264 -preset veryfast -crf 23 -pix_fmt yuv420p "$OUT/ffmpeg.mp4"
ff_per_min=$(awk -v s="$SHOT_SECONDS" '{ print ($1 + $2) * 60 / s }' "$OUT/ffmpeg.time")

printf "kiosk idle (no viewer, no shot, %s s): %.2f%% of one core (limit 1%%)\n" "$IDLE_SECONDS" "$idle"
printf "live mirror 640x360 (%s s, one viewer): %s pictures a second, picture age when sent median %s ms, 95%% %s ms\n" \
  "$MIRROR_SECONDS" "$m_fps" "$m_age" "$m_age95"
printf "live mirror CPU: recorder kiosk %.2f%% of one core (idle %.2f%% included; limit 5%%), ffmpeg making the same stream %.2f%%; ratio %.2fx\n" \
  "$m_cpu" "$idle" "$ff_mirror" "$(echo "$m_cpu / $ff_mirror" | bc -l)"
printf "recording 720p30 test pattern: recorder kiosk %.1f CPU-s per recorded minute, ffmpeg %.1f; ratio %.2fx\n" \
  "$rec_per_min" "$ff_per_min" "$(echo "$rec_per_min / $ff_per_min" | bc -l)"
awk -v i="$idle" 'BEGIN { exit !(i < 1.0) }' || { echo "idle cost is over 1% of a core"; exit 1; }
