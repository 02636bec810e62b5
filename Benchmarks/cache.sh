#!/usr/bin/env bash
# Fetching a posted 100 MB video: `recorder fetch` from SeaweedFS into an empty cache (download,
# SHA-256 on the way, rename into the cache), `recorder fetch` again (a disk hit: the file is
# checked against the post's SHA-256 once per process), and the curl CLI downloading the same
# object (SigV4, no check). Prints wall time (best of RUNS, default 3), peak resident memory, and
# ratios. The cache must stream: its peak memory stays far below the video's size.
# Then playback while downloading: a 50 MB faststart MP4 behind the fault proxy's 2 MB/s download
# throttle, played through the kiosk (first byte and the browser's `canplay`, in chromium) against
# downloading it whole first (`recorder fetch`, the time before a kiosk that waits could send a byte).
# STREAM=0 leaves that part out.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v curl >/dev/null && [ -x /usr/bin/time ] || { echo "install curl and time (scripts/setup.sh test)"; exit 69; }
if [ -z "${REC:-}" ]; then
  REC=$(bash scripts/build-release.sh 2>/dev/null)  # as scripts/run.sh builds it
fi
OUT=$PWD/Benchmarks/out/cache; rm -rf "$OUT"; mkdir -p "$OUT"
RUNS=${RUNS:-3}
PORT=${PORT:-18556}
BUCKET=bench
. Benchmarks/s3-bench-env.sh

# The 100 MB file, posted to the store.
fake_shot 1
post=$("$REC" post --caption bench --json | sed -n 's/.*"id":"\([A-Za-z0-9]*\)".*/\1/p')
[ -n "$post" ] || { echo "posting the benchmark video failed"; exit 1; }

# Prints "seconds peak_kib" of one run of the command.
measure() { /usr/bin/time -f "%e %M" -o "$OUT/time" "$@" > /dev/null 2>&1; cat "$OUT/time"; }
best() { # label, then the command; keeps the fastest run
  local label=$1; shift
  local best_t="" best_m=""
  for _ in $(seq "$RUNS"); do
    [ "$label" = cold ] && "$REC" cache clear > /dev/null
    rm -f "$OUT/curl.out"
    read -r t m <<< "$(measure "$@")"
    if [ -z "$best_t" ] || [ "$(echo "$t < $best_t" | bc -l)" = 1 ]; then best_t=$t; best_m=$m; fi
  done
  echo "$best_t $best_m"
}

read -r cold_t cold_m <<< "$(best cold "$REC" fetch "$post")"
read -r warm_t warm_m <<< "$(best warm "$REC" fetch "$post")"
read -r curl_t curl_m <<< "$(best curl curl -sS -f --aws-sigv4 aws:amz:us-east-1:s3 --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
  -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" -o "$OUT/curl.out" "http://127.0.0.1:$PORT/$BUCKET/videos/$post.mp4")"
cmp -s "$OUT/curl.out" "$OUT/file.bin" || { echo "curl fetched other bytes"; exit 1; }
cached=$("$REC" fetch "$post")
cmp -s "$cached" "$OUT/file.bin" || { echo "the cache holds other bytes"; exit 1; }

ratio() { echo "scale=2; $1 / $2" | bc -l; }
printf "%-44s %8s %12s %14s\n" "100 MB video" "seconds" "peak MiB" "time vs curl"
printf "%-44s %8s %12s %14s\n" "curl (SigV4 GET, no check)" "$curl_t" "$((curl_m / 1024))" "1.00"
printf "%-44s %8s %12s %14s\n" "recorder fetch, empty cache (from the store)" "$cold_t" "$((cold_m / 1024))" "$(ratio "$cold_t" "$curl_t")"
printf "%-44s %8s %12s %14s\n" "recorder fetch, cached (disk, SHA-256 check)" "$warm_t" "$((warm_m / 1024))" "$(ratio "$warm_t" "$curl_t")"

