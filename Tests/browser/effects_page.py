#!/usr/bin/env python3
"""Clip effects in a real browser (Debian's chromium, headless, Playwright), as guests use them.

Starts `recorder kiosk` on the built-in test pattern with kiosk.effects = none, boomerang, slowmo
(a 1 s boomerang take), then at the
booth's three sizes (1280x800 by touch, 800x1280 by touch, 1920x1080 by the keyboard's Space):
the start screen offers the effects in the page's language, the guest chooses Boomerang, records,
and the review plays the boomerang over and over (at least 3 s, ffprobe), fitted to the screen and
centred across it (at 800x1280 also turned into a phone's 390x844); at 1280x800 the guest
posts it, and the phone (390x844) opens the share link: the boomerang plays as a loop, "Save as a
loop" saves an MP4 chromium names -loop.mp4 (ffprobe: H.264, at least 3 s, no sound), the GIF is
made only when asked (image/gif, at most 8 MB), and the take is offered too. The choice goes back
to the first effect for the next guest. At every state: no scrollbars, touch targets of at least
64 px. Screenshots of every state go to ARTIFACTS/effects (default .cache/browser-artifacts/effects).

    python Tests/browser/effects_page.py RECORDER_BINARY
"""
import json, os, pathlib, re, shutil, subprocess, sys, time, urllib.request

from playwright.sync_api import sync_playwright

from browser_support import Checks, Kiosk, fetch, launch, repo, wait_until

binary = sys.argv[1]
artifacts = pathlib.Path(os.environ.get("ARTIFACTS", repo / ".cache" / "browser-artifacts")) / "effects"
shutil.rmtree(artifacts, ignore_errors=True)
artifacts.mkdir(parents=True)
check = Checks()
kiosk = Kiosk(binary, artifacts / "kiosk.log", args=["--seconds", "3", "--countdown", "1"], prefix="recorder-effects-",
              env={"RECORDER_KIOSK_REVIEW_SECONDS": "20", "RECORDER_KIOSK_EFFECTS": "none, boomerang, slowmo",
                   "RECORDER_EFFECT_BOOMERANG_SECONDS": "1", "RECORDER_SHOOT_SIZE": "640x360", "RECORDER_KIOSK_HOSTS": "booth.test"})
kiosk.environment["RECORDER_SHARE_BASE_URL"] = f"http://booth.test:{kiosk.port}/s/{{token}}"
work, base = kiosk.work, kiosk.base
errors = []


def status():
    with urllib.request.urlopen(base + "/api/status", timeout=10) as r:
        return json.load(r)


def ffprobe(path, entries):
    out = subprocess.run(["ffprobe", "-v", "error", "-show_entries", entries, "-of", "json", str(path)], capture_output=True, text=True)
    return json.loads(out.stdout or "{}")


def looks_right(page, size, state):
    scroll = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight, innerWidth, innerHeight]")
    check(f"{size} {state}: no scrollbars", scroll[0] <= scroll[2] and scroll[1] <= scroll[3], str(scroll))
    small = page.evaluate("""[...document.querySelectorAll('button')].filter((b) => b.offsetParent !== null)
        .map((b) => [b.id || b.dataset.effect, b.getBoundingClientRect().width, b.getBoundingClientRect().height])
        .filter(([, w, h]) => w < 64 || h < 64)""")
    check(f"{size} {state}: touch targets of at least 64 px", not small, str(small))
    overlap = page.evaluate("""(() => {
        const r = (el) => el.getBoundingClientRect(), a = r(document.getElementById('effects')), b = r(document.getElementById('record'));
        return document.getElementById('effects').hidden ? false : !(a.bottom <= b.top || b.bottom <= a.top || a.right <= b.left || b.right <= a.left); })()""")
    check(f"{size} {state}: the effects do not cover the record button", not overlap)
    page.screenshot(path=str(artifacts / f"{size}-{state}.png"))


