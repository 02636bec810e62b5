#!/usr/bin/env python3
"""The kiosk page in a real browser: Debian's chromium, headless, driven by Playwright.

Starts `recorder kiosk` on the built-in test pattern with its own workspace, outbox and local
store, then does what a guest does: sees the live preview, clicks record, waits through the
countdown and the shot, watches it play back, types a caption with emoji, posts, and waits for the
posted id. Checks what the store received with ffprobe and the metadata file. Then the gallery:
the new post first among 12 older ones seeded into the store (one with damaged metadata, one
with markup in its caption), "More" for the 13th, and the posted video played from the cache.
Then the operator's part: the overview (configuration, disk, camera, microphone, button, outbox)
and moderation (hide, show again, delete with a confirmation). "Last posted" names the post by its
caption and forgets it once it is deleted; the gallery starts on the first screen at 1280x800,
800x1280 and 1920x1080; its dates are written in the one English form, to the minute. Screenshots go to
ARTIFACTS (default .cache/browser-artifacts). Prints 'N passed, N failed'; exits 1 on any failure.

    python Tests/browser/kiosk_page.py RECORDER_BINARY
"""
import urllib.request, json, os, pathlib, re, shutil, subprocess, sys, time

from playwright.sync_api import sync_playwright

from browser_support import Checks, Kiosk, launch, repo, wait_until

binary = sys.argv[1]
artifacts = pathlib.Path(os.environ.get("ARTIFACTS", repo / ".cache" / "browser-artifacts"))
shutil.rmtree(artifacts, ignore_errors=True)
artifacts.mkdir(parents=True)
check = Checks()
kiosk = Kiosk(binary, artifacts / "kiosk.log", args=["--seconds", "6", "--countdown", "2"])
work, base = kiosk.work, kiosk.base


def seed_posts(store, count):
    """Older posts straight into the local store: metadata and feed index objects, no videos."""
    (store / "posts").mkdir(parents=True)
    (store / "feed").mkdir(parents=True)
    now = int(time.time())
    ids = []
    for i in range(count):
        post_id = f"SEEDED{i:04d}"
        created = now - 3600 - i
        caption = "<img src=x onerror=alert(1)> not markup" if i == 0 else f"seeded post {i}"
        meta = {"id": post_id, "video": f"{post_id}.mp4", "key": f"videos/{post_id}.mp4", "metadataKey": f"posts/{post_id}.json",
                "url": "file:///nowhere", "ext": "mp4", "width": 320, "height": 240, "durationSeconds": 2.0, "frameRate": 15,
                "codec": "h264", "byteSize": 1000, "sha256": "0" * 64, "caption": caption, "author": {"id": "t", "name": "tester"},
                "createdAt": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(created)), "camera": "testsrc",
                "likeCount": 0, "shareCount": 0, "commentCount": 0}
        text = json.dumps(meta) if i != 5 else '{"id": "broken'
        (store / "posts" / f"{post_id}.json").write_text(text)
        (store / "feed" / f"{9999999999 - created:010d}-{post_id}.json").write_text(json.dumps({"id": post_id}))
        ids.append(post_id)
    return ids


