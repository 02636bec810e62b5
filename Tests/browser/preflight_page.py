#!/usr/bin/env python3
"""The preflight at the top of the operator page (`recorder doctor`'s checks, run inside the kiosk),
in Debian's chromium (Playwright), under the page's real Content-Security-Policy.

Two kiosks on the test pattern. The first gives its guests' phones share links on its own loopback
address (no share.base_url): the page opens on "Not ready", the share links' error first with what
to do (share.base_url), the warnings after it, the checks that are fine folded under one line; the
list is what GET /api/admin/preflight says. "Check again" runs them again. The second has
share.base_url on the guests' network: "Ready for the event", no error listed. At 1280x800 and
800x1280 (and a phone's 390x844) the panel is at the top, above the camera, and nothing runs off
the screen sideways. Screenshots go to ARTIFACTS (default .cache/browser-artifacts).
Prints 'N passed, N failed'; exits 1 on any failure.

    python Tests/browser/preflight_page.py RECORDER_BINARY
"""
import json, os, pathlib, re, sys, urllib.request

from playwright.sync_api import sync_playwright

from browser_support import Checks, Kiosk, launch, repo, wait_until

binary = sys.argv[1]
artifacts = pathlib.Path(os.environ.get("ARTIFACTS", repo / ".cache" / "browser-artifacts"))
artifacts.mkdir(parents=True, exist_ok=True)
check = Checks()
SIZES = [("booth", (1280, 800)), ("tablet", (800, 1280)), ("phone", (390, 844))]


def listed(page):
    """The checks the page lists, in order: (list, status, id, title, what, fix)."""
    return page.evaluate("""(() => [...document.querySelectorAll('#preflight .preflight-list li')].map((li) => [
        li.parentElement.id, li.className, li.dataset.check, li.querySelector('.title').textContent,
        li.querySelector('.what').textContent, (li.querySelector('.fix') || {}).textContent || null]))()""")


def layout(page, name, size):
    """The panel is at the top, above the camera, and nothing is wider than the screen."""
    box = page.locator("#preflight").bounding_box()
    stage = page.locator(".stage").bounding_box()
    check(f"{name}: the checks are at the top of the page, above the camera",
          box is not None and stage is not None and box["y"] < 200 and box["y"] + box["height"] <= stage["y"] + 1, f"{box} {stage}")
    wide = page.evaluate("document.documentElement.scrollWidth")
    check(f"{name}: nothing runs off the screen sideways ({wide} px of {size[0]})", wide <= size[0], str(wide))
    fits = page.evaluate("""(() => [...document.querySelectorAll('#preflight li')].every((li) => {
        const r = li.getBoundingClientRect(); return r.left >= 0 && r.right <= window.innerWidth + 1; }))()""")
    check(f"{name}: every check's line fits across", fits)


def run(page, kiosk, label):
    page.goto(kiosk.base + "/admin")
    wait_until(page, "!!document.getElementById('preflight').dataset.ran", timeout=90000)
    with urllib.request.urlopen(kiosk.base + "/api/admin/preflight", timeout=90) as r:
        answer = json.load(r)
    return answer


failing = Kiosk(binary, artifacts / "preflight-kiosk-failing.log", args=["--seconds", "2", "--countdown", "0"])
passing = Kiosk(binary, artifacts / "preflight-kiosk-passing.log", args=["--seconds", "2", "--countdown", "0"],
                env={"RECORDER_SHARE_BASE_URL": "http://192.168.1.20/s/{token}"})
