#!/usr/bin/env python3
"""Logging in from the pages, in Debian's chromium, on a kiosk with both tokens (each with the + and
/ that base64 gives): the booth's screen and the operator's browser log in through POST /login; the
session cookie is set by the server (HttpOnly, SameSite=Strict) and no script can read it; the
booth's session opens the booth and nothing of the operator's; logging out ends the session on the
kiosk (the same cookie, put back, opens nothing); wrong tokens are refused and then throttled, and
the right token still logs in from the slowed address; a login page reached by a name other than loopback warns that the token would travel in
clear text, and on loopback it does not. The operator's page before logging in (1280x800, 800x1280,
1920x1080) is its login form at the top in plain words, with nothing broken below it; opened by the
booth's screen, it says that is the booth's login.
This kiosk's share links point at its loopback address (no share.base_url): the booth's start
screen names no button (none is set), the thank-you shows no QR code and sends the guest to the
staff, and the operator's page says why and what to set.

    python Tests/browser/login_page.py RECORDER_BINARY
"""
import json, os, pathlib, sys, time

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from browser_support import Checks, Kiosk, launch, repo, wait_until  # noqa: E402

OPERATOR = "op+Xk3q9/Lw2ZtR8vB0aYcN1pE4sHfJ6uD=="
BOOTH = "bo/Qm3x+Zr8Kp1Lw9Tn2Vb4Hc5Jd6Fs7Gx=="
binary = sys.argv[1]
artifacts = pathlib.Path(os.environ.get("ARTIFACTS", repo / ".cache" / "browser-artifacts" / "login"))
artifacts.mkdir(parents=True, exist_ok=True)
check = Checks()
kiosk = Kiosk(binary, artifacts / "kiosk.log", args=["--seconds", "2", "--countdown", "0"], prefix="recorder-login-",
              env={"RECORDER_KIOSK_TOKEN": OPERATOR, "RECORDER_KIOSK_BOOTH_TOKEN": BOOTH,
                   "RECORDER_KIOSK_HOSTS": "booth.test"})