[ "${STREAM:-1}" = 1 ] || exit 0
# A 50 MB faststart MP4 (noise keeps x264 from making it small), posted as a shot.
ffmpeg -v error -y -f lavfi -i "testsrc2=size=1280x720:rate=30,noise=alls=30:allf=t" -t 30 -c:v libx264 -preset ultrafast \
  -b:v 13M -maxrate 13M -bufsize 26M -pix_fmt yuv420p -movflags +faststart "$OUT/clip.mp4"
bytes=$(stat -c %s "$OUT/clip.mp4")
ws=$XDG_RUNTIME_DIR/recorder; rm -rf "$ws"; mkdir -p "$ws/shots/bench-clip"
cp "$OUT/clip.mp4" "$ws/shots/bench-clip/video.mp4"
cat > "$ws/shots/bench-clip/shot.json" <<JSON
{"id":"bench-clip","videoPath":"$ws/shots/bench-clip/video.mp4","createdAt":"2026-01-01T00:00:00Z","source":"benchmark",
 "inputFormat":"yu12","width":1280,"height":720,"frameRate":30,"frames":900,"framesDropped":0,"durationSeconds":30,
 "byteSize":$bytes,"codec":"h264","encoder":"libx264","notes":[]}
JSON
ln -sfn shots/bench-clip "$ws/current"
clip=$("$REC" post --caption streaming --json | sed -n 's/.*"id":"\([A-Za-z0-9]*\)".*/\1/p')
[ -n "$clip" ] || { echo "posting the 50 MB clip failed"; exit 1; }

# The fault proxy in front of the store, sending videos back at 2 MB/s; a kiosk that reads through it.
PROXY=${PROXY:-18557}; KIOSK=${KIOSK:-18558}
mkdir -p "$OUT/proxy"
echo '[{"match": "GET /'"$BUCKET"'/videos/", "action": "throttle-download", "rate": 2000000, "count": 1000000}]' > "$OUT/proxy/faults.json"
python3 Tests/s3/faultproxy.py "$PROXY" "$PORT" "$OUT/proxy" & proxy_pid=$!
RECORDER_S3_ENDPOINT=http://127.0.0.1:$PROXY "$REC" kiosk --device testsrc --listen "127.0.0.1:$KIOSK" > "$OUT/kiosk.log" 2>&1 & kiosk_pid=$!
trap 'kill $kiosk_pid $proxy_pid 2>/dev/null; bash Tests/s3/seaweedfs.sh stop "$OUT/s3"' EXIT
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$KIOSK/healthz" && break; sleep 0.2; done
url=http://127.0.0.1:$KIOSK/api/videos/$clip.mp4

"$REC" cache clear > /dev/null
read -r curl_first curl_total <<< "$(curl -sS -o "$OUT/streamed.mp4" -w '%{time_starttransfer} %{time_total}' "$url")"
cmp -s "$OUT/streamed.mp4" "$OUT/clip.mp4" || { echo "the kiosk streamed other bytes"; exit 1; }
"$REC" cache clear > /dev/null
canplay=$(.cache/venv/bin/python Benchmarks/canplay.py "$url")
# (the kiosk's download goes on to the end for its cache: let it finish, or the next fetch waits for it)
while ls "$XDG_CACHE_HOME"/recorder/videos/.tmp-* > /dev/null 2>&1; do sleep 0.5; done
"$REC" cache clear > /dev/null
whole=$( { /usr/bin/time -f "%e" env RECORDER_S3_ENDPOINT=http://127.0.0.1:$PROXY "$REC" fetch "$clip" > /dev/null; } 2>&1 | tail -n1)
"$REC" cache clear > /dev/null

echo
printf "%-62s %12s %10s\n" "$((bytes / 1000000)) MB video, store sending 2 MB/s" "first byte" "canplay"
printf "%-62s %12s %10s\n" "downloaded whole first (recorder fetch; a byte only after it)" "$whole" "> $whole"
printf "%-62s %12s %10s\n" "kiosk, streamed as it arrives (curl)" "$curl_first" "-"
printf "%-62s %12s %10s\n" "kiosk, streamed as it arrives (chromium <video>)" "-" "$canplay"
printf "%-62s %12s\n" "kiosk, the whole answer (curl)" "$curl_total"
