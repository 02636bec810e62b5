#!/usr/bin/env python3
"""Out of service, said kindly (issue 42 item 5), in Debian's chromium: the guest page at the
booth's sizes (1280x800, 1920x1080) and a tablet's (800x1280 upright) shows a calm "back in a
moment" card, with no technical word and no recording offered, while the booth cannot take a
guest; the API refuses a shot with its own kind; the operator page says which cause and its
numbers; and every page comes back to the start screen by itself, with no reload, when the cause
clears.

- The camera: the kiosk records from a Y4M file (a capture rig's pipe); moving it away is the
  camera unplugged, moving it back plugs it in again.
- The disk (root only, as CI runs it): the workspace on a small tmpfs of its own, filled by
  something else until less than one shot fits, then emptied again; this kiosk speaks German.

Screenshots go to ARTIFACTS (default .cache/browser-artifacts/away).

    python Tests/browser/away_page.py RECORDER_BINARY
"""
import json, os, pathlib, shutil, subprocess, sys, urllib.error, urllib.request

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from browser_support import Checks, Kiosk, launch, repo, wait_until  # noqa: E402

binary = sys.argv[1]
artifacts = pathlib.Path(os.environ.get("ARTIFACTS", repo / ".cache" / "browser-artifacts" / "away"))
shutil.rmtree(artifacts, ignore_errors=True)
artifacts.mkdir(parents=True)
check = Checks()
SIZES = {"booth": (1280, 800), "tablet": (800, 1280), "booth-hd": (1920, 1080)}
# Words a guest should never read on the card: the operator page says these.
TECHNICAL = ["camera", "kamera", "disk", "store", "error", "fehler", "503", "upload", "speicher", "device"]


def status(kiosk):
    with urllib.request.urlopen(kiosk.base + "/api/status", timeout=30) as r:
        return json.load(r)


