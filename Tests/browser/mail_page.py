#!/usr/bin/env python3
""""Send it to my email" on the guest page (/) in a real browser (Debian's chromium, headless,
Playwright, under the page's real Content-Security-Policy), against a real SMTP server on loopback
(Tests/mail/smtp-server.py: aiosmtpd, STARTTLS with a certificate made at start, AUTH).

Starts the server and `recorder kiosk` on the test pattern with mail.* pointing at it, and
kiosk.consent naming a text with a ✉ line (it asks to keep the address). Then, at three sizes:
  - 1280x800 (the booth's touch screen), by touch: Record, I agree, Post, "Send it to my email";
    the on-screen keyboard types "Anna.b@gmail.com" (shift, letters, ".", the @gmail.com key);
    Send; the thank-you says it is on its way; the server gets the mail once the post is uploaded:
    read back with Python's MIME parser (To, Subject, the share link, the poster inline, no video),
    its link opens the kiosk's share page and its video is the store's byte for byte; the address
    is in no log and, sent, gone from the queue (kept only in the sent record, as the consent asked);
  - 800x1280 (a tablet upright): the server down when Send is pressed: the mail waits (the
    operator page shows 1 waiting, masked), and goes by itself once the server is up;
  - 1920x1080 (a large booth screen): Send stays off until the address looks like one; a mail queued with
    the server down, then the post deleted by the operator: the mail is never sent.
On every mail screen: the opt-in words (the consent text's ✉ line), every key on screen, at least
64 px, no page scrollbars, no developer text. Then the metrics' counts, `recorder outbox mail`, and
`recorder export` with and without --with-contacts. Screenshots go to ARTIFACTS/mail.

    python Tests/browser/mail_page.py RECORDER_BINARY
"""
import email, email.policy, glob, hashlib, json, os, pathlib, re, shutil, subprocess, sys, tempfile, time, urllib.request

from playwright.sync_api import sync_playwright

from browser_support import Checks, Kiosk, fetch, launch, repo, wait_until

binary = sys.argv[1]
artifacts = pathlib.Path(os.environ.get("ARTIFACTS", repo / ".cache" / "browser-artifacts")) / "mail"
shutil.rmtree(artifacts, ignore_errors=True)
artifacts.mkdir(parents=True)
check = Checks()

KEEP_LINE = "If you have your video mailed, we keep your address with it until the event's page closes."
consent_file = artifacts / "consent.txt"
consent_file.write_text("Your video is for the guests of this wedding and is kept for a year.\n✉ " + KEEP_LINE + "\n")

# The SMTP server, in a directory of its own.
smtp_dir = pathlib.Path(tempfile.mkdtemp(prefix="recorder-mail-smtp-"))
USER, PASSWORD = "booth", "pass word = secret"
smtp = subprocess.Popen(["/usr/bin/python3", str(repo / "Tests" / "mail" / "smtp-server.py"), str(smtp_dir), "--tls", "starttls",
                         "--auth", f"{USER}:{PASSWORD}"], stdout=open(smtp_dir / "server.log", "w"), stderr=subprocess.STDOUT)
for _ in range(600):
    if (smtp_dir / "ready").exists() and (smtp_dir / "ready").read_text().strip():
        break
    time.sleep(0.05)
smtp_port = int((smtp_dir / "ready").read_text())
credentials = smtp_dir / "credentials"
credentials.write_text(f"user = {USER}\npassword = {PASSWORD}\n")
credentials.chmod(0o600)


def smtp_fault(fault):
    (smtp_dir / "fault.json.new").write_text(json.dumps(fault or {"mode": "normal"}))
    os.rename(smtp_dir / "fault.json.new", smtp_dir / "fault.json")


def smtp_events(name):
    try:
        lines = (smtp_dir / "events.log").read_text().splitlines()
    except OSError:
        return 0
    return sum(1 for line in lines if json.loads(line).get("event") == name)


def smtp_down(down):
    wanted = "down" if down else "listening"
    before = smtp_events(wanted)
    smtp_fault({"mode": "down"} if down else None)
    end = time.monotonic() + 30
    while smtp_events(wanted) == before and time.monotonic() < end:
        time.sleep(0.05)


