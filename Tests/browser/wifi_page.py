#!/usr/bin/env python3
"""The thank-you screen with the booth's own Wi-Fi (kiosk.wifi_ssid; docs/venue.md), in a real browser:
Debian's chromium, headless, Playwright, under the page's real Content-Security-Policy.

A kiosk with a WPA2 network whose name and password hold every character a Wi-Fi code escapes,
and share links under a public https name, goes through a guest's flow (record, post) at the booth's
sizes: 1280x800, 800x1280 (upright) and 1920x1080. On the thank-you screen there must be two codes,
"1. Join the booth's Wi-Fi" and "2. Open your video", in that order, side by side, nothing
overlapping and nothing off the screen; zbarimg reads the first off the screenshot as the exact
WIFI: text and the second as the post's link, which opens the post (its page and its video, byte for
byte). Then a German kiosk with an open network at 1280x800: its words, and T:nopass; its dates day
first, to the minute (the thank-you's "link works until", and the share page at a phone's size).
Screenshots go to ARTIFACTS/wifi (default .cache/browser-artifacts/wifi).

    python Tests/browser/wifi_page.py RECORDER_BINARY
"""
import json, os, pathlib, re, shutil, subprocess, sys, urllib.parse

from playwright.sync_api import sync_playwright

from browser_support import Checks, Kiosk, fetch, launch, repo, wait_until

binary = sys.argv[1]
artifacts = pathlib.Path(os.environ.get("ARTIFACTS", repo / ".cache" / "browser-artifacts")) / "wifi"
shutil.rmtree(artifacts, ignore_errors=True)
artifacts.mkdir(parents=True)
check = Checks()

SSID = 'Booth; "Wi,Fi": A\\B'
PASSWORD = 'p;a,s:s"w\\rd $$ ok'
WIFI_TEXT = 'WIFI:T:WPA;S:Booth\\; \\"Wi\\,Fi\\"\\: A\\\\B;P:p\\;a\\,s\\:s\\"w\\\\rd $$ ok;;'
NAME = "videos.example.test"
SMALL_SHOTS = {"RECORDER_SHOOT_SIZE": "320x240", "RECORDER_SHOOT_FPS": "15", "RECORDER_SHOOT_PRESET": "ultrafast",
               "RECORDER_KIOSK_REVIEW_SECONDS": "60"}


def read_code(page, selector, name):
    """The code in `selector`, as the screen shows it (an element screenshot), read by zbarimg."""
    path = artifacts / f"{name}.png"
    page.locator(selector).screenshot(path=str(path))
    out = subprocess.run(["zbarimg", "--raw", "-q", "-Sdisable", "-Sqrcode.enable", str(path)], capture_output=True)
    return out.stdout.decode("utf-8").removesuffix("\n")


def box(page, selector):
    return page.evaluate(f"(() => {{ const r = document.querySelector({json.dumps(selector)}).getBoundingClientRect();"
                         " return [r.left, r.top, r.right, r.bottom]; })()")


def apart(a, b):
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def thank_you(browser, kiosk, width, height, caption, words, name=""):
    """A guest's post at WIDTH x HEIGHT, up to the thank-you with both codes: (page, post id)."""
    size = f"{width}x{height}{name}"
    page = browser.new_page(viewport={"width": width, "height": height}, has_touch=True)
    page.on("pageerror", lambda e: errors.append(f"{size} pageerror: {e}"))
    page.goto(kiosk.base + "/")
    wait_until(page, "document.body.dataset.phase === 'attract' && +(document.body.dataset.frames || 0) > 0", 60000)
    page.tap("#record")
    wait_until(page, "document.body.dataset.phase === 'review'", 90000)
    page.tap("#caption")
    page.keyboard.type(caption)
    page.tap("#post")
    wait_until(page, "document.body.dataset.phase === 'done'", 20000)
    post = wait_until(page, "document.body.dataset.shared", 60000)
    # (both pictures loaded: the codes are drawn)
    wait_until(page, "['qr', 'wifi-qr'].every((id) => { const i = document.getElementById(id); return i.complete && i.naturalWidth > 0; })", 30000)
    steps = page.evaluate("[...document.querySelectorAll('#share .step')].filter((s) => !s.hidden).map((s) => s.querySelector('h2').innerText)")
    check(f"{size}: two steps, in the order a guest takes them: {steps}", steps == words, str(steps))
    wifi, video, card = box(page, "#wifi-step"), box(page, "#video-step"), box(page, "#done .card")
    check(f"{size}: the two codes do not overlap ({wifi} / {video})", apart(wifi, video))
    inside = all(0 <= r[0] and 0 <= r[1] and r[2] <= width and r[3] <= height for r in (wifi, video, card))
    check(f"{size}: everything is on the screen (card {card})", inside)
    side = [box(page, "#wifi-qr"), box(page, "#qr")]
    sizes = [round(r[2] - r[0]) for r in side]
    check(f"{size}: each code is large enough to scan from a step away ({sizes} px)", min(sizes) >= 150, str(sizes))
    scroll = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight, innerWidth, innerHeight]")
    check(f"{size}: no scrollbars", scroll[0] <= scroll[2] and scroll[1] <= scroll[3], str(scroll))
    # (a heading on two lines in one step leaves the two codes level all the same)
    if width > height:
        check(f"{size}: the two codes are level", abs(side[0][1] - side[1][1]) < 2, str(side))
    page.screenshot(path=str(artifacts / f"{size}-two-codes.png"))
    return page, post