try:
    kiosk.start()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                    args=["--no-sandbox", "--autoplay-policy=no-user-gesture-required",
                                          # booth.test is this machine, as a name on the event's network would be
                                          f"--host-resolver-rules=MAP booth.test 127.0.0.1"])
        errors = []

        def watch(page):
            page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
            return page

        # The booth's screen, not logged in: the guest's sentence, and a way in for the staff.
        booth = browser.new_context(viewport={"width": 1280, "height": 800})
        page = watch(booth.new_page())
        page.goto(kiosk.base + "/")
        wait_until(page, "document.body.dataset.phase === 'problem'", timeout=15000)
        check("a booth screen that is not logged in says it is not set up", "not set up" in page.inner_text("#problem-text"),
              page.inner_text("#problem-text"))
        check("and shows the staff the way to log it in", page.is_visible("#login-link"))
        page.screenshot(path=str(artifacts / "1-booth-not-logged-in.png"))
        page.click("#login-link")
        page.wait_for_url("**/login")
        check("the login page on loopback does not warn about clear text", not page.is_visible("#clear-text"))
        page.fill("#token", "not-a-token-of-this-kiosk-at-all-000")
        page.click("#submit")
        page.wait_for_selector("#message:not([hidden])", timeout=10000)
        check("a wrong token is refused with the kiosk's words", "neither the booth's nor the operator's" in page.inner_text("#message"),
              page.inner_text("#message"))
        page.fill("#token", BOOTH)
        page.click("#submit")
        page.wait_for_url(kiosk.base + "/", timeout=15000)
        wait_until(page, "document.body.dataset.phase === 'attract'", timeout=20000)
        check("the booth's token (with + and /) logs the screen in: it opens the booth", True)
        cookies = [c for c in booth.cookies() if c["name"] == "recorder_session"]
        check("the session cookie is the server's: HttpOnly, SameSite=Strict, not the token",
              len(cookies) == 1 and cookies[0]["httpOnly"] and cookies[0]["sameSite"] == "Strict"
              and BOOTH not in cookies[0]["value"], str(cookies))
        check("no script on the page can read it", page.evaluate("document.cookie") == "", page.evaluate("document.cookie"))
        refused = page.evaluate("fetch('/api/admin/overview').then((r) => r.status)")
        check("the booth's session gets 403 from the operator's routes", refused == 403, str(refused))
        asked = page.evaluate("Promise.all(['/api/attract', '/api/feed?page=1', '/metrics'].map((p) => fetch(p).then((r) => r.status)))")
        check("the booth's own list for its attract loop is the booth's (200); the feed and metrics are not (403)", asked == [200, 403, 403], str(asked))
        check("with no button set (kiosk.trigger, kiosk.trigger_key), the start screen names none",
              page.inner_text("#hint") == "Tap the red button.", page.inner_text("#hint"))
        page.click("#record")
        wait_until(page, "document.body.dataset.phase === 'review'", timeout=60000)
        page.screenshot(path=str(artifacts / "2-booth-logged-in-review.png"))
        page.click("#post")
        wait_until(page, "document.body.dataset.phase === 'done'", 30000)
        check("the logged-in booth records, reviews and posts a shot", True)
        # Its link is this machine's loopback address, which no phone opens: no code, the staff instead.
        shown = wait_until(page, "document.body.dataset.shareShown", 30000)
        said = page.inner_text("#done")
        check("a share link to the booth's loopback gets no QR code: the guest is asked to see the staff",
              shown == "ask-staff" and not page.is_visible("#qr") and not page.is_visible("#video-step")
              and "please ask the staff" in said and "127.0.0.1" not in said, f"{shown}: {said!r}")
        page.screenshot(path=str(artifacts / "2b-booth-thanks-no-code.png"))
        # The booth's screen on the operator's page: the form says whose login this browser has.
        page.goto(kiosk.base + "/admin")
        page.wait_for_selector("#token-form", state="visible", timeout=15000)
        wait_until(page, "document.getElementById('login-why').textContent.includes(\"booth's screen\")", timeout=15000)
        check("the operator's page opened by the booth's screen says this browser has the booth's login", True)
        # The operator logs in on the booth's screen: a session beside the booth's, never in its
        # place (it replaced it, and the booth's page went on as the operator's); logging out leaves
        # the screen the booth's.
        page.fill("#token", OPERATOR)
        page.click("#token-save")
        page.wait_for_selector("#token-form", state="hidden", timeout=15000)
        names = sorted(c["name"] for c in booth.cookies() if c["value"])
        check("the operator's login on the booth's screen is beside the booth's (two session cookies)",
              names == ["recorder_operator", "recorder_session"], str(names))
        page.screenshot(path=str(artifacts / "2c-booth-screen-operator-logged-in.png"))
        page.click("#logout")
        page.wait_for_selector("#token-form", state="visible", timeout=15000)
        names = sorted(c["name"] for c in booth.cookies() if c["value"])
        check("Log out on the booth's screen ends the operator's session alone", names == ["recorder_session"], str(names))
        page.goto(kiosk.base + "/")
        wait_until(page, "document.body.dataset.phase === 'attract'", timeout=20000)
        refused = page.evaluate("fetch('/api/admin/overview').then((r) => r.status)")
        check("and the screen is the booth's again: its page runs, the operator's routes are 403", refused == 403, str(refused))
        booth.close()

        # The operator's browser: the form, the booth's token is not enough, the operator's is.
        admin = browser.new_context(viewport={"width": 1280, "height": 900})
        page = watch(admin.new_page())
        page.goto(kiosk.base + "/admin")
        page.wait_for_selector("#token-form", state="visible", timeout=15000)
        check("the operator's page without a session shows its login form", True)
        # Before logging in, at each size: the form at the top, in plain words; no API's error, no
        # broken picture, nothing below it that cannot load.
        for width, height in [(1280, 900), (1280, 800), (800, 1280), (1920, 1080)]:
            page.set_viewport_size({"width": width, "height": height})
            time.sleep(1.5)
            top = page.evaluate("document.getElementById('token-form').getBoundingClientRect().top")
            text = page.inner_text("body")
            shown = [selector for selector in ("#preview", "#banner", "#gallery-section", "main", "#details") if page.is_visible(selector)]
            check(f"{width}x{height}: before logging in, the login form is at the top ({top:.0f} px) and alone, in plain words",
                  top < 120 and "Log in with the operator's token" in text and not shown
                  and not any(word in text for word in ("not answering", "POST /login", "cannot be listed", "cannot be read")),
                  f"{shown} {text[:300]!r}")
            page.screenshot(path=str(artifacts / f"{width}x{height}-operator-before-login.png"))
        page.set_viewport_size({"width": 1280, "height": 900})
        check("on loopback it does not warn about clear text", not page.is_visible("#clear-text"))
        page.fill("#token", BOOTH)
        page.click("#token-save")
        wait_until(page, "document.getElementById('token-message').textContent.includes(\"booth's token\")", timeout=10000)
        check("the booth's token on the operator's page says it is the booth's", True)
        page.fill("#token", OPERATOR)
        page.click("#token-save")
        page.wait_for_selector("#token-form", state="hidden", timeout=15000)
        wait_until(page, "document.getElementById('state').textContent.startsWith('idle')", timeout=20000)
        page.wait_for_selector("#gallery .post", timeout=30000)
        check("the operator's token logs in: the state and the gallery load", True)
        # Said once: by the notice above the page until the preflight has run, then by the
        # preflight's line (its share-links error, opened with "What to do").
        wait_until(page, "document.getElementById('preflight').dataset.ran", 90000)
        shown = page.evaluate("""(() => { const n = document.getElementById('share-warning');
            const row = document.querySelector('#preflight-list li[data-check="share-links"]');
            return [n.hidden ? '' : n.textContent, row ? row.className : '', row ? row.textContent : ''] })()""")
        if shown[1] == "error":
            page.click("#preflight-open")
        warning = shown[0] or shown[2]
        check("the operator is told that phones cannot open this kiosk's share links, and what to set",
              (shown[0] or (shown[1] == "error" and page.is_visible('#preflight-list li[data-check="share-links"] .fix')))
              and "cannot open" in warning and "share.base_url" in warning and "127.0.0.1" in warning, repr(shown))
        page.screenshot(path=str(artifacts / "3-operator-logged-in.png"), full_page=True)
        session = [c for c in admin.cookies() if c["name"] == "recorder_operator"]
        page.click("#logout")
        page.wait_for_selector("#token-form", state="visible", timeout=15000)
        check("Log out forgets the session: the form is back", not [c for c in admin.cookies() if c["name"] == "recorder_operator" and c["value"]])
        # Whoever kept a copy of the cookie (the browser put it back, alone: the booth's session this
        # browser got from the booth's token above is another's) gets nothing: the session is over on the kiosk.
        admin.clear_cookies()
        admin.add_cookies(session)
        replayed = page.evaluate("fetch('/api/admin/overview').then((r) => r.status)")
        check("the logged-out session's cookie, put back, opens nothing (401)", len(session) == 1 and replayed == 401, f"{replayed} {session}")
        admin.close()

        # Reached by a name on the network, over plain http: the login page warns.
        remote = browser.new_context(viewport={"width": 390, "height": 844})
        page = watch(remote.new_page())
        page.goto(f"http://booth.test:{kiosk.port}/login")
        check("the login page reached as http://booth.test warns that the token would travel in clear text",
              page.is_visible("#clear-text"))
        page.screenshot(path=str(artifacts / "4-login-clear-text-warning.png"))
        page.goto(f"http://booth.test:{kiosk.port}/admin")
        page.wait_for_selector("#token-form", state="visible", timeout=15000)
        check("so does the operator's login form", page.is_visible("#clear-text"))
        # Guessing: after five wrong tokens the kiosk slows this address (each answer held back, 2 s,
        # then 4 s)...
        answers = []
        for _ in range(7):
            answers.append(page.evaluate("""fetch('/login', { method: 'POST', headers: { 'Content-Type': 'application/json' },
                body: JSON.stringify({ token: 'guess-' + Math.random() }) }).then((r) => r.status)"""))
        check("wrong tokens in a row are throttled (429)", answers[:5] == [401] * 5 and answers[5:] == [429, 429], str(answers))
        # ...and the right token still logs in from it.
        right = page.evaluate("""fetch('/login', { method: 'POST', headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ token: %s }) }).then((r) => r.status)""" % json.dumps(OPERATOR))
        check("the right token logs in from the slowed address (200)", right == 200, str(right))
        remote.close()
        check("no script errors in the pages", not errors, "; ".join(errors))
        browser.close()
finally:
    status = kiosk.stop()

check("the kiosk exits 0 on SIGTERM", status == 0, f"exit {status}")
print(f"screenshots: {artifacts}")
print(f"login: {check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
