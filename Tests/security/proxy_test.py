#!/usr/bin/env python3
"""The shipped reverse-proxy set-up (systemd/nginx-recorder.conf, with the http-level names of
nginx-recorder-http.conf and the share locations of nginx-recorder-share.conf, which the booth's own
Wi-Fi includes too), run for real: Debian's nginx on
loopback in front of a real `recorder kiosk` with both tokens, which nginx reaches on the kiosk's
own listener for it (kiosk.proxy_socket, a Unix socket). Three nginx instances of the shipped files,
each changed only in its ports, paths and certificate: as shipped, with TLS and a certificate made
here for booth.test; the no-certificate variant (the lines ending in "# tls" deleted, as the file
says); and that variant in front of a small echo server instead of the kiosk, which shows what
nginx tells the kiosk. What a guest's phone reaches through it:

- the share link the kiosk makes (share.base_url) points at the proxy, over https; its page, its
  video byte for byte, a range of it and the page's two files come through, with the kiosk's CSP;
  with TLS configured, plain http to it is moved to https (308); without a certificate it is served;
- nothing else does: every route of the kiosk's table, bent every way, GET and POST, with the
  operator's token, the booth's and the session cookie, is 404 (403 for a method the share page
  does not take, HEAD included) from nginx itself - never an answer of the kiosk's (no 401, no 2xx),
  never a 5xx;
- nginx names the phone (X-Real-IP) and the scheme (X-Forwarded-Proto) itself, never passing the
  phone's own, and strips cookies, tokens, Origin and Referer; the kiosk counts the phone it names:
  a phone's fifth video at once is the kiosk's 429 (each phone was the kiosk's loopback before);
- a phone asking too fast is held back (429); the access log never holds a share token, nor does the
  error log (a phone's body over the limit, the kiosk not answering);
- the guest's phone, first to open the link, gets its delete claim through the proxy (a cookie
  for that link's path, which nginx passes on alone) and deletes the post with it; a forwarded
  link, without it, deletes nothing (403).

    python Tests/security/proxy_test.py RECORDER_BINARY
"""
import concurrent.futures, http.server, json, os, pathlib, shutil, socket, socketserver, ssl, subprocess, sys, tempfile, threading, time, urllib.request

from raw_http import request
from security_support import BOOTH, OPERATOR, Checks, Kiosk, artifacts_folder, free_port, noisy_post, shipped_nginx, start_nginx, stop

binary = sys.argv[1]
artifacts = artifacts_folder()
check = Checks()


work = pathlib.Path(tempfile.mkdtemp(prefix="recorder-proxy-"))
os.chmod(work, 0o755)
HTTP, HTTPS, PLAIN, ECHO = [free_port() for _ in range(4)]
while len({HTTP, HTTPS, PLAIN, ECHO}) < 4:
    HTTP, HTTPS, PLAIN, ECHO = [free_port() for _ in range(4)]
kiosk = Kiosk(binary, artifacts / "proxy-kiosk.log", args=["--seconds", "2", "--countdown", "0"], prefix="recorder-proxy-kiosk-",
              env={"RECORDER_KIOSK_TOKEN": OPERATOR, "RECORDER_KIOSK_BOOTH_TOKEN": BOOTH, "RECORDER_KIOSK_PROXY_SOCKET": str(work / "kiosk.sock"),
                   "RECORDER_SHARE_BASE_URL": f"https://booth.test:{HTTPS}/s/{{token}}",
                   # (a guest may choose a boomerang: its take and GIF come through too)
                   "RECORDER_KIOSK_EFFECTS": "none, boomerang", "RECORDER_EFFECT_BOOMERANG_SECONDS": "1"})

# The certificate a booth would have for its name (here made on the spot, trusted by curl only).
subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=booth.test",
                "-addext", "subjectAltName=DNS:booth.test", "-keyout", str(work / "booth.key"), "-out", str(work / "booth.crt")],
               check=True, capture_output=True)


