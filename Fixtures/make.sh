#!/usr/bin/env bash
# Regenerates the committed fixtures (see Fixtures/README.md) with Debian's ffmpeg 5.1 and python3.
# The outputs are committed; run this only to change them, then commit what it wrote.
set -euo pipefail
cd "$(dirname "$0")"
ff() { ffmpeg -v error -y "$@"; }

mkdir -p y4m mjpeg h264 mp4 broken config captions

# Y4M clips, 160x120, 15 frames at 15 fps, of ffmpeg's testsrc2 (moving, with a frame counter).
ff -f lavfi -i testsrc2=s=160x120:r=15 -frames:v 15 -pix_fmt yuv420p y4m/clip-420.y4m
ff -f lavfi -i testsrc2=s=160x120:r=15 -frames:v 15 -pix_fmt yuv422p y4m/clip-422.y4m
ff -f lavfi -i testsrc2=s=160x120:r=15 -frames:v 15 -pix_fmt gray y4m/clip-mono.y4m

# MJPEG as a UVC camera sends it: baseline JPEG, 4:2:2 full range, one picture per buffer, and
# (as many UVC cameras do) without Huffman tables: a decoder must use the standard ones.
ff -f lavfi -i testsrc2=s=320x240:r=15 -frames:v 10 -pix_fmt yuvj422p -c:v mjpeg -q:v 4 -f image2 mjpeg/frame-%02d.jpg
python3 - <<'PY'
import glob
def strip_dht(data):
    out, i = bytearray(data[:2]), 2
    while i < len(data):
        assert data[i] == 0xFF
        marker = data[i + 1]
        if marker == 0xDA:          # start of scan: the rest is entropy-coded data
            out += data[i:]
            break
        length = int.from_bytes(data[i + 2:i + 4], "big")
        if marker != 0xC4:          # drop DHT segments only
            out += data[i:i + 2 + length]
        i += 2 + length
    return bytes(out)
for path in sorted(glob.glob("mjpeg/frame-*.jpg")):
    data = open(path, "rb").read()
    open(path.replace("frame-", "uvc-"), "wb").write(strip_dht(data))
PY
rm -f mjpeg/frame-0[2-9].jpg mjpeg/frame-10.jpg

# H.264 Annex B as a UVC H.264 camera sends it: constrained baseline, no B-frames, SPS and PPS
# before every IDR, an IDR every 15 frames, 30 frames of 320x240 at 15 fps, one access unit per buffer.
ff -f lavfi -i testsrc2=s=320x240:r=15 -frames:v 30 -pix_fmt yuv420p -c:v libx264 -profile:v baseline \
   -x264-params keyint=15:min-keyint=15:scenecut=0:repeat-headers=1:aud=1 -bsf:v h264_mp4toannexb -f h264 h264/camera.h264

# A fragmented MP4 as kill -9 leaves it: 4 s recorded with a fragment per keyframe (every second),
# cut off in the middle of the last fragment.
ff -f lavfi -i testsrc2=s=320x240:r=15 -frames:v 60 -pix_fmt yuv420p -c:v libx264 -preset veryfast \
   -x264-params keyint=15:min-keyint=15:scenecut=0:bframes=0 -movflags +frag_keyframe+empty_moov+default_base_moof \
   -f mp4 mp4/whole-fragmented.mp4
size=$(stat -c %s mp4/whole-fragmented.mp4)
head -c $((size - size / 10)) mp4/whole-fragmented.mp4 > mp4/killed.mp4
rm mp4/whole-fragmented.mp4

# Broken inputs.
printf 'YUV4MPEG2 F15:1 Ip A1:1 C420jpeg\nFRAME\n' > broken/no-size.y4m
printf 'YUV4MPEG2 W160 H120 F15:1 Ip C444\nFRAME\n' > broken/unsupported-444.y4m
ff -f lavfi -i testsrc2=s=64x48:r=15 -frames:v 3 -pix_fmt yuv420p broken/whole-3-frames.y4m
head -c $(( $(stat -c %s broken/whole-3-frames.y4m) - 2000 )) broken/whole-3-frames.y4m > broken/truncated-frame.y4m
rm broken/whole-3-frames.y4m
printf 'This is not an MP4 file, whatever its name says.\n' > broken/not-really.mp4

# Configuration files.
cat > config/good.conf <<'CONF'
# A kiosk posting to the local store, with its own author and cache bound.
backend = local
local.path = /tmp/recorder-fixture-store
author_id = lobby-booth
author_name = "Lobby booth"
cache.max_mib = 256
kiosk.seconds = 10
CONF
cat > config/bad-unknown-key.conf <<'CONF'
backend = local
s3.buckett = typo-of-bucket
CONF
cat > config/bad-syntax.conf <<'CONF'
backend = local
this line has no equals sign
CONF
cat > config/bad-number.conf <<'CONF'
backend = s3
s3.endpoint = http://127.0.0.1:9000
s3.bucket = clips
s3.part_size_mib = lots
CONF
cat > config/bad-backend.conf <<'CONF'
backend = ftp
CONF

# Captions (UTF-8; each file is the caption exactly, no trailing newline).
python3 - <<'PY'
captions = {
    "rtl.txt": "مرحبا بالعالم — שלום עולם",
    "zwj-emoji.txt": "Family 👩‍👩‍👧‍👦, flag 🏳️‍🌈, skin tone 👋🏽",
    "combining.txt": "e\u0301 a\u0300 n\u0303 Z\u0351\u0352\u0353 (combining marks)",
    "multiline.txt": "first line\r\nsecond line\rthird line",
    "length-2200.txt": "👩‍👩‍👧" * 2200,
    "length-2201.txt": "👩‍👩‍👧" * 2201,
    "control-bell.txt": "ding\u0007dong",
    "control-nul.txt": "before\u0000after",
}
for name, text in captions.items():
    open("captions/" + name, "wb").write(text.encode("utf-8"))
PY
