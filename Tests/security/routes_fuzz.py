#!/usr/bin/env python3
"""The kiosk on the network, tried as a hostile peer would: a real `recorder kiosk` listening on
0.0.0.0 with an operator's and a booth's token, and on the proxy's socket (kiosk.proxy_socket),
asked over TCP and that socket with request targets sent exactly as written.

1. Every route the kiosk has (its own table, /api/admin/routes, so a new route is tried the day it
   is added), spelled every way a path can be bent - //x, /x/, /a//b, /./x, /a/../a/x, %2F, %61,
   mixed case, ;x, ?x, absolute-form - without a token, with a wrong one, and (for the operator's
   routes) with the booth's: never a 2xx, never a 5xx; only 401, 403 or 404 (400/405 where the
   spelling is no HTTP the server takes, or names another route's method). The issue's own curl
   lines among them. The same through the proxy's socket, naming the caller this machine
   (X-Real-IP: 127.0.0.1, X-Forwarded-Proto: https): a phone is never the booth. A Host that only
   looks like an IPv6 literal ([x].evil.example) is 421 on every route.
2. A fuzz: random methods, targets (mutated routes and junk), headers (tokens of each role, cookies
   with and without Origin, oversized, duplicated, malformed) and bodies, seeded (the seed is
   printed; FUZZ_SEED= replays it), bounded in count and time, loopback only. A 2xx for a route the
   role may not call fails; so does any 5xx (but a 503 that says the camera is not ready); a
   quarter of it goes through the proxy's socket, with X-Real-IP and X-Forwarded-For thrown in; after
   it the kiosk must still be healthy and record a shot. The kiosk asks for consent (kiosk.consent),
   so the consent route is fuzzed with its own bodies too (right and wrong digests, other answers).
3. A guest's post and its share link (issue 40): the guest's phone opens the link first and gets
   the post's delete claim; then phones from many addresses try to delete it with everything they
   can send (no claim, forged and other links' claims, session cookies, logged-out sessions, any
   Origin), the booth's token asks for the post's link after the next guest began, and a Post
   names a shot that is not the current one: nothing is deleted, shown or posted, until the guest's
   own phone deletes its post.

    python Tests/security/routes_fuzz.py RECORDER_BINARY
"""
import hashlib, json, os, random, sys, tempfile, time, pathlib

from raw_http import request
from security_support import BOOTH, OPERATOR, Checks, Kiosk, artifacts_folder, repo


binary = sys.argv[1]
artifacts = artifacts_folder()
check = Checks()
consent_file = artifacts / "routes-fuzz-consent.txt"
consent_file.write_text("You agree to be filmed, with sound, for this test.\n")
CONSENT_SHA = hashlib.sha256(consent_file.read_text().strip().encode()).hexdigest()
PROXY_SOCKET = str(pathlib.Path(tempfile.mkdtemp(prefix="recorder-fuzz-")) / "proxy.sock")
kiosk = Kiosk(binary, artifacts / "routes-fuzz-kiosk.log", args=["--seconds", "1", "--countdown", "0"], prefix="recorder-security-",
              listen="0.0.0.0", env={"RECORDER_KIOSK_TOKEN": OPERATOR, "RECORDER_KIOSK_BOOTH_TOKEN": BOOTH, "RECORDER_KIOSK_PROXY_SOCKET": PROXY_SOCKET,
                                     "RECORDER_KIOSK_PREVIEW_IDLE_SECONDS": "2", "RECORDER_KIOSK_CONSENT": str(consent_file)})
HOST, PORT = "127.0.0.1", kiosk.port
# Each kind of caller from its own address, so one's throttling never hides another's answers.
SOURCES = {"nobody": "127.0.0.2", "wrong": "127.0.0.3", "booth": "127.0.0.4", "operator": "127.0.0.5", "fuzz": "127.0.0.6"}


def ask(method, target, token=None, source="nobody", headers=(), body=b"", proxy=False, **kw):
    """One request from `source` (a caller's name or an address), or through the proxy's socket."""
    headers = list(headers)
    if token:
        headers.append(("Authorization", f"Bearer {token}"))
    if proxy:
        return request(HOST, PORT, method, target, headers, body, unix=PROXY_SOCKET, **kw)
    return request(HOST, PORT, method, target, headers, body, source=SOURCES.get(source, source), **kw)


