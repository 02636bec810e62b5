#!/usr/bin/env python3
"""The operator page the morning after, as the organiser finds it (issue 49): Debian's chromium,
headless, Playwright, at 1280x800.

A kiosk on the test pattern takes three posts through its API and is restarted (the posts are in
the store, not in this process's memory). The page is opened a day later (the browser's clock set
a day on, as after midnight):
- "Last posted" names the newest post (it said "–" while three were in the gallery);
- the highlight reel's "Posts from" is the first post's day, not today's (after midnight it found
  nothing), and the reel made from it holds all three;
- the current shot's post deleted from the gallery: the Shot panel says its post was deleted (it
  still said "posted as ..."), and "Last posted" names the post before it;
- the table of every setting (the Event section's) opened: it spans the page's width and no word of it is broken over two
  lines (its origin column wrapped letter by letter, "defau/lt"), at 1280x800 and, for the keys and
  origins, on a phone (390x844).
Screenshots go to ARTIFACTS/organiser (default .cache/browser-artifacts/organiser).

    python Tests/browser/organiser_page.py RECORDER_BINARY
"""
import datetime, json, os, pathlib, shutil, sys, time, urllib.request

from playwright.sync_api import sync_playwright

from browser_support import Checks, Kiosk, launch, repo, wait_until

binary = sys.argv[1]
artifacts = pathlib.Path(os.environ.get("ARTIFACTS", repo / ".cache" / "browser-artifacts")) / "organiser"
shutil.rmtree(artifacts, ignore_errors=True)
artifacts.mkdir(parents=True)
check = Checks()
kiosk = Kiosk(binary, artifacts / "kiosk.log", args=["--seconds", "1", "--countdown", "0"], prefix="recorder-organiser-",
              env={"RECORDER_SHOOT_SIZE": "320x240"})
work, base = kiosk.work, kiosk.base


