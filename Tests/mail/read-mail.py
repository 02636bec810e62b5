#!/usr/bin/env python3
"""Reads a received message with Python's own MIME parser (email, policy=default), an
independent reader of what recorder wrote, and prints what it found as JSON:

    read-mail.py MESSAGE.eml

{"headers": {name: [decoded values]}, "structure": "multipart/alternative(text/plain,...)",
 "text": the text/plain part decoded, "html": the text/html part decoded,
 "images": [{"content_type", "content_id", "disposition", "filename", "sha256", "size"}],
 "defects": [the parser's complaints, part by part], "date": seconds since 1970 of Date:,
 "max_line": the longest line in octets (without its CRLF), "bare_line_ends": LFs without a CR
 and CRs without an LF, "non_ascii": octets above 127}
"""
import email, email.policy, email.utils, hashlib, json, sys

raw = open(sys.argv[1], "rb").read()
message = email.message_from_bytes(raw, policy=email.policy.default)


def structure(part):
    if part.is_multipart():
        return "%s(%s)" % (part.get_content_type(), ",".join(structure(p) for p in part.iter_parts()))
    return part.get_content_type()


found = {"headers": {}, "structure": structure(message), "text": None, "html": None, "images": [], "defects": []}
for name in dict.fromkeys(message.keys()):
    found["headers"][name] = [str(v) for v in message.get_all(name)]
for part in message.walk():
    found["defects"] += ["%s: %s" % (part.get_content_type(), type(d).__name__) for d in part.defects]
    if part.is_multipart():
        continue
    kind = part.get_content_type()
    # (the parser keeps the message's CRLFs in a part's text: lines end with "\n" here)
    if kind == "text/plain":
        found["text"] = part.get_content().replace("\r\n", "\n")
    elif kind == "text/html":
        found["html"] = part.get_content().replace("\r\n", "\n")
    else:
        data = part.get_payload(decode=True)
        found["images"].append({"content_type": kind, "content_id": part.get("Content-ID"),
                                "disposition": part.get_content_disposition(), "filename": part.get_filename(),
                                "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)})
date = message.get("Date")
found["date"] = email.utils.parsedate_to_datetime(str(date)).timestamp() if date else None
lines = raw.split(b"\r\n")
found["max_line"] = max(len(line) for line in lines)
found["bare_line_ends"] = sum(line.count(b"\n") + line.count(b"\r") for line in lines)
found["non_ascii"] = sum(1 for b in raw if b > 127)
print(json.dumps(found))
