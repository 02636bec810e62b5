# Sourced by Tests/vm/device-tests.sh after device/lib.sh.
section "vivid raw formats and sizes"
for fmt in yuyv nv12 yu12 rgb24; do
  for size in 320x180 640x360; do
    shoot --device "$VIVID" --format "$fmt" --size "$size" --fps 15 --seconds 2 --json > "$T/s.json" 2> "$T/s.err"; rc=$?
    if [ $rc -ne 0 ]; then bad "vivid $fmt $size exit $rc: $(tail -c 300 "$T/s.err")"; continue; fi
    v="$WS/current/video.mp4"
    wh=$(probe "$v" width,height | tr '\n' x); frames=$(probe "$v" nb_read_frames)
    dur=$(ffprobe -v error -show_entries format=duration -of default=nw=1:nk=1 "$v")
    dropped=$(json "$T/s.json" framesDropped); read -r logged seqgaps repeats <<< "$(seqstats)"
    # A busy machine may drop frames (counted: the sequence gaps); none may be recorded twice,
    # and no more can be recorded than 2 s hold.
    if [ "$wh" = "${size}x" ] && near "$((frames + dropped))" 30 4 && [ "$frames" -le 31 ] && [ "$frames" -ge 3 ] \
       && [ "$logged" = "$frames" ] && [ "$repeats" = 0 ] && [ "$seqgaps" = "$dropped" ] \
       && near "$dur" 2 0.15 && ffmpeg -v error -i "$v" -f null - 2>/dev/null && [ "$(json "$T/s.json" inputFormat)" = "$fmt" ]; then
      ok "vivid $fmt $size: $frames frames + $dropped dropped, $dur s, none repeated"
    else
      bad "vivid $fmt $size: size $wh frames $frames dropped $dropped (log: $logged recorded, gaps $seqgaps, repeats $repeats) duration $dur input $(json "$T/s.json" inputFormat)"
    fi
  done
done