def api(path, body=None):
    request = urllib.request.Request(base + path, data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"} if body is not None else {})
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.load(r)


# The words of the table of every setting's cells (the Event section's) (column:word) that the page broke over two lines.
BROKEN_WORDS = """(columns) => { const broken = [];
  for (const td of document.querySelectorAll('#settings-table td')) {
    const node = td.firstChild;
    if (!node || !columns.includes(td.cellIndex)) continue;
    const words = /\\S+/g; let m;
    while ((m = words.exec(node.textContent))) {
      const r = document.createRange(); r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
      if (new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1) broken.push(td.cellIndex + ':' + m[0]);
    } }
  return broken; }"""


def configuration_panel(page, columns, name):
    """Opens the table of every setting; the words it broke, and its width against its section's."""
    wait_until(page, "document.querySelectorAll('#settings-table tbody tr').length > 10", 10000)
    page.evaluate("document.getElementById('all-settings').open = true")
    page.wait_for_timeout(200)
    panel = page.locator("#all-settings")
    panel.scroll_into_view_if_needed()
    panel.screenshot(path=str(artifacts / name))
    share = page.evaluate("(p => p.getBoundingClientRect().width / p.parentElement.clientWidth)(document.getElementById('all-settings'))")
    return page.evaluate(BROKEN_WORDS, columns), share


def until(what, seconds=60):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if what():
            return True
        time.sleep(0.2)
    return False


try:
    kiosk.start()
    posts = []
    for caption in ["the first guest", "the second guest", "the third guest"]:
        api("/api/shoot", {"seconds": 1, "countdown": 0})
        until(lambda: api("/api/status")["state"] == "recording", 30)
        until(lambda: api("/api/status")["state"] == "idle" and api("/api/status").get("currentShot"), 60)
        shot = api("/api/status")["currentShot"]["id"]
        posts.append(api("/api/post", {"id": shot, "caption": caption})["id"])
        until(lambda: (work / "store" / "posts" / f"{posts[-1]}.json").exists(), 60)
    check("three posts in the store", all((work / "store" / "posts" / f"{p}.json").exists() for p in posts), str(posts))
    first_made = json.loads((work / "store" / "posts" / f"{posts[0]}.json").read_text())["createdAt"]
    # The kiosk restarted (the next morning's boot): its own memory of what it sent is gone.
    kiosk.process.terminate()
    kiosk.process.wait(timeout=30)
    kiosk.log.close()
    kiosk.start()

    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        errors = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("dialog", lambda d: d.accept())
        # A day later in the browser: "today" is the day after the posts.
        page.clock.set_fixed_time(datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1))
        page.goto(base + "/admin")
        wait_until(page, "document.body.dataset.state === 'idle' && document.body.dataset.galleryPages === '1'", 30000)
        wait_until(page, "!!document.body.dataset.lastPosted", 10000)
        last = page.evaluate("document.body.dataset.lastPosted")
        check(f"'Last posted' names the newest post after a restart ({last!r}: {page.inner_text('#posted-caption')!r})", last == posts[2])
        # (the first post's day where this browser is)
        first_day = page.evaluate("(t) => new Date(t).toLocaleDateString('sv')", first_made)
        wait_until(page, "!!document.getElementById('reel-since').value", 10000)
        since = page.input_value("#reel-since")
        check(f"the reel's 'Posts from' is the first post's day ({since}; first post {first_day}), not the browser's today",
              since == first_day and since != page.evaluate("new Date().toLocaleDateString('sv')"))
        page.screenshot(path=str(artifacts / "1280x800-1-the-morning-after.png"))
        page.click("#reel-make")
        until(lambda: api("/api/admin/reel").get("state") in ("done", "failed"), 300)
        reel = api("/api/admin/reel")
        check(f"the reel made from there holds the three posts ({reel.get('state')}: {reel.get('latest')} {reel.get('error', '')})",
              reel.get("state") == "done" and (reel.get("latest") or {}).get("posts") == 3)
        page.locator("#reel-panel").screenshot(path=str(artifacts / "1280x800-2-reel.png"))

        # The current shot's post deleted from the gallery.
        check("the current shot was posted as the third post", api("/api/status")["currentShot"].get("postedAs") == posts[2])
        page.click(f".post[data-id='{posts[2]}'] button.delete")
        wait_until(page, f"document.body.dataset.moderated === 'delete:{posts[2]}'", 30000)
        wait_until(page, "document.getElementById('shot-panel').dataset.posted === 'deleted'", 30000)
        shown = page.inner_text("#shot-info")
        check(f"the Shot panel says its post was deleted ({shown!r})", page.evaluate("document.getElementById('shot-panel').dataset.posted") == "deleted")
        check("the kiosk's status says so too (postedAs kept, postDeletedAt)",
              api("/api/status")["currentShot"].get("postDeletedAt") is not None and api("/api/status")["currentShot"].get("postedAs") == posts[2])
        wait_until(page, f"document.body.dataset.lastPosted === '{posts[1]}'", 10000)
        check("'Last posted' now names the post before it", page.evaluate("document.body.dataset.lastPosted") == posts[1])
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(artifacts / "1280x800-3-deleted.png"))
        broken, share = configuration_panel(page, [0, 1, 2], "1280x800-4-configuration.png")
        check(f"the table of every setting spans its section ({share:.0%} of its width)", share > 0.9)
        check(f"... and breaks no word of its keys, values and origins over two lines ({broken[:6]})", not broken)
        check("no error in the page's console", not errors, str(errors))
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        phone.goto(base + "/admin")
        broken, _ = configuration_panel(phone, [0, 2], "390x844-configuration.png")
        check(f"on a phone, the table of every setting breaks no key or origin over two lines ({broken[:6]})", not broken)
except Exception as e:
    check("the organiser's morning went through", False, repr(e))
finally:
    kiosk.stop()
print(f"organiser page: {check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
