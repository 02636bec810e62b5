#!/usr/bin/env python3
"""Seconds from opening a host's gallery to its first screen - the page, and the first two posts'
posters shown (their last byte by the browser's own Resource Timing, from the navigation's start) -
in Debian's chromium, headless, in a fresh browser context each time (nothing cached), at a phone's
size (390x844) and a desktop's (1280x800). Best of RUNS each.

    first-screen.py URL RUNS      prints "phone SECONDS" and "desktop SECONDS"
"""
import pathlib, sys

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "Tests" / "browser"))
from browser_support import launch, wait_until  # noqa: E402

url, runs = sys.argv[1], int(sys.argv[2])
FIRST_POSTERS = ("document.querySelectorAll('#posts .card img').length > 0 && "
                 "[...document.querySelectorAll('#posts .card img')].slice(0, 2).every(i => i.complete && i.naturalWidth > 0)")
with sync_playwright() as p:
    browser = launch(p)
    for name, size in (("phone", {"width": 390, "height": 844}), ("desktop", {"width": 1280, "height": 800})):
        best = None
        for _ in range(runs):
            context = browser.new_context(viewport=size, locale="en-GB")
            page = context.new_page()
            page.goto(url)
            wait_until(page, FIRST_POSTERS, 30000)
            # The browser's own clock (Resource Timing): from the navigation's start to the later of
            # the first two posters' last byte, not this script's polling.
            seconds = page.evaluate("Math.max(...[...document.querySelectorAll('#posts .card img')].slice(0, 2)"
                                    ".map(i => performance.getEntriesByName(i.currentSrc)[0].responseEnd)) / 1000")
            best = seconds if best is None else min(best, seconds)
            context.close()
        print(f"{name} {best:.3f}")
    browser.close()
