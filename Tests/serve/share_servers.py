#!/usr/bin/env python3
"""Links that outlive the booth, run for real: a SeaweedFS store, two booths (`recorder kiosk` on the
test pattern, kiosk.id booth-1 and booth-2) posting into it, and two `recorder serve` over it behind
Debian's nginx with the shipped site (systemd/nginx-recorder-serve.conf: its two upstream servers,
ports, certificate and log the only changes, plus a header naming the upstream that answered, so
the test knows which server to kill). What a phone and a host get:

- a guest's link made by booth 1 opens on both servers, its video byte for byte the store's; the
  guest's phone, with the claim cookie it got at the booth, deletes the post on server 2; both
  servers answer 404 after, and the store has it no more;
- a phone downloading a video from server 1: the server is killed with -9 half way, and
  the phone's next range request completes it through the other, byte for byte;
- the host's link (`recorder gallery create`) lists the posts of both booths, newest first, minus
  the one hidden (booth 2's operator) and the one deleted; Download all is a zip that `unzip -t`
  accepts, each entry byte for byte the store's object (Python's zipfile), and a download cut at half
  way resumes with Range and If-Range to the same bytes;
- a crowd of 300 phones (addresses in a network namespace, on a veth link: Debian's iproute2) at
  once through nginx, each on a TLS connection of its own asking for a share page, its poster and
  video and the host's gallery and its posts (Tests/serve/phones.py): every phone served whole, by
  both servers, and each server's memory grows by at most 64 MiB (its peak, VmHWM, over its VmRSS
  before; the peak reset first through /proc/PID/clear_refs);
- SIGTERM to the server left while a host's Download all is under way and its reader has stopped
  reading: the server stops within 15 s (the unit's TimeoutStopSec), not waited on for ever.

Prints its figures. Needs root (the network namespace).

    python Tests/serve/share_servers.py RECORDER_BINARY
"""
import hashlib, http.client, json, os, socket, ssl, pathlib, signal, subprocess, sys, tempfile, time, urllib.error, urllib.request, zipfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "security"))
from security_support import BOOTH, OPERATOR, Checks, Kiosk, OtherMachines, artifacts_folder, free_port, repo, start_nginx, stop  # noqa: E402

binary = sys.argv[1]
artifacts = artifacts_folder()
check = Checks()
work = pathlib.Path(tempfile.mkdtemp(prefix="recorder-serve-"))
os.chmod(work, 0o755)
ports = set()
while len(ports) < 5:
    ports.add(free_port())
S3, HTTP, HTTPS, SERVE1, SERVE2 = sorted(ports)
NAME = "videos.test"
BASE = f"https://{NAME}:{HTTPS}"
S3_ENV = {"AWS_ACCESS_KEY_ID": "recorder-test", "AWS_SECRET_ACCESS_KEY": "recorder-test-secret"}
STORE = ["--backend", "s3", "--endpoint", f"http://127.0.0.1:{S3}", "--bucket", "clips", "--region", "us-east-1"]
SHARE = {"RECORDER_SHARE_BASE_URL": f"{BASE}/s/{{token}}"}
seaweed = work / "seaweedfs"
processes = []
figures = {}
# The crowd's phones: 300 addresses of the namespace (10.216.1.1-250, 10.216.2.1-50); nginx listens on
# the veth link's address too. A server's memory may grow by GROWTH_MIB while they are served.
PHONES_HOST, PHONES, GROWTH_MIB = "10.216.0.1", [f"10.216.1.{i}" for i in range(1, 251)] + [f"10.216.2.{i}" for i in range(1, 51)], 64


def memory_kib(pid, field):
    """A field of /proc/PID/status (VmRSS, VmHWM), in KiB."""
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def s3_get(key):
    """An object of the store as SeaweedFS gives it (curl signs the request)."""
    out = subprocess.run(["curl", "-sf", "--aws-sigv4", "aws:amz:us-east-1:s3", "--user", "recorder-test:recorder-test-secret",
                          f"http://127.0.0.1:{S3}/clips/{key}"], capture_output=True)
    return out.stdout if out.returncode == 0 else None


