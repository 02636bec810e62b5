#!/usr/bin/env python3
"""Reads the frame index that Tests/vm/device-tests.sh's producer paints into every frame.

The producer draws 8 vertical bars 40 px wide on a 320x240 picture; bar b is white (235) when bit b
of the frame number is set, black (16) otherwise. Decoding the recorded MP4 back to grey and
sampling the middle of each bar recovers the number. Lossy coding blurs edges and shifts levels a
little: a bar counts as clean when its mean is below 60 or above 190 (the tolerance this test
allows); anything in between means a frame that was not one of the producer's (invented or mixed).

With a second argument, recorder's RECORDER_FRAME_LOG of the same shot ("sequence timestamp" per
recorded frame, in order), each decoded picture is paired with the V4L2 sequence number of the
buffer it came from. That tells the two failures apart: a sequence number recorded twice or going
back is recorder's fault (`repeats`); a picture whose index does not match its buffer's number (the
offset between them changes) is a buffer the writer overwrote while recorder read it (`mismatched`).
A sequence gap is a frame dropped under load: allowed, and it must equal what recorder counted.

Prints `frames=N first=A last=B gaps=G bad=K backwards=R [seqgaps=S repeats=P mismatched=M]` and
exits 1 when frames are out of order, repeated or bad.
"""
import collections, subprocess, sys

path = sys.argv[1]
log = sys.argv[2] if len(sys.argv) > 2 else None
w, h = 320, 240
# -fps_mode passthrough: every picture in the file exactly once. The ffmpeg CLI's default for raw
# output is constant frame rate, which duplicates a picture wherever the timestamps leave a gap (a
# writer that stalled under load) and drops one where two come close: it invented frames here.
raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "gray", "-"],
                     check=True, stdout=subprocess.PIPE).stdout
n = len(raw) // (w * h)
indices, bad, values = [], 0, []
for f in range(n):
    base = f * w * h
    value, clean = 0, True
    for b in range(8):
        total = count = 0
        for y in range(40, 200, 8):
            row = base + y * w
            for x in range(b * 40 + 12, b * 40 + 28, 4):
                total += raw[row + x]; count += 1
        mean = total / count
        if 60 <= mean <= 190:
            clean = False
        if mean > 125:
            value |= 1 << b
    if clean:
        indices.append(value)
    else:
        bad += 1
    values.append(value if clean else None)
gaps, backwards = 0, 0
for a, b in zip(indices, indices[1:]):
    step = (b - a) % 256
    if step == 0 or step > 128:
        backwards += 1
    elif step > 1:
        gaps += step - 1
line = f"frames={n} first={indices[0] if indices else -1} last={indices[-1] if indices else -1} gaps={gaps} bad={bad} backwards={backwards}"
ok = n > 0 and bad == 0 and backwards == 0
if log:
    seqs = [int(l.split()[0]) for l in open(log) if l.strip()]
    repeats = sum(1 for a, b in zip(seqs, seqs[1:]) if b <= a)
    seqgaps = sum(b - a - 1 for a, b in zip(seqs, seqs[1:]) if b > a + 1)
    offsets = [(v - q) % 256 for v, q in zip(values, seqs) if v is not None]
    usual = collections.Counter(offsets).most_common(1)[0][0] if offsets else 0
    mismatched = sum(1 for o in offsets if o != usual)
    line += f" seqgaps={seqgaps} repeats={repeats} mismatched={mismatched}"
    ok = ok and len(seqs) == n and repeats == 0 and mismatched == 0
    if len(seqs) != n:
        line += f" (the log has {len(seqs)} lines for {n} pictures)"
print(line)
sys.exit(0 if ok else 1)
