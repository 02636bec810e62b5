#!/usr/bin/env python3
"""Seconds from asking for a video to the browser's `canplay`, in Debian's chromium, headless,
from a page on the video's own origin.

    canplay.py URL      prints the seconds
"""
import sys

from playwright.sync_api import sync_playwright

url = sys.argv[1]
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                args=["--no-sandbox", "--autoplay-policy=no-user-gesture-required"])
    page = browser.new_page()
    page.goto(url.rsplit("/", 1)[0] + "/")  # the video's own origin: a page elsewhere may not read it
    seconds = page.evaluate("""(url) => new Promise((resolve, reject) => {
        const v = document.createElement('video');
        v.muted = true; v.preload = 'auto';
        const start = performance.now();
        v.addEventListener('canplay', () => resolve((performance.now() - start) / 1000), { once: true });
        v.addEventListener('error', () => reject(new Error('the video did not load: ' + (v.error && v.error.code) + ' ' + (v.error && v.error.message))), { once: true });
        v.src = url;
        document.body.appendChild(v);
      })""", url)
    print(f"{seconds:.2f}")
    browser.close()
