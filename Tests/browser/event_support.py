"""The organiser at the operator page's Event section (issue 49), as the host's browser test
(event_page.py) and the package's test (Tests/vm/package-event.py, against the package installed
in the systemd guest) both drive it: log in, type the event's name, two questions and a consent
text, upload a branding frame and see it over the camera before saving, set the booth's Wi-Fi and
a mail server, send a test mail, save, and restart the booth to take it."""
import json, pathlib, subprocess, time

from browser_support import wait_until

PROMPTS = ["What do you wish them?", "Your best memory of them?"]
CONSENT = "I agree that my video is shown at the wedding and sent to Anna and Ben."
EVENT = "Anna & Ben's wedding"
WIFI_NAME, WIFI_PASSWORD = "Anna & Ben", "confetti-2026"
SHARE = "http://10.42.0.1/s/{token}"


def make_frame(path, size="1280x720"):
    """A branding frame: a PNG, red along its top eighth and clear below (ffmpeg makes it)."""
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"nullsrc=s={size}", "-frames:v", "1", "-vf",
                    "format=rgba,geq=r='230':g='20':b='20':a='if(lt(Y,H/8),255,0)'", str(path)], check=True)


def still_colour(page, x_fraction, y_fraction):
    """The colour of the frame's still on the page at a point (its own fractions), read off a canvas."""
    return page.evaluate(f"""(() => {{
        const img = document.getElementById('frame-still');
        if (!img.naturalWidth) return null;
        const c = document.createElement('canvas');
        c.width = img.naturalWidth; c.height = img.naturalHeight;
        const g = c.getContext('2d');
        g.drawImage(img, 0, 0);
        return Array.from(g.getImageData(Math.floor(c.width * {x_fraction}), Math.floor(c.height * {y_fraction}), 1, 1).data.slice(0, 3));
    }})()""")


def red(rgb):
    return bool(rgb) and rgb[0] > 170 and rgb[1] < 80 and rgb[2] < 80


def log_in(page, base, token):
    """Opens /admin; logs in with `token` when the page asks."""
    # (an emulated guest serves the page slowly: a generous first load)
    page.goto(base + "/admin", timeout=180000)
    wait_until(page, "document.body.dataset.auth === 'out' || document.body.dataset.event === 'loaded'", 120000)
    if page.evaluate("document.body.dataset.auth") == "out":
        page.fill("#token", token)
        page.click("#token-save")
    wait_until(page, "document.body.dataset.event === 'loaded'", 60000)


def organise(page, check, smtp_host, smtp_port, frame_png, test_to, smtp_received, before_upload=None):
    """Sets the event up on the page as an organiser does, checking each step; `smtp_received()`
    answers the messages the test's SMTP server kept (path, envelope); `before_upload(page)`, if
    given, runs just before the frame is uploaded."""
    page.locator("#event-section").scroll_into_view_if_needed()
    page.fill("#event-name", EVENT)
    page.fill("#event-prompts", "\n".join(PROMPTS))
    page.check("#event-consent-on")
    page.fill("#event-consent", CONSENT)
    check("Save is offered once something is typed", not page.evaluate("document.getElementById('event-save').disabled"))

    # The frame: uploaded, seen over the camera (red on top, the camera below), not saved yet.
    if before_upload:
        before_upload(page)
    page.set_input_files("#frame-file", str(frame_png))
    wait_until(page, "document.body.dataset.frame && !['saved', 'none'].includes(document.body.dataset.frame)", 30000)
    upload = page.evaluate("document.body.dataset.frame")
    wait_until(page, f"document.body.dataset.still === '{upload}'", 30000)
    time.sleep(0.3)
    top, middle = still_colour(page, 0.5, 0.04), still_colour(page, 0.5, 0.6)
    check("the uploaded frame is seen over the camera before it is saved (red on top, the camera below)",
          red(top) and not red(middle), f"{top} {middle}")

    # Wi-Fi: a password the kiosk refuses is said under its field, as the kiosk would say it.
    page.fill("#event-share", SHARE)
    page.fill("#event-wifi-name", WIFI_NAME)
    page.fill("#event-wifi-password", "short")
    wait_until(page, "!!document.querySelector('.field[data-key=\"kiosk.wifi_password\"] .problem')", 30000)
    said = page.inner_text('.field[data-key="kiosk.wifi_password"] .problem')
    check("a Wi-Fi password too short is refused under its field as it is typed, naming the key", "kiosk.wifi_password" in said, said)
    page.fill("#event-wifi-password", WIFI_PASSWORD)

    # Mail: the test's own server, plain (it offers no TLS), and a test mail it receives.
    page.fill("#event-smtp", f"smtp://{smtp_host}:{smtp_port}")
    page.fill("#event-from", "Photo booth <booth@photo.example>")
    page.check("#event-insecure")
    before = len(smtp_received())
    page.fill("#event-test-to", test_to)
    page.click("#event-test-mail")
    wait_until(page, "!!document.body.dataset.testMail", 60000)
    result = page.inner_text("#event-test-result")
    check("the test mail is sent, and the page says what the server said (250)",
          page.evaluate("document.body.dataset.testMail") == "sent" and " 250 " in result, result)
    got = smtp_received()
    check("the test's SMTP server received the test mail, to the address typed",
          len(got) == before + 1 and got[-1][1].get("rcpt_tos") == [test_to], str(got[-1:]))

    # Saved all at once; the booth takes it when it restarts, between guests.
    page.click("#event-save")
    wait_until(page, "!!document.body.dataset.saved", 30000)
    saved = page.evaluate("document.body.dataset.saved").split(",")
    wanted = {"event.name", "kiosk.prompts", "kiosk.consent", "shoot.overlay", "share.base_url", "kiosk.wifi_ssid", "kiosk.wifi_password",
              "mail.smtp_url", "mail.from", "mail.insecure"}
    check("Save saves every field set", wanted <= set(saved), str(saved))
    wait_until(page, "document.body.dataset.restart === 'needed'", 30000)
    check("the page says the booth takes it when it restarts, and offers the restart",
          page.is_visible("#event-restart") and "restart" in page.inner_text("#event-state"), page.inner_text("#event-state"))
    return wanted


def restart(page, check, status):
    """Restarts the booth from the page; `status()` is the kiosk's /api/status."""
    run = status()["run"]
    page.click("#event-restart")
    wait_until(page, "document.body.dataset.restart === 'done'", 120000)
    after = status()
    check("the booth restarted (a new run) and the page says it runs with the saved settings",
          after["run"] != run and "runs with the saved settings" in page.inner_text("#event-state"), page.inner_text("#event-state"))
    check("... it asks the guests the two questions now", (after.get("prompt") or {}).get("count") == 2, json.dumps(after.get("prompt")))
    check("... and asks their consent first", bool(after.get("consent")), json.dumps(after.get("consent")))
    return after


def words_whole(page, selector):
    """Cells of `selector` in which a word is broken across lines ("defau/lt"): [(text, word)]."""
    return page.evaluate(f"""(() => {{
        const broken = [];
        for (const cell of document.querySelectorAll({json.dumps(selector)})) {{
            const node = cell.firstChild;
            if (!node || node.nodeType !== 3) continue;
            const text = node.textContent;
            const re = /[^\\s/]+/g;
            let m;
            while ((m = re.exec(text))) {{
                const r = document.createRange();
                r.setStart(node, m.index); r.setEnd(node, m.index + m[0].length);
                const lines = new Set(Array.from(r.getClientRects()).map((q) => Math.round(q.top)));
                if (lines.size > 1) broken.push([text, m[0]]);
            }}
        }}
        return broken;
    }})()""")
