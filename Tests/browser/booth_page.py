#!/usr/bin/env python3
"""The guest page (/) in a real browser, as guests use it: Debian's chromium, headless, Playwright.

Starts `recorder kiosk` on the built-in test pattern (3 s shots, a 1 s countdown, a 4 s review),
then at three screen sizes goes through the booth's flow as a guest would:
  - 1280x800 (the booth's touch screen), by touch: Record, the countdown, the recording ring,
    the review playing the clip, a caption with emoji, Post, the thank-you, back to attract;
  - 800x1280 (a tablet upright), by the keyboard (a USB arcade button is a keyboard): Space
    records a whole take, whose review returns to attract by itself, keeping the clip; then Space
    records again and Space stops it early;
  - 1920x1080, by the booth's own key (kiosk.trigger_key = KeyB, the "b" key): Record, then Delete in review;
  - 1280x800 left alone for kiosk.attract_seconds: the posted clip plays muted; a touch brings the camera back.
The countdown beeps (kiosk.countdown_sound = on).
At every state: no scrollbars, touch targets of at least 64 px, no developer text; the live
camera is mirrored, its rate and camera-to-screen time measured in the page; a page opened later never plays the previous guest's clip.
The share link (share.base_url under the booth's name on its network, booth.test: a link to the
booth's loopback gets no code, login_page.py): the thank-you says until when it works, in the page's
language and without seconds; the guest's phone opens it first and gets its delete claim, the
page's player shows the post's poster, and the download is named after the caption (in the page and
in the video's Content-Disposition, RFC 6266, read by Python's email parser and by chromium's
download); a forwarded link plays and cannot delete (403); the guest's phone deletes the post.
The start screen names the booth's button (kiosk.trigger_key is set). Screenshots of
every state go to ARTIFACTS/booth (default .cache/browser-artifacts/booth).

    python Tests/browser/booth_page.py RECORDER_BINARY
"""
import email.message, email.utils, json, os, pathlib, re, shutil, subprocess, sys, time, urllib.request

from playwright.sync_api import sync_playwright

from browser_support import Checks, Kiosk, fetch, launch, repo, wait_until

binary = sys.argv[1]
artifacts = pathlib.Path(os.environ.get("ARTIFACTS", repo / ".cache" / "browser-artifacts")) / "booth"
shutil.rmtree(artifacts, ignore_errors=True)
artifacts.mkdir(parents=True)
check = Checks()
kiosk = Kiosk(binary, artifacts / "kiosk.log", args=["--seconds", "3", "--countdown", "1"], prefix="recorder-booth-",
              env={"RECORDER_KIOSK_REVIEW_SECONDS": "4", "RECORDER_KIOSK_TRIGGER_KEY": "KeyB",
                   "RECORDER_KIOSK_ATTRACT_SECONDS": "20", "RECORDER_KIOSK_COUNTDOWN_SOUND": "on",
                   "RECORDER_KIOSK_HOSTS": "booth.test"})
# Share links under the booth's name on its network, which phones open (the kiosk answers to it).
kiosk.environment["RECORDER_SHARE_BASE_URL"] = f"http://booth.test:{kiosk.port}/s/{{token}}"
work, base = kiosk.work, kiosk.base


def local(link):
    """A link under booth.test, asked of this machine by Python (chromium maps the name itself)."""
    return link.replace("http://booth.test:", "http://127.0.0.1:", 1)


def status():
    with urllib.request.urlopen(base + "/api/status", timeout=10) as r:
        return json.load(r)


# What a guest must never read: the operator's words.
DEVELOPER_TEXT = ["idle", "countdown", "finishing", "frames", "dropped", "MB", "Bearer", "errno", "Ctrl-C", "/api",
                  "exit status", "recorder ", "outbox", "--"]