def received():
    """The messages the server kept, in order: (path, envelope)."""
    return [(p, json.loads(pathlib.Path(p[:-4] + ".json").read_text())) for p in sorted(glob.glob(str(smtp_dir / "mail" / "*.eml")))]


def wait_received(count, seconds=90):
    end = time.monotonic() + seconds
    while len(received()) < count and time.monotonic() < end:
        time.sleep(0.2)
    return received()


kiosk = Kiosk(binary, artifacts / "kiosk.log", args=["--seconds", "2", "--countdown", "1"], prefix="recorder-mail-",
              env={"RECORDER_KIOSK_REVIEW_SECONDS": "30", "RECORDER_KIOSK_CONSENT": str(consent_file), "RECORDER_KIOSK_LANGUAGE": "en",
                   "RECORDER_MAIL_SMTP_URL": f"smtp://127.0.0.1:{smtp_port}", "RECORDER_MAIL_FROM": "Photo booth <booth@photo.example>",
                   "RECORDER_MAIL_CREDENTIALS_FILE": str(credentials), "RECORDER_MAIL_CA_FILE": str(smtp_dir / "cert.pem"),
                   "RECORDER_MAIL_EVENT": "Anna & Ben's wedding",
                   # (a mail that fails is tried again within a second or two)
                   "RECORDER_RETRY_INITIAL_SECONDS": "1", "RECORDER_RETRY_MAX_SECONDS": "2"})
work, base = kiosk.work, kiosk.base
DEVELOPER_TEXT = ["idle", "countdown", "Bearer", "errno", "/api", "exit status", "recorder ", "outbox", "--", "smtp", "SMTP"]