seeded = seed_posts(work / "store", 12)
caption = "Party at the booth 🎉👩‍👩‍👧 — مرحبا!"
try:
    kiosk.start()
    with sync_playwright() as p:
        browser = launch(p)
        # Playwright evaluates its wait conditions as strings, which the page's CSP (no eval) forbids.
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        console = []
        page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
        page.on("pageerror", lambda e: console.append(f"pageerror: {e}"))
        page.goto(base + "/admin")
        wait_until(page, "document.body.dataset.state === 'idle'", timeout=30000)
        check("the page loads and shows the state (idle)", page.inner_text("#state").startswith("idle"))
        wait_until(page, "document.getElementById('preview').naturalWidth > 0", timeout=30000)
        width = page.evaluate("document.getElementById('preview').naturalWidth")
        check("the live preview shows a camera picture", width == 640, f"naturalWidth={width}")
        page.screenshot(path=str(artifacts / "1-idle-preview.png"))
        # The sound meter follows the test pattern's beep (0.1 s at -6 dBFS every second, silence
        # between): it must reach the beep and fall back to silence, while idle and while recording.
        def meter_follows_beep(state, samples):
            peaks = []
            while page.evaluate("document.body.dataset.state") == state and len(peaks) < samples:
                value = page.evaluate("document.getElementById('sound-meter').dataset.peak")
                if value:
                    peaks.append(float(value))
                time.sleep(0.1)
            check(f"the sound meter moves with the beep while {state}",
                  peaks and max(peaks) > -12 and min(peaks) < -40, f"peaks={sorted(set(round(p) for p in peaks))}")
        meter_follows_beep("idle", 25)

        page.click("#record")
        wait_until(page, "document.body.dataset.state === 'countdown'", timeout=10000)
        number = page.inner_text("#countdown")
        check("record starts the countdown on screen", number in ("1", "2"), f"countdown text {number!r}")
        page.screenshot(path=str(artifacts / "2-countdown.png"))
        wait_until(page, "document.body.dataset.state === 'recording'", timeout=20000)
        # A failed request, through the page's own api(): the operator reads the whole error. Asked
        # first, and the shot is 6 s: what follows (a screenshot, the meter's beep and silence) must
        # still find it recording on a busy machine, where a screenshot alone can take 2 s.
        logged = len(console)
        refused = page.evaluate("kioskPage.postJSON('/api/shoot', {}).then(() => null, (e) => [e.message, e.guest])")
        check("then it records (REC shown)", page.is_visible("#rec-dot"))
        check("the record button is disabled while recording", page.is_disabled("#record"))
        page.screenshot(path=str(artifacts / "3-recording.png"))
        # (chromium logs the refused request, asked for on purpose, as a console error: not the page's)
        console[logged:] = [line for line in console[logged:] if "409 (Conflict)" not in line]
        check("a refused request shows the operator the whole error (the guest's sentence kept apart)",
              refused is not None and "already being recorded" in (refused[0] or "")
              and refused[1] == "The booth is busy. Please try again in a moment.", str(refused))
        meter_follows_beep("recording", 60)
        wait_until(page, "document.body.dataset.state === 'idle'", timeout=60000)

        wait_until(page, "(() => { const v = document.getElementById('playback');"
                               " return v.style.display !== 'none' && v.readyState >= 2 && v.duration > 2; })()", timeout=30000)
        duration = page.evaluate("document.getElementById('playback').duration")
        check("the shot plays back in the page (a <video> of ~6 s)", 5.5 < duration < 6.6, f"duration={duration}")
        page.evaluate("document.getElementById('playback').currentTime = 1.5")
        wait_until(page, "document.getElementById('playback').currentTime >= 1.4", timeout=10000)
        check("seeking works (Range requests)", True)
        # Chromium counts the sound it decoded: the shot played back with its sound track.
        page.evaluate("(() => { const v = document.getElementById('playback'); v.muted = false; v.currentTime = 0; return v.play(); })()")
        wait_until(page, "document.getElementById('playback').webkitAudioDecodedByteCount > 0", timeout=15000)
        check("the shot plays back with sound (audio decoded)", True)
        check("the shot's details say it has sound", "sound" in page.inner_text("#shot-info") and "no sound" not in page.inner_text("#shot-info"),
              page.inner_text("#shot-info"))
        page.screenshot(path=str(artifacts / "4-playback.png"))

        page.fill("#caption", caption)
        check("the caption counter counts characters, not bytes",
              page.inner_text("#caption-count").startswith(f"{len(caption)} /"), page.inner_text("#caption-count"))
        page.click("#post")
        wait_until(page, "document.body.dataset.posted !== undefined", timeout=60000)
        post_id = page.evaluate("document.body.dataset.posted")
        wait_until(page, f"document.getElementById('posted-id').textContent === '{post_id}'", timeout=30000)
        check("posting shows the posted id", len(post_id) == 10 and post_id in page.inner_text("#post-message"),
              page.inner_text("#post-message"))
        wait_until(page, "document.getElementById('posted-caption').textContent !== '" + post_id + "'", timeout=30000)
        check("'Last posted' names the post by its caption", page.inner_text("#posted-caption") == caption
              and page.inner_text("#posted-id") == post_id, f"{page.inner_text('#posted-caption')!r} {page.inner_text('#posted-id')!r}")
        page.screenshot(path=str(artifacts / "5-posted.png"))

        video = work / "store" / "videos" / f"{post_id}.mp4"
        meta = json.loads((work / "store" / "posts" / f"{post_id}.json").read_text())
        check("the store has the metadata with the emoji caption intact", meta.get("caption") == caption, meta.get("caption"))
        probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration:stream=codec_name",
                                "-of", "json", str(video)], capture_output=True, text=True)
        info = json.loads(probe.stdout or "{}")
        store_duration = float(info.get("format", {}).get("duration", 0))
        check("the uploaded video is H.264 of ~6 s (ffprobe)",
              info.get("streams", [{}])[0].get("codec_name") == "h264" and 5.5 < store_duration < 6.6, probe.stdout)
        check("the uploaded video has its AAC sound, and its metadata says so",
              [st.get("codec_name") for st in info.get("streams", [])] == ["h264", "aac"]
              and (meta.get("audio") or {}).get("codec") == "aac", f"{probe.stdout} audio={meta.get('audio')}")
        # The gallery: the new post first, 12 to a page, "More" for the rest, played from the cache.
        wait_until(page, f"(() => {{ const c = document.querySelector('#gallery .post');"
                               f" return c && c.dataset.id === '{post_id}'; }})()", timeout=30000)
        cards = page.eval_on_selector_all("#gallery .post", "cs => cs.map(c => c.dataset.id)")
        check("the gallery shows the new post first, 12 to a page", len(cards) == 12 and cards[0] == post_id and cards[1] == seeded[0],
              str(cards))
        check("a caption is shown as text, never as markup",
              page.eval_on_selector_all("#gallery .caption img", "imgs => imgs.length") == 0
              and "<img src=x" in page.inner_text(f"#gallery .post[data-id='{seeded[0]}']"))
        damaged = page.inner_text(f"#gallery .post[data-id='{seeded[5]}']")
        check("a post with damaged metadata is shown as such", "metadata damaged" in damaged, damaged)
        when = page.inner_text(f"#gallery .post[data-id='{post_id}'] .muted")
        check(f"a post's date in the one English form (the mail's too), to the minute, no ISO or zone letter: {when!r}",
              re.match(r"\d{1,2} [A-Z][a-z]+ \d{4}, \d{2}:\d{2} · ", when) is not None and "UTC" not in when, repr(when))
        # The gallery where an operator finds it: its first post starts on the first screen, at
        # the booth's, a tablet's upright and a large screen's size.
        for width, height in [(1280, 800), (800, 1280), (1920, 1080)]:
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate("window.scrollTo(0, 0)")
            first = page.evaluate("document.querySelector('#gallery .post').getBoundingClientRect().top")
            check(f"{width}x{height}: the gallery's first post starts on the first screen ({first:.0f} px of {height})", first < height - 120, f"{first}")
            page.screenshot(path=str(artifacts / f"{width}x{height}-operator.png"))
        page.set_viewport_size({"width": 1280, "height": 800})
        check("'More' is offered when there are more posts", page.is_visible("#more"))
        page.click("#more")
        wait_until(page, "document.querySelectorAll('#gallery .post').length === 13", timeout=30000)
        check("'More' loads the next page and then hides", not page.is_visible("#more")
              and page.eval_on_selector_all("#gallery .post", "cs => cs[12].dataset.id") == seeded[11])
        # Posters: the new post's is in the store (a JPEG at most 640 wide, read by ffprobe), named by
        # its metadata, and shown on its card; the seeded posts (no poster) show none.
        poster = work / "store" / "thumbs" / f"{post_id}.jpg"
        probe = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "json", str(poster)],
                               capture_output=True, text=True)
        pic = (json.loads(probe.stdout or "{}").get("streams") or [{}])[0]
        check("the post's poster is in the store: a JPEG at most 640 wide (ffprobe)",
              pic.get("codec_name") == "mjpeg" and 0 < pic.get("width", 0) <= 640 and pic.get("height", 0) > 0, probe.stdout + probe.stderr)
        check("its metadata names the poster", meta.get("thumbnailKey") == f"thumbs/{post_id}.jpg" and meta.get("thumbnailURL", "").endswith(f"thumbs/{post_id}.jpg"),
              str(meta.get("thumbnailKey")))
        wait_until(page, f"(() => {{ const i = document.querySelector(\"#gallery .post[data-id='{post_id}'] img.poster\");"
                               f" return i && i.complete && i.naturalWidth > 0; }})()", timeout=30000)
        shown = page.evaluate(f"document.querySelector(\"#gallery .post[data-id='{post_id}'] img.poster\").naturalWidth")
        check("the gallery shows the post's poster", shown == pic.get("width"), f"{shown} px")
        check("posts without a poster show none", page.eval_on_selector_all("#gallery img.poster", "imgs => imgs.length") == 1)
        page.screenshot(path=str(artifacts / "6-gallery.png"), full_page=True)
        # Played in a lightbox over the page, wherever it is scrolled to.
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.click(f"#gallery .post[data-id='{post_id}'] img.poster")
        wait_until(page, f"(() => {{ const v = document.getElementById('lightbox-video');"
                               f" return v.src.endsWith('/api/videos/{post_id}.mp4') && v.readyState >= 2 && v.duration > 2; }})()",
                               timeout=30000)
        played = page.evaluate("document.getElementById('lightbox-video').duration")
        check("a gallery post plays from the cache (a <video> of ~6 s)", 5.5 < played < 6.6, f"duration={played}")
        box = page.evaluate("(() => { const r = document.getElementById('lightbox-video').getBoundingClientRect();"
                            " return [document.getElementById('lightbox').open, r.top, r.bottom, innerHeight]; })()")
        check("it plays in a lightbox over the page, in view", box[0] is True and box[1] >= 0 and box[2] <= box[3], str(box))
        cached = list((work / "cache" / "recorder" / "videos").glob("*.mp4"))
        check("the played video is in the cache, byte for byte the posted one",
              len(cached) == 1 and cached[0].read_bytes() == video.read_bytes(), str(cached))
        page.screenshot(path=str(artifacts / "7-gallery-playback.png"))
        page.keyboard.press("Escape")
        wait_until(page, "!document.getElementById('lightbox').open", timeout=5000)
        check("Escape closes the lightbox", True)
        page.click(f"#gallery .post[data-id='{post_id}'] button.play")
        wait_until(page, "document.getElementById('lightbox').open", timeout=5000)
        page.click("#lightbox-close")
        wait_until(page, "!document.getElementById('lightbox').open && !document.getElementById('lightbox-video').getAttribute('src')", timeout=5000)
        check("Play opens it too, and Close ends it", True)

        # The operator's overview: where each thing is, in full, never a secret.
        wait_until(page, "+(document.body.dataset.overview || 0) > 0", timeout=30000)
        # (the Event section's table of every setting, inside a closed <details>: text, not rendered text)
        wait_until(page, "document.querySelectorAll('#settings-table tbody tr').length > 10", timeout=30000)
        config = page.text_content("#settings-table")
        check("the overview lists the configuration in effect, with where each value came from",
              "kiosk.review_seconds" in config and "default" in config and "local.path" in config, config[:200])
        disk = page.inner_text("#disk")
        check("the overview shows free space for workspace, outbox, cache and store",
              all(word in disk for word in ("workspace", "outbox", "cache", "store")) and "free" in disk, disk)
        check("the overview names the camera, the microphone and the button",
              page.inner_text("#booth-camera") == "test pattern" and page.inner_text("#booth-mic") == "test beep"
              and "none" in page.inner_text("#booth-button"),
              f"{page.inner_text('#booth-camera')} / {page.inner_text('#booth-mic')} / {page.inner_text('#booth-button')}")
        check("the outbox is empty once everything is uploaded", page.inner_text("#outbox-list") == "Nothing queued.", page.inner_text("#outbox-list"))
        page.screenshot(path=str(artifacts / "8-operator-overview.png"), full_page=True)

        # Moderation: hide a post, show it again, delete another (confirmed; a dismissed dialog deletes nothing).
        def gallery_ids():
            return page.eval_on_selector_all("#gallery .post", "cs => cs.map(c => c.dataset.id)")
        hide = seeded[1]
        page.click(f"#gallery .post[data-id='{hide}'] button.hide")
        wait_until(page, f"document.body.dataset.moderated === 'hide:{hide}'", timeout=30000)
        page.wait_for_selector(f"#hidden .post[data-id='{hide}']", timeout=30000)
        check("Hide takes a post out of the gallery into the hidden list",
              hide not in gallery_ids() and page.is_visible(f"#hidden .post[data-id='{hide}']"), str(gallery_ids()))
        check("the hidden post's index moved to feed-hidden/ in the store",
              len(list((work / "store" / "feed-hidden").glob(f"*-{hide}.json"))) == 1 and not list((work / "store" / "feed").glob(f"*-{hide}.json")))
        page.screenshot(path=str(artifacts / "9-moderation-hidden.png"), full_page=True)
        page.click(f"#hidden .post[data-id='{hide}'] button.show")
        wait_until(page, f"document.body.dataset.moderated === 'show:{hide}'", timeout=30000)
        wait_until(page, f"!!document.querySelector(\"#gallery .post[data-id='{hide}']\")", timeout=30000)
        check("Show again puts it back in the gallery", hide in gallery_ids() and not page.is_visible(f"#hidden .post[data-id='{hide}']"))
        doomed = seeded[2]
        dialogs = []
        page.once("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.click(f"#gallery .post[data-id='{doomed}'] button.delete")
        time.sleep(1)
        check("Delete asks first, and a dismissed question deletes nothing",
              len(dialogs) == 1 and doomed in dialogs[0] and "cannot be undone" in dialogs[0] and doomed in gallery_ids()
              and (work / "store" / "posts" / f"{doomed}.json").exists(), str(dialogs))
        page.once("dialog", lambda d: d.accept())
        page.click(f"#gallery .post[data-id='{doomed}'] button.delete")
        wait_until(page, f"document.body.dataset.moderated === 'delete:{doomed}'", timeout=30000)
        wait_until(page, f"!document.querySelector(\"#gallery .post[data-id='{doomed}']\")", timeout=30000)
        check("Delete, confirmed, removes the post from the gallery and the store",
              doomed not in gallery_ids() and not (work / "store" / "posts" / f"{doomed}.json").exists()
              and not list((work / "store" / "feed").glob(f"*-{doomed}.json")))

        # The last posted post deleted: "Last posted" forgets it.
        page.once("dialog", lambda d: d.accept())
        page.click(f"#gallery .post[data-id='{post_id}'] button.delete")
        wait_until(page, f"document.body.dataset.moderated === 'delete:{post_id}'", timeout=30000)
        wait_until(page, "document.getElementById('posted-caption').textContent === '–'", timeout=30000)
        check("'Last posted' forgets a post once it is deleted", page.inner_text("#posted-id") == "" and page.inner_text("#posted-caption") == "–")

        errors = [line for line in console if line.startswith(("error", "pageerror"))]
        check("no script errors in the page (a style or script the CSP refused would be one)", not errors, "; ".join(errors))

        # The CSP holds in the browser: a script or a style put into the page by a script (as an
        # injected caption would be) neither runs nor applies; the page's own files do.
        policy = urllib.request.urlopen(kiosk.base + "/admin", timeout=10).headers.get("Content-Security-Policy", "")
        check("the pages' CSP allows no inline script or style", "script-src 'self'" in policy and "unsafe-inline" not in policy, policy)
        logged = len(console)
        injected = page.evaluate("""() => new Promise((done) => {
            const s = document.createElement('script'); s.textContent = 'window.injectedRan = true'; document.body.appendChild(s);
            const d = document.createElement('div'); d.id = 'injected'; d.setAttribute('style', 'width: 123px'); document.body.appendChild(d);
            setTimeout(() => done([!!window.injectedRan, getComputedStyle(d).width]), 300); })""")
        refusals = [line for line in console[logged:] if "Content Security Policy" in line]
        check("an injected inline script does not run and an inline style does not apply (the CSP refuses both)",
              injected[0] is False and injected[1] != "123px" and len(refusals) >= 2, f"{injected} {refusals}")
        browser.close()
finally:
    status = kiosk.stop()

check("the kiosk exits 0 on SIGTERM", status == 0, f"exit {status}")
print(f"screenshots: {artifacts}")
print(f"browser: {check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