def concrete(path):
    """A route's template with its parameters filled in (a real post id's form, a wrong share token)."""
    return (path.replace(":id", "ABCDEFGHIJ").replace(":file", "ABCDEFGHIJ.mp4")
            .replace(":token", "AAAAAAAAAAAAAAAAAAAAAA"))


def spellings(path):
    """The ways a path can be bent on its way to a router."""
    parts = path.strip("/").split("/")
    out = {"//" + path.lstrip("/"), path + "/", path + "//", "/./" + path.lstrip("/"), path + "?x=1", path + ";x",
           path + "#frag", path.upper(), path.title(), f"http://{HOST}:{PORT}{path}", "/%2F" + path.lstrip("/"),
           "/" + "%2F".join(parts), "/" + "//".join(parts), "/" + "/./".join(parts), path.replace("a", "%61", 1),
           "/" + parts[0] + "/../" + "/".join(parts), path.replace("/", "\\"), path + "%00", path + "%20", path + "/."}
    if len(parts) > 1:
        out.add("/" + parts[0] + "//" + "/".join(parts[1:]))
        out.add("/" + parts[0].upper() + "/" + "/".join(parts[1:]))
    return sorted(out)


def route_matches(template, target):
    """Whether the router (slashes folded, case kept, no decoding) would take `target` as `template`."""
    path = target.split("?", 1)[0].split("#", 1)[0]
    if path.startswith("http://"):
        path = "/" + path.split("/", 3)[3] if path.count("/") >= 3 else "/"
    got = [p for p in path.split("/") if p]
    want = [p for p in template.split("/") if p]
    return len(got) == len(want) and all(w.startswith(":") or w == g for w, g in zip(want, got))


