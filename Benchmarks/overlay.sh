#!/usr/bin/env bash
# The branding frame's cost (recorder shoot --overlay): the same raw 1080p Y4M input and the same
# full-frame PNG (a 60 px border, a logo strip, half-transparent corners; 1920x1080, so neither tool
# scales it) encoded by `recorder` and by the ffmpeg CLI's overlay filter at identical libx264
# settings; prints fps, CPU seconds and the ratios. Then, in real time: 10 s of the built-in test
# pattern at 1080p30 with the frame, and the frames dropped (the issue's bar: 0 on this machine).
#   Benchmarks/overlay.sh
#   FRAMES=120 RUNS=5 Benchmarks/overlay.sh
set -euo pipefail
cd "$(dirname "$0")/.."
for t in /usr/bin/time bc; do command -v $t >/dev/null || apt-get install -y -q time bc >/dev/null || { echo "install GNU time and bc (apt-get install time bc)"; exit 69; }; done
command -v ffmpeg >/dev/null || { echo "install ffmpeg (scripts/setup.sh test)"; exit 69; }
REC=${REC:-$(bash scripts/build-release.sh 2>/dev/null)}  # as scripts/run.sh builds it (REC=path: another build)
OUT=Benchmarks/out; mkdir -p "$OUT"
FRAMES=${FRAMES:-300}
RUNS=${RUNS:-3}
in=$OUT/in-1920x1080-420-$FRAMES.y4m
[ -f "$in" ] || ffmpeg -v error -f lavfi -i "testsrc2=size=1920x1080:rate=30" -frames:v "$FRAMES" -pix_fmt yuv420p "$in"
png=$OUT/frame-1920x1080.png
ffmpeg -v error -y -f lavfi -i "nullsrc=s=1920x1080" -frames:v 1 -vf \
  "format=rgba,geq=r='230':g='30':b='60':a='if(lt(X,60)+gt(X,1859)+lt(Y,60)+gt(Y,1019),255,if(between(Y,900,1000)*between(X,700,1220),200,if(lt(X+Y,300),128,0)))'" "$png"

measure() {  # command...: prints "seconds cpu_seconds peak_kib"
  local log=$OUT/time.log
  /usr/bin/time -f "%e %U %S %M" -o "$log" "$@" > /dev/null 2> "$OUT/stderr.log" || { cat "$OUT/stderr.log"; exit 70; }
  awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$log"
}

printf "%-22s %8s %8s %9s\n" tool fps cpu_s peak_MiB
rs=; fs=; ns=
for _ in $(seq "$RUNS"); do
  read -r s c m < <(measure "$REC" shoot --workspace "$OUT/ws" --device "y4m:$in" --seconds 3600 --preset veryfast --crf 23 --overlay "$PWD/$png")
  if [ -z "$rs" ] || [ "$(echo "$s < $rs" | bc)" = 1 ]; then rs=$s rc=$c rm=$m; fi
  read -r s c m < <(measure "$REC" shoot --workspace "$OUT/ws" --device "y4m:$in" --seconds 3600 --preset veryfast --crf 23)
  if [ -z "$ns" ] || [ "$(echo "$s < $ns" | bc)" = 1 ]; then ns=$s nc=$c; fi
  read -r s c m < <(measure ffmpeg -v error -y -i "$in" -i "$png" -filter_complex "[0:v][1:v]overlay=format=yuv420" \
                              -c:v libx264 -preset veryfast -crf 23 -g 30 -keyint_min 30 -bf 0 -x264-params scenecut=0 -pix_fmt yuv420p \
                              -movflags frag_keyframe+empty_moov+default_base_moof "$OUT/ffmpeg-overlay.mp4")
  if [ -z "$fs" ] || [ "$(echo "$s < $fs" | bc)" = 1 ]; then fs=$s fc=$c fm=$m; fi
done
rfps=$(echo "$FRAMES / $rs" | bc -l); ffps=$(echo "$FRAMES / $fs" | bc -l); nfps=$(echo "$FRAMES / $ns" | bc -l)
printf "%-22s %8.1f %8.2f %9.1f\n" "recorder --overlay" "$rfps" "$rc" "$(echo "$rm/1024" | bc -l)"
printf "%-22s %8.1f %8.2f %9s\n" "recorder (no overlay)" "$nfps" "$nc" "-"
printf "%-22s %8.1f %8.2f %9.1f\n" "ffmpeg overlay filter" "$ffps" "$fc" "$(echo "$fm/1024" | bc -l)"
printf "ratio recorder/ffmpeg with the frame: throughput %.2fx, cpu %.2fx; the frame's own cost in recorder: %+.1f%% cpu\n" \
  "$(echo "$rfps / $ffps" | bc -l)" "$(echo "$rc / $fc" | bc -l)" "$(echo "($rc - $nc) / $nc * 100" | bc -l)"

# In real time: the test pattern at 1080p30 for 10 s with the frame; what the shot JSON says was dropped.
"$REC" shoot --workspace "$OUT/ws" --device testsrc --size 1920x1080 --fps 30 --seconds 10 --overlay "$PWD/$png" --json > "$OUT/overlay-live.json"
python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))
print("real time, 1080p30 with the frame for 10 s: %d frames recorded, %d dropped" % (s["frames"], s["framesDropped"]))' "$OUT/overlay-live.json"
