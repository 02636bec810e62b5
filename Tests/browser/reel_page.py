#!/usr/bin/env python3
"""The highlight reel on the operator page, in Debian's chromium (Playwright), under the page's
real Content-Security-Policy.

Three posts are made with `recorder shoot` (the test pattern and its beep) and `recorder post` into
the store of a kiosk; on its operator page "Make the reel" is pressed, the page follows the steps
until the reel is ready, and the reel plays in the page's own player to its end: pictures and
sound decoded by chromium, its length the posts' and the cards'. A second reel of a question nobody
answered is refused with the kiosk's words while the first stays playable. Screenshots of the
panel at booth, tablet and phone sizes go to ARTIFACTS (default .cache/browser-artifacts).
Prints 'N passed, N failed'; exits 1 on any failure.

    python Tests/browser/reel_page.py RECORDER_BINARY
"""
import datetime, json, os, pathlib, subprocess, sys, tempfile

from playwright.sync_api import sync_playwright

from browser_support import Checks, Kiosk, launch, repo, wait_until

binary = sys.argv[1]
artifacts = pathlib.Path(os.environ.get("ARTIFACTS", repo / ".cache" / "browser-artifacts"))
artifacts.mkdir(parents=True, exist_ok=True)
check = Checks()
kiosk = Kiosk(binary, artifacts / "reel-kiosk.log")
work, base = kiosk.work, kiosk.base


def make_posts(captions):
    """Posts by the command line into the kiosk's store, as another kiosk sharing it would make them."""
    home = pathlib.Path(tempfile.mkdtemp(prefix="recorder-reel-posts-", dir=work))
    env = dict(os.environ, HOME=str(home), XDG_RUNTIME_DIR=str(home / "run"), XDG_STATE_HOME=str(home / "state"),
               XDG_CONFIG_HOME=str(home / "config"), XDG_CACHE_HOME=str(home / "cache"), RECORDER_CONFIG="")
    (home / "run").mkdir()
    ids = []
    for caption in captions:
        shot = subprocess.run([binary, "shoot", "--device", "testsrc", "--audio", "beep", "--seconds", "2", "--size", "320x240"],
                              env=env, capture_output=True, text=True)
        if shot.returncode != 0:
            raise RuntimeError("shoot: " + shot.stderr)
        posted = subprocess.run([binary, "post", "--caption", caption, "--store-dir", str(work / "store"), "--create", "--json"],
                                env=env, capture_output=True, text=True)
        if posted.returncode != 0:
            raise RuntimeError("post: " + posted.stderr)
        ids.append(json.loads(posted.stdout.strip().splitlines()[-1])["id"])
    return ids


ids = make_posts(["First guest 🎉", "Second: 'quotes' & <b>markup</b>", "مرحبا بالجميع"])
try:
    kiosk.start()
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(base + "/admin")
        wait_until(page, "document.body.dataset.reel === 'idle'", timeout=30000)
        today = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
        check("the reel's first day is today", page.input_value("#reel-since") == today, page.input_value("#reel-since"))
        check("no reel yet: no player, no download", page.is_hidden("#reel-video") and page.is_hidden("#reel-download"))

        page.click("#reel-make")
        wait_until(page, "document.body.dataset.reel === 'making'", timeout=10000)
        check("while it is made, the page shows the step and the button waits",
              page.is_disabled("#reel-make") and "Making the reel" in page.inner_text("#reel-status"), page.inner_text("#reel-status"))
        wait_until(page, "document.body.dataset.reel !== 'making'", timeout=180000)
        status = page.inner_text("#reel-status")
        check("the reel is made of the three posts", page.evaluate("document.body.dataset.reel") == "done" and "3 post(s)" in status, status)

        # The page's own player: muted (headless has no speakers to ask for), four times as fast.
        page.evaluate("(() => { const v = document.getElementById('reel-video'); v.muted = true; v.playbackRate = 4; v.play(); })()")
        wait_until(page, "document.getElementById('reel-video').ended || !!document.getElementById('reel-video').error", timeout=60000)
        played = page.evaluate("""(() => { const v = document.getElementById('reel-video');
            return { ended: v.ended, error: v.error && v.error.message, width: v.videoWidth, height: v.videoHeight, duration: v.duration,
                     audio: v.webkitAudioDecodedByteCount, video: v.webkitVideoDecodedByteCount }; })()""")
        check("the reel played to its end in chromium, without an error", played["ended"] and not played["error"], str(played))
        check("its pictures were decoded, at the posts' size", played["video"] > 0 and played["width"] == 320 and played["height"] == 240, str(played))
        check("its sound was decoded", played["audio"] > 0, str(played))
        # Three 2-second posts and three 2.5-second cards.
        check("its length is the posts' and the cards'", abs(played["duration"] - 13.5) < 0.1, str(played))
        link = page.evaluate("(() => { const a = document.getElementById('reel-download'); return [a.getAttribute('href'), a.getAttribute('download')]; })()")
        check("a download link for the reel", link == ["/api/admin/reel.mp4", "highlight-reel.mp4"], str(link))

        for name, size in [("booth", (1280, 800)), ("tablet", (800, 1280)), ("phone", (390, 844))]:
            page.set_viewport_size({"width": size[0], "height": size[1]})
            page.evaluate("document.getElementById('reel-video').currentTime = 1")
            page.wait_for_timeout(400)
            panel = page.locator("#reel-panel")
            box = panel.bounding_box()
            check(f"{name}: the reel panel fits across the screen", box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size[0] + 1, str(box))
            panel.screenshot(path=str(artifacts / f"reel-panel-{name}.png"))

        # A reel of a question nobody answered: refused with the kiosk's words, the last reel kept.
        page.set_viewport_size({"width": 1280, "height": 800})
        page.fill("#reel-prompt", "A question nobody was asked")
        page.click("#reel-make")
        wait_until(page, "document.body.dataset.reel === 'failed'", timeout=60000)
        status = page.inner_text("#reel-status")
        check("a reel with nothing in it is refused, saying what to change", "another question" in status and "A question nobody was asked" in status, status)
        check("the last reel is still there to play", page.is_visible("#reel-video") and "still here" in status, status)
        page.locator("#reel-panel").screenshot(path=str(artifacts / "reel-panel-refused.png"))
        browser.close()
finally:
    code = kiosk.stop()
check("the kiosk stopped cleanly", code == 0, f"exit {code}")
print(f"{check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