def review_fitted(page, size):
    """The review's picture fitted to the screen and centred across it: the clip's box, and the
    picture in it (object-fit: contain, centred), against the stage's. (The test pattern's last
    bar is black: on screen a black band at the picture's right edge is the picture.)"""
    geometry = page.evaluate("""(() => {
        const v = document.getElementById('clip'), s = document.getElementById('stage').getBoundingClientRect(), b = v.getBoundingClientRect();
        const style = getComputedStyle(v), scale = Math.min(b.width / v.videoWidth, b.height / v.videoHeight);
        const w = v.videoWidth * scale, h = v.videoHeight * scale;
        return { stage: [s.left, s.top, s.width, s.height], box: [b.left, b.top, b.width, b.height],
                 picture: [b.left + (b.width - w) / 2, b.top + (b.height - h) / 2, w, h], fit: [style.objectFit, style.objectPosition] }; })()""")
    (sx, sy, sw, sh), (bx, by, bw, bh), (px, py, pw, ph) = geometry["stage"], geometry["box"], geometry["picture"]
    inside = sx - 1 <= px and px + pw <= sx + sw + 1 and sy - 1 <= py and py + ph <= sy + sh + 1
    fitted = abs(pw - sw) <= 3 or abs(ph - sh) <= 3
    across = abs((bx + bw / 2) - (sx + sw / 2)) <= 3 and abs((px + pw / 2) - (sx + sw / 2)) <= 3
    # (upright, the picture takes the top and the words the room below it; side by side, the middle)
    portrait = sh > sw
    down = abs(by - sy) <= 1 if portrait else abs((py + ph / 2) - (sy + sh / 2)) <= 3
    check(f"{size} review: the picture fits the screen, centred across it, {'at the top' if portrait else 'in the middle'} ({geometry})",
          geometry["fit"] == ["contain", "50% 50%"] and inside and fitted and across and down)


def wait_phase(page, phase, seconds):
    wait_until(page, f"document.body.dataset.phase === '{phase}'", seconds * 1000)


def choose_and_record(page, size, how):
    wait_phase(page, "attract", 30)
    # (the buttons come with the kiosk's first status)
    wait_until(page, "document.querySelectorAll('#effects button').length === 3 && document.body.dataset.effect", 30000)
    names = page.evaluate("[...document.querySelectorAll('#effects button')].map((b) => [b.dataset.effect, b.textContent, b.getAttribute('aria-checked')])")
    check(f"{size}: the start screen offers the three effects in the page's words, the first chosen",
          [n[:2] for n in names] == [["none", "Normal"], ["boomerang", "Boomerang"], ["slowmo", "Slow motion"]] and names[0][2] == "true", str(names))
    looks_right(page, size, "1-start")
    boomerang = page.locator("#effects button[data-effect='boomerang']")
    boomerang.tap() if how == "touch" else boomerang.click()
    wait_until(page, "document.body.dataset.effect === 'boomerang'", 10000)
    check(f"{size}: choosing lights Boomerang and the kiosk keeps it", status()["booth"]["effect"] == "boomerang"
          and page.get_attribute("#effects button[data-effect='boomerang']", "aria-checked") == "true")
    check(f"{size}: choosing recorded nothing", document_phase(page) == "attract" and status()["state"] == "idle")
    looks_right(page, size, "2-chosen")
    if how == "key":
        page.keyboard.press("Space")
    else:
        page.locator("#record").tap()
    wait_phase(page, "review", 90)
    wait_until(page, "document.getElementById('clip').readyState >= 2", 30000)
    shot = status()["currentShot"]
    review = page.evaluate("(() => { const v = document.getElementById('clip'); return [v.loop, v.duration, !v.paused]; })()")
    check(f"{size}: the review plays the boomerang over and over ({review})",
          review[0] is True and review[1] >= 3 and review[2] and shot["effect"]["name"] == "boomerang", str(shot.get("effect")))
    reviewed = work / "review.mp4"
    with urllib.request.urlopen(base + "/api/shot/current/video.mp4", timeout=30) as r:
        reviewed.write_bytes(r.read())
    seconds = float(ffprobe(reviewed, "format=duration")["format"]["duration"])
    check(f"{size}: what the review plays is the boomerang (ffprobe: {seconds:.2f} s from a 1 s take)", seconds >= 3)
    review_fitted(page, size)
    looks_right(page, size, "3-review")
    if size == "800x1280":
        # The same review on a phone (its screen upright, narrower): fitted and centred too.
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_timeout(300)
        review_fitted(page, "390x844")
        looks_right(page, "390x844", "3-review")
        page.set_viewport_size({"width": 800, "height": 1280})
    return shot


