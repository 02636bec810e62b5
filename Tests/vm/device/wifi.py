#!/usr/bin/env python3
"""Helpers for the booth's own Wi-Fi section (68-wifi.sh), each an independent reader of what the
kiosk made: none uses recorder's code.

  wifi.py qr FILE.svg         the text of a QR code the kiosk drew as SVG: its rectangles painted
                              into a PGM picture (4 pixels a module), read by zbarimg
  wifi.py join TEXT           the network a WIFI: code's text names, as a phone's camera reads it:
                              three lines, T (WPA or nopass), S (the name) and P (the password), each
                              unescaped (a backslash takes the next character as it is)
  wifi.py hex TEXT            TEXT's UTF-8 bytes in hex (wpa_supplicant's ssid=<hex>)
  wifi.py fill SRC DEST OLD NEW [OLD NEW ...]
                              a shipped file (systemd/wifi/) with the test's paths and values put in:
                              each OLD (literal text) must be in it, so a change to the file's shape
                              fails here instead of testing something else
  wifi.py exec UNIT KEY IFACE OLD NEW [...]
                              the command of a unit's KEY= line (ExecStart, ExecStartPre), joined
                              across its continuation lines, %i as IFACE, each OLD (where it is) as NEW
"""
import re
import subprocess
import sys
import tempfile


def qr_text(svg_path):
    svg = open(svg_path, encoding="utf-8").read()
    side = int(re.search(r'viewBox="0 0 (\d+) (\d+)"', svg).group(1))
    scale = 4
    pixels = bytearray(b"\xff" * (side * scale) ** 2)
    # Each dark run is "M<x> <y>h<w>v1h-<w>z": a rectangle one module high.
    for x, y, w in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\d+z", re.search(r' d="([^"]*)"', svg).group(1)):
        x, y, w = int(x), int(y), int(w)
        for dy in range(scale):
            row = (y * scale + dy) * side * scale
            pixels[row + x * scale:row + (x + w) * scale] = b"\x00" * (w * scale)
    with tempfile.NamedTemporaryFile(suffix=".pgm") as picture:
        picture.write(b"P5\n%d %d\n255\n" % (side * scale, side * scale) + bytes(pixels))
        picture.flush()
        out = subprocess.run(["zbarimg", "--raw", "-q", "-Sdisable", "-Sqrcode.enable", picture.name],
                             capture_output=True)
    # (zbarimg ends the text with a newline of its own)
    return out.stdout.decode("utf-8").removesuffix("\n")


def fields(text):
    """The WIFI: code's fields, split on unescaped ';' and ':', every escape taken off."""
    if not text.startswith("WIFI:"):
        raise SystemExit(f"not a Wi-Fi code: {text!r}")
    found, parts, escaped = {}, ["", ""], False  # parts: [key, value]
    in_value = 0
    for character in text[5:]:
        if escaped:
            parts[in_value] += character
            escaped = False
        elif character == "\\":
            escaped = True
        elif character == ":" and not in_value:
            in_value = 1
        elif character == ";":
            if parts[0]:
                found[parts[0]] = parts[1]
            parts, in_value = ["", ""], 0
        else:
            parts[in_value] += character
    return found


def replaced(text, pairs, where):
    for old, new in zip(pairs[0::2], pairs[1::2]):
        if old not in text:
            raise SystemExit(f"{where} has no {old!r}: the shipped file changed; change the test with it")
        text = text.replace(old, new)
    return text


def main():
    what = sys.argv[1]
    if what == "qr":
        print(qr_text(sys.argv[2]))
    elif what == "join":
        found = fields(sys.argv[2])
        print(found.get("T", ""))
        print(found.get("S", ""))
        print(found.get("P", ""))
    elif what == "fill":
        text = open(sys.argv[2], encoding="utf-8").read()
        text = replaced(text, sys.argv[4:], sys.argv[2])
        open(sys.argv[3], "w", encoding="utf-8").write(text)
    elif what == "exec":
        unit, key, iface = sys.argv[2:5]
        lines = open(unit, encoding="utf-8").read().replace("\\\n", " ").splitlines()
        command = next(line.split("=", 1)[1] for line in lines if line.startswith(key + "="))
        # (each OLD where the command has it; none of the shipped paths may be left)
        pairs = sys.argv[5:]
        for old, new in zip(pairs[0::2], pairs[1::2]):
            command = command.replace(old, new)
        left = [old for old in pairs[0::2] if old in command]
        if left:
            raise SystemExit(f"{unit} {key} still names {left}")
        print(" ".join(command.replace("%i", iface).split()))
    elif what == "hex":
        print(sys.argv[2].encode("utf-8").hex())
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main()
