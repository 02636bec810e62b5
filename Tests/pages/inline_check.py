#!/usr/bin/env python3
"""Prints every inline script, style or event handler in the given HTML files (a <script> without
src that is not a JSON data block, a <style> element, a style= or on*= attribute, a javascript:
link) as FILE:LINE: WHAT, and exits 1 if there is any. The kiosk's CSP allows none of them: in a
page they would silently not run.

    python3 Tests/pages/inline_check.py FILE.html...
"""
import sys
from html.parser import HTMLParser


class Inline(HTMLParser):
    def __init__(self, name):
        super().__init__()
        self.name, self.found = name, []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        line = self.getpos()[0]
        if tag == "script" and "src" not in a and a.get("type") != "application/json":
            self.found.append(f"{self.name}:{line}: an inline <script>")
        if tag == "style":
            self.found.append(f"{self.name}:{line}: a <style> element")
        for key, value in attrs:
            if key == "style":
                self.found.append(f"{self.name}:{line}: a style= attribute on <{tag}>")
            if key.startswith("on"):
                self.found.append(f"{self.name}:{line}: an {key}= handler on <{tag}>")
            if value and value.strip().lower().startswith("javascript:"):
                self.found.append(f"{self.name}:{line}: a javascript: link on <{tag}>")


found = []
for name in sys.argv[1:]:
    parser = Inline(name)
    with open(name, encoding="utf-8") as f:
        parser.feed(f.read())
    found += parser.found
print("\n".join(found))
sys.exit(1 if found else 0)
