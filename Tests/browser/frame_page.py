#!/usr/bin/env python3
"""The guest page under a branding frame (shoot.overlay), as guests see it: Debian's chromium,
headless, Playwright, at the booth's screen (1280x800, by touch) and upright (800x1280).

The frame (made by ffmpeg) is a gold border and, along the bottom, a dark band with
"Anna & Ben · 28.11.2026" and an orange mark at its left end. On each screen that shows the camera
(the start, the consent, the countdown, the recording, the thank-you) the screenshot, decoded by
ffmpeg, must show the frame as it will be recorded, the mark on the left, while the guest's own
picture is a mirror (the test pattern's white bar on the right); the review plays the recording,
the mark on the left too (issue 49: the frame read backwards on all of them). And nothing of the
page sits over the frame's band: not the hint, the record button, Stop, Post/Retake/Delete or
"Send it to my email" (issue 49: they covered its text). Upright, the thank-you's card is below the
picture, its panel whole (it stopped at the picture's edge); its code, made smaller where the band
leaves less room, reads (zbarimg). Screenshots of every screen go to
ARTIFACTS/frame (default .cache/browser-artifacts/frame).

    python Tests/browser/frame_page.py RECORDER_BINARY
"""
import os, pathlib, shutil, subprocess, sys, time

from playwright.sync_api import sync_playwright

from browser_support import Checks, Kiosk, launch, repo, wait_until

binary = sys.argv[1]
artifacts = pathlib.Path(os.environ.get("ARTIFACTS", repo / ".cache" / "browser-artifacts")) / "frame"
shutil.rmtree(artifacts, ignore_errors=True)
artifacts.mkdir(parents=True)
check = Checks()

# The frame, 640x360 as the shots: its band from y 300 (of 360) down, the mark at x 12-60 in it.
BAND, MARK = 300 / 360, (12 / 640, 60 / 640, 312 / 360, 348 / 360)
frame = artifacts / "frame.png"
subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "nullsrc=s=640x360", "-frames:v", "1", "-vf",
                "format=rgba,"
                "geq=r='if(gt(Y,299),if(between(X,12,60)*between(Y,312,348),240,30),212)':g='if(gt(Y,299),if(between(X,12,60)*between(Y,312,348),120,30),175)'"
                ":b='if(gt(Y,299),if(between(X,12,60)*between(Y,312,348),20,60),55)':a='if(gt(Y,299),235,if(lt(X,8)+gt(X,631)+lt(Y,8),255,0))',"
                "drawtext=font=Sans:text='Anna & Ben · 28.11.2026':fontcolor=0xd4af37:fontsize=34:x=(w-text_w)/2+20:y=312", str(frame)], check=True)
consent = artifacts / "consent.txt"
consent.write_text("When you press I agree, this booth films you for a few seconds, with sound.\n")
kiosk = Kiosk(binary, artifacts / "kiosk.log", args=["--seconds", "4", "--countdown", "2"], prefix="recorder-frame-",
              env={"RECORDER_SHOOT_OVERLAY": str(frame), "RECORDER_SHOOT_SIZE": "640x360", "RECORDER_KIOSK_REVIEW_SECONDS": "30",
                   "RECORDER_KIOSK_CONSENT": str(consent), "RECORDER_KIOSK_HOSTS": "booth.test",
                   # (a mail server the thank-you offers; never reached: nobody sends)
                   "RECORDER_MAIL_SMTP_URL": "smtp://127.0.0.1:9", "RECORDER_MAIL_FROM": "Booth <booth@example.org>",
                   "RECORDER_MAIL_INSECURE": "true"})
kiosk.environment["RECORDER_SHARE_BASE_URL"] = f"http://booth.test:{kiosk.port}/s/{{token}}"


def pixels(png):
    """The screenshot's RGB, as ffmpeg decodes it: (width, height, bytes)."""
    probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", str(png)],
                           capture_output=True, text=True, check=True).stdout.strip().split(",")
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", str(png), "-f", "rawvideo", "-pix_fmt", "rgb24", "-"], capture_output=True, check=True).stdout
    return int(probe[0]), int(probe[1]), raw


def rgb(shot, x, y):
    width, _, raw = shot
    at = (int(y) * width + int(x)) * 3
    return tuple(raw[at:at + 3])


def orange(c):
    """The mark's orange, darkened or not (the consent's panel darkens the camera)."""
    return c[0] > 80 and c[0] > 1.5 * c[1] and c[1] > 1.5 * c[2]


def brighter(a, b):
    """Whether `a` is much the brighter (the test pattern's white bar against its black one)."""
    return min(a) > 2 * max(b) + 40


def picture_box(page, which):
    """Where the picture (`live` or `clip`) is on screen: object-fit: contain in its element's box."""
    return page.evaluate("""(id) => {
      const e = document.getElementById(id), b = e.getBoundingClientRect();
      const w = e.videoWidth || e.width, h = e.videoHeight || e.height, s = Math.min(b.width / w, b.height / h);
      return { left: b.left + (b.width - w * s) / 2, top: b.top + (b.height - h * s) / 2, width: w * s, height: h * s };
    }""", which)