def share_page(link, post_id):
    """The share page the guest's phone opens from the QR code, first, minutes after the post: the
    clip, byte for byte the store's, plays at a phone's size (390x844), and the phone is given the
    link's delete claim (an HttpOnly cookie for the link's path; it keeps it for `self_delete`). The
    link fetched again elsewhere (forwarded: no cookie) opens the page with no delete; a wrong token
    gets the 404 of a link that opens nothing."""
    global guest_phone
    # (once the post is in the store its poster is too: the page's player shows it)
    wait_for_file(work / "store" / "posts" / f"{post_id}.json", 60)
    guest_phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, accept_downloads=True)
    phone = guest_phone.new_page()
    phone.on("console", lambda m: errors.append(f"{m.type}: {m.text}") if m.type == "error" else None)
    phone.goto(link)
    token = link.rsplit("/", 1)[1]
    claims = [c for c in guest_phone.cookies() if c["name"] == "recorder_delete"]
    check("share page: the guest's phone, first to open the link, holds its delete claim (HttpOnly, for the link's path alone)",
          len(claims) == 1 and claims[0]["httpOnly"] and claims[0]["path"] == f"/s/{token}" and claims[0]["sameSite"] == "Lax", str(claims))
    check("share page: and is offered the delete", phone.locator("details.erase summary").is_visible())
    wait_until(phone, "document.getElementById('video').readyState >= 2", 30000)
    phone.evaluate("(() => { const v = document.getElementById('video'); v.muted = true; return v.play(); })()")
    wait_until(phone, "document.getElementById('video').currentTime > 0.5", 30000)
    check("share page (390x844): the clip plays", True)
    width = phone.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    check("share page (390x844): no sideways scrolling", width[0] <= width[1], str(width))
    box = phone.evaluate("(() => { const r = document.querySelector('a.download').getBoundingClientRect(); return [r.width, r.height, r.bottom, innerHeight]; })()")
    check("share page (390x844): the download button is large and on the first screen", box[0] >= 200 and box[1] >= 48 and box[2] <= box[3], str(box))
    # The player's first picture (iOS shows a black box without one): the post's poster, through the
    # link, the store's bytes.
    poster = phone.evaluate("document.getElementById('video').getAttribute('poster')")
    code, picture = fetch(local(link) + "/poster.jpg")
    thumb = work / "store" / "thumbs" / f"{post_id}.jpg"
    check("share page: the player's poster is the post's, through the link (its JPEG, the store's bytes)",
          poster == f"/s/{token}/poster.jpg" and code == 200 and thumb.exists() and picture == thumb.read_bytes(), f"{poster} {code} {len(picture)}")
    check("share page: a wrong token's poster is 404", fetch(local(link)[:-4] + "AAAA/poster.jpg")[0] in (404,))
    # The download is named after the caption, not the id: the page's download attribute, the
    # video's Content-Disposition (RFC 6266, as Python's email parser reads it), and the name
    # chromium gives the file.
    wanted = caption + ".mp4"
    named = phone.evaluate("document.querySelector('a.download').getAttribute('download')")
    with urllib.request.urlopen(local(link) + "/video.mp4", timeout=30) as r:
        disposition = r.headers.get("Content-Disposition", "")
    parsed = email.message.Message()
    parsed["Content-Disposition"] = disposition
    # (RFC 6266: filename* wins over filename, as browsers have it; Python's get_filename takes the
    # first, so the decoded filename* is read out of its parameters)
    star = [v for k, v in parsed.get_params(header="content-disposition") if k == "filename" and isinstance(v, tuple)]
    saved_as = email.utils.collapse_rfc2231_value(star[0]) if star else parsed.get_filename()
    check(f"share page: the download is named after the caption ({named!r}), not the id",
          named == wanted and post_id not in named, repr(named))
    check("share page: the video's Content-Disposition names it so too (filename*=UTF-8, ASCII only on the wire)",
          saved_as == wanted and disposition.startswith("inline;") and disposition.isascii()
          and not re.search(r"[\r\n]", disposition), repr(disposition))
    with phone.expect_download(timeout=60000) as saving:
        phone.locator("a.download").tap()
    check("share page: chromium saves the download under that name", saving.value.suggested_filename == wanted, saving.value.suggested_filename)
    phone.screenshot(path=str(artifacts / "390x844-share.png"))
    phone.close()
    code, html = fetch(local(link))
    check("share page: opens with no cookie or token", code == 200 and caption.encode() in html, f"{code} {html[:200]!r}")
    check("share page: fetched without the claim (a forwarded link), it offers no delete", b"/delete" not in html and b"erase-elsewhere" in html)
    code, video = fetch(local(link) + "/video.mp4")
    stored = (work / "store" / "videos" / f"{post_id}.mp4").read_bytes()
    check("share page: its video is the stored one byte for byte", code == 200 and video == stored, f"{code}, {len(video)} vs {len(stored)} bytes")
    wrong = local(link)[:-4] + ("AAAA" if not link.endswith("AAAA") else "BBBB")
    code, body = fetch(wrong)
    check("share page: a wrong token gets 404 and no video", code == 404 and b"<video" not in body, f"{code} {body[:200]!r}")


