#!/usr/bin/env python3
"""The organiser's booth from the package's fresh install (issue 49), the host's side: while the
systemd guest (Tests/vm/package-vm.sh) runs the package just installed, with no configuration
edited, this drives Debian's chromium on this machine (Playwright) against the guest's kiosk,
whose port qemu's user network forwards to this machine's loopback, and runs the mail server the
booth is given (Tests/mail/smtp-server.py, plain, on this machine: 10.0.2.2 from the guest).

The guest (package-guest.sh) writes EVENT/ready (with the package's two tokens beside it) once
its page is forwarded; then, as the organiser: log in at /admin with the operator's token, the
event's name, two questions, consent, an uploaded branding frame seen over vivid's picture, the
shot's length, the booth's Wi-Fi, the mail server (a test mail received), Save, the restart the
page offers (the kiosk execs itself under systemd); then a guest at the booth's screen (/login with
the booth's token): agrees, records, posts, types their address on the mail keyboard, and the
mail arrives with the event's name. The keys set go to EVENT/keys for the guest's own checks
(`recorder config show`), and EVENT/done tells it to go on.

    package-event.py EVENT_DIR HOST_PORT
Prints PASS/FAIL lines, then 'event host: N passed, N failed'.
"""
import email, email.policy, glob, json, pathlib, subprocess, sys, time, urllib.request

here = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(here.parent / "browser"))
from playwright.sync_api import sync_playwright  # noqa: E402

from browser_support import Checks, launch, repo, wait_until  # noqa: E402
import event_support as organiser  # noqa: E402

event, port = pathlib.Path(sys.argv[1]), int(sys.argv[2])
base = f"http://127.0.0.1:{port}"
check = Checks()

smtp_dir = event / "smtp"
smtp_dir.mkdir(parents=True, exist_ok=True)
smtp = subprocess.Popen(["/usr/bin/python3", str(repo / "Tests" / "mail" / "smtp-server.py"), str(smtp_dir), "--tls", "none"],
                        stdout=open(smtp_dir / "server.log", "w"), stderr=subprocess.STDOUT)


def received():
    return [(p, json.loads(pathlib.Path(p[:-4] + ".json").read_text())) for p in sorted(glob.glob(str(smtp_dir / "mail" / "*.eml")))]


def status(token):
    request = urllib.request.Request(base + "/api/status", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=60) as r:
        return json.load(r)


def phase(page, wanted, seconds):
    wait_until(page, f"document.body.dataset.phase === '{wanted}'", seconds * 1000)


try:
    for _ in range(600):
        if (smtp_dir / "ready").exists() and (smtp_dir / "ready").read_text().strip():
            break
        time.sleep(0.05)
    smtp_port = int((smtp_dir / "ready").read_text())
    # The guest installs the package first (minutes under emulation).
    end = time.monotonic() + 1800
    while not (event / "ready").exists() and not (event / "stop").exists() and time.monotonic() < end:
        time.sleep(1)
    if not (event / "ready").exists():
        check("the guest forwarded its kiosk's page", False, "it never said ready")
        raise SystemExit
    operator, booth = (event / "operator-token").read_text().strip(), (event / "booth-token").read_text().strip()
    frame = event / "frame.png"
    organiser.make_frame(frame, "640x360")
    with sync_playwright() as p:
        browser = launch(p)
        admin = browser.new_page(viewport={"width": 1280, "height": 800})
        organiser.log_in(admin, base, operator)
        check("the operator page opens on the fresh install, logged in with the package's operator token",
              admin.evaluate("document.body.dataset.auth") != "out")
        # (a short shot, for the emulated CPU: the shot's length is the Event section's)
        admin.fill("#event-seconds", "3")
        keys = organiser.organise(admin, check, "10.0.2.2", smtp_port, frame, "organiser@example.org", received) | {"kiosk.seconds"}
        admin.evaluate("document.getElementById('event-section').scrollIntoView({block: 'start'})")
        admin.screenshot(path=str(event / "operator-event.png"))
        # (the guest's own checks, `recorder config show`, run whatever happens next)
        (event / "keys").write_text("\n".join(sorted(keys)) + "\n")
        after = organiser.restart(admin, check, lambda: status(operator))
        check("the shot's length is the page's now (3 s)", after.get("shotSeconds") == 3, str(after.get("shotSeconds")))
        # The organiser is done: their page goes, and with it its live still of the camera (twice
        # a second, a frame decoded and encoded by the emulated CPU the guest's recording needs).
        admin.close()

        # A guest at the booth's screen.
        guest = browser.new_context(viewport={"width": 1280, "height": 800}, has_touch=True).new_page()
        guest.goto(base + "/login")
        guest.fill("#token", booth)
        guest.press("#token", "Enter")
        phase(guest, "attract", 60)
        # The booth has just restarted: a tap that comes while its camera is still coming up is
        # not taken (the page stays on attract), as a guest would find; tap again, as they would.
        end, seen = time.monotonic() + 60, []
        while time.monotonic() < end:
            now = guest.evaluate("document.body.dataset.phase")
            if not seen or seen[-1] != now:
                seen.append(now)
            if now not in ("attract", "problem"):
                break
            if guest.is_visible("#record") and guest.is_enabled("#record"):
                guest.tap("#record", timeout=5000)
            time.sleep(2)
        print("   the guest page's phases, tapping Record:", " > ".join(seen), flush=True)
        phase(guest, "consent", 30)
        check("the guest is asked to agree to the organiser's text first", organiser.CONSENT in guest.inner_text("body"))
        wait_until(guest, "!document.getElementById('agree').disabled", 30000)
        guest.tap("#agree")
        phase(guest, "review", 300)
        guest.tap("#post")
        phase(guest, "done", 60)
        wait_until(guest, "!document.getElementById('mail-open').hidden", 120000)
        guest.screenshot(path=str(event / "guest-thanks.png"))
        guest.tap("#mail-open")
        phase(guest, "mail", 30)
        before = len(received())
        guest.keyboard.type("guest@example.org")
        guest.tap("#mail-send")
        phase(guest, "done", 60)
        end = time.monotonic() + 300
        while len(received()) <= before and time.monotonic() < end:
            time.sleep(1)
        got = received()
        message = email.message_from_bytes(pathlib.Path(got[-1][0]).read_bytes(), policy=email.policy.default) if len(got) > before else None
        check("the guest's mail arrives at the organiser's mail server, to their address, with the event's name",
              message is not None and got[-1][1].get("rcpt_tos") == ["guest@example.org"] and organiser.EVENT in str(message["Subject"]),
              str(message and message["Subject"]))
        links = [line for line in (message.get_body(("plain",)).get_content().splitlines() if message else []) if "/s/" in line]
        check("... with the guest's link on the booth's Wi-Fi (the share link address set on the page)",
              bool(links) and links[0].strip().startswith("http://10.42.0.1/s/"), str(links[:1]))
except SystemExit:
    pass
except Exception as e:
    check("the host's browser side ran to its end", False, repr(e))
finally:
    (event / "done").write_text("done\n")
    smtp.terminate()
    print(f"event host: {check.passed} passed, {check.failed} failed")