def controls(page, phase):
    """Every visible thing of the screen `phase` a guest reads or presses: its id or class and box."""
    return page.evaluate("""(phase) => [...document.querySelectorAll('#' + phase + ' *')]
      .filter((e) => e.offsetParent !== null && getComputedStyle(e).visibility !== 'hidden')
      .filter((e) => ['BUTTON', 'P', 'H1', 'H2', 'IMG', 'INPUT'].includes(e.tagName) || e.classList.contains('card'))
      .map((e) => { const b = e.getBoundingClientRect(); return [e.id || e.className || e.tagName, b.left, b.top, b.right, b.bottom]; })
      .filter(([, l, t, r, b]) => r > l && b > t)""", phase)


def screen(page, size, name, phase, which="live", mirrored=True):
    """One screen: its screenshot; the frame's mark where the recording has it; the picture a
    mirror (the live camera) or not (the review's clip); nothing of the page over the band."""
    time.sleep(0.6)
    path = artifacts / f"{size}-{name}.png"
    # (the boxes first, as the screenshot is taken: a recording ends within seconds)
    box, shown = picture_box(page, which), controls(page, phase)
    page.screenshot(path=str(path))
    shot = pixels(path)
    at = lambda fx, fy: rgb(shot, box["left"] + fx * box["width"], box["top"] + fy * box["height"])
    mark = at((MARK[0] + MARK[1]) / 2, (MARK[2] + MARK[3]) / 2)
    turned = at(1 - (MARK[0] + MARK[1]) / 2, (MARK[2] + MARK[3]) / 2)
    check(f"{size} {name}: the frame reads as recorded (its mark on the left, {mark}; not on the right, {turned})",
          orange(mark) and not orange(turned))
    # The test pattern's first bar is white: on the right in a mirror, on the left as recorded.
    # (each side the median of ten points across its bar: the pattern's sweeping bar, white, may
    # cross the black one at any point)
    side = lambda xs: sorted((at(x, 0.5) for x in xs), key=sum)[len(xs) // 2]
    right, left = side([0.89 + i / 100 for i in range(10)]), side([0.02 + i / 100 for i in range(10)])
    check(f"{size} {name}: the picture is {'a mirror' if mirrored else 'as recorded'} (left {left}, right {right})",
          brighter(right, left) if mirrored else brighter(left, right))
    band = (box["left"], box["top"] + BAND * box["height"], box["left"] + box["width"], box["top"] + box["height"])
    over = [c for c in shown if c[1] < band[2] and c[3] > band[0] and c[2] < band[3] and c[4] > band[1] + 1]
    check(f"{size} {name}: nothing of the page over the frame's band", not over, str(over))
    return box


kiosk.start()
try:
    with sync_playwright() as p:
        browser = launch(p)
        for width, height in [(1280, 800), (800, 1280), (1920, 1080)]:
            size = f"{width}x{height}"
            page = browser.new_page(viewport={"width": width, "height": height}, has_touch=True)
            errors = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(kiosk.base + "/")
            wait_until(page, "+(document.body.dataset.frames || 0) > 3", 30000)
            screen(page, size, "1-start", "attract")
            page.tap("#record")
            wait_until(page, "document.body.dataset.phase === 'consent'", 10000)
            # (the consent's own panel darkens the camera: the frame is checked, the band is not a button's)
            screen(page, size, "2-consent", "consent")
            wait_until(page, "!document.getElementById('agree').disabled", 5000)
            page.tap("#agree")
            wait_until(page, "document.body.dataset.phase === 'countdown'", 10000)
            screen(page, size, "3-countdown", "countdown")
            wait_until(page, "document.body.dataset.phase === 'recording'", 20000)
            screen(page, size, "4-recording", "recording")
            wait_until(page, "document.body.dataset.phase === 'review'", 30000)
            wait_until(page, "document.getElementById('clip').readyState >= 2", 20000)
            page.evaluate("document.getElementById('clip').pause()")
            screen(page, size, "5-review", "review", which="clip", mirrored=False)
            page.tap("#post")
            wait_until(page, "document.body.dataset.phase === 'done' && !document.getElementById('share').hidden "
                             "&& !document.getElementById('mail-open').hidden", 30000)
            box = screen(page, size, "6-thank-you", "done")
            # (the code made smaller to leave the band clear still reads: zbarimg off the screenshot)
            decoded = subprocess.run(["zbarimg", "--raw", "-q", str(artifacts / f"{size}-6-thank-you.png")], capture_output=True, text=True).stdout.strip()
            qr = page.evaluate("Math.round(document.getElementById('qr').getBoundingClientRect().width)")
            check(f"{size} thank-you: its code ({qr} px) reads as the share link (zbarimg)", decoded == page.inner_text("#share-link"), decoded)
            if height > width:
                card = page.evaluate("(() => { const b = document.querySelector('#done .card').getBoundingClientRect(); return [b.top, b.bottom]; })()")
                check(f"{size} thank-you: the card is below the picture, its panel whole ({card}, the picture ends at {box['top'] + box['height']:.0f})",
                      card[0] >= box["top"] + box["height"] - 1 and card[1] <= height)
            check(f"{size}: no error in the page's console", not errors, str(errors))
            page.close()
finally:
    kiosk.stop()
print(f"frame page: {check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