try:
    kiosk.start()
    table_answer = ask("GET", "/api/admin/routes", OPERATOR, "operator")
    check("the operator reads the kiosk's route table", table_answer.status == 200, repr(table_answer))
    table = json.loads(table_answer.body or b"[]")
    protected = [r for r in table if r["access"] != "public"]
    check("the table has the protected routes (booth and operator)", len(protected) >= 20 and any(r["access"] == "booth" for r in protected),
          f"{len(protected)}")
    print(f"routes: {len(table)} ({len(protected)} protected)")

    # 1. The issue's own lines, as they were typed.
    for target in ["//api/admin/overview", "//api/feed", "//api/preview.jpg", "/metrics/", "//metrics", "/api/admin/overview/",
                   "/api//admin//overview", "/API/admin/overview", "/api/admin/./overview", "/api%2Fadmin%2Foverview"]:
        answer = ask("GET", target)
        check(f"no token: GET {target} is refused ({answer.status})", answer.status in (401, 404), repr(answer))

    # Every protected route, every spelling: nobody, a wrong token; the booth on the operator's.
    bad = []
    tried = 0
    for route in protected:
        base = concrete(route["path"])
        for target in [base] + spellings(base):
            callers = [("nobody", None), ("wrong", "Zz9+Yy8/Xx7+Ww6/Vv5+Uu4/Tt3+Ss2/")]
            if route["access"] == "operator":
                callers.append(("booth", BOOTH))
            for who, token in callers:
                # The wrong token from an address of its own each few requests: the throttle holds
                # back a slowed address's answers (seconds each), and these are about spellings.
                source = f"127.0.3.{tried // 4 % 250 + 1}" if who == "wrong" else who
                answer = ask(route["method"], target, token, source, headers=[("Content-Type", "application/json")], body=b"{}",
                             read_body=False, timeout=30)
                tried += 1
                allowed = {401, 403, 404, 429} | ({400, 405} if not route_matches(route["path"], target) else set())
                if answer.status not in allowed:
                    bad.append(f"{who}: {route['method']} {target} -> {answer.status} {answer.body[:80]!r}")
    check(f"{tried} bent spellings of {len(protected)} protected routes: each 401, 403 or 404, none 2xx or 5xx", not bad,
          "\n  " + "\n  ".join(bad[:20]))
    # Through the proxy's socket, a phone that claims to be this machine (the proxy always names
    # the phone, but the kiosk must not make anything of a name).
    bad, tried = [], 0
    for route in protected:
        base = concrete(route["path"])
        for target in [base, "//" + base.lstrip("/"), base + "/", base.upper()]:
            answer = ask(route["method"], target, headers=[("Content-Type", "application/json"), ("X-Real-IP", "127.0.0.1"),
                                                           ("X-Forwarded-Proto", "https"), ("Host", "localhost")],
                         body=b"{}", proxy=True, read_body=False, timeout=30)
            tried += 1
            allowed = {401, 403, 404, 429} | ({400, 405} if not route_matches(route["path"], target) else set())
            if answer.status not in allowed:
                bad.append(f"proxy: {route['method']} {target} -> {answer.status} {answer.body[:80]!r}")
    check(f"{tried} requests for the protected routes through the proxy's socket, claiming X-Real-IP 127.0.0.1: each 401, 403 or 404",
          not bad, "\n  " + "\n  ".join(bad[:20]))
    answer = ask("GET", "/healthz", proxy=True, headers=[("Host", "localhost")])
    check(f"the proxy's socket answers a public route ({answer.status})", answer.status in (200, 503), repr(answer))
    # A Host that only starts like an IPv6 literal is a name a rebinding page controls.
    for host in ("[x].evil.example", "[::1].evil.example", "[::1]x"):
        answer = ask("GET", "/api/status", BOOTH, "booth", headers=[("Host", host)])
        check(f"Host: {host} is refused (421)", answer.status == 421, repr(answer))
    # The same spellings reach the public routes they match (nothing is refused by its spelling alone).
    answer = ask("GET", "//healthz")
    check(f"//healthz answers as /healthz does ({answer.status})", answer.status in (200, 503), repr(answer))
    answer = ask("GET", "/healthz")
    check("/healthz tells a caller without a token only ok or not ok", answer.status in (200, 503) and b"reasons" not in answer.body, repr(answer))
    # And the roles' own routes answer them, whatever the spelling.
    answer = ask("GET", "//api/status/", BOOTH, "booth")
    check(f"the booth's token reaches //api/status/ ({answer.status})", answer.status == 200, repr(answer))
    answer = ask("GET", "//api/admin//overview", OPERATOR, "operator")
    check(f"the operator's token reaches //api/admin//overview ({answer.status})", answer.status == 200, repr(answer))

    # 2. The fuzz.
    seed = int(os.environ.get("FUZZ_SEED") or random.SystemRandom().randrange(1 << 32))
    count = int(os.environ.get("FUZZ_COUNT", "3000"))
    budget = float(os.environ.get("FUZZ_SECONDS", "90"))
    print(f"fuzz: seed {seed} (FUZZ_SEED={seed} replays it), at most {count} requests or {budget:.0f} s")
    rng = random.Random(seed)
    cookies = {}
    for role, token in [("booth", BOOTH), ("operator", OPERATOR)]:
        answer = ask("POST", "/login", source=role, headers=[("Content-Type", "application/json"), ("Origin", f"http://{HOST}:{PORT}")],
                     body=json.dumps({"token": token}))
        cookies[role] = (answer.header("set-cookie") or "").split(";")[0]
        # (each role's session has its cookie: the operator's beside the booth's on the booth's screen)
        name = "recorder_session=" if role == "booth" else "recorder_operator="
        check(f"the {role} logs in and gets its cookie", answer.status == 200 and cookies[role].startswith(name), repr(answer))
    methods = ["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "TRACE", "CONNECT", "PROPFIND", "get", "G\tET", "X" * 40]
    junk_targets = ["*", "", "/..", "/../../etc/passwd", "/s/../api/admin/overview", "/s/%2e%2e/api/feed", "/%", "/%zz", "/\x7f",
                    "/s/" + "A" * 22 + "/../../api/admin/routes", "/api/videos/../admin/overview", "/" + "a/" * 300,
                    "/api/thumbs/..%2f..%2fsecret.jpg", "/s/" + "\u00e9" * 11, "/api/feed?page=-1", "/api/feed?page=99999999999"]
    bodies = [b"", b"{}", b'{"token": "' + OPERATOR.encode() + b'"}', b'{"caption": "' + b"\xf0\x9f\x92\x83" * 50 + b'"}', b"{" * 5000,
              b'{"seconds": 1e308}', b'{"confirm": "ABCDEFGHIJ"}', bytes(rng.randrange(256) for _ in range(2048)), b"x" * 70000,
              b'{"id": null}', b'[1,2,3]', b'{"seconds": 1, "countdown": 0}',
              b'{"answer": "yes", "textSha256": "' + CONSENT_SHA.encode() + b'"}', b'{"answer": "yes", "textSha256": "' + b"f" * 64 + b'"}',
              b'{"answer": "yes", "textSha256": "' + b"\\u0000" * 2000 + b'"}', b'{"answer": "no"}', b'{"answer": "done"}',
              b'{"answer": 1, "textSha256": []}', b'{"answer": "yes", "textSha256": null}',
              b'{"id": "1795741255-555039609-18098", "caption": "late"}', b'{"id": 7, "caption": "x"}', b'{"retake": "x"}',
              b'{"retake": null, "seconds": 1}', b"confirm=delete", b"confirm=delete&confirm=delete"]

    def random_headers(role):
        headers = [("Content-Type", rng.choice(["application/json", "text/plain", "application/x-www-form-urlencoded", ""]))]
        token = {"booth": BOOTH, "operator": OPERATOR}.get(role)
        style = rng.randrange(6)
        if token and style == 0:
            headers.append(("Authorization", f"Bearer {token}"))
        elif token and style == 1:
            headers.append(("Cookie", cookies[role]))
            if rng.random() < 0.5:
                headers.append(("Origin", rng.choice([f"http://{HOST}:{PORT}", "http://evil.example", "null"])))
        elif style == 2:
            headers.append(("Authorization", rng.choice(["Bearer", "Bearer ", "Basic Zm9vOmJhcg==", "bearer " + OPERATOR[:-1], "Bearer " + "A" * 5000])))
        elif style == 3:
            headers.append(("Cookie", rng.choice(["recorder_session=operator." + "0" * 64, "recorder_token=" + OPERATOR, "recorder_session=", ";;;=;",
                                                  "recorder_session=v1.operator." + "0" * 32 + ".1.99999999999." + "0" * 64,
                                                  "recorder_delete=" + "0" * 64, "recorder_delete=; recorder_delete=x"])))
        for _ in range(rng.randrange(4)):
            headers.append(rng.choice([("Range", rng.choice(["bytes=0-", "bytes=-1", "bytes=5-1", "bytes=0-0,2-3", "bytes=999999999999-"])),
                                       ("Host", rng.choice(["evil.example", "127.0.0.1", "", "a" * 300, "[::1]", "[x].evil.example", "[::1]:1.evil.example"])),
                                       ("X-Real-IP", rng.choice(["127.0.0.1", "::1", "10.9.8.7", "x" * 60, ""])), ("X-Forwarded-For", "127.0.0.1"),
                                       ("Transfer-Encoding", "chunked"), ("Content-Length", rng.choice(["-1", "abc", "0", "99999999"])),
                                       ("X-Forwarded-Proto", "https"), ("Sec-Fetch-Site", "cross-site"), ("X-" + "h" * 200, "v" * 2000),
                                       ("Expect", "100-continue"), ("Connection", "keep-alive")]))
        return headers

    failures, answered, started = [], {}, time.monotonic()
    for n in range(count):
        if time.monotonic() - started > budget:
            break
        role = rng.choice(["nobody", "booth", "operator"])
        route = rng.choice(table)
        target = rng.choice([concrete(route["path"])] + spellings(concrete(route["path"])) + junk_targets)
        method = route["method"] if rng.random() < 0.6 else rng.choice(methods)
        headers = random_headers(role)
        body = rng.choice(bodies)
        try:
            # From many addresses, so the throttle (which wrong tokens from one address earn) hides little.
            source = f"127.0.{10 + ['nobody', 'booth', 'operator'].index(role)}.{rng.randrange(1, 255)}"
            answer = ask(method, target, source=source, headers=headers, body=body, timeout=15, read_body=False, proxy=rng.random() < 0.25)
        except OSError as error:
            answer = None
            failures.append(f"#{n} {role}: {method} {target!r}: the connection failed: {error}")
            continue
        answered[answer.status] = answered.get(answer.status, 0) + 1
        # What the role may reach: a 2xx for a route it may not call is a hole.
        if 200 <= answer.status < 300 and method.upper() in ("GET", "HEAD", "POST"):
            matched = [r for r in table if route_matches(r["path"], target) and r["method"] == ("GET" if method.upper() == "HEAD" else method.upper())]
            presented = role if any(name == "Authorization" and value.startswith("Bearer ") and value[7:] in (BOOTH, OPERATOR)
                                    or name == "Cookie" and value == cookies.get(role) for name, value in headers) else "nobody"
            for r in matched:
                if r["access"] == "operator" and presented != "operator" or r["access"] == "booth" and presented == "nobody":
                    failures.append(f"#{n} {presented}: {method} {target!r} -> {answer.status} on a {r['access']} route")
            if not matched:
                failures.append(f"#{n} {role}: {method} {target!r} -> {answer.status}, but no route has that path")
        elif 200 <= answer.status < 300:
            failures.append(f"#{n} {role}: {method} {target!r} -> {answer.status} for a method no route takes")
        if answer.status >= 500 and not (answer.status == 503 and any(route_matches(p, target) for p in ("/healthz", "/api/preview.jpg"))):
            failures.append(f"#{n} {role}: {method} {target!r} -> {answer.status} {answer.body[:100]!r}")
    print(f"fuzz: {sum(answered.values())} answered in {time.monotonic() - started:.0f} s: " + ", ".join(f"{k}: {v}" for k, v in sorted(answered.items())))
    check(f"fuzz (seed {seed}): no 2xx from a route the caller may not call, no 5xx", not failures, "\n  " + "\n  ".join(failures[:20]))
    check("fuzz: the kiosk is still running", kiosk.process.poll() is None, f"exit {kiosk.process.returncode}")
    answer = ask("GET", "/healthz", source="127.0.0.1")
    check(f"fuzz: the kiosk is healthy after it ({answer.status})", answer.status == 200, repr(answer))
    # And it still records: the booth's shot, to the end.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = json.loads(ask("GET", "/api/status", BOOTH, "booth").body or b"{}").get("state")
        if state in ("idle", "failed"):
            break
        time.sleep(0.5)
    before = (json.loads(ask("GET", "/api/status", BOOTH, "booth").body or b"{}").get("currentShot") or {}).get("id")
    # (the guest's yes first: the kiosk asks for consent)
    agreed = ask("POST", "/api/consent", BOOTH, "booth", headers=[("Content-Type", "application/json")],
                 body=json.dumps({"answer": "yes", "textSha256": CONSENT_SHA}).encode())
    check(f"fuzz: the consent route still takes the guest's yes ({agreed.status})", agreed.status == 200, repr(agreed))
    answer = ask("POST", "/api/shoot", BOOTH, "booth", headers=[("Content-Type", "application/json")], body=b'{"seconds": 1, "countdown": 0}')
    shot = None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        status = json.loads(ask("GET", "/api/status", BOOTH, "booth").body or b"{}")
        current = status.get("currentShot") or {}
        if status.get("state") == "idle" and current.get("id") != before and current.get("frames", 0) > 0:
            shot = current
            break
        time.sleep(0.5)
    check(f"fuzz: a shot still records after it ({answer.status}, {shot and shot.get('frames')} frames)", shot is not None, repr(answer))

    # 3. A guest's post and its share link.
    json_headers = [("Content-Type", "application/json")]
    posted = ask("POST", "/api/post", BOOTH, "booth", headers=json_headers, body=json.dumps({"id": shot["id"], "caption": "fuzz"}).encode())
    check(f"the guest posts the shot they reviewed, named ({posted.status})", posted.status == 202, repr(posted))
    post_id = json.loads(posted.body or b"{}").get("id", "")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (json.loads(ask("GET", "/api/status", BOOTH, "booth").body or b"{}").get("outbox") or {}).get("lastUploaded") != post_id:
        time.sleep(0.3)
    link = json.loads(ask("GET", f"/api/posts/{post_id}/share", BOOTH, "booth").body or b"{}").get("shareURL", "")
    token = link.rsplit("/", 1)[-1]
    check("the booth's screen gets its guest's link", len(token) == 22, link)
    phone = ask("GET", f"/s/{token}", source="127.0.1.1")
    claim = (phone.header("set-cookie") or "").split(";")[0]
    check("the guest's phone, first to open it, gets the delete claim for that link alone",
          phone.status == 200 and claim.startswith("recorder_delete=") and f"Path=/s/{token}" in (phone.header("set-cookie") or ""), repr(phone))
    # A session that was logged out is worth nothing afterwards.
    logged_out = cookies["operator"]
    ask("POST", "/logout", source="operator", headers=[("Cookie", logged_out), ("Origin", f"http://{HOST}:{PORT}")] + json_headers, body=b"{}")
    replay = ask("GET", "/api/admin/overview", source="operator", headers=[("Cookie", logged_out)])
    check(f"a logged-out operator session opens nothing ({replay.status})", replay.status == 401, repr(replay))
    forged = ["", claim.replace("recorder_delete=", "recorder_delete=0"), "recorder_delete=" + "0" * 64, "recorder_delete=" + claim[-64:].upper(),
              cookies["booth"], logged_out, claim + "x", "recorder_delete=" + claim[-64:-1], f"recorder_delete={token}",
              "recorder_session=" + claim[-64:]]
    holes = []
    for n in range(300):
        headers = [("Content-Type", rng.choice(["application/x-www-form-urlencoded", "application/json", "text/plain"]))]
        cookie = rng.choice(forged)
        if cookie:
            headers.append(("Cookie", cookie))
        if rng.random() < 0.5:
            headers.append(("Origin", rng.choice([f"http://{HOST}:{PORT}", "null", "http://evil.example"])))
        target = rng.choice([f"/s/{token}/delete", f"//s/{token}/delete", f"/s/{token}/delete/", f"/s/{token}//delete", f"/s/{token}/delete?x=1"])
        answer = ask(rng.choice(["POST", "POST", "GET", "PUT", "DELETE"]), target, source=f"127.0.2.{rng.randrange(1, 255)}",
                     headers=headers, body=rng.choice([b"confirm=delete", b"confirm=delete&x=1", b'{"confirm": "delete"}']), read_body=False)
        if 200 <= answer.status < 300 or answer.status >= 500:
            holes.append(f"#{n}: {target} {cookie[:30]!r} -> {answer.status}")
    still = ask("GET", f"/s/{token}", source="127.0.1.2")
    check("300 deletes of the link from other phones, with forged, other and session cookies: none 2xx or 5xx, the post is still there",
          not holes and still.status == 200 and (kiosk.work / "store" / "videos" / f"{post_id}.mp4").exists(), "\n  " + "\n  ".join(holes[:10]))
    check("a second phone is offered no delete", b"/delete" not in still.body and not still.header("set-cookie"), repr(still))
    # The next guest begins: the booth's screen no longer reaches the last guest's link.
    ask("POST", "/api/consent", BOOTH, "booth", headers=json_headers, body=json.dumps({"answer": "yes", "textSha256": CONSENT_SHA}).encode())
    after = ask("GET", f"/api/posts/{post_id}/share", BOOTH, "booth")
    check(f"after the next guest's yes, the booth's token gets no link of the last guest's post ({after.status})", after.status == 404, repr(after))
    late = ask("POST", "/api/post", BOOTH, "booth", headers=json_headers, body=json.dumps({"id": "not-the-current-shot", "caption": "late"}).encode())
    check(f"a Post naming a shot that is not the current one is refused ({late.status})", late.status == 409, repr(late))
    mine = ask("POST", f"/s/{token}/delete", source="127.0.1.1", headers=[("Content-Type", "application/x-www-form-urlencoded"), ("Cookie", claim)],
               body=b"confirm=delete")
    gone = ask("GET", f"/s/{token}", source="127.0.1.1")
    check(f"the guest's own phone deletes its post ({mine.status}, then {gone.status})",
          mine.status == 200 and gone.status == 404 and not (kiosk.work / "store" / "videos" / f"{post_id}.mp4").exists(), repr(mine))
finally:
    code = kiosk.stop()
    check("the kiosk stops cleanly (0)", code == 0, f"exit {code}")

print(f"routes_fuzz: {check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