def opens_the_post(kiosk, link, post, caption, size):
    """The link read off the screen opens the post: on the booth's Wi-Fi its name is the booth, so
    its path is asked of the kiosk (as nginx-wifi.conf forwards it)."""
    parsed = urllib.parse.urlsplit(link)
    check(f"{size}: the second code is a share page under the public name: {link}",
          parsed.scheme == "https" and parsed.hostname == NAME and parsed.path.startswith("/s/"), link)
    code, html = fetch(kiosk.base + parsed.path)
    check(f"{size}: ... which opens the post's page", code == 200 and caption.encode() in html, f"{code} {html[:200]!r}")
    code, video = fetch(kiosk.base + parsed.path + "/video.mp4")
    # The video is the booth's own copy: queued, or already in the store.
    copies = [p.read_bytes() for p in list((kiosk.work / "outbox" / "queue").glob(f"*-{post}/video.mp4"))
              + [kiosk.work / "store" / "videos" / f"{post}.mp4"] if p.exists()]
    check(f"{size}: ... and its video, byte for byte ({len(video)} bytes)", code == 200 and video in copies, f"{code}")


errors = []
english = Kiosk(binary, artifacts / "kiosk.log", args=["--seconds", "2", "--countdown", "0"], prefix="recorder-wifi-",
                env={**SMALL_SHOTS, "RECORDER_KIOSK_WIFI_SSID": SSID, "RECORDER_KIOSK_WIFI_PASSWORD": PASSWORD,
                     "RECORDER_SHARE_BASE_URL": f"https://{NAME}/s/{{token}}"})
german = Kiosk(binary, artifacts / "kiosk-de.log", args=["--seconds", "2", "--countdown", "0"], prefix="recorder-wifi-de-",
               env={**SMALL_SHOTS, "RECORDER_KIOSK_LANGUAGE": "de", "RECORDER_KIOSK_WIFI_SSID": "Hochzeit Jörg & Anna",
                    "RECORDER_KIOSK_WIFI_SECURITY": "open", "RECORDER_SHARE_BASE_URL": "http://10.42.0.1/s/{token}"})
try:
    english.start()
    with sync_playwright() as p:
        browser = launch(p)
        for width, height in [(1280, 800), (800, 1280), (1920, 1080)]:
            size = f"{width}x{height}"
            caption = f"Wi-Fi {size} 🎉"
            page, post = thank_you(browser, english, width, height, caption, ["1. Join the booth's Wi-Fi", "2. Open your video"])
            code = read_code(page, "#wifi-qr", f"{size}-wifi-code")
            check(f"{size}: the first code reads (zbarimg) as the exact WIFI: text, every \\ ; , : \" escaped: {code}", code == WIFI_TEXT, repr(code))
            shown = [page.inner_text("#wifi-name"), page.inner_text("#wifi-password")]
            check(f"{size}: the name and the password are written under it, as they are", shown == [f"Wi-Fi: {SSID}", f"Password: {PASSWORD}"], str(shown))
            link = read_code(page, "#qr", f"{size}-video-code")
            check(f"{size}: the link is written under the second code", page.inner_text("#share-link") == link, page.inner_text("#share-link"))
            opens_the_post(english, link, post, caption, size)
            page.close()
        english.stop()

        german.start()
        page, post = thank_you(browser, german, 1280, 800, "Für euch 💐", ["1. Mit dem WLAN der Box verbinden", "2. Euer Video öffnen"], "-de")
        code = read_code(page, "#wifi-qr", "1280x800-de-wifi-code")
        check(f"de, open network: the first code reads as T:nopass with the name: {code}", code == "WIFI:T:nopass;S:Hochzeit Jörg & Anna;;", repr(code))
        shown = [page.inner_text("#wifi-name"), page.inner_text("#wifi-password")]
        check(f"de, open network: 'WLAN: ...' and 'Ohne Passwort' under it", shown == ["WLAN: Hochzeit Jörg & Anna", "Ohne Passwort"], str(shown))
        link = read_code(page, "#qr", "1280x800-de-video-code")
        check(f"de: the second code is the booth's own address: {link}", link.startswith("http://10.42.0.1/s/"), link)
        # Dates as German writes them: the day first, the month as a word, to the minute.
        german_date = r"\d{1,2}\. [A-ZÄÖÜ][a-zäöü]+ \d{4}, \d{2}:\d{2}"
        until = page.inner_text("#share-until")
        check(f"de: the link's end, day first and without seconds: {until!r}", re.fullmatch(f"Der Link gilt bis {german_date}\\.", until) is not None, repr(until))
        page.close()
        phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        phone.on("pageerror", lambda e: errors.append(f"de phone pageerror: {e}"))
        phone.goto(german.base + urllib.parse.urlsplit(link).path)
        wait_until(phone, "document.querySelector('.until time') && !document.querySelector('.until time').textContent.includes('T')", 15000)
        until = phone.inner_text(".until")
        check(f"de: the share page on the phone says it the same way: {until!r}", re.fullmatch(f"Der Link gilt bis {german_date}\\.", until) is not None, repr(until))
        phone.screenshot(path=str(artifacts / "390x844-de-share.png"))
        phone.close()
        german.stop()
        browser.close()
    check("no script error on the page", not errors, str(errors))
finally:
    for kiosk in (english, german):
        if kiosk.process and kiosk.process.poll() is None:
            kiosk.stop()
print(f"wifi page: {check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
