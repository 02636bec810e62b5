#!/usr/bin/env bash
# Making a shot into its effect, beside the same effect made by the ffmpeg CLI from the same take:
# rendering time over the take's length (the booth must not keep a guest waiting longer than the
# take itself: at most 1.0x on a 2-core machine at 720p), and CPU seconds with the ratio to
# ffmpeg's (aim: at most 1.0x).
#   Benchmarks/effects.sh           # boomerang (a 2 s take) and slowmo (a 3 s take at 60 fps), 720p and 1080p
#   RUNS=5 SIZES=1280x720 Benchmarks/effects.sh
# recorder's figures are the shot's own (shot.json: effect.renderSeconds and renderCPUSeconds,
# measured around the rendering on the process's clocks); ffmpeg's are its whole process (GNU time),
# start-up included (about 0.05 s). Both from one take, recorder's own (take.mp4 beside the effect),
# at the shot's x264 settings (veryfast, CRF 23, a keyframe a second, no B-frames). The ffmpeg
# boomerang is split, reverse, trim, concat, loop and setpts, looped as often as recorder's; the
# ffmpeg slow motion is setpts with an encode (what a filter graph does), and setts with a stream
# copy (what recorder does: no picture is encoded again). Each runs RUNS times (default 3); the
# fastest is reported (a shared 2-core machine varies by +-15%).
set -euo pipefail
cd "$(dirname "$0")/.."
for t in /usr/bin/time bc python3; do command -v $t >/dev/null || apt-get install -y -q time bc >/dev/null || { echo "install GNU time and bc (apt-get install time bc)"; exit 69; }; done
command -v ffmpeg >/dev/null || { echo "install ffmpeg (scripts/setup.sh test)"; exit 69; }
REC=${REC:-$(bash scripts/build-release.sh 2>/dev/null)}  # as scripts/run.sh builds it (REC=path: another build)
OUT=Benchmarks/out/effects; mkdir -p "$OUT"
RUNS=${RUNS:-3}
X264=(-c:v libx264 -preset veryfast -crf 23 -g 30 -keyint_min 30 -bf 0 -x264-params scenecut=0 -pix_fmt yuv420p)

measure() {  # command...: prints "seconds cpu_seconds"
  /usr/bin/time -f "%e %U %S" -o "$OUT/time.log" "$@" > /dev/null 2> "$OUT/stderr.log" || { cat "$OUT/stderr.log"; exit 70; }
  awk '{printf "%s %.3f\n", $1, $2 + $3}' "$OUT/time.log"
}
# FIELD...: the values of shot.json keys (dotted) from the JSON on stdin, space-separated.
fields() { python3 -c 'import json, sys
d = json.load(sys.stdin)
def get(k):
    v = d
    for p in k.split("."): v = v[p]
    return v
print(" ".join(str(get(k)) for k in sys.argv[1:]))' "$@"; }
faster() { [ -z "$1" ] || [ "$(echo "$2 < $1" | bc)" = 1 ]; }  # best, candidate

printf "%-6s %-9s %-16s %8s %9s %8s\n" size effect tool seconds per_take cpu_s
for size in ${SIZES:-1280x720 1920x1080}; do
  label="${size#*x}p"
  for effect in boomerang slowmo; do
    if [ $effect = boomerang ]; then rate=30 seconds=2; else rate=60 seconds=3; fi
    in=$OUT/in-$size-$rate.y4m
    [ -f "$in" ] || ffmpeg -v error -f lavfi -i "testsrc2=size=$size:rate=$rate" -frames:v $((rate * 3)) -pix_fmt yuv420p "$in"
    rs=; fs=; cs=
    for _ in $(seq "$RUNS"); do
      rm -rf "$OUT/ws"
      json=$("$REC" shoot --workspace "$OUT/ws" --device "y4m:$in" --seconds "$seconds" --audio none --effect $effect \
             --set effect.boomerang_seconds="$seconds" --preset veryfast --crf 23 --json)
      read -r s c take frames < <(echo "$json" | fields effect.renderSeconds effect.renderCPUSeconds effect.original.durationSeconds effect.original.frames)
      if faster "$rs" "$s"; then rs=$s rc=$c; fi
      cp "$OUT/ws/current/take.mp4" "$OUT/take.mp4"
      if [ $effect = boomerang ]; then
        read -r cycle total < <(echo "$json" | fields effect.boomerang.cycleFrames effect.boomerang.frames)
        loops=$(( (total + cycle - 1) / cycle ))
        graph="[0:v]split[f][b];[b]reverse,trim=start_frame=1:end_frame=$((frames - 1)),setpts=PTS-STARTPTS[r];[f][r]concat=n=2:v=1:a=0,loop=loop=$((loops - 1)):size=$cycle,trim=end_frame=$total,setpts=N/FRAME_RATE/TB"
        read -r s c < <(measure ffmpeg -v error -y -i "$OUT/take.mp4" -filter_complex "$graph" -an "${X264[@]}" -movflags faststart "$OUT/ffmpeg.mp4")
        if faster "$fs" "$s"; then fs=$s fc=$c; fi
      else
        read -r s c < <(measure ffmpeg -v error -y -i "$OUT/take.mp4" -vf "setpts=2*PTS" -r 30 -an "${X264[@]}" -movflags faststart "$OUT/ffmpeg.mp4")
        if faster "$fs" "$s"; then fs=$s fc=$c; fi
        read -r s c < <(measure ffmpeg -v error -y -i "$OUT/take.mp4" -an -c:v copy -bsf:v "setts=ts=2*TS" -movflags faststart "$OUT/ffmpeg-copy.mp4")
        if faster "$cs" "$s"; then cs=$s cc=$c; fi
      fi
    done
    printf "%-6s %-9s %-16s %8.3f %8.3fx %8.3f\n" "$label" $effect recorder "$rs" "$(echo "$rs / $take" | bc -l)" "$rc"
    printf "%-6s %-9s %-16s %8.3f %8.3fx %8.3f\n" "$label" $effect "ffmpeg $([ $effect = boomerang ] && echo reverse || echo setpts)" "$fs" "$(echo "$fs / $take" | bc -l)" "$fc"
    printf "%-6s %-9s %-16s %7.2fx %9s %7.2fx   (recorder/ffmpeg: time, cpu)\n" "$label" $effect ratio "$(echo "$rs / $fs" | bc -l)" "" "$(echo "$rc / $fc" | bc -l)"
    if [ -n "$cs" ]; then
      printf "%-6s %-9s %-16s %8.3f %8.3fx %8.3f\n" "$label" $effect "ffmpeg setts copy" "$cs" "$(echo "$cs / $take" | bc -l)" "$cc"
      printf "%-6s %-9s %-16s %7.2fx %9s %7.2fx   (recorder/ffmpeg stream copy: time, cpu)\n" "$label" $effect ratio "$(echo "$rs / $cs" | bc -l)" "" "$(echo "$rc / $cc" | bc -l)"
    fi
  done
done
