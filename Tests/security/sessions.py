#!/usr/bin/env python3
"""Sessions and request heads as a hostile peer sends them (issue 50): a real `recorder kiosk`
listening on 0.0.0.0 with an operator's and a booth's token, asked over TCP with requests written
byte for byte.

1. 257 logins with the booth's token (what whoever took it from the booth's screen can do): the
   operator's session, made before, still opens the overview; the kiosk's list (sessions.json, read
   here as JSON) holds the operator's and at most 2 of the booth's (before: 256 booth sessions, and
   the operator's cookie got 401).
2. From an address already slowed for wrong tokens, `POST /login` with the right operator's token and
   an unverifiable session cookie, or an `Authorization: Basic` header: logged in (before: 429); a
   request with that cookie alone is answered 429 and told to forget it.
3. Heads: no Host (400), two Hosts whose first is the kiosk's (400), an absolute-form target naming
   another host (421), an Origin of another scheme (`https://` over plain http, `evil://`) on a
   state-changing request (403): before, each was taken as the kiosk's own.
4. A method a route does not take, by a caller who may not call the route: 401 without a token, 403
   with the booth's on an operator's route, never 405 with the methods it takes (which told a caller
   without a token which routes exist); with the right token, 405 and Allow.

    python Tests/security/sessions.py RECORDER_BINARY
"""
import json, sys

from raw_http import request
from security_support import BOOTH, OPERATOR, Checks, Kiosk, artifacts_folder, finish

binary = sys.argv[1]
artifacts = artifacts_folder()
check = Checks()
figures = {}
kiosk = Kiosk(binary, artifacts / "sessions-kiosk.log", prefix="recorder-sessions-", listen="0.0.0.0",
              env={"RECORDER_KIOSK_TOKEN": OPERATOR, "RECORDER_KIOSK_BOOTH_TOKEN": BOOTH})
HOST, PORT = "127.0.0.1", kiosk.port
FORGED = "v1.operator." + "0" * 32 + ".1.99999999999." + "0" * 64
JSON = [("Content-Type", "application/json")]


def login(token, headers=(), source=None):
    return request(HOST, PORT, "POST", "/login", JSON + list(headers), json.dumps({"token": token}), source=source)


def session_cookies(answer):
    """name -> (value, max-age) of each Set-Cookie in the answer's head (read from its raw head:
    `headers` keeps one value a name)."""
    found = {}
    for line in answer.raw_head.split("\r\n"):
        name, _, value = line.partition(":")
        if name.strip().lower() == "set-cookie":
            pair, *attributes = [part.strip() for part in value.split(";")]
            cookie, _, cookie_value = pair.partition("=")
            age = next((a.split("=", 1)[1] for a in attributes if a.lower().startswith("max-age=")), None)
            found[cookie] = (cookie_value, age)
    return found


def pair(answer):
    """The session cookie a login set, as a browser sends it back."""
    name, (value, _) = next((n, v) for n, v in session_cookies(answer).items() if v[1] not in (None, "0"))
    return f"{name}={value}"