def curl(url, *args, output=None):
    """curl as a phone asks through nginx (videos.test is this machine; the test's certificate):
    (status, headers, body)."""
    output = output or work / "answer"
    output.unlink(missing_ok=True)
    out = subprocess.run(["curl", "-s", "--max-time", "120", "--resolve", f"{NAME}:{HTTPS}:127.0.0.1", "--cacert", str(work / "name.crt"),
                          "-D", "-", "-o", str(output), url, *args], capture_output=True, text=True)
    head = [line for line in out.stdout.splitlines() if line.strip()]
    status = int(head[0].split()[1]) if head and head[0].startswith("HTTP/") else 0
    headers = {line.split(":", 1)[0].lower(): line.split(":", 1)[1].strip() for line in head[1:] if ":" in line}
    return status, headers, output.read_bytes() if output.exists() else b""


def direct(port, path, method="GET", headers=None, data=None):
    """A request to one share server itself, past nginx: (status, headers, body)."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read()
    except OSError:
        return 0, {}, b""


def wait(what, predicate, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.3)
    raise TimeoutError(f"waited {seconds} s for {what}")


class Booth:
    """A `recorder kiosk` on the test pattern posting into the S3 store, with its kiosk.id."""

    def __init__(self, name):
        self.name = name
        self.kiosk = Kiosk(binary, artifacts / f"serve-{name}.log", args=["--seconds", "2", "--countdown", "0", *STORE],
                           prefix=f"recorder-serve-{name}-",
                           env={"RECORDER_KIOSK_TOKEN": OPERATOR, "RECORDER_KIOSK_BOOTH_TOKEN": BOOTH, "RECORDER_KIOSK_ID": name, **SHARE, **S3_ENV})

    def api(self, method, path, body=None):
        request = urllib.request.Request(self.kiosk.base + path, method=method, data=json.dumps(body).encode() if body is not None else None,
                                         headers={"Authorization": f"Bearer {OPERATOR}", "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as r:
            return json.loads(r.read() or b"{}")

    def shoot_and_post(self, caption):
        """A guest's clip, posted and uploaded: its id and share link."""
        self.api("POST", "/api/shoot", {})
        shot = wait("the shot", lambda: (lambda s: s["state"] == "idle" and s.get("currentShot"))(self.api("GET", "/api/status")), 120)
        post = self.api("POST", "/api/post", {"id": shot["id"], "caption": caption})["id"]
        wait("the upload", lambda: self.api("GET", "/api/status")["outbox"].get("lastUploaded") == post, 120)
        return post, self.api("GET", f"/api/posts/{post}/share")["shareURL"]

    def claim(self, token):
        """The guest's phone opening its link on the booth's own network while the thank-you shows
        it: the delete claim's cookie it is given."""
        with urllib.request.urlopen(f"{self.kiosk.base}/s/{token}", timeout=30) as r:
            return (r.headers.get("Set-Cookie") or "").split(";")[0]


def noisy_post(caption):
    """A post of booth 1's made by the CLI (`recorder shoot` and `post`) into the store: 4 s of noise at
    640x360, which x264 cannot make small (about 9 MB), so that a phone reading it slowly is still
    reading when its server is killed (no socket buffer holds it whole). Its id."""
    y4m = work / "noise.y4m"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30,noise=alls=40:allf=t", "-t", "4",
                    "-pix_fmt", "yuv420p", str(y4m)], check=True, capture_output=True)
    environment = {**os.environ, **S3_ENV, **SHARE, "RECORDER_KIOSK_ID": "booth-1", "XDG_CACHE_HOME": str(work / "cli-cache")}
    environment.pop("RECORDER_CONFIG", None)
    subprocess.run([binary, "shoot", "--device", f"y4m:{y4m}", "--seconds", "4", "--audio", "none", "--workspace", str(work / "cli-ws")],
                   check=True, capture_output=True)
    posted = subprocess.run([binary, "post", "--caption", caption, "--json", "--workspace", str(work / "cli-ws"), "--outbox", str(work / "cli-outbox"),
                             *STORE], check=True, capture_output=True, text=True, env=environment)
    y4m.unlink()
    return json.loads(posted.stdout)["id"]