def self_delete(link, post_id):
    """A friend the link was forwarded to opens it in their own browser: the clip plays, the page
    offers no delete and says whom to ask, and a delete posted from there anyway is refused (403).
    Then the guest deletes their own clip from their phone (the one holding the claim) at a phone's
    size, under the page's real Content-Security-Policy (no bypass): a closed second step that warns,
    then the page says it is done, the link answers as any unknown link does, and the store holds
    nothing of the post."""
    friend = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = friend.new_page()
    page.goto(link)
    wait_until(page, "document.getElementById('video').readyState >= 2", 30000)
    said = page.inner_text("body")
    check("forwarded link (390x844): the clip plays, no delete is offered, and the page says whom to ask",
          not page.locator("details.erase").count() and "ask the booth" in said and not [c for c in friend.cookies() if c["name"] == "recorder_delete"], said)
    page.screenshot(path=str(artifacts / "390x844-share-forwarded.png"))
    forced = page.evaluate("""fetch(location.pathname + '/delete', { method: 'POST', body: 'confirm=delete',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }).then((r) => r.status)""")
    check("forwarded link: a delete posted from its page anyway is refused (403), the post stays",
          forced == 403 and (work / "store" / "videos" / f"{post_id}.mp4").exists(), str(forced))
    friend.close()
    phone = guest_phone.new_page()
    phone.on("console", lambda m: errors.append(f"{m.type}: {m.text}") if m.type == "error" else None)
    phone.goto(link)
    button = phone.locator("details.erase button")
    check("self-delete (390x844): the page offers 'Delete my video', and nothing deletes at one tap",
          phone.locator("details.erase summary").is_visible() and not button.is_visible(), phone.inner_text("body"))
    phone.locator("details.erase summary").tap()
    check("self-delete (390x844): a second step warns that it is for good", button.is_visible()
          and "for good" in phone.inner_text("details.erase"), phone.inner_text("details.erase"))
    phone.screenshot(path=str(artifacts / "390x844-share-delete-confirm.png"), full_page=True)
    box = phone.evaluate("(() => { const r = document.querySelector('details.erase button').getBoundingClientRect(); return [r.width, r.height]; })()")
    check("self-delete (390x844): the delete button is large enough to tap", box[0] >= 200 and box[1] >= 48, str(box))
    with phone.expect_navigation():
        button.tap()
    said = phone.inner_text("body")
    check("self-delete (390x844): the page says the video is deleted", "Your video is deleted" in said, said)
    phone.screenshot(path=str(artifacts / "390x844-share-deleted.png"))
    phone.close()
    code, body = fetch(local(link))
    _, unknown = fetch(local(link)[:-4] + ("AAAA" if not link.endswith("AAAA") else "BBBB"))
    check("self-delete: the link now answers 404, as any unknown link does", code == 404 and body == unknown, f"{code} {body[:200]!r}")
    left = [str(f.relative_to(work / "store")) for f in (work / "store").rglob("*") if post_id in f.name]
    check("self-delete: the store holds nothing of the post (video, poster, metadata, index)", not left, str(left))


def wait_for_file(path, seconds):
    end = time.monotonic() + seconds
    while not path.exists():
        if time.monotonic() > end:
            raise TimeoutError(f"waited {seconds} s for {path}")
        time.sleep(0.2)


def looks_right(page, size, state):
    """No scrollbars, every visible button at least 64 px, no developer text; a screenshot."""
    scroll = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight, innerWidth, innerHeight]")
    check(f"{size} {state}: no scrollbars", scroll[0] <= scroll[2] and scroll[1] <= scroll[3], str(scroll))
    small = page.evaluate("""[...document.querySelectorAll('button')].filter((b) => b.offsetParent !== null)
        .map((b) => [b.id, b.getBoundingClientRect().width, b.getBoundingClientRect().height])
        .filter(([, w, h]) => w < 64 || h < 64)""")
    check(f"{size} {state}: touch targets of at least 64 px", not small, str(small))
    # (the share link under the QR code is an address, not the operator's words)
    text = page.inner_text("body").replace(page.inner_text("#share-link"), "")
    seen = [word for word in DEVELOPER_TEXT if word in text]
    check(f"{size} {state}: no developer text", not seen, f"{seen} in {text!r}")
    page.screenshot(path=str(artifacts / f"{size}-{state}.png"))


