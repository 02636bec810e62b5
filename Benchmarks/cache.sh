#!/usr/bin/env bash
# Fetching a posted 100 MB video: `recorder fetch` from SeaweedFS into an empty cache (download,
# SHA-256 on the way, rename into the cache), `recorder fetch` again (a disk hit: the file is
# checked against the post's SHA-256 once per process), and the curl CLI downloading the same
# object (SigV4, no check). Prints wall time (best of RUNS, default 3), peak resident memory, and
# ratios. The cache must stream: its peak memory stays far below the video's size.
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