def document_phase(page):
    return page.evaluate("document.body.dataset.phase")


kiosk.start()
try:
    with sync_playwright() as p:
        browser = launch(p, names=["booth.test"])
        for size, how in [((1280, 800), "touch"), ((800, 1280), "touch"), ((1920, 1080), "key")]:
            label = f"{size[0]}x{size[1]}"
            context = browser.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=True)
            page = context.new_page()
            page.on("console", lambda m: errors.append(f"{m.type}: {m.text}") if m.type == "error" else None)
            page.goto(base + "/")
            shot = choose_and_record(page, label, how)
            if label != "1280x800":
                page.locator("#delete").tap() if how == "touch" else page.locator("#delete").click()
                wait_until(page, "document.body.dataset.phase === 'done' || document.body.dataset.phase === 'attract'", 10000)
                wait_until(page, "document.body.dataset.effect === 'none'", 10000)
                check(f"{label}: after the guest, the next one starts from Normal", status()["booth"]["effect"] == "none")
                context.close()
                continue
            page.fill("#caption", "Hin und zurück")
            page.locator("#post").tap()
            wait_phase(page, "done", 30)
            wait_until(page, "document.body.dataset.effect === 'none'", 10000)
            check(f"{label}: after the post, the next guest starts from Normal", status()["booth"]["effect"] == "none")
            wait_until(page, "document.body.dataset.shareShown === 'code'", 60000)
            link = page.inner_text("#share-link")
            page.screenshot(path=str(artifacts / f"{label}-4-thanks.png"))
            context.close()

            # The guest's phone.
            phone_context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, accept_downloads=True)
            phone = phone_context.new_page()
            phone.on("console", lambda m: errors.append(f"{m.type}: {m.text}") if m.type == "error" else None)
            phone.goto(link)
            wait_until(phone, "document.getElementById('video').readyState >= 2", 30000)
            wait_until(phone, "document.getElementById('video').currentTime > 0.3", 30000)
            played = phone.evaluate("(() => { const v = document.getElementById('video'); return [v.loop, v.duration]; })()")
            check(f"phone: the boomerang plays by itself, as a loop ({played})", played[0] is True and played[1] >= 3)
            links = phone.evaluate("[...document.querySelectorAll('a.download')].map((a) => [a.textContent, a.getAttribute('href').split('/').pop(), a.getAttribute('download')])")
            check("phone: Save as a loop, the GIF and the take are offered, in that order",
                  [l[:2] for l in links] == [["Save as a loop", "video.mp4"], ["Get it as an animated GIF", "loop.gif"],
                                             ["Download the original take", "take.mp4"]], str(links))
            width = phone.evaluate("[document.documentElement.scrollWidth, innerWidth]")
            check("phone: no sideways scrolling", width[0] <= width[1], str(width))
            box = phone.evaluate("(() => { const r = document.querySelector('a.download').getBoundingClientRect(); return [r.width, r.height, r.bottom, innerHeight]; })()")
            check("phone: Save as a loop is large and on the first screen", box[0] >= 200 and box[1] >= 48 and box[2] <= box[3], str(box))
            phone.screenshot(path=str(artifacts / "390x844-share.png"))
            phone.screenshot(path=str(artifacts / "390x844-share-full.png"), full_page=True)
            gifs = list((work / "cache").rglob("*.loop.gif"))
            check("phone: no GIF is made before it is asked for", not gifs, str(gifs))
            with phone.expect_download(timeout=60000) as saving:
                phone.locator("a.download").first.tap()
            saved = work / "saved-loop.mp4"
            saving.value.save_as(str(saved))
            probe = ffprobe(saved, "stream=codec_type,codec_name,pix_fmt:format=duration")
            streams = [(s["codec_type"], s.get("codec_name"), s.get("pix_fmt")) for s in probe.get("streams", [])]
            check(f"phone: the loop is saved as {saving.value.suggested_filename!r}: H.264 4:2:0 with no sound, {probe['format']['duration']} s",
                  saving.value.suggested_filename == "Hin und zurück-loop.mp4" and streams == [("video", "h264", "yuv420p")]
                  and float(probe["format"]["duration"]) >= 3, str(streams))
            token = link.rsplit("/", 1)[1]
            code, gif = fetch(base + f"/s/{token}/loop.gif")
            check(f"phone: the GIF, asked for, is made ({len(gif)} bytes, at most 8 MB)", code == 200 and gif[:6] == b"GIF89a" and len(gif) <= 8 << 20)
            code, take = fetch(base + f"/s/{token}/take.mp4")
            stored = list((work / "store" / "takes").glob("*.mp4"))
            check("phone: the take is the store's, byte for byte", code == 200 and len(stored) == 1 and take == stored[0].read_bytes())
            phone_context.close()
        # The operator's page: the effects offered, and what the current shot was made into, here
        # slow motion from the test pattern (60 fps, played at 30), silent, the take's sound levelled.
        request = urllib.request.Request(base + "/api/effect", data=b'{"effect": "slowmo"}', method="POST",
                                         headers={"Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=10).read()
        request = urllib.request.Request(base + "/api/shoot", data=b'{"countdown": 0}', method="POST", headers={"Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=10).read()
        end = time.monotonic() + 90
        while time.monotonic() < end and not ((status().get("currentShot") or {}).get("effect") or {}).get("name") == "slowmo":
            time.sleep(0.5)
        admin = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        admin.on("console", lambda m: errors.append(f"{m.type}: {m.text}") if m.type == "error" else None)
        admin.goto(base + "/admin")
        wait_until(admin, "!document.getElementById('shot-effect').hidden && document.getElementById('booth-effects').textContent !== '–'", 30000)
        lines = admin.evaluate("['shot-effect', 'shot-info', 'booth-effects'].map((id) => document.getElementById(id).textContent)")
        levelled = re.search(r"silent \(the take's sound is kept with the take, -1[0-9]\.[0-9] → -1[56]\.[0-9] LUFS\)", lines[1])
        check(f"operator page: the shot's effect, its loudness and the effects offered are said ({lines})",
              lines[0].startswith("slow motion 2×: recorded at 60 fps, played at 30 fps") and levelled is not None
              and lines[2].startswith("none, boomerang, slowmo (kiosk.effects) · now: slowmo"), str(lines))
        admin.screenshot(path=str(artifacts / "1280x800-operator.png"))
        # A shot whose effect and levelling failed, as shot.json records them: the failure as data
        # (a boomerang of 2 pictures; a levelled sound that measures as silence), which the page
        # says in the operator's words the kiosk gives beside the shot (effectFault, loudnessFault).
        shot_file = work / "ws" / "current" / "shot.json"
        shot = json.loads(shot_file.read_text())
        shot["effect"] = {"name": "boomerang", "notRendered": {"failure": {"fault": {"media": {"error": {
            "kind": {"badInput": {}}, "reason": {"boomerangTooShort": {"pictures": 2}}, "code": 0}}}}}}
        shot["audio"]["loudness"] = {"targetLUFS": -16, "left": {"failure": {"fault": {"media": {"error": {
            "kind": {"failed": {}}, "reason": {"levelledSoundSilent": {}}, "code": 0}}}}}}
        shot_file.write_text(json.dumps(shot))
        admin.reload()
        wait_until(admin, "document.getElementById('shot-effect').textContent.startsWith('boomerang was not made') && !document.getElementById('shot-loudness').hidden", 30000)
        lines = admin.evaluate("['shot-effect', 'shot-loudness'].map((id) => [document.getElementById(id).textContent, document.getElementById(id).className])")
        check(f"operator page: an effect and a levelling that failed are said with the failure's words ({lines})",
              lines == [["boomerang was not made: the shot is the take as recorded (the file has 2 pictures; a boomerang needs at least 3)", "muted warning"],
                        ["sound left as recorded: levelling it to -16 LUFS failed (the levelled sound of the file measures as silence)", "muted warning"]],
              str(lines))
        admin.screenshot(path=str(artifacts / "1280x800-operator-failed.png"))
        check("no errors in the pages' consoles", not errors, str(errors[:5]))
        browser.close()
finally:
    kiosk.stop()
print(f"{check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
