# Sourced by Tests/vm/device-tests.sh after device/lib.sh.
section "vivid raw formats and sizes"
for fmt in yuyv nv12 yu12 rgb24; do
  for size in 320x180 640x360; do
    shoot --device "$VIVID" --format "$fmt" --size "$size" --fps 15 --seconds 2 --json > "$T/s.json" 2> "$T/s.err"; rc=$?
    if [ $rc -ne 0 ]; then bad "vivid $fmt $size exit $rc: $(tail -c 300 "$T/s.err")"; continue; fi
    # ffprobe decodes every frame (-count_frames): size, frames, duration, and any decoding error.
    read -r w h frames dur <<< "$(probe_all "$WS/current/video.mp4" "$T/probe.err")"
    read -r dropped input <<< "$(fields "$T/s.json" framesDropped inputFormat)"
    read -r logged seqgaps repeats <<< "$(seqstats)"
    # A busy machine may drop frames (counted: the sequence gaps); none may be recorded twice,
    # and no more can be recorded than 2 s hold.
    if [ "${w}x$h" = "$size" ] && [ ! -s "$T/probe.err" ] && near "$((frames + dropped))" 30 4 && [ "$frames" -le 31 ] \
       && [ "$frames" -ge 3 ] && [ "$logged" = "$frames" ] && [ "$repeats" = 0 ] && [ "$seqgaps" = "$dropped" ] \
       && near "$dur" 2 0.15 && [ "$input" = "$fmt" ]; then
      ok "vivid $fmt $size: $frames frames + $dropped dropped, $dur s, none repeated, decoded without an error"
    else
      bad "vivid $fmt $size: size ${w}x$h frames $frames dropped $dropped (log: $logged recorded, gaps $seqgaps, repeats $repeats) duration $dur input $input; decoder: $(head -c 300 "$T/probe.err")"
    fi
  done
done
