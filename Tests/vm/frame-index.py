#!/usr/bin/env python3
"""Reads the frame index that Tests/vm/device-tests.sh's producer paints into every frame.

The producer draws 8 vertical bars 40 px wide on a 320x240 picture; bar b is white (235) when bit b
of the frame number is set, black (16) otherwise. Decoding the recorded MP4 back to grey and
sampling the middle of each bar recovers the number. Lossy coding blurs edges and shifts levels a
little: a bar counts as clean when its mean is below 60 or above 190 (the tolerance this test
allows); anything in between means a frame that was not one of the producer's (invented or mixed).

Prints `frames=N first=A last=B gaps=G bad=K` and exits 1 when frames are out of order or bad.
"""
import subprocess, sys

path = sys.argv[1]
w, h = 320, 240
raw = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "gray", "-"],
                     check=True, stdout=subprocess.PIPE).stdout
n = len(raw) // (w * h)
indices, bad = [], 0
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
gaps, backwards = 0, 0
for a, b in zip(indices, indices[1:]):
    step = (b - a) % 256
    if step == 0 or step > 128:
        backwards += 1
    elif step > 1:
        gaps += step - 1
print(f"frames={n} first={indices[0] if indices else -1} last={indices[-1] if indices else -1} gaps={gaps} bad={bad} backwards={backwards}")
sys.exit(0 if n > 0 and bad == 0 and backwards == 0 else 1)