def site(name, socket, http, https=None):
    """The shipped files (the http-level names, the server and the share locations it includes) with
    this test's ports, socket, log and certificate: nothing else changed. Without `https`, the
    no-certificate variant: the lines ending in "# tls" deleted."""
    replacements = [("unix:/run/recorder/proxy.sock", f"unix:{socket}"), ("listen 80;", f"listen 127.0.0.1:{http};"),
                    ("listen [::]:80;", ""), ("/var/log/nginx/access.log", f"{work}/{name}-access.log")]
    if https:
        replacements += [("listen 443 ssl;", f"listen 127.0.0.1:{https} ssl;"), ("listen [::]:443 ssl;", ""), ("/etc/recorder/tls/", f"{work}/")]
    return shipped_nginx(work / name, replacements, tls=bool(https))


def nginx_for(name, site_text):
    """An nginx of its own for `site_text`, answering on loopback."""
    tested, process = start_nginx(work / name, site_text, artifacts / f"proxy-nginx-{name}.log")
    check(f"nginx takes the shipped configuration ({name}: nginx -t)", tested.returncode == 0, tested.stderr)
    nginxes.append(process)


class Echo(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    """Stands in for the kiosk: answers every request 200 with the request's head, as JSON."""
    daemon_threads = True

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = json.dumps({"path": self.path, "method": self.command,
                               "headers": [[k.lower(), v] for k, v in self.headers.items()]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        do_POST = do_GET

        def address_string(self):
            return "nginx"

        def log_message(self, *args):
            pass


nginxes = []
echo = None


def curl(url, *args):
    """curl as a phone would ask (booth.test is this machine); (status, headers, body)."""
    (work / "answer").unlink(missing_ok=True)
    out = subprocess.run(["curl", "-s", "--path-as-is", "--max-time", "30", "--resolve", f"booth.test:{HTTPS}:127.0.0.1",
                          "--cacert", str(work / "booth.crt"), "-D", "-", "-o", str(work / "answer"), url, *args],
                         capture_output=True, text=True)
    head = out.stdout.splitlines()
    status = int(head[0].split()[1]) if head and head[0].startswith("HTTP/") else 0
    headers = {line.split(":", 1)[0].lower(): line.split(":", 1)[1].strip() for line in head[1:] if ":" in line}
    return status, headers, (work / "answer").read_bytes() if (work / "answer").exists() else b""


def api(method, path, body=None):
    req = urllib.request.Request(kiosk.base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
                                 headers={"Authorization": f"Bearer {OPERATOR}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read() or b"{}")


def wait(what, predicate, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.3)
    raise TimeoutError(f"waited {seconds} s for {what}")


try:
    # A post big enough that a phone's buffers cannot take it whole (a 9 MB clip of noise), made
    # before the kiosk starts.
    big = noisy_post(binary, kiosk, seconds=4, size="640x360", caption="a big one")
    kiosk.start()
    # What a booth runs: nginx as shipped (TLS), and a booth without a certificate (plain http).
    nginx_for("tls", site("tls", work / "kiosk.sock", HTTP, HTTPS))
    nginx_for("plain", site("plain", work / "kiosk.sock", PLAIN))
    # And what nginx tells the kiosk: the same no-certificate file in front of an echo.
    echo = Echo(str(work / "echo.sock"), Echo.Handler)
    os.chmod(work / "echo.sock", 0o666)  # (nginx's workers run as nobody)
    threading.Thread(target=echo.serve_forever, daemon=True).start()
    nginx_for("echo", site("echo", work / "echo.sock", ECHO))
    def listening():
        try:
            return all(request("127.0.0.1", port, "GET", "/").status in (404, 308) for port in (HTTP, PLAIN, ECHO))
        except OSError:
            return False
    wait("nginx to listen", listening, 20)

    # A guest's post, shared.
    api("POST", "/api/shoot", {})
    shot = wait("the shot", lambda: (lambda s: s["state"] == "idle" and s.get("currentShot"))(api("GET", "/api/status")), 90)
    post = api("POST", "/api/post", {"id": shot["id"], "caption": "through the proxy ✓"})["id"]
    wait("the upload", lambda: api("GET", "/api/status")["outbox"].get("lastUploaded") == post, 60)
    link = api("GET", f"/api/posts/{post}/share")["shareURL"]
    check("the share link points at the proxy over https", link.startswith(f"https://booth.test:{HTTPS}/s/"), link)
    token = link.rsplit("/", 1)[1]
    stored = (kiosk.work / "store" / "videos" / f"{post}.mp4").read_bytes()

    status, headers, body = curl(link)
    check("through the proxy (TLS, its certificate checked) the share page opens with no token",
          status == 200 and "through the proxy ✓".encode() in body, f"{status} {body[:200]!r}")
    # The guest's phone opened it first, minutes after the post: it holds the delete claim.
    claim = headers.get("set-cookie", "").split(";")[0]
    check("the first phone to open it gets the delete claim, for that link's path, through the proxy",
          claim.startswith("recorder_delete=") and f"Path=/s/{token}" in headers.get("set-cookie", ""), str(headers))
    check("with the kiosk's CSP and nosniff", "script-src 'self'" in headers.get("content-security-policy", "")
          and headers.get("x-content-type-options") == "nosniff", str(headers))
    status, headers, body = curl(link + "/video.mp4")
    check("its video comes through byte for byte", status == 200 and body == stored, f"{status} {len(body)} of {len(stored)} bytes")
    status, headers, body = curl(link + "/video.mp4", "-H", "Range: bytes=100-199")
    check("a range of it too (206, those bytes)", status == 206 and body == stored[100:200], f"{status} {len(body)}")
    status, headers, body = curl(link + "/poster.jpg")
    poster = kiosk.work / "store" / "thumbs" / f"{post}.jpg"
    check("its poster (the page's first picture) comes through, the store's JPEG", status == 200 and poster.exists() and body == poster.read_bytes()
          and headers.get("content-type") == "image/jpeg", f"{status} {len(body)} bytes")
    for name in ("plain.css", "share.js", "dates.js"):
        status, headers, body = curl(f"https://booth.test:{HTTPS}/assets/{name}")
        check(f"the page's {name} comes through", status == 200 and len(body) > 10, f"{status}")
    # With the certificate, plain http moves to https (the token would cross the Wi-Fi in clear text);
    # without one, plain http is served.
    for path, method in ((f"/s/{token}", "GET"), (f"/s/{token}/video.mp4", "GET"), (f"/s/{token}/delete", "POST"), ("/api/status", "GET")):
        answer = request("127.0.0.1", HTTP, method, path, [("Host", "booth.test")], b"confirm=delete" if method == "POST" else b"")
        check(f"with TLS configured, plain http {method} {path.replace(token, '<token>')} is moved to https (308)",
              answer.status == 308 and answer.header("location") == f"https://booth.test{path}", f"{answer.status} {answer.header('location')}")
    check("the post is still there (the redirected delete deleted nothing)", (kiosk.work / "store" / "videos" / f"{post}.mp4").exists())
    answer = request("127.0.0.1", PLAIN, "GET", f"/s/{token}")
    check("without a certificate (the # tls lines deleted) plain http serves the share page", answer.status == 200
          and "through the proxy ✓".encode() in answer.body, repr(answer))
    # A boomerang's post: its take and, asked for, its GIF come through; GET alone.
    api("POST", "/api/shoot", {"effect": "boomerang"})
    loop = wait("the boomerang", lambda: (lambda s: s["state"] == "idle" and s.get("currentShot") and s["currentShot"]["id"] != shot["id"]
                                                      and s["currentShot"])(api("GET", "/api/status")), 90)
    looped = api("POST", "/api/post", {"id": loop["id"], "caption": "there and back"})["id"]
    wait("its upload", lambda: api("GET", "/api/status")["outbox"].get("lastUploaded") == looped, 60)
    loop_link = api("GET", f"/api/posts/{looped}/share")["shareURL"]
    loop_token = loop_link.rsplit("/", 1)[1]
    status, headers, body = curl(loop_link + "/take.mp4")
    take = kiosk.work / "store" / "takes" / f"{looped}.mp4"
    check("a boomerang's take comes through, the store's bytes", status == 200 and take.exists() and body == take.read_bytes(), f"{status} {len(body)}")
    status, headers, body = curl(loop_link + "/loop.gif")
    check("its GIF comes through, made when asked", status == 200 and body[:6] == b"GIF89a" and headers.get("content-type") == "image/gif",
          f"{status} {body[:10]!r}")
    # GET means GET: limit_except GET let HEAD through to the kiosk.
    for path in (f"/s/{token}", f"/s/{token}/video.mp4", f"/s/{token}/poster.jpg", f"/s/{loop_token}/take.mp4", f"/s/{loop_token}/loop.gif",
                 "/assets/share.js"):
        status, _, _ = curl(f"https://booth.test:{HTTPS}{path}", "-I")
        check(f"HEAD {path.replace(token, '<token>').replace(loop_token, '<token>')} is refused by nginx (403)", status == 403, f"{status}")

    # What nginx tells the kiosk (the echo stands in for it): who the phone is and how it came as
    # nginx saw them, never as the phone says; nothing that could make it anybody.
    lies = [("X-Real-IP", "6.6.6.6"), ("X-Forwarded-Proto", "https"), ("X-Forwarded-For", "7.7.7.7"), ("Cookie", "recorder_session=x"),
            ("Authorization", f"Bearer {OPERATOR}"), ("Origin", "http://evil.example"), ("Referer", f"http://booth/s/{token}")]
    answer = request("127.0.0.1", ECHO, "GET", f"/s/{token}", lies)
    told = {}
    for name, value in (json.loads(answer.body)["headers"] if answer.status == 200 else []):
        told.setdefault(name, []).append(value)
    check("nginx names the phone itself (X-Real-IP: its address, the phone's own header dropped)",
          told.get("x-real-ip") == ["127.0.0.1"], str(told.get("x-real-ip")))
    check("nginx says how the phone came itself (X-Forwarded-Proto: http, the phone's 'https' dropped)",
          told.get("x-forwarded-proto") == ["http"], str(told.get("x-forwarded-proto")))
    check("no X-Forwarded-For, cookie, token, Origin or Referer reaches the kiosk; Host is the kiosk's own name",
          not {"x-forwarded-for", "cookie", "authorization", "origin", "referer"} & told.keys() and told.get("host") == ["localhost"],
          str(sorted(told)))
    check("a HEAD never reaches the kiosk (403 from nginx)", request("127.0.0.1", ECHO, "HEAD", f"/s/{token}").status == 403)

    # The kiosk counts the phone nginx names: a player's ranges are 4 at once per phone, and the
    # fifth is the kiosk's 429 (every phone was the kiosk's loopback before, and loopback the booth,
    # which no per-client cap counted); another phone (127.0.0.2, loopback too) has 4 of its own.
    # The readers read their answer's head and then nothing.
    def stalled(port, phone="127.0.0.1"):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.bind((phone, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(f"GET /s/{big['shareToken']}/video.mp4 HTTP/1.1\r\nHost: booth.test\r\n\r\n".encode())
        s.settimeout(30)
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = s.recv(1024)
            if not chunk:
                break
            head += chunk
        return s, head
    readers = [stalled(PLAIN) for _ in range(5)]
    heads = [head.split(b"\r\n", 1)[0].decode() for _, head in readers]
    refusal = readers[4][1]
    readers[4][0].settimeout(5)
    try:
        while b"too many" not in refusal and (chunk := readers[4][0].recv(4096)):
            refusal += chunk
    except OSError:
        pass
    check("one phone's fifth video at once through the proxy is the kiosk's 429 (the first four are sent)",
          heads[:4] == ["HTTP/1.1 200 OK"] * 4 and heads[4].startswith("HTTP/1.1 429") and b"too many videos" in refusal,
          f"{heads} {refusal[-160:]!r}")
    others = [stalled(PLAIN, phone="127.0.0.2") for _ in range(4)]
    heads = [head.split(b"\r\n", 1)[0].decode() for _, head in others]
    check("meanwhile another phone's four are sent (each phone is counted as itself)", heads == ["HTTP/1.1 200 OK"] * 4, str(heads))
    for s, _ in readers + others:
        s.close()

    # Nothing else: every route of the kiosk, every way, with every credential.
    routes = api("GET", "/api/admin/routes")
    cookie = None
    answer = request("127.0.0.1", kiosk.port, "POST", "/login", [("Content-Type", "application/json"), ("Origin", kiosk.base)],
                     json.dumps({"token": OPERATOR}))
    cookie = (answer.header("set-cookie") or "").split(";", 1)[0]
    credentials = [[], [("Authorization", f"Bearer {OPERATOR}")], [("Authorization", f"Bearer {BOOTH}")],
                   [("Cookie", cookie), ("Origin", f"http://127.0.0.1:{PLAIN}")]]
    # The kiosk answers every failure in JSON; nginx in its own HTML. (Shown on the kiosk's own port.)
    def reached_kiosk(answer):
        return answer.body.lstrip().startswith(b"{") or "nginx" not in answer.body.decode("latin-1")
    check("the test tells the kiosk's answers from nginx's", reached_kiosk(request("127.0.0.1", kiosk.port, "GET", "/api/status"))
          and not reached_kiosk(request("127.0.0.1", PLAIN, "GET", "/api/status")))
    tried, leaks = 0, []
    for route in routes:
        path = route["path"].replace(":id", "ABCDEFGHIJ").replace(":file", "common.js").replace(":token", token)
        if path.startswith("/s/"):
            continue
        parts = path.strip("/").split("/")
        spellings = {path, "//" + path.lstrip("/"), path + "/", "/./" + path.lstrip("/"), "/s/" + token + "/../.." + path,
                     "/s/%2e%2e" + path, "/s/" + token + "%2F..%2F.." + path, "/" + "%2F".join(parts), "/" + "//".join(parts),
                     path.upper(), path + "?x=1", "/s/" + token + "/video.mp4/../../.." + path}
        for target in sorted(spellings):
            for extra in credentials:
                for method in ("GET", route["method"]) if route["method"] != "GET" else ("GET",):
                    body = b"{}" if method == "POST" else b""
                    answer = request("127.0.0.1", PLAIN, method, target, [("Content-Type", "application/json"), *extra], body)
                    tried += 1
                    if answer.status not in (403, 404, 400) or reached_kiosk(answer):
                        leaks.append(f"{method} {target} {[k for k, _ in extra]}: {answer.status} {answer.body[:80]!r}")
    check(f"{tried} requests for the kiosk's other routes through the proxy, bent every way, with each credential: "
          "all 400/403/404 from nginx, none reached the kiosk", not leaks, "; ".join(leaks[:10]))
    for path in ("/api/status", "/api/admin/overview", "/api/preview.jpg", "/metrics", "/admin", "/", "/login", "/healthz"):
        status, _, body = curl(f"https://booth.test:{HTTPS}{path}", "-H", f"Authorization: Bearer {OPERATOR}")
        check(f"over https, {path} with the operator's token: 404", status == 404 and b"recorder" not in body.lower(), f"{status} {body[:80]!r}")
    status, _, _ = curl(link, "-X", "POST", "-d", "{}")
    check("a POST to a share link is refused by nginx (403)", status == 403, f"{status}")
    # A cookie or a token sent through the proxy never reaches the kiosk: the share page is the
    # same, and the kiosk's own log shows no login through it.
    status, _, body = curl(link, "-H", f"Cookie: {cookie}", "-H", f"Authorization: Bearer {OPERATOR}")
    check("credentials sent along with a share link change nothing", status == 200, f"{status}")

    # Too fast: the burst is allowed, then 429. The 120 asks go 7 at a time: one after another,
    # each would have to take under 33 ms for nginx's 20 a second to fall behind, and on a busy
    # machine a share page can take longer than that (then no 429 would come, limit or not); 7 is
    # under the 8 connections nginx allows an address (limit_conn, also a 429), so what is seen is
    # the rate limit. nginx's own 429 is told from the kiosk's by its page, which names nginx.
    with concurrent.futures.ThreadPoolExecutor(7) as pool:
        answers = list(pool.map(lambda _: request("127.0.0.1", PLAIN, "GET", f"/s/{token}"), range(120)))
    codes = [a.status for a in answers]
    by_nginx = sum(1 for a in answers if a.status == 429 and b"nginx" in a.body)
    check("a phone asking too fast is held back by nginx (429 after the burst)", 200 in codes and by_nginx > 0,
          f"{codes.count(200)} x 200, {codes.count(429)} x 429 ({by_nginx} from nginx)")
    # The guest deletes their clip through the proxy, as the share page's form does (a browser
    # names the proxy as its Origin). The burst is over first (20 a second come back).
    time.sleep(3)
    status, _, _ = curl(link + "/delete")
    check("the delete form's address takes no GET (403 from nginx)", status == 403, f"{status}")
    status, _, body = curl(link + "/delete", "-X", "POST", "-d", "nothing=here")
    check("a POST without the confirmation reaches the kiosk and deletes nothing (400)",
          status == 400 and (kiosk.work / "store" / "videos" / f"{post}.mp4").exists(), f"{status} {body[:120]!r}")
    status, _, body = curl(link + "/delete", "-X", "POST", "-d", "confirm=delete", "-H", f"Origin: https://booth.test:{HTTPS}",
                           "-H", "Sec-Fetch-Site: same-origin", "-H", f"Cookie: recorder_session=x; recorder_delete={'0' * 64}")
    check("a forwarded link's delete through the proxy (no claim, or a made-up one) deletes nothing (403)",
          status == 403 and (kiosk.work / "store" / "videos" / f"{post}.mp4").exists(), f"{status} {body[:120]!r}")
    status, _, body = curl(link + "/delete", "-X", "POST", "-d", "confirm=delete", "-H", f"Origin: https://booth.test:{HTTPS}",
                           "-H", "Sec-Fetch-Site: same-origin", "-H", f"Cookie: {claim}")
    check("the guest's delete through the proxy (https, the proxy's Origin, its claim) deletes the post", status == 200
          and b"Your video is deleted" in body and not (kiosk.work / "store" / "videos" / f"{post}.mp4").exists(), f"{status} {body[:160]!r}")
    status, _, _ = curl(link)
    check("the link then answers 404 through the proxy", status == 404, f"{status}")
    check("the kiosk is healthy after it all", request("127.0.0.1", kiosk.port, "GET", "/healthz").status == 200)
    # nginx's error log names the request's line of every error it logs: a phone's body over the
    # limit (413) and the kiosk not answering (502, its socket moved away) are such errors. No share
    # request's reaches it.
    status, _, _ = curl(f"http://127.0.0.1:{PLAIN}/s/{token}/delete", "-X", "POST", "--data-binary", "confirm=delete&" + "x" * 2000)
    check("a phone's 2000-byte delete is refused by nginx (413)", status == 413, f"{status}")
    os.rename(work / "kiosk.sock", work / "kiosk.sock.away")
    try:
        status, _, _ = curl(f"http://127.0.0.1:{PLAIN}/s/{token}")
    finally:
        os.rename(work / "kiosk.sock.away", work / "kiosk.sock")
    check("with the kiosk not answering, nginx answers a share link 502", status == 502, f"{status}")
    errors = b"".join(path.read_bytes() for path in list(work.glob("*/error.log")) + list(artifacts.glob("proxy-nginx-*.log")) if path.is_file())
    check("nginx's error log never holds a share token (the 413 and the 502 included)", token.encode() not in errors,
          f"{errors.count(token.encode())} lines with the token")
    # The access logs: every share request is there, its token never.
    logs = b"".join((work / f"{name}-access.log").read_bytes() for name in ("tls", "plain") if (work / f"{name}-access.log").exists())
    check("nginx's access log names share requests as /s/<token>, never with the token", b"/s/<token>" in logs and token.encode() not in logs,
          f"{logs.count(b'/s/<token>')} redacted, {logs.count(token.encode())} with the token")
finally:
    for process in nginxes:
        stop(process)
    if echo:
        echo.shutdown()
    status = kiosk.stop()
    for name in ("tls", "plain"):
        if (work / f"{name}-access.log").exists():
            shutil.copy(work / f"{name}-access.log", artifacts / f"proxy-nginx-{name}-access.log")
    shutil.rmtree(work, ignore_errors=True)

check("the kiosk exits 0 on SIGTERM", status == 0, f"exit {status}")
print(f"proxy: {check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