def api(path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, method="POST" if data else "GET", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as r:
        return json.load(r)


def metric(name, label):
    with urllib.request.urlopen(base + "/metrics", timeout=10) as r:
        text = r.read().decode()
    found = re.search(r"^" + name + r"\{result=\"" + label + r"\"\} (\S+)$", text, re.M)
    return float(found.group(1)) if found else None


def wait_phase(page, wanted, seconds):
    try:
        wait_until(page, f"document.body.dataset.phase === '{wanted}'", seconds * 1000)
    except TimeoutError:
        print(f"waited {seconds} s for {wanted!r}; the page shows {page.evaluate('document.body.dataset.phase')!r}")
        kiosk.log.flush()
        print("the kiosk's log ends:\n" + "\n".join(pathlib.Path(kiosk.log_path).read_text().splitlines()[-30:]))
        raise


def posts():
    return {p.stem for p in (work / "store" / "posts").glob("*.json")}


def new_post(before, seconds=90):
    """The id of the post that reached the store since `before` (the set of posts then)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        made = posts() - before
        if made:
            return made.pop()
        time.sleep(0.2)
    raise TimeoutError("no new post reached the store")


def record_and_post(page, touch):
    """Record (with the consent's yes), Post: the thank-you with "Send it to my email"; the posts before."""
    before = posts()
    press = page.tap if touch else page.click
    press("#record")
    wait_phase(page, "consent", 15)
    wait_until(page, "!document.getElementById('agree').disabled", 15000)
    press("#agree")
    wait_phase(page, "review", 90)
    press("#post")
    wait_phase(page, "done", 20)
    wait_until(page, "!!document.body.dataset.posted && !document.getElementById('mail-open').hidden", 20000)
    return before


KEYBOARD = """(() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height }; };
  const keys = [...document.querySelectorAll('#keyboard .key')].map((k) => ({ key: k.dataset.key, label: k.textContent, ...box(k),
    onTop: (() => { const r = k.getBoundingClientRect(); const e = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2); return !!e && (e === k || k.contains(e)); })() }));
  const buttons = ['mail-send', 'mail-cancel'].map((id) => ({ id, ...box(document.getElementById(id)) }));
  return { vw: innerWidth, vh: innerHeight, sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight,
           keys, buttons, optIn: document.getElementById('mail-opt-in').innerText, title: document.getElementById('mail-title').innerText,
           text: document.getElementById('mail').innerText };
})()"""


def looks_right(page, size, name):
    """The mail screen as a guest sees it: a screenshot, and what it must show."""
    page.screenshot(path=str(artifacts / f"{size}-{name}.png"))
    layout = page.evaluate(KEYBOARD)
    vw, vh = layout["vw"], layout["vh"]
    check(f"{size} {name}: no page scrollbars", layout["sw"] <= vw and layout["sh"] <= vh, str([layout["sw"], layout["sh"], vw, vh]))
    outside = [k["key"] for k in layout["keys"] + layout["buttons"] if k.get("left", 0) < 0 or k["top"] < 0 or k["right"] > vw or k["bottom"] > vh]
    check(f"{size} {name}: every key and button on the screen", not outside, str(outside))
    covered = [k["key"] for k in layout["keys"] if not k["onTop"]]
    check(f"{size} {name}: no key covered by another", not covered, str(covered))
    small = [(k.get("key") or k.get("id"), round(k["width"]), round(k["height"])) for k in layout["keys"] + layout["buttons"]
             if k["width"] < 60 or k["height"] < 60]
    check(f"{size} {name}: keys and buttons at least 60 px for a finger", not small, str(small))
    keys = {k["key"] for k in layout["keys"]}
    check(f"{size} {name}: @ . shift backspace and common domains are keys",
          {"@", ".", "shift", "backspace", "@gmail.com", ".com"} <= keys and len(keys) >= 45, str(sorted(keys)))
    check(f"{size} {name}: the opt-in words are the consent text's ✉ line", layout["optIn"] == KEEP_LINE, layout["optIn"])
    check(f"{size} {name}: the title asks for the address", layout["title"] == "Your email address", layout["title"])
    leaked = [w for w in DEVELOPER_TEXT if w in layout["text"]]
    check(f"{size} {name}: no developer text on the screen", not leaked, str(leaked))
    return layout


def type_keys(page, keys, touch):
    for key in keys:
        selector = f"#keyboard .key[data-key=\"{key}\"]"
        page.tap(selector) if touch else page.click(selector)


GUEST = "Anna.b@gmail.com"
GUEST_KEYS = ["shift", "a", "n", "n", "a", ".", "b", "@gmail.com"]
errors = []
try:
    kiosk.start()
    with sync_playwright() as p:
        browser = launch(p)

        def open_page(width, height, touch):
            page = browser.new_page(viewport={"width": width, "height": height}, has_touch=touch)
            page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
            page.on("console", lambda m: errors.append(f"{m.type}: {m.text}") if m.type == "error" else None)
            page.goto(base + "/")
            wait_phase(page, "attract", 30)
            return page

        # 1. The booth's touch screen: typed on the keyboard, sent, read back, its link opened.
        size = "1280x800"
        page = open_page(1280, 800, True)
        before = record_and_post(page, True)
        page.screenshot(path=str(artifacts / f"{size}-0-thanks-with-mail.png"))
        page.tap("#mail-open")
        wait_phase(page, "mail", 10)
        looks_right(page, size, "1-empty")
        check(f"{size}: Send is off while nothing is typed", page.evaluate("document.getElementById('mail-send').disabled"))
        type_keys(page, GUEST_KEYS, True)
        shown = page.evaluate("document.getElementById('mail-address').textContent")
        check(f"{size}: the keys type the address, shift once for a capital, the domain key at the end", shown == GUEST, shown)
        check(f"{size}: Send is on once it looks like an address", not page.evaluate("document.getElementById('mail-send').disabled"))
        looks_right(page, size, "2-typed")
        page.tap("#mail-send")
        wait_phase(page, "done", 15)
        said = page.inner_text("#done")
        check(f"{size}: the thank-you says the video is on its way", "on its way to your inbox" in said, said)
        page.screenshot(path=str(artifacts / f"{size}-3-queued.png"))
        mails = wait_received(1)
        post_id = new_post(before)
        check("the server got the mail once the post was uploaded", len(mails) == 1, str(mails))
        path, envelope = mails[0]
        shutil.copy(path, artifacts / "received.eml")
        check("it came over STARTTLS, with AUTH, to the address typed",
              envelope.get("tls") is True and envelope.get("auth") == USER and envelope.get("rcpt_tos") == [GUEST], str(envelope))
        message = email.message_from_bytes(pathlib.Path(path).read_bytes(), policy=email.policy.default)
        text = message.get_body(("plain",)).get_content()
        html = message.get_body(("html",)).get_content()
        images = [part for part in message.walk() if part.get_content_maintype() == "image"]
        videos = [part for part in message.walk() if part.get_content_maintype() == "video"]
        (artifacts / "received.txt").write_text(
            "".join(f"{k}: {v}\n" for k, v in message.items() if k in ("From", "To", "Subject", "Date", "Message-ID"))
            + f"Parts: {[part.get_content_type() for part in message.walk()]}\n\n" + text)
        check("To and Subject as set", str(message["To"]) == GUEST and str(message["Subject"]) == "Your video from Anna & Ben's wedding",
              f"{message['To']} {message['Subject']}")
        check("the Message-ID is made from the post", post_id in str(message["Message-ID"]), str(message["Message-ID"]))
        check("the poster inline, never the video", len(images) == 1 and not videos and len(pathlib.Path(path).read_bytes()) < 400_000,
              str([part.get_content_type() for part in message.walk()]))
        links = re.findall(r"https?://\S+", text)
        link = links[0] if links else ""
        check("the text part carries the share link, and so does the HTML part", link.startswith(base + "/s/") and link in html, text)
        code, page_html = fetch(link)
        check("the mail's link opens the share page", code == 200 and b"<video" in page_html, f"{code} {page_html[:200]!r}")
        code, video = fetch(link + "/video.mp4")
        stored = (work / "store" / "videos" / f"{post_id}.mp4").read_bytes()
        check("the share page's video is the stored one, byte for byte", code == 200 and video == stored, f"{code} {len(video)} vs {len(stored)}")
        queue = list((work / "outbox" / "mail" / "queue").glob("*.json"))
        check("sent: the queue holds no job (no address waiting)", not queue, str(queue))
        page.close()

        # 2. A tablet upright: the server down when Send is pressed; the mail waits, then goes.
        size = "800x1280"
        smtp_down(True)
        page = open_page(800, 1280, True)
        before = record_and_post(page, True)
        page.tap("#mail-open")
        wait_phase(page, "mail", 10)
        type_keys(page, ["b", "e", "n", "@", "w", "e", "d", "d", "i", "n", "g", ".", "e", "x", "a", "m", "p", "l", "e", ".com"], True)
        looks_right(page, size, "2-typed")
        page.tap("#mail-send")
        wait_phase(page, "done", 15)
        post2 = new_post(before)
        # The upload goes, the mail fails (the server is down) and waits.
        end = time.monotonic() + 60
        while time.monotonic() < end:
            overview = api("/api/admin/overview")
            mail = overview.get("mail") or {}
            # (an attempt is counted on the disk before it is made, its failure after: wait for both)
            if mail.get("waiting") == 1 and any(j.get("attempts", 0) >= 1 and j.get("lastError") for j in mail.get("jobs", [])):
                break
            time.sleep(0.3)
        jobs = mail.get("jobs", [])
        check("the operator's overview shows the mail waiting, the address masked, with why",
              mail.get("waiting") == 1 and mail.get("sent") == 1 and len(jobs) == 1 and "***" in jobs[0]["to"]
              and "wedding" not in jobs[0]["to"] and jobs[0].get("lastError"), json.dumps(mail))
        operator = browser.new_page(viewport={"width": 1280, "height": 800})
        operator.goto(base + "/admin")
        wait_until(operator, "document.body.dataset.mail === '1/0/1'", 30000)
        summary = operator.inner_text("#mail-panel")
        check("the operator page shows 1 waiting, 0 refused, 1 sent, and no address",
              "1 waiting · 0 refused · 1 sent" in summary and "ben@" not in summary.lower(), summary)
        operator.locator("#mail-panel").screenshot(path=str(artifacts / "operator-mail-waiting.png"))
        smtp_down(False)
        mails = wait_received(2, 60)
        check("once the server is up, the waiting mail goes by itself", len(mails) == 2 and mails[1][1].get("rcpt_tos") == ["ben@wedding.example.com"],
              str([m[1].get("rcpt_tos") for m in mails]))
        wait_until(operator, "document.body.dataset.mail === '0/0/2'", 30000)
        check("the operator page counts 2 sent", True)
        page.close()

        # 3. A large booth screen: Send off until it looks like an address; a mail of a post
        # deleted before it could go is never sent.
        size = "1920x1080"
        smtp_down(True)
        page = open_page(1920, 1080, True)
        before = record_and_post(page, True)
        page.tap("#mail-open")
        wait_phase(page, "mail", 10)
        type_keys(page, ["c", "a", "r", "l"], True)
        check(f"{size}: Send stays off without an @", page.evaluate("document.getElementById('mail-send').disabled"))
        type_keys(page, ["@", "x"], True)
        check(f"{size}: and without a domain", page.evaluate("document.getElementById('mail-send').disabled"))
        type_keys(page, ["backspace", "@gmail.com"], True)
        looks_right(page, size, "2-typed")
        page.tap("#mail-send")
        wait_phase(page, "done", 15)
        post3 = new_post(before)
        api(f"/api/admin/posts/{post3}/delete", {"confirm": post3})
        queue = [json.loads(p.read_text()) for p in (work / "outbox" / "mail" / "queue").glob("*.json")]
        check("the post deleted: its mail (and the address) gone from the queue", not [j for j in queue if j["postID"] == post3], str(queue))
        smtp_down(False)
        time.sleep(0)  # (nothing to wait for: the queue is empty; the drain's next pass finds nothing)
        check("and never sent", [m[1].get("rcpt_tos") for m in received()].count(["carl@gmail.com"]) == 0)
        page.close()

        operator.reload()
        wait_until(operator, "!!document.body.dataset.mail", 30000)
        operator.locator("#mail-panel").screenshot(path=str(artifacts / "operator-mail.png"))
        operator.close()
        check("no page errors", not errors, str(errors))

    queued, sent, forgotten = metric("recorder_mails_total", "queued"), metric("recorder_mails_total", "sent"), metric("recorder_mails_total", "forgotten")
    check("metrics: 3 queued, 2 sent", queued == 3 and sent == 2, f"{queued} {sent} {forgotten}")
    log = pathlib.Path(kiosk.log_path).read_text().lower()
    check("the kiosk's journal never names an address", all(a.split("@")[0] not in log for a in ["anna.b@", "ben@", "carl@"]) and "@gmail" not in log,
          "\n".join(line for line in log.splitlines() if "@" in line)[:800])
    environment = {**kiosk.environment, "RECORDER_CONFIG": ""}
    listing = subprocess.run([binary, "outbox", "mail", "--outbox", str(work / "outbox")], capture_output=True, text=True, env=environment)
    check("`recorder outbox mail` counts 2 sent, nothing waiting, no address", "0 waiting, 0 refused, 2 sent" in listing.stdout
          and "@gmail" not in listing.stdout, listing.stdout + listing.stderr)
    for flag in ([], ["--with-contacts"]):
        out = work / ("export" + "".join(flag))
        done = subprocess.run([binary, "export", "--since", "2000-01-01", "-o", str(out), "--outbox", str(work / "outbox"),
                               "--store-dir", str(work / "store"), *flag], capture_output=True, text=True, env=environment)
        contacts = sorted(str(p.relative_to(out)) for p in out.rglob("contacts.txt")) if out.exists() else []
        if flag:
            kept = {p: (out / p).read_text() for p in contacts}
            check("export --with-contacts: the addresses kept under the ✉ consent, one file a post",
                  done.returncode == 0 and kept == {f"{post_id}/contacts.txt": GUEST + "\n", f"{post2}/contacts.txt": "ben@wedding.example.com\n"},
                  f"{done.returncode} {kept} {done.stdout} {done.stderr}")
        else:
            check("export without --with-contacts: no address", done.returncode == 0 and not contacts
                  and "@" not in "".join(p.read_text(errors="replace") for p in out.rglob("*.txt")), f"{done.returncode} {contacts} {done.stderr}")
finally:
    code = kiosk.stop()
    smtp.terminate()
    smtp.wait(timeout=30)
    shutil.rmtree(smtp_dir, ignore_errors=True)
check("the kiosk stops cleanly on SIGTERM", code == 0, str(code))
print(f"mail page: {check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
