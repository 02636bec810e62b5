#!/usr/bin/env bash
# The release binary's size and start-up time, next to the ffmpeg and curl CLIs doing the same
# kind of nothing (printing their version), and optionally an older recorder binary (OLD=path).
# Start-up is the median wall time of RUNS runs (default 50) of: `--version` (process start, the
# Swift runtime and argument parsing), and `recorder feed` on an empty local store (the whole
# start of a real command: configuration, store, and a listing; it ends with 66, "no posts").
#   Benchmarks/startup.sh
#   OLD=/tmp/recorder-0.4.0 RUNS=100 Benchmarks/startup.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v ffmpeg >/dev/null && command -v curl >/dev/null || { echo "install ffmpeg and curl (scripts/setup.sh test)"; exit 69; }
REC=${REC:-$(bash scripts/build-release.sh 2>/dev/null)}  # as scripts/run.sh builds it
RUNS=${RUNS:-50}
STORE=$(mktemp -d); trap 'rm -rf "$STORE"' EXIT

median_ms() {  # STATUS command...: the median wall time of RUNS runs, each ending with STATUS, in ms
  local times=() want=$1; shift
  for _ in $(seq "$RUNS"); do
    local start end status=0
    start=$(date +%s%N)
    "$@" > /dev/null 2>&1 || status=$?
    [ "$status" = "$want" ] || { echo "failed ($status, not $want): $*" >&2; exit 70; }
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)] / 1000}'
}

size_mb() { stat -c %s "$1" | awk '{printf "%.1f", $1 / 1e6}'; }

printf "%-28s %10s %12s %12s\n" binary size_MB version_ms feed_ms
rv=$(median_ms 0 "$REC" --version); rf=$(median_ms 66 "$REC" feed --store-dir "$STORE")
printf "%-28s %10s %12s %12s\n" recorder "$(size_mb "$REC")" "$rv" "$rf"
if [ -n "${OLD:-}" ]; then
  ov=$(median_ms 0 "$OLD" --version); of=$(median_ms 66 "$OLD" feed --store-dir "$STORE")
  printf "%-28s %10s %12s %12s\n" "old: $(basename "$OLD")" "$(size_mb "$OLD")" "$ov" "$of"
  echo "start-up vs old: --version $(echo "$rv / $ov" | bc -l | xargs printf %.2f)x, feed $(echo "$rf / $of" | bc -l | xargs printf %.2f)x"
fi
fv=$(median_ms 0 ffmpeg -version); cv=$(median_ms 0 curl --version)
printf "%-28s %10s %12s %12s\n" "ffmpeg -version" "$(size_mb "$(command -v ffmpeg)")+libs" "$fv" -
printf "%-28s %10s %12s %12s\n" "curl --version" "$(size_mb "$(command -v curl)")+libs" "$cv" -
echo "recorder --version vs ffmpeg -version: $(echo "$rv / $fv" | bc -l | xargs printf %.2f)x, vs curl --version: $(echo "$rv / $cv" | bc -l | xargs printf %.2f)x"