def serve(port):
    log = open(artifacts / f"serve-{port}.log", "w")
    environment = {**os.environ, **S3_ENV, **SHARE, "XDG_CACHE_HOME": str(work / f"cache-{port}")}
    environment.pop("RECORDER_CONFIG", None)
    process = subprocess.Popen([binary, "serve", "--listen", f"127.0.0.1:{port}", *STORE], stdout=log, stderr=subprocess.STDOUT, env=environment)
    processes.append(process)
    wait(f"recorder serve on {port}", lambda: process.poll() is not None or direct(port, "/healthz")[0] == 200, 30)
    if process.poll() is not None:
        raise RuntimeError(f"recorder serve on {port} exited {process.returncode}: {(artifacts / f'serve-{port}.log').read_text()[-600:]}")
    return process


def site():
    """The shipped site with this test's addresses: two servers upstream, the ports, the certificate,
    the log; and the upstream that answered named in a header (for this test alone)."""
    text = (repo / "systemd" / "nginx-recorder-serve.conf").read_text()
    for old, new in [("server 127.0.0.1:8090 max_fails=1 fail_timeout=5s;",
                      f"server 127.0.0.1:{SERVE1} max_fails=1 fail_timeout=5s;\n    server 127.0.0.1:{SERVE2} max_fails=1 fail_timeout=5s;"),
                     ("listen 80;", f"listen 127.0.0.1:{HTTP};"), ("listen [::]:80;", ""),
                     ("listen 443 ssl;", f"listen 127.0.0.1:{HTTPS} ssl;\n    listen {PHONES_HOST}:{HTTPS} ssl;"), ("listen [::]:443 ssl;", ""),
                     ("/etc/letsencrypt/live/videos.example.org/fullchain.pem", str(work / "name.crt")),
                     ("/etc/letsencrypt/live/videos.example.org/privkey.pem", str(work / "name.key")),
                     ("/var/log/nginx/access.log", str(work / "access.log")),
                     ("server_tokens off;", "server_tokens off;\n    add_header X-Test-Upstream $upstream_addr always;")]:
        assert old in text, f"the shipped nginx-recorder-serve.conf no longer has {old!r}"
        text = text.replace(old, new)
    return text


def gallery_posts(token):
    ids, after = [], None
    while True:
        status, _, body = curl(f"{BASE}/g/{token}/posts" + (f"?after={after}" if after else ""))
        if status != 200:
            return ids, status
        page = json.loads(body)
        ids += [post["id"] for post in page["posts"]]
        after = page.get("next")
        if not after:
            return ids, status


