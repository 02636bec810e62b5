#!/usr/bin/env python3
"""The shipped reverse-proxy set-up (systemd/nginx-recorder.conf), run for real: Debian's nginx on
loopback in front of a real `recorder kiosk` with both tokens, TLS with a certificate made here for
booth.test. What a guest's phone reaches through it:

- the share link the kiosk makes (share.base_url) points at the proxy, over https; its page, its
  video byte for byte, a range of it and the page's two files come through, with the kiosk's CSP;
- nothing else does: every route of the kiosk's table, bent every way, GET and POST, with the
  operator's token, the booth's and the session cookie, over http and https, is 404 (403 for a
  method the share page does not take) from nginx itself - never an answer of the kiosk's (no 401,
  no 2xx), never a 5xx;
- a phone asking too fast is held back (429);
- the guest's phone, first to open the link, gets its delete claim through the proxy (a cookie
  for that link's path, which nginx passes on alone) and deletes the post with it; a forwarded
  link, without it, deletes nothing (403).

    python Tests/security/proxy_test.py RECORDER_BINARY
"""
import concurrent.futures, json, os, pathlib, shutil, socket, ssl, subprocess, sys, tempfile, time, urllib.request

from raw_http import request
from security_support import BOOTH, OPERATOR, Checks, Kiosk, artifacts_folder, free_port, repo

binary = sys.argv[1]
artifacts = artifacts_folder()
check = Checks()


HTTP = free_port()
HTTPS = free_port()
while HTTPS == HTTP:
    HTTPS = free_port()
work = pathlib.Path(tempfile.mkdtemp(prefix="recorder-proxy-"))
os.chmod(work, 0o755)
kiosk = Kiosk(binary, artifacts / "proxy-kiosk.log", args=["--seconds", "2", "--countdown", "0"], prefix="recorder-proxy-kiosk-",
              env={"RECORDER_KIOSK_TOKEN": OPERATOR, "RECORDER_KIOSK_BOOTH_TOKEN": BOOTH,
                   "RECORDER_SHARE_BASE_URL": f"https://booth.test:{HTTPS}/s/{{token}}"})

# The certificate a booth would have for its name (here made on the spot, trusted by curl only).
subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=booth.test",
                "-addext", "subjectAltName=DNS:booth.test", "-keyout", str(work / "booth.key"), "-out", str(work / "booth.crt")],
               check=True, capture_output=True)
# The shipped file, with this test's ports, addresses and certificate: nothing else changed.
site = (repo / "systemd" / "nginx-recorder.conf").read_text()
for old, new in [("127.0.0.1:8080", f"127.0.0.1:{kiosk.port}"), ("listen 80;", f"listen 127.0.0.1:{HTTP};"),
                 ("listen 443 ssl;", f"listen 127.0.0.1:{HTTPS} ssl;"), ("/etc/recorder/tls/", f"{work}/")]:
    assert old in site, f"the shipped nginx-recorder.conf no longer has {old!r}"
    site = site.replace(old, new)
site = "\n".join(line for line in site.splitlines() if "listen [::]" not in line)
(work / "recorder.conf").write_text(site)
(work / "nginx.conf").write_text(f"""worker_processes 1;
pid {work}/nginx.pid;
error_log {work}/error.log;
events {{}}
http {{
    access_log {work}/access.log;
    client_body_temp_path {work}/body;
    proxy_temp_path {work}/proxy;
    fastcgi_temp_path {work}/fastcgi;
    uwsgi_temp_path {work}/uwsgi;
    scgi_temp_path {work}/scgi;
    include {work}/recorder.conf;
}}
""")
nginx = None


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
    kiosk.start()
    test = subprocess.run(["nginx", "-t", "-c", str(work / "nginx.conf"), "-p", str(work)], capture_output=True, text=True)
    check("nginx takes the shipped configuration (nginx -t)", test.returncode == 0, test.stderr)
    nginx = subprocess.Popen(["nginx", "-c", str(work / "nginx.conf"), "-p", str(work), "-g", "daemon off;"],
                             stdout=subprocess.DEVNULL, stderr=open(artifacts / "proxy-nginx.log", "w"))
    def listening():
        try:
            return request("127.0.0.1", HTTP, "GET", "/").status == 404
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
    for name in ("plain.css", "share.js"):
        status, headers, body = curl(f"https://booth.test:{HTTPS}/assets/{name}")
        check(f"the page's {name} comes through", status == 200 and len(body) > 10, f"{status}")
    status, _, _ = curl(f"http://127.0.0.1:{HTTP}/s/{token}")
    check("and over plain http too (a booth with no certificate)", status == 200, f"{status}")

    # Nothing else: every route of the kiosk, every way, with every credential.
    routes = api("GET", "/api/admin/routes")
    cookie = None
    answer = request("127.0.0.1", kiosk.port, "POST", "/login", [("Content-Type", "application/json"), ("Origin", kiosk.base)],
                     json.dumps({"token": OPERATOR}))
    cookie = (answer.header("set-cookie") or "").split(";", 1)[0]
    credentials = [[], [("Authorization", f"Bearer {OPERATOR}")], [("Authorization", f"Bearer {BOOTH}")],
                   [("Cookie", cookie), ("Origin", f"http://127.0.0.1:{HTTP}")]]
    # The kiosk answers every failure in JSON; nginx in its own HTML. (Shown on the kiosk's own port.)
    def reached_kiosk(answer):
        return answer.body.lstrip().startswith(b"{") or "nginx" not in answer.body.decode("latin-1")
    check("the test tells the kiosk's answers from nginx's", reached_kiosk(request("127.0.0.1", kiosk.port, "GET", "/api/status"))
          and not reached_kiosk(request("127.0.0.1", HTTP, "GET", "/api/status")))
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
                    answer = request("127.0.0.1", HTTP, method, target, [("Content-Type", "application/json"), *extra], body)
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
        answers = list(pool.map(lambda _: request("127.0.0.1", HTTP, "GET", f"/s/{token}"), range(120)))
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
finally:
    if nginx:
        nginx.terminate()
        try:
            nginx.wait(timeout=20)
        except subprocess.TimeoutExpired:
            nginx.kill()
    status = kiosk.stop()
    shutil.copy(work / "access.log", artifacts / "proxy-nginx-access.log") if (work / "access.log").exists() else None
    shutil.rmtree(work, ignore_errors=True)

check("the kiosk exits 0 on SIGTERM", status == 0, f"exit {status}")
print(f"proxy: {check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