codes = []
try:
    failing.start()
    passing.start()
    with sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": 1280, "height": 800})

        answer = run(page, failing, "failing")
        verdict = page.inner_text("#preflight-verdict")
        check("links on the kiosk's loopback: the page says it is not ready", verdict.startswith("Not ready: 1 error"), verdict)
        check("... as the API does", answer["ready"] is False and answer["errors"] == 1, json.dumps(answer)[:300])
        rows = listed(page)
        problems = [r for r in rows if r[0] == "preflight-list"]
        fine = [r for r in rows if r[0] == "preflight-ok"]
        check("the error is listed first: share links, with what to do naming share.base_url",
              problems and problems[0][1] == "error" and problems[0][2] == "share-links" and "share.base_url" in (problems[0][5] or ""), str(problems[:1]))
        check("then the warnings (the test pattern for a camera among them), each with what to do",
              [r[1] for r in problems[1:]] == ["warning"] * (len(problems) - 1) and any(r[2] == "camera" for r in problems)
              and all(r[5] for r in problems), str(problems))
        api_order = [c["id"] for c in answer["checks"] if c["status"] in ("error", "warning")]
        check("the page lists the errors and warnings the API gives, in its order", [r[2] for r in problems] == api_order, f"{[r[2] for r in problems]} {api_order}")
        check("the checks that are fine are folded under one line, without a fix",
              fine and all(r[1] in ("ok", "skipped") and r[5] is None for r in fine) and not page.is_visible("#preflight-ok"), str(fine))
        summary = page.inner_text("#preflight-fine-summary")
        check("... which names them", all(r[3] in summary for r in fine), summary)
        # (two runs: a time, a free space or a probe's milliseconds may differ between them, not the words)
        def words(text): return re.sub(r"[0-9]+(\.[0-9]+)?", "#", text or "")
        unlike = [(r[2], r[4]) for r in rows if words(r[4]) != words(next(c["what"] for c in answer["checks"] if c["id"] == r[2]))]
        check("the words are the API's", rows and not unlike, str(unlike))
        # One line until opened (the gallery stays on the first screen): the problems by name.
        names = page.eval_on_selector_all("#preflight-names span", "ss => ss.map(s => [s.className, s.textContent])")
        check("the folded line names each problem, as bad as it is, in the API's order",
              names == [[r[1], r[3]] for r in problems] and not page.is_visible("#preflight-list"), str(names))
        check("the share links' warning is not said twice (the preflight's line says it)",
              page.evaluate("document.getElementById('share-warning').hidden"))
        page.click("#preflight-open")
        check("'What to do' opens the problems, each with its fix", page.is_visible("#preflight-list .fix")
              and page.get_attribute("#preflight-open", "aria-expanded") == "true")
        for name, size in SIZES[:2]:
            page.set_viewport_size({"width": size[0], "height": size[1]})
            layout(page, name, size)
            page.screenshot(path=str(artifacts / f"preflight-failing-{name}.png"))
            page.locator("#preflight").screenshot(path=str(artifacts / f"preflight-failing-{name}-panel.png"))

        # Check again: the checks run once more (the button waits meanwhile).
        ran = page.evaluate("document.getElementById('preflight').dataset.ran")
        page.click("#preflight-run")
        check("Check again runs the checks (the button waits meanwhile)", page.is_disabled("#preflight-run") or
              page.evaluate("document.getElementById('preflight').dataset.ran") != ran)
        wait_until(page, f"document.getElementById('preflight').dataset.ran !== '{ran}'", timeout=90000)
        check("... and shows them again", page.inner_text("#preflight-verdict").startswith("Not ready: 1 error") and not page.is_disabled("#preflight-run"))
        page.click("#preflight-fine summary")
        check("the folded checks open on a click", page.is_visible("#preflight-ok"))
        page.set_viewport_size({"width": 1280, "height": 800})
        page.locator("#preflight").screenshot(path=str(artifacts / "preflight-failing-booth-open.png"))

        page.set_viewport_size({"width": 1280, "height": 800})
        answer = run(page, passing, "passing")
        verdict = page.inner_text("#preflight-verdict")
        check("share links on the guests' network: ready for the event", verdict.startswith("Ready for the event") and answer["ready"] is True, verdict)
        rows = listed(page)
        check("no error is listed", not any(r[1] == "error" for r in rows), str(rows))
        share = next((r for r in rows if r[2] == "share-links"), None)
        check("the share links are fine, folded with the others", share is not None and share[0] == "preflight-ok" and share[1] == "ok", str(share))
        for name, size in SIZES:
            page.set_viewport_size({"width": size[0], "height": size[1]})
            layout(page, name, size)
            page.screenshot(path=str(artifacts / f"preflight-passing-{name}.png"))
            page.locator("#preflight").screenshot(path=str(artifacts / f"preflight-passing-{name}-panel.png"))
        browser.close()
finally:
    for kiosk in (failing, passing):
        if kiosk.process:
            codes.append(kiosk.stop())
check("the kiosks stopped cleanly", codes == [0, 0], str(codes))
print(f"{check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