nginx = None
booths = []
machines = None
try:
    started = time.monotonic()
    machines = OtherMachines("serve", PHONES_HOST, "10.216.1.", 250, extra=PHONES[250:])
    subprocess.run(["bash", str(repo / "Tests/s3/seaweedfs.sh"), "start", str(seaweed), str(S3), "clips"], check=True)
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", f"/CN={NAME}",
                    "-addext", f"subjectAltName=DNS:{NAME}", "-keyout", str(work / "name.key"), "-out", str(work / "name.crt")],
                   check=True, capture_output=True)
    booths = [Booth("booth-1"), Booth("booth-2")]
    for booth in booths:
        booth.kiosk.start()
    servers = {SERVE1: serve(SERVE1), SERVE2: serve(SERVE2)}
    tested, nginx = start_nginx(work / "nginx", site(), work / "nginx-errors.log")
    check("nginx -t accepts the shipped site with the test's addresses", nginx is not None, tested.stderr)
    wait("nginx", lambda: curl(f"{BASE}/healthz")[0] == 404, 20)

    # The guests' posts: two at each booth. (Booth 1's first is the one its guest deletes at home,
    # booth 2's second the one its operator hides.)
    deleted, deleted_link = booths[0].shoot_and_post("löschen bitte")
    claim = booths[0].claim(deleted_link.rsplit("/", 1)[1])
    kept, _ = booths[0].shoot_and_post("booth 1 ✓")
    other, _ = booths[1].shoot_and_post("booth 2 ✓")
    hidden, _ = booths[1].shoot_and_post("hidden")
    booths[1].api("POST", f"/api/admin/posts/{hidden}/hide")
    big = noisy_post("big and noisy")
    print(f"(five posts made and uploaded, by two booths and the CLI, in {time.monotonic() - started:.0f} s)")
    check("the booth's link points at the public name", deleted_link.startswith(f"{BASE}/s/"), deleted_link)
    check("the booth gave the guest's phone its delete claim", claim.startswith("recorder_delete="), claim)
    token = deleted_link.rsplit("/", 1)[1]
    metadata = json.loads(s3_get(f"posts/{deleted}.json"))
    stored = s3_get(metadata["key"])
    check("the claim's hash is in the store with the post", len(metadata.get("deleteClaim", "")) == 64)

    # 1. The link on both servers, and through nginx.
    for port in (SERVE1, SERVE2):
        status, _, page = direct(port, f"/s/{token}")
        check(f"server {port}: the booth's link opens", status == 200 and "löschen bitte".encode() in page, str(status))
        status, _, body = direct(port, f"/s/{token}/video.mp4")
        check(f"server {port}: its video byte for byte the store's", status == 200 and stored is not None and body == stored,
              f"{status} {len(body)} of {len(stored or b'')}")
    answered = set()
    for _ in range(4):
        status, headers, body = curl(deleted_link + "/video.mp4")
        answered.add(headers.get("x-test-upstream"))
        check("through nginx: the video byte for byte", status == 200 and body == stored, f"{status} {len(body)}")
    check("nginx sends phones to both servers (round robin)", len(answered) == 2, str(answered))
    # 2. The guest's phone deletes it on server 2 with the claim it got at the booth.
    form = {"Content-Type": "application/x-www-form-urlencoded"}
    status, _, _ = direct(SERVE2, f"/s/{token}/delete", "POST", form, b"confirm=delete")
    check("without the claim, server 2 refuses the delete (403)", status == 403, str(status))
    status, _, body = direct(SERVE2, f"/s/{token}/delete", "POST", {**form, "Cookie": claim}, b"confirm=delete")
    check("with the booth's claim cookie, server 2 deletes the post", status == 200, f"{status} {body[:200]!r}")
    for port in (SERVE1, SERVE2):
        check(f"server {port} answers 404 for it after", [direct(port, f"/s/{token}{path}")[0] for path in ("", "/video.mp4")] == [404, 404])
    check("the store has it no more", s3_get(f"posts/{deleted}.json") is None)

    # 3. The host's gallery of both booths: all but the hidden and the deleted.
    made = subprocess.run([binary, "gallery", "create", "--event", "Anna & Ben", "--kiosk", "booth-1", "--kiosk", "booth-2", "--json",
                           "--card", str(work / "card.pdf"), *STORE], capture_output=True, text=True, env={**os.environ, **S3_ENV, **SHARE})
    check("recorder gallery create makes the host's link", made.returncode == 0, made.stderr)
    gallery = json.loads(made.stdout)
    link = gallery["link"]
    check("on the share links' base", link.startswith(f"{BASE}/g/"), link)
    gtoken = link.rstrip("/").rsplit("/", 1)[1]
    status, _, page = curl(link)
    check("the gallery's page opens through nginx", status == 200 and b"Anna &amp; Ben" in page, str(status))
    ids, status = gallery_posts(gtoken)
    check("it lists both booths' posts, newest first, minus the hidden and the deleted", ids == [big, other, kept], f"{ids} (big {big}, kept {kept}, other {other})")
    # Download all: a zip of the store's bytes, resumed at half way.
    zipped = work / "all.zip"
    status, headers, whole = curl(f"{link}/archive.zip", output=zipped)
    check("Download all: a zip whose length was known up front", status == 200 and headers.get("content-length") == str(len(whole)),
          f"{status} {headers.get('content-length')} {len(whole)}")
    tested = subprocess.run(["unzip", "-t", str(zipped)], capture_output=True, text=True)
    check("unzip -t accepts it", tested.returncode == 0, tested.stdout[-400:])
    with zipfile.ZipFile(zipped) as z:
        entries = [hashlib.sha256(z.read(i)).hexdigest() for i in z.infolist()]
    expected = [hashlib.sha256(s3_get(json.loads(s3_get(f"posts/{post}.json"))["key"])).hexdigest() for post in (kept, other, big)]
    check("each entry byte for byte the store's object, oldest first", entries == expected, f"{entries} {expected}")
    half = len(whole) // 2
    status, headers, rest = curl(f"{link}/archive.zip", "-H", f"Range: bytes={half}-", "-H", f"If-Range: {headers.get('etag', '')}",
                                 output=work / "rest.zip")
    check("cut at half way, it resumes with Range (206) to the same bytes", status == 206 and whole[:half] + rest == whole,
          f"{status} {len(rest)} of {len(whole) - half}")

    # 4. The crowd: 300 phones at once through nginx, each asking for a share page, its poster and
    # video, and the host's gallery and its first posts. Each server's peak memory is reset first.
    def phone_paths(post):
        share = json.loads(s3_get(f"posts/{post}.json"))
        digest = hashlib.sha256(s3_get(share["key"])).hexdigest()
        return [[f"/s/{share['shareToken']}", None], [f"/s/{share['shareToken']}/poster.jpg", None], [f"/s/{share['shareToken']}/video.mp4", digest],
                [f"/g/{gtoken}", None], [f"/g/{gtoken}/posts", None]]
    task = {"host": PHONES_HOST, "port": HTTPS, "name": NAME, "cafile": str(work / "name.crt"), "addresses": PHONES,
            "paths": [phone_paths(kept), phone_paths(other)]}
    before = {}
    for port, process in servers.items():
        pathlib.Path(f"/proc/{process.pid}/clear_refs").write_text("5")
        before[port] = memory_kib(process.pid, "VmRSS")
    crowd = subprocess.run([*machines.inside, sys.executable, str(pathlib.Path(__file__).parent / "phones.py")], input=json.dumps(task),
                           capture_output=True, text=True, timeout=300)
    served = json.loads(crowd.stdout or "{}") if crowd.returncode == 0 else {}
    figures["crowd"] = f"{served.get('served')} of {len(PHONES)} phones served whole in {served.get('seconds')} s"
    check(f"{len(PHONES)} phones at once through nginx: every one served whole (5 answers each, each video byte for byte)",
          served.get("served") == len(PHONES), f"{served.get('failures')} {crowd.stderr[-400:]}")
    answered_by = {upstream.rsplit(':', 1)[-1]: count for upstream, count in served.get("upstreams", {}).items()}
    figures["answers by server"] = json.dumps(answered_by)
    check("both servers served the crowd", all(answered_by.get(str(port), 0) > 0 for port in servers), str(answered_by))
    for port, process in servers.items():
        peak = memory_kib(process.pid, "VmHWM")
        figures[f"server {port} memory"] = f"{before[port] / 1024:.0f} MiB before, peak {peak / 1024:.0f} MiB (+{(peak - before[port]) / 1024:.1f} MiB)"
        check(f"server {port}'s memory grew by at most {GROWTH_MIB} MiB with the crowd", peak - before[port] <= GROWTH_MIB * 1024,
              figures[f"server {port} memory"])

    # 5. A server killed with -9 in the middle of a phone's download: its next range request is
    # answered by the other. The phone reads server 1 itself, not through nginx: this machine lets a
    # socket's receive buffer grow to 32 MiB (tcp_rmem), so nginx's side of an upstream connection
    # took the whole video before any kill could land, while a server's own send buffer stays at
    # most 4 MiB (tcp_wmem): what was under way when it died is a part, never all of it. The range
    # request then goes through nginx, which must find the server left.
    kept_link = f"{BASE}/s/{json.loads(s3_get(f'posts/{big}.json'))['shareToken']}/video.mp4"
    video = s3_get(json.loads(s3_get(f"posts/{big}.json"))["key"])
    phone = http.client.HTTPConnection("127.0.0.1", SERVE1, timeout=60)
    phone.connect()
    phone.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)
    phone.request("GET", kept_link.split(str(HTTPS), 1)[1])
    answer = phone.getresponse()
    victim = SERVE1
    got = answer.read(len(video) // 10)
    servers[victim].send_signal(signal.SIGKILL)
    servers[victim].wait()
    try:
        while True:
            more = answer.read(65536)
            if not more:
                break
            got += more
    except (http.client.IncompleteRead, OSError) as cut:
        got += getattr(cut, "partial", b"")
    phone.close()
    check(f"the server sending it (port {victim}) killed with -9 half way: the phone has part of it", 0 < len(got) < len(video),
          f"{len(got)} of {len(video)}")
    check("what the phone has is the video's beginning", got == video[:len(got)])
    status, headers, rest = curl(kept_link, "-H", f"Range: bytes={len(got)}-")
    check("its next range request is answered by the other server, and completes it byte for byte",
          status == 206 and got + rest == video and headers.get("x-test-upstream", "").endswith(str(SERVE1 if victim == SERVE2 else SERVE2)),
          f"{status} {len(got)}+{len(rest)} of {len(video)} via {headers.get('x-test-upstream')}")
    for _ in range(3):
        status, _, body = curl(link)
        check("the gallery still opens with one server gone", status == 200, str(status))

    # 6. SIGTERM with a host's Download all under way whose reader stopped reading: the server
    # stops within the unit's TimeoutStopSec (15 s), the download cut, never waited on for ever.
    survivor = SERVE2 if victim == SERVE1 else SERVE1
    host = socket.create_connection(("127.0.0.1", survivor), timeout=30)
    host.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 16384)
    host.sendall(f"GET /g/{gtoken}/archive.zip HTTP/1.1\r\nHost: {NAME}\r\n\r\n".encode())
    head = host.recv(4096)
    check("a Download all begins, then its reader stops reading", head.startswith(b"HTTP/1.1 200"), head[:60].decode(errors="replace"))
    time.sleep(1)
    stopping = time.monotonic()
    servers[survivor].send_signal(signal.SIGTERM)
    try:
        servers[survivor].wait(timeout=20)
    except subprocess.TimeoutExpired:
        pass
    took = time.monotonic() - stopping
    check("SIGTERM: the server stops within 15 s all the same", servers[survivor].poll() is not None and took < 15, f"{took:.1f} s")
    host.close()
except Exception as error:  # noqa: BLE001
    check("the stage ran to its end", False, repr(error))
finally:
    for process in processes:
        stop(process)
    stop(nginx)
    for booth in booths:
        if booth.kiosk.process:
            booth.kiosk.stop()
    subprocess.run(["bash", str(repo / "Tests/s3/seaweedfs.sh"), "kill", str(seaweed)], capture_output=True)
    if machines:
        machines.close()
    subprocess.run(["rm", "-rf", str(work)])
if figures:
    print("figures:")
    for key, value in figures.items():
        print(f"  {key:24} {value}")
print(f"share servers: {check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