def shoot(kiosk):
    """POST /api/shoot as the page sends it: (status, JSON body)."""
    request = urllib.request.Request(kiosk.base + "/api/shoot", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json", "Origin": kiosk.base})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def open_pages(browser, kiosk):
    """The guest page at each size, on its start screen, each marked so a reload would show."""
    pages = {}
    for name, (width, height) in SIZES.items():
        page = browser.new_page(viewport={"width": width, "height": height})
        page.on("pageerror", lambda e, name=name: check(f"no script error on the {name} page", False, str(e)))
        page.goto(kiosk.base + "/")
        wait_until(page, "document.body.dataset.phase === 'attract'", timeout=30000)
        page.evaluate("window.notReloaded = true")
        pages[name] = page
    return pages


def judge_away(pages, label, heading, cause):
    """Every page shows the calm card (no record button, no technical word), screenshot each."""
    for name, page in pages.items():
        try:
            wait_until(page, "document.body.dataset.phase === 'away'", timeout=30000)
        except TimeoutError:
            check(f"{label}: the {name} page says the booth is back in a moment", False, page.evaluate("document.body.dataset.phase"))
            continue
        card = page.inner_text("#away")
        check(f"{label}: the {name} page says it is back in a moment", heading in card, card)
        check(f"{label}: the {name} page's card has no technical word",
              not any(word in card.lower() for word in TECHNICAL), card)
        check(f"{label}: the {name} page offers no recording", not page.is_visible("#record"))
        check(f"{label}: the {name} page shows nothing beside the card (no notice, no live picture)",
              not page.is_visible("#notice") and not page.is_visible("#live"))
        page.screenshot(path=str(artifacts / f"{label}-{name}.png"))
    s, body = shoot(kiosk_of[label])
    check(f"{label}: the API refuses a shot (503, kind outOfService, the guest's calm sentence)",
          s == 503 and body.get("kind") == "outOfService" and body.get("guestKey") == "backSoon", f"{s} {body}")
    causes = (status(kiosk_of[label]).get("service") or {}).get("causes") or []
    check(f"{label}: the status names the cause ({cause}) with its numbers",
          len(causes) == 1 and causes[0].get("cause") == cause, str(causes))
    return causes


def judge_back(pages, label):
    for name, page in pages.items():
        try:
            wait_until(page, "document.body.dataset.phase === 'attract'", timeout=30000)
            back = True
        except TimeoutError:
            back = False
        check(f"{label}: the {name} page is back on its start screen by itself", back, page.evaluate("document.body.dataset.phase"))
        check(f"{label}: ... with no reload", page.evaluate("window.notReloaded === true"))
        check(f"{label}: ... and offers recording again", page.is_visible("#record"))
    pages["booth"].screenshot(path=str(artifacts / f"{label}-back-booth.png"))


def operator_says(browser, kiosk, label, words):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(kiosk.base + "/admin")
    try:
        wait_until(page, "document.getElementById('banner').textContent.includes('Out of service')", timeout=30000)
    except TimeoutError:
        pass
    text = page.inner_text("#banner") if page.is_visible("#banner") else ""
    check(f"{label}: the operator page says it is out of service, and why ({', '.join(words)})",
          "Out of service" in text and all(w in text for w in words), text)
    page.screenshot(path=str(artifacts / f"{label}-operator.png"))
    page.close()


kiosk_of = {}
# The camera: a Y4M file stands in for it.
camera_kiosk = Kiosk(binary, artifacts / "camera-kiosk.log", args=["--seconds", "2", "--countdown", "0"], prefix="recorder-away-",
                     device="y4m:PLACEHOLDER")
camera = camera_kiosk.work / "camera.y4m"
shutil.copy(repo / "Fixtures" / "y4m" / "clip-420.y4m", camera)
camera_kiosk.device = f"y4m:{camera}"
kiosk_of["camera"] = camera_kiosk
disk_kiosk, mounted = None, None
try:
    camera_kiosk.start()
    with sync_playwright() as p:
        browser = launch(p)
        pages = open_pages(browser, camera_kiosk)
        check("camera: in service with the camera there", status(camera_kiosk).get("service") is None)
        camera.rename(camera.with_suffix(".away"))
        judge_away(pages, "camera", "Back in a moment", "camera")
        operator_says(browser, camera_kiosk, "camera", ["camera", str(camera)])
        camera.with_suffix(".away").rename(camera)
        judge_back(pages, "camera")
        for page in pages.values():
            page.close()

        # The disk: a small tmpfs for the workspace, which something else fills.
        if os.geteuid() != 0:
            check("disk: this part mounts a small tmpfs and needs root (CI runs as root)", False)
        else:
            disk_kiosk = Kiosk(binary, artifacts / "disk-kiosk.log", args=["--seconds", "2", "--countdown", "0"],
                               prefix="recorder-away-disk-", env={"RECORDER_KIOSK_LANGUAGE": "de"})
            kiosk_of["disk"] = disk_kiosk
            mounted = disk_kiosk.work / "ws"
            mounted.mkdir()
            subprocess.run(["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", str(mounted)], check=True)
            disk_kiosk.start()
            pages = open_pages(browser, disk_kiosk)
            check("disk: in service with room for a shot", status(disk_kiosk).get("service") is None)
            filler = mounted / "filler"
            stat = os.statvfs(mounted)
            with open(filler, "wb") as f:
                f.write(b"\0" * (stat.f_bavail * stat.f_frsize - 512 * 1024))
            causes = judge_away(pages, "disk", "Gleich wieder da", "disk")
            if causes:
                check("disk: ... the free bytes below a shot's needs", causes[0].get("freeBytes", 1 << 62) < causes[0].get("neededBytes", 0),
                      str(causes))
            operator_says(browser, disk_kiosk, "disk", ["disk", str(mounted)])
            filler.unlink()
            judge_back(pages, "disk")
        browser.close()
except Exception as e:  # a failure here is a FAIL line with its reason, then the kiosks stop
    check("the out-of-service pages ran to the end", False, repr(e))
finally:
    for k in (camera_kiosk, disk_kiosk):
        if k is not None and k.process is not None:
            check(f"the kiosk stops cleanly ({k.log_path.name})", k.stop() == 0)
    if mounted is not None:
        subprocess.run(["umount", str(mounted)], check=False)
        shutil.rmtree(mounted.parent, ignore_errors=True)
print(f"away page: {check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
