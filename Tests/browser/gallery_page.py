#!/usr/bin/env python3
"""The host's gallery (`recorder serve`, /g/TOKEN) in headless chromium, at a phone's size (390x844)
and a desktop's (1280x800), over a local store of 300 posts: one real clip (`recorder shoot` and
`post`) and 299 more made from it straight into the store's layout (metadata, feed index, video and
poster objects, each post its own id, token, time and caption). It checks:

- the first screen: the event's name, Download all, the newest posts' posters, and far fewer cards
  than posts (the rest come as the list scrolls: paged, never all at once); the time it took is
  printed (a figure, not a verdict);
- scrolling to the end loads every post, once each, newest first;
- a poster tapped becomes a player that plays (its time moves);
- Download all downloads a zip, named after the event, that `unzip -t` accepts, with 300 entries.
Screenshots of each size's first screen and of the playing clip go to the artifacts folder.

    python Tests/browser/gallery_page.py RECORDER_BINARY
"""
import json, os, pathlib, shutil, subprocess, sys, tempfile, time, urllib.request, zipfile

from playwright.sync_api import sync_playwright

from browser_support import Checks, free_port, launch, repo, wait_until
from gallery_seed import seed

binary = sys.argv[1]
artifacts = pathlib.Path(os.environ.get("ARTIFACTS", repo / ".cache" / "browser-artifacts")) / "gallery"
shutil.rmtree(artifacts, ignore_errors=True)
artifacts.mkdir(parents=True)
check = Checks()
work = pathlib.Path(tempfile.mkdtemp(prefix="recorder-gallery-page-"))
store = work / "store"
port = free_port()
base = f"http://127.0.0.1:{port}"
POSTS = 300
environment = {**os.environ, "RECORDER_SHARE_BASE_URL": f"{base}/s/{{token}}", "XDG_CACHE_HOME": str(work / "cache"), "RECORDER_KIOSK_ID": "booth-1"}
environment.pop("RECORDER_CONFIG", None)


server = None
try:
    newest = seed(binary, work, store, environment, POSTS)
    made = subprocess.run([binary, "gallery", "create", "--event", "Anna & Ben", "--no-card", "--json", "--store-dir", str(store)],
                          capture_output=True, text=True, env=environment)
    check("recorder gallery create makes the link", made.returncode == 0, made.stderr)
    link = json.loads(made.stdout)["link"]
    log = open(artifacts / "serve.log", "w")
    server = subprocess.Popen([binary, "serve", "--listen", f"127.0.0.1:{port}", "--store-dir", str(store)], stdout=log, stderr=subprocess.STDOUT,
                              env=environment)
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "/healthz", timeout=1)
            break
        except Exception:
            time.sleep(0.1)
    with sync_playwright() as p:
        browser = launch(p)
        for name, size in (("phone", {"width": 390, "height": 844}), ("desktop", {"width": 1280, "height": 800})):
            context = browser.new_context(viewport=size, accept_downloads=True, locale="en-GB")
            page = context.new_page()
            errors = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            started = time.monotonic()
            page.goto(link)
            try:
                wait_until(page, "document.querySelectorAll('#posts .card img').length > 0 && "
                                 "[...document.querySelectorAll('#posts .card img')].slice(0, 2).every(i => i.complete && i.naturalWidth > 0)")
            except TimeoutError:
                page.screenshot(path=str(artifacts / f"{name}-failed.png"))
                print(page.content()[:3000], errors)
                raise
            first = time.monotonic() - started
            print(f"{name}: the first screen with its first posters in {first:.2f} s ({POSTS} posts in the store)")
            cards = page.eval_on_selector_all("#posts .card", "cs => cs.length")
            check(f"{name}: the first screen shows posts with posters, not all {POSTS} of them", 0 < cards < POSTS, str(cards))
            check(f"{name}: the event's name and Download all are on it",
                  page.inner_text("h1") == "Anna & Ben" and page.is_visible("#download-all"))
            overflow = page.evaluate("document.documentElement.scrollWidth > window.innerWidth")
            check(f"{name}: nothing wider than the screen", not overflow)
            page.screenshot(path=str(artifacts / f"{name}-first.png"))
            # Scrolled to the end: every post once, newest first.
            scrolled = time.monotonic()
            while time.monotonic() - scrolled < 180:
                if page.eval_on_selector_all("#posts .card", "cs => cs.length") >= POSTS:
                    break
                page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
                time.sleep(0.3)
            count = page.eval_on_selector_all("#posts .card", "cs => cs.length")
            print(f"{name}: scrolled through {count} posts in {time.monotonic() - scrolled:.1f} s")
            ids = page.eval_on_selector_all("#posts .card .download", "as => as.map(a => a.getAttribute('href'))")
            check(f"{name}: each post once", len(set(ids)) == len(ids), f"{len(ids)} links, {len(set(ids))} distinct")
            check(f"{name}: scrolled to its end, the gallery has all {POSTS} posts", count == POSTS, str(count))
            page.evaluate("window.scrollTo(0, 0)")
            # A clip played.
            page.click("#posts .card .frame")
            played = wait_until(page, "(() => { const v = document.querySelector('#posts video'); return v && v.currentTime > 0.3; })()", 20000)
            check(f"{name}: a poster tapped becomes a player that plays", played)
            page.screenshot(path=str(artifacts / f"{name}-playing.png"))
            # Download all.
            with page.expect_download(timeout=60000) as download:
                page.click("#download-all")
            saved = artifacts / f"{name}-all.zip"
            download.value.save_as(saved)
            tested = subprocess.run(["unzip", "-t", str(saved)], capture_output=True, text=True)
            with zipfile.ZipFile(saved) as z:
                entries = len(z.infolist())
            check(f"{name}: Download all gives {download.value.suggested_filename}, a zip unzip -t accepts with all {POSTS} clips",
                  tested.returncode == 0 and entries == POSTS and download.value.suggested_filename == "Anna & Ben.zip",
                  f"{tested.returncode} {entries} {download.value.suggested_filename}")
            check(f"{name}: no script error", not errors, str(errors))
            context.close()
        browser.close()
except Exception as error:  # noqa: BLE001
    check("the page test ran to its end", False, repr(error))
finally:
    if server:
        server.terminate()
        server.wait(timeout=20)
    shutil.rmtree(work, ignore_errors=True)
print(f"gallery page: {check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
