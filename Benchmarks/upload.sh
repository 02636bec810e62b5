#!/usr/bin/env bash
# Uploads the same 100 MB file to a local SeaweedFS (the test server, on loopback) with `recorder`
# and with the curl CLI, and prints wall time and ratios (best of RUNS, default 3):
#   - single PUT: `recorder outbox flush` of a queued post vs `curl -T` (SigV4, one stream)
#   - multipart:  recorder with 8 MiB parts, 4 in parallel, vs the same curl single stream
#   - post:       the whole `recorder post` (checksums, durable queueing, upload), for reference
#   - the same single PUT and multipart through a link that carries LINK_MBPS (default 20) MB/s per
#     connection (Tests/s3/faultproxy.py's throttle): a long-RTT path to a cloud store, where one TCP
#     stream cannot fill the line - the condition multipart upload exists for. On loopback the server
#     is the limit instead: on 2 cores SeaweedFS spends ~1 CPU-second per 100 MB whoever sends.
# The upload timings start with the post already queued: checksums are taken once, at queueing.
set -euo pipefail
cd "$(dirname "$0")/.."
REC=$(bash scripts/build-release.sh 2>/dev/null)  # as scripts/run.sh builds it
OUT=$PWD/Benchmarks/out/upload; rm -rf "$OUT"; mkdir -p "$OUT"
RUNS=${RUNS:-3}
PORT=${PORT:-18555}
BUCKET=bench
. Benchmarks/s3-bench-env.sh

now() { date +%s.%N; }

# Queues a post without uploading it (the endpoint refuses), then times the flush alone.
recorder_flush() { # extra settings...
  fake_shot "$RANDOM"
  RECORDER_S3_ENDPOINT=http://127.0.0.1:1 "$REC" post --caption bench --attempts 1 "$@" >/dev/null 2>&1 || true
  local t0; t0=$(now)
  ${TIMEIT:-} "$REC" outbox flush --attempts 3 "$@" >/dev/null
  echo "$(now) - $t0" | bc -l
}

recorder_post() {
  fake_shot "$RANDOM"
  local t0; t0=$(now)
  "$REC" post --caption bench --attempts 3 --set s3.multipart_threshold_mib=200 >/dev/null 2>&1
  echo "$(now) - $t0" | bc -l
}

curl_put() { # [port]
  local t0; t0=$(now)
  curl -sS -f -o /dev/null -T "$OUT/file.bin" --aws-sigv4 "aws:amz:us-east-1:s3" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
    -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" "http://127.0.0.1:${1:-$PORT}/$BUCKET/curl/$RANDOM.bin"
  echo "$(now) - $t0" | bc -l
}

best() { sort -n | head -1; }

MULTI=(--set s3.multipart_threshold_mib=16 --set s3.part_size_mib="${PART_MIB:-8}" --set s3.parallel_parts="${PARALLEL:-4}")
curl_s=$(for _ in $(seq "$RUNS"); do curl_put; done | best)
single_s=$(for _ in $(seq "$RUNS"); do recorder_flush --set s3.multipart_threshold_mib=200; done | best)
multi_s=$(for _ in $(seq "$RUNS"); do recorder_flush "${MULTI[@]}"; done | best)
post_s=$(for _ in $(seq "$RUNS"); do recorder_post; done | best)

# The limited link: the fault proxy in front of the same server, throttling every connection.
LINK_MBPS=${LINK_MBPS:-20}
LINK_PORT=$((PORT + 1))
mkdir -p "$OUT/link"
echo "[{\"match\": \"\", \"action\": \"throttle\", \"rate\": $((LINK_MBPS * 1000000)), \"count\": 1000000000}]" > "$OUT/link/faults.json"
python3 Tests/s3/faultproxy.py "$LINK_PORT" "$PORT" "$OUT/link" 2> "$OUT/link.log" &
PROXY=$!
trap 'kill $PROXY 2>/dev/null; bash Tests/s3/seaweedfs.sh stop "$OUT/s3"' EXIT
for _ in $(seq 100); do [ -f "$OUT/link/ready" ] && break; sleep 0.1; done
[ -f "$OUT/link/ready" ] || { echo "the link proxy did not start: $(cat "$OUT/link.log")"; exit 70; }
link_curl_s=$(for _ in $(seq "$RUNS"); do curl_put "$LINK_PORT"; done | best)
link_single_s=$(for _ in $(seq "$RUNS"); do RECORDER_S3_ENDPOINT=http://127.0.0.1:$LINK_PORT recorder_flush --set s3.multipart_threshold_mib=200; done | best)
link_multi_s=$(for _ in $(seq "$RUNS"); do RECORDER_S3_ENDPOINT=http://127.0.0.1:$LINK_PORT recorder_flush "${MULTI[@]}"; done | best)

ratio() { echo "$1 / $2" | bc -l; }
printf "%-44s %8s %14s\n" "100 MB to SeaweedFS on loopback" "seconds" "ratio to curl"
printf "%-44s %8.2f %14s\n" "curl -T (single PUT)" "$curl_s" "1.00"
printf "%-44s %8.2f %14.2f   (target <= 1.10)\n" "recorder single PUT" "$single_s" "$(ratio "$single_s" "$curl_s")"
printf "%-44s %8.2f %14.2f   (target < 1.00)\n" "recorder multipart ${PART_MIB:-8} MiB x${PARALLEL:-4}" "$multi_s" "$(ratio "$multi_s" "$curl_s")"
printf "%-44s %8.2f %14.2f   (checksums + queue + PUT)\n" "recorder post, whole command" "$post_s" "$(ratio "$post_s" "$curl_s")"
printf "%-44s %8s %14s\n" "same, through a $LINK_MBPS MB/s-per-connection link" "" ""
printf "%-44s %8.2f %14s\n" "curl -T (single PUT)" "$link_curl_s" "1.00"
printf "%-44s %8.2f %14.2f   (target <= 1.10)\n" "recorder single PUT" "$link_single_s" "$(ratio "$link_single_s" "$link_curl_s")"
printf "%-44s %8.2f %14.2f   (target < 1.00)\n" "recorder multipart ${PART_MIB:-8} MiB x${PARALLEL:-4}" "$link_multi_s" "$(ratio "$link_multi_s" "$link_curl_s")"