status = None
try:
    kiosk.start()

    # 1. The booth's token fills the list.
    operator = login(OPERATOR)
    check("the operator logs in", operator.status == 200, repr(operator))
    operator_cookie = pair(operator)
    booth_logins = [login(BOOTH) for _ in range(257)]
    check("257 logins with the booth's token are each answered 200", all(a.status == 200 for a in booth_logins),
          str({a.status for a in booth_logins}))
    overview = request(HOST, PORT, "GET", "/api/admin/overview", [("Cookie", operator_cookie)])
    figures["the operator's cookie after 257 booth logins"] = str(overview.status)
    check("the operator's session still opens the overview after them", overview.status == 200, repr(overview))
    listed = json.loads((kiosk.work / "state" / "recorder" / "kiosk" / "sessions.json").read_text())["sessions"]
    roles = {role: sum(1 for s in listed if s["role"] == role) for role in ("operator", "booth")}
    figures["sessions.json after them"] = json.dumps(roles)
    check("the kiosk's list holds the operator's session and at most 2 of the booth's", roles["operator"] == 1 and roles["booth"] <= 2, json.dumps(roles))
    newest = request(HOST, PORT, "GET", "/api/status", [("Cookie", pair(booth_logins[-1]))])
    oldest = request(HOST, PORT, "GET", "/api/status", [("Cookie", pair(booth_logins[0]))])
    check("the booth's newest session works, its oldest has ended", newest.status == 200 and oldest.status == 401, f"{newest!r} {oldest!r}")

    # 2. The right token wins /login from a slowed address, whatever else its request carries.
    slowed = "127.0.0.7"
    for n in range(6):
        request(HOST, PORT, "GET", "/api/status", [("Authorization", f"Bearer wrong-{n}-Kp1Lw9Tn2Vb4Hc5Jd6Fs7")], source=slowed)
    for what, headers in [("an unverifiable session cookie", [("Cookie", f"recorder_session={FORGED}")]),
                          ("Authorization: Basic", [("Authorization", "Basic b3BlcmF0b3I6d3Jvbmc=")])]:
        answer = login(OPERATOR, headers, source=slowed)
        figures[f"/login, right token, with {what}, slowed"] = str(answer.status)
        check(f"/login with the right operator's token and {what}, from a slowed address: logged in", answer.status == 200, repr(answer))
    request(HOST, PORT, "GET", "/api/status", [("Authorization", "Bearer wrong-again-Kp1Lw9Tn2Vb4Hc5Jd6Fs7")], source="127.0.0.8")
    for n in range(6):
        request(HOST, PORT, "GET", "/api/status", [("Authorization", f"Bearer wrong-{n}-Kp1Lw9Tn2Vb4Hc5Jd6Fs7")], source="127.0.0.8")
    refused = request(HOST, PORT, "GET", "/api/status", [("Cookie", f"recorder_session={FORGED}")], source="127.0.0.8")
    cleared = session_cookies(refused).get("recorder_session")
    figures["an unverifiable cookie, slowed"] = f"{refused.status}, " + ("told to forget it" if cleared and cleared[1] == "0" else "kept")
    check("an unverifiable cookie from a slowed address: 429, and told to forget it", refused.status == 429 and cleared and cleared[1] == "0",
          figures["an unverifiable cookie, slowed"])

    # 3. Heads that name another host, or none, or two.
    bearer = [("Authorization", f"Bearer {OPERATOR}")]
    heads = [
        ("no Host", "GET", "/api/status", [("Host", None)], {400}),
        ("two Hosts, the kiosk's first", "GET", "/api/status", [("Host", f"{HOST}:{PORT}"), ("Host", "evil.example")], {400}),
        ("an absolute-form target naming another host", "GET", "http://evil.example/api/status", [], {421}),
        ("Origin https:// over plain http", "POST", "/api/stop", [("Origin", f"https://{HOST}:{PORT}")] + JSON, {403}),
        ("Origin evil://", "POST", "/api/stop", [("Origin", f"evil://{HOST}:{PORT}/x")] + JSON, {403}),
    ]
    for what, method, target, headers, expected in heads:
        answer = request(HOST, PORT, method, target, bearer + headers, b"{}" if method == "POST" else b"")
        figures[f"head: {what}"] = str(answer.status)
        check(f"{what}: {sorted(expected)}", answer.status in expected, repr(answer))
    same = request(HOST, PORT, "POST", "/api/stop", bearer + JSON + [("Origin", f"http://{HOST}:{PORT}")], b"{}")
    check("the kiosk's own Origin is taken", same.status in (200, 409), repr(same))

    # 4. 405 only for a caller who may call the route.
    for what, target, token, expected in [("PUT /api/status without a token", "/api/status", None, 401),
                                          ("PUT /api/admin/overview without a token", "/api/admin/overview", None, 401),
                                          ("PUT /api/admin/overview with the booth's token", "/api/admin/overview", BOOTH, 403),
                                          ("PUT /api/admin/overview with the operator's token", "/api/admin/overview", OPERATOR, 405)]:
        answer = request(HOST, PORT, "PUT", target, [("Authorization", f"Bearer {token}")] if token else [], b"")
        figures[what] = f"{answer.status}" + (f" Allow: {answer.header('allow')}" if answer.header("allow") else "")
        check(f"{what}: {expected}", answer.status == expected and (expected == 405) == (answer.header("allow") is not None), figures[what])

    check("the kiosk is healthy after it", request(HOST, PORT, "GET", "/healthz").status == 200)
finally:
    status = kiosk.stop()

finish(check, "sessions", status, figures)
