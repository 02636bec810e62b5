#!/usr/bin/env python3
"""The operator page's Event section (issue 49) in Debian's chromium (Playwright), under the page's
real Content-Security-Policy, against `recorder kiosk` on the test pattern and a real SMTP server
on loopback (Tests/mail/smtp-server.py, plain: the kiosk sends in the clear as the page allows).

The organiser (event_support.organise): the event's name, two questions, a consent text, a
branding frame uploaded and seen over the camera before it is saved (its pixels read off the page),
the booth's Wi-Fi (a password too short refused under its field as it is typed, in the kiosk's
words), the mail server and a test mail the server receives, Save, then the restart the page
offers. Then:
  - a change the kiosk refuses saves nothing: the page says why under the field and the
    operator's settings file is unchanged, byte for byte;
  - `recorder config show` (the same state directory) names the operator page as the origin of
    every value set, and the page's file is in the kiosk's state directory, none under the
    configuration's;
  - a guest agrees, records, posts and asks for the mail: the server gets it, with the event's
    name (Python's MIME parser);
  - the Event section at 1280x800, 800x1280 and 1920x1080: nothing wider than the screen, and in
    the table of every other setting no name or origin broken inside a word ("defau/lt").
Screenshots go to ARTIFACTS/event. Prints 'N passed, N failed'; exits 1 on any failure.

    python Tests/browser/event_page.py RECORDER_BINARY
"""
import email, email.policy, glob, json, os, pathlib, shutil, subprocess, sys, tempfile, time, urllib.error, urllib.request

from playwright.sync_api import sync_playwright

from browser_support import Checks, Kiosk, launch, repo, wait_until
import event_support as organiser

binary = sys.argv[1]
artifacts = pathlib.Path(os.environ.get("ARTIFACTS", repo / ".cache" / "browser-artifacts")) / "event"
shutil.rmtree(artifacts, ignore_errors=True)
artifacts.mkdir(parents=True)
check = Checks()
SIZES = [("1280x800", (1280, 800)), ("800x1280", (800, 1280)), ("1920x1080", (1920, 1080))]

smtp_dir = pathlib.Path(tempfile.mkdtemp(prefix="recorder-event-smtp-"))
smtp = subprocess.Popen(["/usr/bin/python3", str(repo / "Tests" / "mail" / "smtp-server.py"), str(smtp_dir), "--tls", "none"],
                        stdout=open(smtp_dir / "server.log", "w"), stderr=subprocess.STDOUT)
for _ in range(600):
    if (smtp_dir / "ready").exists() and (smtp_dir / "ready").read_text().strip():
        break
    time.sleep(0.05)
smtp_port = int((smtp_dir / "ready").read_text())


def received():
    return [(p, json.loads(pathlib.Path(p[:-4] + ".json").read_text())) for p in sorted(glob.glob(str(smtp_dir / "mail" / "*.eml")))]


frame = artifacts / "frame.png"
organiser.make_frame(frame, "640x360")
kiosk = Kiosk(binary, artifacts / "kiosk.log", prefix="recorder-event-",
              env={"RECORDER_SHOOT_SIZE": "640x360", "RECORDER_SHOOT_FPS": "15", "RECORDER_RETRY_INITIAL_SECONDS": "1", "RECORDER_RETRY_MAX_SECONDS": "2"})
base, work = kiosk.base, kiosk.work
state = work / "state" / "recorder" / "kiosk"
layer = state / "operator-settings.json"


