#!/usr/bin/env bash
# A host's Download all against fetching the same videos one by one: POSTS posts (default 11) of
# the 100 MB file of random bytes in SeaweedFS (about 1 GiB), a gallery of them, `recorder serve`
# over the store; then the wall time of `curl` downloading the gallery's ZIP from the server (read
# from the store as it is sent, one streamed GET per post, no file on the server) against `curl` fetching
# each post's object from the store itself (SigV4) one after the other. RUNS rounds (default 7),
# each timing the two (and nginx, below) in turn, so a pair shares the machine's speed as it drifts:
# prints the median and best seconds, MB/s, the median of the rounds' speed ratios (>= 0.9
# wanted), and the server's peak resident memory.
# The first ZIP also computes nothing: each post's CRC-32 comes with its metadata. The ZIP is checked
# with `unzip -t` once.
#   bash Benchmarks/gallery-zip.sh            (REC=path/to/recorder to skip the release build)
#   POSTS=3 RUNS=1 bash Benchmarks/gallery-zip.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v curl >/dev/null && command -v unzip >/dev/null && [ -x /usr/bin/time ] || { echo "install curl, unzip and time (scripts/setup.sh test)"; exit 69; }
if [ -z "${REC:-}" ]; then
  REC=$(bash scripts/build-release.sh 2>/dev/null)  # as scripts/run.sh builds it
fi
OUT=$PWD/Benchmarks/out/gallery-zip; rm -rf "$OUT"; mkdir -p "$OUT"
RUNS=${RUNS:-7}
POSTS=${POSTS:-11}
PORT=${PORT:-18566}
SERVE=${SERVE:-18567}
BUCKET=bench
. Benchmarks/s3-bench-env.sh
export RECORDER_SHARE_BASE_URL="http://127.0.0.1:$SERVE/s/{token}"

ids=()
for i in $(seq "$POSTS"); do
  fake_shot "$i"
  ids+=("$("$REC" post --caption "post $i" --json | sed -n 's/.*"id":"\([A-Za-z0-9]*\)".*/\1/p')")
done
token=$("$REC" gallery create --event bench --no-card --json | sed -n 's/.*"token":"\([A-Za-z0-9]*\)".*/\1/p')
[ -n "$token" ] || { echo "making the gallery failed"; exit 1; }
"$REC" serve --listen "127.0.0.1:$SERVE" > "$OUT/serve.log" 2>&1 & serve_pid=$!
trap 'kill $serve_pid 2>/dev/null; bash Tests/s3/seaweedfs.sh stop "$OUT/s3"' EXIT
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$SERVE/healthz" && break; sleep 0.2; done

# The ZIP once, checked.
curl -sSf -o "$OUT/all.zip" "http://127.0.0.1:$SERVE/g/$token/archive.zip"
unzip -tq "$OUT/all.zip" > /dev/null || { echo "unzip -t refused the archive"; exit 1; }
bytes=$(stat -c %s "$OUT/all.zip"); rm -f "$OUT/all.zip"

one_by_one() {
  for id in "${ids[@]}"; do
    curl -sSf --aws-sigv4 aws:amz:us-east-1:s3 --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
      -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" -o /dev/null "http://127.0.0.1:$PORT/$BUCKET/videos/$id.mp4"
  done
}
seconds() { local start end; start=$(date +%s.%N); "$@"; end=$(date +%s.%N); echo "$end - $start" | bc -l; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
least() { printf '%s\n' "$@" | sort -g | head -1; }
# What passing the bytes on costs by itself: the same objects fetched one by one through Debian's
# nginx as a plain reverse proxy to the store (no ZIP, no check), on the same cores as the store.
PROXY=${PROXY:-18568}
if command -v nginx > /dev/null; then
  mkdir -p "$OUT/nginx"
  cat > "$OUT/nginx/nginx.conf" <<NGINX
worker_processes 1;
pid $OUT/nginx/nginx.pid;
error_log $OUT/nginx/error.log;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path $OUT/nginx; proxy_temp_path $OUT/nginx; fastcgi_temp_path $OUT/nginx;
  uwsgi_temp_path $OUT/nginx; scgi_temp_path $OUT/nginx;
  server {
    listen 127.0.0.1:$PROXY;
    location / { proxy_pass http://127.0.0.1:$PORT; proxy_set_header Host \$http_host; proxy_http_version 1.1;
                 proxy_buffering off; proxy_buffer_size 1m; proxy_buffers 4 1m; proxy_busy_buffers_size 2m; }
  }
}
NGINX
  nginx -c "$OUT/nginx/nginx.conf" -e "$OUT/nginx/error.log"
  trap 'kill $serve_pid 2>/dev/null; nginx -c "$OUT/nginx/nginx.conf" -e "$OUT/nginx/error.log" -s stop 2>/dev/null; bash Tests/s3/seaweedfs.sh stop "$OUT/s3"' EXIT
fi
through_nginx() {
  for id in "${ids[@]}"; do
    curl -sSf --aws-sigv4 aws:amz:us-east-1:s3 --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
      -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" -o /dev/null "http://127.0.0.1:$PROXY/$BUCKET/videos/$id.mp4"
  done
}
zips=(); objects=(); proxies=(); ratios=(); proxy_ratios=()
for _ in $(seq "$RUNS"); do
  z=$(seconds curl -sSf -o /dev/null "http://127.0.0.1:$SERVE/g/$token/archive.zip")
  o=$(seconds one_by_one)
  zips+=("$z"); objects+=("$o"); ratios+=("$(echo "$o / $z" | bc -l)")
  if command -v nginx > /dev/null; then
    p=$(seconds through_nginx)
    proxies+=("$p"); proxy_ratios+=("$(echo "$o / $p" | bc -l)")
  fi
done
peak=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\).*/\1/p' "/proc/$serve_pid/status")

mbs() { echo "scale=1; $bytes / 1000000 / $1" | bc -l; }
row() {  # label, then the round's seconds; the paired ratios in RATIOS
  local label=$1; shift
  local m; m=$(median "$@")
  printf "%-52s %7.2f %6.2f %8s %7.2f\n" "$label" "$m" "$(least "$@")" "$(mbs "$m")" "$(median "${RATIOS[@]}")"
}
printf "%-52s %7s %6s %8s %7s\n" "$POSTS posts, $((bytes / 1048576)) MiB, $RUNS rounds" "median" "best" "MB/s" "speed"
RATIOS=(1); row "curl: each post's object from the store, one by one" "${objects[@]}"
RATIOS=("${ratios[@]}"); row "curl: Download all (recorder serve's ZIP, streamed)" "${zips[@]}"
[ ${#proxies[@]} -eq 0 ] || { RATIOS=("${proxy_ratios[@]}"); row "curl: each object through nginx, a proxy alone" "${proxies[@]}"; }
echo "speed: the median of the rounds' ratios (one by one's seconds / the line's, in the same round)"
echo "recorder serve's peak resident memory: $((peak / 1024)) MiB"