# Reads, at each animation frame for SECONDS, the clock the test pattern draws into its pictures
# (TestPattern: 5 digits, the wall clock's milliseconds modulo 100,000, in 3x5 cells above the
# frame counter, bottom left) off the live canvas; for each new picture, how long ago it was made.
SCREEN_LATENCY = """async (seconds) => {
  const canvas = document.getElementById('live'), ctx = canvas.getContext('2d', { willReadFrequently: true });
  const glyphs = [[7,5,5,5,7],[2,6,2,2,7],[7,1,7,4,7],[7,1,7,1,7],[5,5,7,1,1],[7,4,7,1,7],[7,4,7,5,7],[7,1,1,1,1],[7,5,7,5,7],[7,5,7,1,7]];
  const read = () => {
    const h = canvas.height, cell = Math.max(Math.floor(h / 60), 2), boxH = 7 * cell, w = 21 * cell;
    const top = h - 2 * (boxH + cell);
    if (top < 0 || canvas.width < w) return null;
    const data = ctx.getImageData(0, top, w, boxH).data;
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const rows = [];
      for (let gy = 0; gy < 5; gy++) {
        let bits = 0;
        for (let gx = 0; gx < 3; gx++) {
          const x = (1 + i * 4 + gx) * cell + (cell >> 1), y = (1 + gy) * cell + (cell >> 1);
          if (data[(y * w + x) * 4] > 128) bits |= 4 >> gx;
        }
        rows.push(bits);
      }
      const digit = glyphs.findIndex((g) => g.every((r, k) => r === rows[k]));
      if (digit < 0) return null;
      value = value * 10 + digit;
    }
    return value;
  };
  const samples = [];
  let last = null;
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    await new Promise((r) => requestAnimationFrame(r));
    const drawn = read();
    if (drawn !== null && drawn !== last) { last = drawn; samples.push((Date.now() % 100000 - drawn + 100000) % 100000); }
  }
  return samples;
}"""


def wait_phase(page, phase, seconds):
    try:
        page.wait_for_function(f"document.body.dataset.phase === '{phase}'", timeout=seconds * 1000)
    except Exception:
        # What CI needs to tell a slow machine from a page that went wrong.
        print(f"waited {seconds} s for {phase!r}; the page shows {page.evaluate('document.body.dataset.phase')!r}, "
              f"its status {page.evaluate('(s => s && [s.state, s.revision, s.currentShot && s.currentShot.id])(kioskPage.status())')}, "
              f"the kiosk's {[status()[k] for k in ('state', 'revision')]}")
        kiosk.log.flush()
        print("the kiosk's log ends:\n" + "\n".join(pathlib.Path(kiosk.log_path).read_text().splitlines()[-30:]))
        raise


def through_recording(page, size):
    """From the press to the review: the countdown, the ring, the saving; returns the reviewed shot."""
    wait_phase(page, "countdown", 10)
    looks_right(page, size, "2-countdown")
    wait_phase(page, "recording", 20)
    ring = page.get_attribute("#ring .done", "stroke-dashoffset")
    left = [page.text_content("#left"), page.inner_text("#left-label")]
    check(f"{size}: the recording shows the seconds left", left[0] and left[0].isdigit() and left[1] == f"{left[0]}\u00a0s left", str(left))
    looks_right(page, size, "3-recording")
    check(f"{size}: the ring fills as the shot goes on", ring is not None)
    beeps = int(page.evaluate("document.body.dataset.beeps || 0"))
    check(f"{size}: the countdown beeps, and again as recording starts (kiosk.countdown_sound = on)", beeps >= 2, f"{beeps} beeps")
    recording_status = page.evaluate("JSON.stringify(kioskPage.status())")
    wait_phase(page, "review", 60)
    # A status taken while recording that arrives late (a slow poll answered after the event that
    # the shot was saved) must not take the guest out of the review.
    page.evaluate("(s) => kioskPage.render(JSON.parse(s))", recording_status)
    late = page.evaluate("[document.body.dataset.phase, !!document.getElementById('clip').getAttribute('src')]")
    check(f"{size}: a late status from before the review leaves the review alone", late == ["review", True], str(late))
    page.wait_for_function("(() => { const v = document.getElementById('clip'); return v.readyState >= 2 && v.duration > 0.5; })()",
                           timeout=30000)
    played = page.evaluate("document.getElementById('clip').duration")
    return played