def api(path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method="POST" if data else "GET", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as r:
        return json.load(r)


def wait_received(count, seconds=90):
    end = time.monotonic() + seconds
    while len(received()) < count and time.monotonic() < end:
        time.sleep(0.2)
    return received()


errors = []
try:
    kiosk.start()
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
        # A camera as slow as an emulated booth's (the package's test): each still arrives 1.5 s
        # after it was asked for, and the frame is uploaded while one is on its way; the still the
        # page then shows must be of the new frame, not of the one the still on its way was asked with.
        page.add_init_script("(() => { const f = window.fetch; window.stillsOnTheirWay = 0; window.fetch = (u, o) => "
                             "String(u).includes('/frame/still.jpg') ? (window.stillsOnTheirWay++, f(u, o).then((r) => new Promise((done) => "
                             "setTimeout(() => { window.stillsOnTheirWay--; done(r); }, 1500)))) : f(u, o); })()")
        organiser.log_in(page, base, "")
        wanted = organiser.organise(page, check, "127.0.0.1", smtp_port, frame, "organiser@example.org", received,
                                    before_upload=lambda pg: wait_until(pg, "window.stillsOnTheirWay > 0", 30000))
        check("the operator's settings file is in the kiosk's state directory", layer.is_file(), str(layer))

        # A frame as an organiser's design tool writes it (1280x720, a picture all over: hundreds of
        # KiB, above the 64 KiB any other request body may have) is taken, not refused as too large.
        big = artifacts / "big-frame.png"
        subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "nullsrc=s=1280x720", "-frames:v", "1", "-vf",
                        "format=rgba,geq=r='random(1)*255':g='random(2)*255':b='random(3)*255':a='if(lt(Y,H/8),255,0)'", str(big)], check=True)
        request = urllib.request.Request(base + "/api/admin/frame", data=big.read_bytes(), method="POST", headers={"Content-Type": "image/png"})
        try:
            with urllib.request.urlopen(request, timeout=60) as r:
                taken = (r.status, json.load(r).get("width"))
        except urllib.error.HTTPError as e:
            taken = (e.code, e.read()[:200])
        check(f"a frame of {big.stat().st_size // 1024} KiB is taken (201, 1280 wide)", big.stat().st_size > 64 * 1024 and taken == (201, 1280), str(taken))
        saved_bytes = layer.read_bytes()

        # A change the kiosk refuses: said under its field; nothing saved, byte for byte.
        page.fill("#event-name", "Not this name")
        page.fill("#event-wifi-password", "short")
        page.click("#event-save")
        wait_until(page, "!document.getElementById('event-problems').hidden", 30000)
        check("a refused save says so above the form and under the field",
              page.inner_text("#event-problems").startswith("Not saved") and page.is_visible('.field[data-key="kiosk.wifi_password"] .problem'),
              page.inner_text("#event-problems"))
        marked = page.evaluate("Array.from(document.querySelectorAll('#event-form .problem')).map((p) => p.closest('.field').dataset.key)")
        check("... under that field alone, not under every field the Wi-Fi's check reads", marked == ["kiosk.wifi_password"], str(marked))
        check("... and saves nothing of it (the settings file is unchanged, byte for byte)", layer.read_bytes() == saved_bytes)
        page.screenshot(path=str(artifacts / "refused.png"), full_page=False)
        page.reload()
        wait_until(page, "document.body.dataset.event === 'loaded'", 30000)
        check("read again, the name is the saved one", page.input_value("#event-name") == organiser.EVENT, page.input_value("#event-name"))

        # Every value the page set comes from the operator page, as every command reads it.
        env = dict(kiosk.environment)
        shown = subprocess.run([binary, "config", "show", "--json"], env=env, capture_output=True, text=True)
        values = json.loads(shown.stdout) if shown.returncode == 0 else {}
        page_origins = {k: values.get(k, {}).get("origin", "") for k in wanted}
        check("`recorder config show` names the operator page as the origin of every value set",
              all(o.startswith("operator page, ") for o in page_origins.values()), json.dumps(page_origins))
        check("... the questions and consent as files beside the settings, in the state directory",
              all(values.get(k, {}).get("value", "").startswith(str(state) + "/operator/") for k in ("kiosk.prompts", "kiosk.consent", "shoot.overlay")),
              json.dumps({k: values.get(k) for k in ("kiosk.prompts", "kiosk.consent", "shoot.overlay")}))
        check("... and no secret in it", organiser.WIFI_PASSWORD not in shown.stdout)

        after = organiser.restart(page, check, lambda: api("/api/status"))

        # A guest: agrees, records, posts, asks for the mail; it arrives with the event's name.
        api("/api/consent", {"answer": "yes", "textSha256": after["consent"]["textSha256"]})
        api("/api/shoot", {"seconds": 1, "countdown": 0})
        end = time.monotonic() + 90
        while time.monotonic() < end and not (api("/api/status").get("state") == "idle" and api("/api/status").get("currentShot")):
            time.sleep(0.3)
        shot = api("/api/status")["currentShot"]["id"]
        post = api("/api/post", {"id": shot, "caption": "from the event test"})["id"]
        api("/api/mail", {"id": post, "address": "guest@example.org"})
        mails = wait_received(2)
        message = email.message_from_bytes(pathlib.Path(mails[-1][0]).read_bytes(), policy=email.policy.default) if len(mails) == 2 else None
        check("the guest's mail arrives, to their address, with the event's name in its subject",
              message is not None and str(message["To"]) == "guest@example.org" and organiser.EVENT in str(message["Subject"]),
              str(message and message["Subject"]))

        # The section at the three sizes: nothing wider than the screen, no word broken in the table.
        for name, (width, height) in SIZES:
            view = browser.new_page(viewport={"width": width, "height": height})
            view.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
            view.goto(base + "/admin")
            wait_until(view, "document.body.dataset.event === 'loaded'", 30000)
            view.evaluate("document.getElementById('all-settings').open = true")
            view.evaluate("document.getElementById('event-section').scrollIntoView({block: 'start'})")
            time.sleep(1.2)
            wide = view.evaluate("document.documentElement.scrollWidth")
            check(f"{name}: nothing runs off the screen sideways ({wide} px of {width})", wide <= width, str(wide))
            broken = organiser.words_whole(view, "#settings-table td.key, #settings-table td.from")
            check(f"{name}: every setting's name and origin keeps its words whole", not broken, str(broken[:5]))
            # The screen as the organiser sees it, then the whole section (the page at full height:
            # the section's head in its place, not where it sticks while scrolling).
            view.screenshot(path=str(artifacts / f"event-{name}.png"))
            box = view.evaluate("(() => { const r = document.getElementById('event-section').getBoundingClientRect(); "
                                "return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height}; })()")
            view.screenshot(path=str(artifacts / f"event-section-{name}.png"), full_page=True, clip=box)
            view.close()
        check("no script error on the page", not errors, str(errors))
finally:
    status = kiosk.stop()
    check("the kiosk stops cleanly (exit 0)", status == 0, str(status))
    smtp.terminate()
    shutil.rmtree(smtp_dir, ignore_errors=True)

print(f"event page: {check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
