#!/usr/bin/env bash
# The highlight reel's cost (recorder reel) against the ffmpeg CLI doing the same work: POSTS posts
# of CLIP_SECONDS s each at 1280x720 30 fps with sound at different loudnesses, each after a 2.5 s title
# card, scaled into a 1280x720 reel, every post's sound measured (ebur128) and brought to -16 LUFS,
# encoded by libx264 (veryfast, crf 23, a keyframe a second, no B-frames) and AAC into a faststart
# MP4. ffmpeg does it in two passes as a script would: one ebur128 run per post, then one
# filter_complex (color + ass cards, as recorder draws them with libass; scale/pad/fps, volume, concat). Prints wall and CPU
# seconds, peak memory, the ratios, and both reels' loudness as ffmpeg's ebur128 measures it.
#   Benchmarks/reel.sh
#   POSTS=8 CLIP_SECONDS=15 RUNS=3 Benchmarks/reel.sh
set -euo pipefail
cd "$(dirname "$0")/.."
for t in /usr/bin/time bc; do command -v $t >/dev/null || apt-get install -y -q time bc >/dev/null || { echo "install GNU time and bc (apt-get install time bc)"; exit 69; }; done
command -v ffmpeg >/dev/null || { echo "install ffmpeg (scripts/setup.sh test)"; exit 69; }
REC=$(bash scripts/build-release.sh 2>/dev/null)  # as scripts/run.sh builds it
OUT=$PWD/Benchmarks/out/reel; rm -rf "$OUT"; mkdir -p "$OUT"/{home,run,config,state,data}
POSTS=${POSTS:-6}
SECONDS_EACH=${CLIP_SECONDS:-10}
RUNS=${RUNS:-2}
export HOME=$OUT/home XDG_RUNTIME_DIR=$OUT/run XDG_CONFIG_HOME=$OUT/config XDG_STATE_HOME=$OUT/state XDG_DATA_HOME=$OUT/data \
       XDG_CACHE_HOME=$OUT/cache RECORDER_CONFIG=

# The posts: each a clip made by ffmpeg (its own loudness, 25 to 5 LU under full scale), posted as a
# shot of the test pattern whose video it replaces, so the store holds exactly these files.
inputs=(); gains=()
for i in $(seq 0 $((POSTS - 1))); do
  clip=$OUT/clip-$i.mp4
  ffmpeg -v error -y -f lavfi -i "testsrc2=s=1280x720:r=30:d=$SECONDS_EACH" -f lavfi -i "sine=f=$((300 + 100 * i)):d=$SECONDS_EACH,volume=$(( -20 + 5 * (i % 5) ))dB" \
    -c:v libx264 -preset veryfast -c:a aac -shortest "$clip"
  "$REC" shoot --device testsrc --seconds 1 --size 320x240 --audio none > /dev/null 2>&1
  cp "$clip" "$XDG_RUNTIME_DIR/recorder/current/video.mp4"
  "$REC" post --caption "Guest number $i" --create -q > /dev/null
  inputs+=("$clip")
done
day=$(date -u +%Y-%m-%d)

measure() {  # command...: prints "seconds cpu_seconds peak_kib"
  local log=$OUT/time.log
  /usr/bin/time -f "%e %U %S %M" -o "$log" "$@" > /dev/null 2> "$OUT/stderr.log" || { cat "$OUT/stderr.log"; exit 70; }
  awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$log"
}

# ffmpeg's two passes, as one script.
cat > "$OUT/ffmpeg-reel.sh" <<'EOF'
#!/usr/bin/env bash
set -euo pipefail
out=$1; shift
args=(); graph=""; concat=""; n=0
for clip in "$@"; do
  integrated=$(ffmpeg -hide_banner -nostats -i "$clip" -af ebur128 -f null - 2>&1 | awk '/Summary:/{s=1} s && / I:/{print $2; exit}')
  gain=$(echo "-16 - ($integrated)" | bc -l)
  args+=(-i "$clip")
  card=$(dirname "$out")/card-$n.ass
  printf '[Script Info]\nScriptType: v4.00+\nPlayResX: 1280\nPlayResY: 720\nWrapStyle: 2\n\n[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\nStyle: Card,DejaVu Sans,54,&H00FFFFFF,&H00FFFFFF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,0,0,5,0,0,0,1\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:00.00,0:00:03.50,Card,,0,0,0,,Guest number %s 🎉\n' "$n" > "$card"
  graph+="color=c=0x16161d:s=1280x720:r=30:d=2.5,format=yuv420p,ass=filename=$card,setsar=1[c$n];"
  graph+="anullsrc=r=48000:cl=stereo,atrim=duration=2.5[s$n];"
  graph+="[$n:v]scale=1280:720:force_original_aspect_ratio=decrease,pad=1280:720:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=30,format=yuv420p[v$n];"
  graph+="[$n:a]volume=${gain}dB,aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo[a$n];"
  concat+="[c$n][s$n][v$n][a$n]"
  n=$((n + 1))
done
graph+="${concat}concat=n=$((2 * n)):v=1:a=1[v][a]"
ffmpeg -v error -y "${args[@]}" -filter_complex "$graph" -map "[v]" -map "[a]" \
  -c:v libx264 -preset veryfast -crf 23 -g 30 -keyint_min 30 -bf 0 -x264-params scenecut=0 -c:a aac -b:a 128k -movflags faststart "$out"
EOF

printf "%-28s %8s %8s %9s\n" tool wall_s cpu_s peak_MiB
rs=; fs=
for run in $(seq "$RUNS"); do
  rm -f "$OUT/recorder-reel.mp4"
  read -r s c m < <(measure "$REC" reel --since "$day" -o "$OUT/recorder-reel.mp4" --size 1280x720 --fps 30 -q)
  if [ -z "$rs" ] || [ "$(echo "$s < $rs" | bc)" = 1 ]; then rs=$s rc=$c rm=$m; fi
  read -r s c m < <(measure bash "$OUT/ffmpeg-reel.sh" "$OUT/ffmpeg-reel.mp4" "${inputs[@]}")
  if [ -z "$fs" ] || [ "$(echo "$s < $fs" | bc)" = 1 ]; then fs=$s fc=$c fm=$m; fi
done
printf "%-28s %8.2f %8.2f %9.1f\n" "recorder reel" "$rs" "$rc" "$(echo "$rm/1024" | bc -l)"
printf "%-28s %8.2f %8.2f %9.1f\n" "ffmpeg (ebur128 + concat)" "$fs" "$fc" "$(echo "$fm/1024" | bc -l)"
printf "ratio recorder/ffmpeg: wall %.2fx, cpu %.2fx, peak memory %.2fx (%d posts of %d s, %.0f s of reel)\n" \
  "$(echo "$rs / $fs" | bc -l)" "$(echo "$rc / $fc" | bc -l)" "$(echo "$rm / $fm" | bc -l)" "$POSTS" "$SECONDS_EACH" \
  "$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$OUT/recorder-reel.mp4")"
for f in recorder-reel ffmpeg-reel; do
  printf "%-28s %s\n" "$f loudness" "$(ffmpeg -hide_banner -nostats -i "$OUT/$f.mp4" -af ebur128 -f null - 2>&1 | awk '/Summary:/{s=1} s && / I:/{print $2 " LUFS"; exit}')"
done
