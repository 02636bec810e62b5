#!/usr/bin/env bash
# Encodes the same raw Y4M input (generated deterministically, not committed) with `recorder` and with
# the ffmpeg CLI at identical libx264 settings, and prints fps, CPU seconds, peak memory and ratios.
# Two inputs per size: planar 4:2:0, which the encoder takes as it is, and 4:2:2, a camera's usual
# chroma (YUYV), which both convert to 4:2:0 before encoding - recorder on its capture thread while
# the previous frame encodes, ffmpeg in line on its main thread.
#   Benchmarks/encode.sh            # 720p and 1080p, 300 frames each
#   FRAMES=120 RUNS=5 CHROMA=420 Benchmarks/encode.sh
# Each tool runs RUNS times (default 3), interleaved; the fastest run of each is reported (timings
# on a shared 2-core machine vary by +-15% from run to run).
set -euo pipefail
cd "$(dirname "$0")/.."
for t in /usr/bin/time bc; do command -v $t >/dev/null || apt-get install -y -q time bc >/dev/null || { echo "install GNU time and bc (apt-get install time bc)"; exit 69; }; done
command -v ffmpeg >/dev/null || { echo "install ffmpeg (scripts/setup.sh test)"; exit 69; }
REC=${REC:-$(bash scripts/build-release.sh 2>/dev/null)}  # as scripts/run.sh builds it (REC=path: another build)
OUT=Benchmarks/out; mkdir -p "$OUT"
FRAMES=${FRAMES:-300}
RUNS=${RUNS:-3}

measure() {  # label, command...: prints "seconds cpu_seconds peak_kib"
  local log=$OUT/time.log
  /usr/bin/time -f "%e %U %S %M" -o "$log" "$@" > /dev/null 2> "$OUT/stderr.log" || { cat "$OUT/stderr.log"; exit 70; }
  awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$log"
}

printf "%-6s %-5s %-9s %8s %8s %9s\n" size input tool fps cpu_s peak_MiB
for size in 1280x720 1920x1080; do
 for chroma in ${CHROMA:-420 422}; do
  in=$OUT/in-$size-$chroma-$FRAMES.y4m
  [ -f "$in" ] || ffmpeg -v error -f lavfi -i "testsrc2=size=$size:rate=30" -frames:v "$FRAMES" -pix_fmt "yuv${chroma}p" "$in"
  rs=; fs=
  for _ in $(seq "$RUNS"); do
    read -r s c m < <(measure "$REC" shoot --workspace "$OUT/ws" --device "y4m:$in" --seconds 3600 --preset veryfast --crf 23)
    if [ -z "$rs" ] || [ "$(echo "$s < $rs" | bc)" = 1 ]; then rs=$s rc=$c rm=$m; fi
    read -r s c m < <(measure ffmpeg -v error -y -i "$in" -c:v libx264 -preset veryfast -crf 23 -g 30 -keyint_min 30 -bf 0 \
                                -x264-params scenecut=0 -pix_fmt yuv420p -movflags frag_keyframe+empty_moov+default_base_moof "$OUT/ffmpeg.mp4")
    if [ -z "$fs" ] || [ "$(echo "$s < $fs" | bc)" = 1 ]; then fs=$s fc=$c fm=$m; fi
  done
  rfps=$(echo "$FRAMES / $rs" | bc -l); ffps=$(echo "$FRAMES / $fs" | bc -l)
  label="${size#*x}p"
  printf "%-6s %-5s %-9s %8.1f %8.2f %9.1f\n" "$label" "$chroma" recorder "$rfps" "$rc" "$(echo "$rm/1024" | bc -l)"
  printf "%-6s %-5s %-9s %8.1f %8.2f %9.1f\n" "$label" "$chroma" ffmpeg "$ffps" "$fc" "$(echo "$fm/1024" | bc -l)"
  printf "%-6s %-5s %-9s %8.2fx %7.2fx %8.2fx   (recorder/ffmpeg: throughput, cpu, memory)\n" "$label" "$chroma" ratio \
    "$(echo "$rfps / $ffps" | bc -l)" "$(echo "$rc / $fc" | bc -l)" "$(echo "$rm / $fm" | bc -l)"
 done
done