caption = "Happy birthday 🎂🎉 — عيد ميلاد سعيد"
try:
    kiosk.start()
    fonts = subprocess.run(["fc-list", ":family"], capture_output=True, text=True).stdout
    check("the emoji font the page names is installed (fonts-noto-color-emoji)", "Noto Color Emoji" in fonts)
    with sync_playwright() as p:
        browser = launch(p, names=["booth.test"])
        errors = []

        def open_page(width, height, touch=False):
            page = browser.new_page(viewport={"width": width, "height": height}, has_touch=touch, bypass_csp=True)
            page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
            page.on("console", lambda m: errors.append(f"{m.type}: {m.text}") if m.type == "error" else None)
            page.goto(base + "/")
            wait_phase(page, "attract", 30)
            page.wait_for_function("+(document.body.dataset.frames || 0) > 0", timeout=30000)
            return page

        # 1. The booth's touch screen: the whole flow by touch, and a post.
        size = "1280x800"
        page = open_page(1280, 800, touch=True)
        check(f"{size}: the invitation says how long a shot is", "3\u00a0seconds" in page.inner_text("#invite"), page.inner_text("#invite"))
        check(f"{size}: the start screen names the booth's button (kiosk.trigger_key is set)",
              page.inner_text("#hint") == "Tap the red button, or press the booth's button.", page.inner_text("#hint"))
        # The live mirror, measured in the browser over 5 s: pictures painted a second, and camera to
        # screen (the clock the test pattern draws into each picture, read off the canvas when a new
        # one is on screen, against the browser's clock). Reported; judged only against a slideshow
        # (Benchmarks/kiosk.sh has the figures that count).
        before = int(page.evaluate("document.body.dataset.frames"))
        samples = page.evaluate(SCREEN_LATENCY, 5)
        after = int(page.evaluate("document.body.dataset.frames"))
        rate = (after - before) / 5
        samples.sort()
        median = samples[len(samples) // 2] if samples else None
        p95 = samples[int(len(samples) * 0.95)] if samples else None
        # (a third of the camera's 15 a second and a second's delay: well short of a smooth mirror on
        # any machine this runs on, and still far from a slideshow, on a CI machine kept busy)
        check(f"{size}: the live mirror moves: {rate:.1f} pictures a second painted over 5 s", rate >= 5, f"{after - before} in 5 s")
        check(f"{size}: camera to screen, read from the pattern's clock: median {median} ms, 95% {p95} ms ({len(samples)} pictures)",
              len(samples) >= 15 and median is not None and median < 1000, str(samples[:10]))
        mirrored = page.evaluate("getComputedStyle(document.getElementById('live')).transform")
        check(f"{size}: the live camera is a mirror", mirrored == "matrix(-1, 0, 0, 1, 0, 0)", mirrored)
        looks_right(page, size, "1-attract")
        page.tap("#record")
        played = through_recording(page, size)
        check(f"{size}: the review plays the clip (~3 s)", 2.5 < played < 3.6, f"duration={played}")
        check(f"{size}: the review plays it with sound", not page.evaluate("document.getElementById('clip').muted"))
        looks_right(page, size, "4-review")
        shot_id = status()["currentShot"]["id"]
        page.tap("#caption")
        page.keyboard.type(caption)
        page.tap("#post")
        wait_phase(page, "done", 10)
        check(f"{size}: the thank-you shows the caption, emoji and all", caption in page.inner_text("#done"), page.inner_text("#done"))
        direction = page.evaluate("[getComputedStyle(document.getElementById('done-detail')).unicodeBidi, document.getElementById('done-detail').dir]")
        check(f"{size}: the caption is bidi-isolated with its own direction", direction == ["isolate", "auto"], str(direction))
        # Once uploaded, the thank-you shows the post's QR code: read off the screen by zbarimg, it is
        # the kiosk's own share page for this post (the local store gives no link of its own).
        page.wait_for_function("!!document.body.dataset.shared && document.getElementById('qr').complete"
                               " && document.getElementById('qr').naturalWidth > 0", timeout=60000)
        shared = page.evaluate("document.body.dataset.shared")
        page.locator("#qr").screenshot(path=str(artifacts / "qr.png"))
        decoded = subprocess.run(["zbarimg", "--raw", "-q", str(artifacts / "qr.png")], capture_output=True, text=True).stdout.strip()
        token = json.loads((work / "store" / "posts" / f"{shared}.json").read_text()).get("shareToken") or "none"
        check(f"{size}: the thank-you's QR code reads (zbarimg) as the post's share page", decoded == f"http://booth.test:{kiosk.port}/s/{token}", decoded)
        until = page.inner_text("#share-until")
        check(f"{size}: the thank-you says until when the link works, in the one English form (the mail's), to the minute: {until!r}",
              re.fullmatch(r"The link works until \d{1,2} [A-Z][a-z]+ \d{4}, \d{2}:\d{2}\.", until) is not None, repr(until))
        check(f"{size}: the link is written under the code", page.inner_text("#share-link") == decoded)
        check(f"{size}: the share link carries a token, not the post id", shared not in decoded and len(token) == 22, decoded)
        looks_right(page, size, "5-thanks")
        share_page(decoded, shared)
        shared_link, shared_id = decoded, shared
        wait_phase(page, "attract", 45)
        check(f"{size}: after the thank-you, back to attract by itself", True)
        posted = (status().get("currentShot") or {}).get("postedAs")
        meta = json.loads((work / "store" / "posts" / f"{posted}.json").read_text()) if posted else {}
        check(f"{size}: the post reached the store with its caption", meta.get("caption") == caption, str(meta.get("caption")))
        page.close()

        # A page opened now must not show the last guest's clip.
        size = "800x1280"
        page = open_page(800, 1280)
        time.sleep(1.5)
        fresh = page.evaluate("[document.body.dataset.phase, document.getElementById('clip').getAttribute('src')]")
        check("a page opened later stays on attract and never plays the previous clip", fresh == ["attract", None], str(fresh))

        # 2. A tablet upright, by the keyboard: Space records and the take runs its 3 s; the review
        # times out; then Space records again and Space stops early. The early stop has a take of its
        # own, with nothing between the two presses: a screenshot between them (a second or two on a
        # busy machine) put the second press past the shot's end in the project's CI.
        # When each phase began, by the page's clock as it happens (the script looks later).
        page.evaluate("""(() => { window.phaseAt = {};
            new MutationObserver(() => { window.phaseAt[document.body.dataset.phase] = performance.now(); })
              .observe(document.body, { attributes: true, attributeFilter: ['data-phase'] }); })()""")
        looks_right(page, size, "1-attract")
        page.keyboard.press("Space")
        wait_phase(page, "recording", 30)
        looks_right(page, size, "3-recording")
        wait_phase(page, "review", 60)
        page.wait_for_function("(() => { const v = document.getElementById('clip'); return v.readyState >= 2 && v.duration > 0.5; })()",
                               timeout=30000)
        whole = page.evaluate("document.getElementById('clip').duration")
        check(f"{size}: a take left alone runs its 3 s (clip {whole:.2f} s)", 2.5 < whole < 3.6, f"duration={whole}")
        looks_right(page, size, "4-review")
        reviewed = status()["currentShot"]["id"]
        wait_phase(page, "attract", 15)
        # (from the review's start to the start screen, in the page: the checks above take their own time)
        waited = page.evaluate("(window.phaseAt.attract - window.phaseAt.review) / 1000")
        check(f"{size}: with no touch the review returns to attract by itself ({waited:.1f} s, review_seconds 4)", 3.5 < waited < 6)
        kept = status().get("currentShot")
        check(f"{size}: the unposted clip is kept for the operator (review_unposted = keep)",
              kept and kept["id"] == reviewed and not kept.get("postedAs"), str(kept))
        page.keyboard.press("Space")
        wait_phase(page, "recording", 30)
        page.wait_for_function("(() => { const t = document.getElementById('left').textContent; return t && t !== '3'; })()",
                               timeout=20000)
        recording_for = page.evaluate("JSON.stringify((kioskPage.status() || {}).progress || null)")
        page.keyboard.press("Space")
        wait_phase(page, "review", 60)
        page.wait_for_function("(() => { const v = document.getElementById('clip'); return v.readyState >= 2 && v.duration > 0.5; })()",
                               timeout=30000)
        stopped = page.evaluate("document.getElementById('clip').duration")
        check(f"{size}: a second press stops the shot early (clip {stopped:.2f} s of 3)", 0.9 < stopped < 2.9,
              f"duration={stopped}, the page's progress just before the press: {recording_for}")
        page.close()

        # 2b. The silent-take guard's word in the review. A heard take (the test beep) has none; a take
        # nobody could hear cannot be made on this machine (it has no sound card: the VM's device
        # tests make one on snd-aloop), so its status is handed to the page as the kiosk sends it.
        page = open_page(1280, 800, touch=True)
        real = status()
        page.evaluate("(s) => kioskPage.render(s)", real)
        check("1280x800: a heard take's review has no sound warning", page.evaluate("document.getElementById('sound-warning').hidden"))
        judged = ((real.get("currentShot") or {}).get("audio") or {}).get("check") or {}
        check("1280x800: the kiosk judged the test beep's take ok (audio.check in its status)", judged.get("result") == "ok", str(judged))
        if real.get("currentShot"):
            silent = json.loads(json.dumps(real))
            silent["state"] = "idle"
            silent["revision"] = (silent.get("revision") or 0) + 1
            silent["currentShot"].update(id=real["currentShot"]["id"] + "-silent", postedAs=None,
                                         audio=dict(real["currentShot"].get("audio") or {}, check={"result": "silent", "loudestDBFS": -91.0, "clippedPercent": 0}))
            page.evaluate("(s) => kioskPage.render(s)", silent)
            wait_phase(page, "review", 10)
            said = page.evaluate("[!document.getElementById('sound-warning').hidden, document.getElementById('sound-warning').textContent]")
            check("1280x800: a silent take's review says so, with a retake one tap away", said == [True, "We could not hear you. Retake?"]
                  and page.locator("#retake").is_visible(), str(said))
            looks_right(page, "1280x800", "7-review-silent")
        else:
            check("1280x800: a shot is current for the silent-take review", False, str(real))
        page.close()

        # 3. A large screen, by the booth's own key: record, then Delete.
        size = "1920x1080"
        page = open_page(1920, 1080)
        looks_right(page, size, "1-attract")
        page.keyboard.press("b")
        through_recording(page, size)
        looks_right(page, size, "4-review")
        deleted = status()["currentShot"]["id"]
        page.click("#delete")
        wait_phase(page, "done", 10)
        looks_right(page, size, "5-deleted")
        after = status().get("currentShot")
        check(f"{size}: Delete removes the clip (no current shot now)", after is None and not (work / "ws" / "shots" / deleted).exists(),
              str(after))
        wait_phase(page, "attract", 10)
        page.close()

        # 4. Nobody there for kiosk.attract_seconds (20): the recent posts play, muted, over the
        # live camera; the first touch brings the camera back and records nothing.
        size = "1280x800"
        page = open_page(1280, 800, touch=True)
        page.wait_for_function("document.body.dataset.loop === 'on' && document.getElementById('loop').currentTime > 0.3", timeout=60000)
        loop = page.evaluate("[document.getElementById('loop').getAttribute('src'), document.getElementById('loop').muted,"
                             " getComputedStyle(document.getElementById('live')).display]")
        check(f"{size}: left alone, the start screen plays the posted clip, muted, instead of the camera",
              posted is not None and loop[0] == f"/api/videos/{posted}.mp4" and loop[1] is True and loop[2] == "none", str(loop))
        looks_right(page, size, "6-attract-loop")
        page.tap("#stage")
        page.wait_for_function("document.body.dataset.loop === 'off'", timeout=10000)
        time.sleep(1)
        after_touch = [page.evaluate("document.body.dataset.phase"), page.evaluate("getComputedStyle(document.getElementById('live')).display"),
                       status()["state"]]
        check(f"{size}: a touch brings the live camera back and starts no shot", after_touch == ["attract", "block", "idle"], str(after_touch))
        page.close()

        # 5. The first guest deletes their clip from their phone (last: the attract loop played it).
        self_delete(shared_link, shared_id)

        page_errors = [e for e in errors if not e.startswith("error: Failed to load resource")]
        check("no script errors in the pages", not page_errors, "; ".join(page_errors))
        browser.close()
finally:
    status_at_exit = kiosk.stop()

check("the kiosk exits 0 on SIGTERM", status_at_exit == 0, f"exit {status_at_exit}")
print(f"screenshots: {artifacts}")
print(f"booth: {check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
