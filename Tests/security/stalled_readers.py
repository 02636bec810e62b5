#!/usr/bin/env python3
"""Readers that never read - what nginx forwards from phones that stop reading - must cost the
kiosk one chunk each, not the video read ahead: a real `recorder kiosk` listening on the network
with both tokens and kiosk.proxy_socket, a 29 MB share video, and from a network namespace (other
machines: 65 addresses on a veth link, Debian's iproute2) 260 clients that ask for it with a 4 KiB
receive buffer and never read a byte (Tests/security/crowd.py), 4 per address, so that 256 are sent
(the crowd's cap) and 4 are told to wait. Once directly (kiosk.listen), once through the shipped
nginx file (the no-certificate variant, on the veth link) to the kiosk's proxy socket. Each time:

- the kiosk's memory grows by at most 128 KiB a reader being sent (one 64 KiB chunk and its
  connection's own state) + 16 MiB: landed main held 248 KiB a reader sent directly from other
  machines, and 13.6 MiB a reader through nginx (3.4 GiB for 256; 6.5 MiB from loopback);
- the booth's own screen (loopback, the booth's token) gets a video whole meanwhile: it has places
  of its own that the crowd cannot take (it got 429 before);
- directly, the kiosk's sockets hold at most their fixed send buffer each (256 KiB as Linux counts
  it; a TCP send buffer autotuned to 4 MiB for a reader that does not read);
- after the readers go, the memory goes: RSS within 32 MiB of before, 10 s after the last answer
  ended (glibc kept the freed chunks in its arenas: the kiosk gives them back).

Then what the proxy and the kiosk believe: nginx counts an IPv6 phone by its /64 (two of its
addresses share its 8 connections: the ninth is nginx's 429, while another /64 is served), and the
kiosk's kiosk.listen takes no X-Real-IP from a client (a fifth video at once from one address is
429 whatever each request claims). Prints its figures (for Benchmarks/crowd.sh: STALLED=N readers,
VIA=direct|proxy|both, default both; PROXY_SOCKET=0 and NGINX_SITE=FILE for an older binary and its
nginx file). Needs root.

    python Tests/security/stalled_readers.py RECORDER_BINARY
"""
import json, os, pathlib, re, shutil, subprocess, sys, tempfile, time

from raw_http import request
from security_support import (BOOTH, OPERATOR, Checks, Kiosk, OtherMachines, artifacts_folder, free_port, noisy_post, rss_kib,
                              shipped_nginx, start_nginx, stop, without_tls)

STALLED, ADDRESSES = int(os.environ.get("STALLED", 260)), 65
VIA = os.environ.get("VIA", "both")
# A reader being sent: one 64 KiB chunk and its connection's own state (about 25 KiB: a connection
# that sent a request head and reads nothing) - at most 128 KiB; and 16 MiB beside them for the
# allocator's arenas and the booth's own video. After they left: within 32 MiB of before.
CHUNK_BOUND_KIB, SLACK_MIB, BACK_MIB = 128, 16, 32
binary = sys.argv[1]
artifacts = artifacts_folder()
check = Checks()
figures = {}
HOST, CROWD_PREFIX, PHONE = "10.214.0.1", "10.214.1.", "10.214.2.1"
HOST6, PHONE_A1, PHONE_A2, PHONE_B = "fd42:214::1", "fd42:214:0:5::a", "fd42:214:0:5::b", "fd42:214:0:6::a"
# An older binary (Benchmarks/crowd.sh's OLD=) has no proxy socket: PROXY_SOCKET=0 leaves it out.
with_socket = os.environ.get("PROXY_SOCKET", "1") == "1"


def rss_mib(pid):
    return rss_kib(pid) / 1024


def metric(name):
    """A gauge of the kiosk's /metrics (None when it has none: an older binary)."""
    try:
        answer = request("127.0.0.1", kiosk.port, "GET", "/metrics", [("Authorization", f"Bearer {OPERATOR}")], timeout=10)
    except OSError:
        return None
    found = re.search(rf"^recorder_{name} (\S+)$", answer.body.decode(errors="replace"), re.M)
    return float(found.group(1)) if found else None


def wait_until(what, predicate, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.25)
    return None


def send_queues_kib(port):
    """The kiosk's TCP sockets on `port`: the bytes in their send queues, in all."""
    out = subprocess.run(["ss", "-tnH", "state", "established", f"( sport = :{port} )"], capture_output=True, text=True).stdout
    return sum(int(line.split()[1]) for line in out.splitlines() if len(line.split()) > 1 and line.split()[1].isdigit()) / 1024


def booth_video():
    """The booth's own screen asks for the video (loopback, its token): status, bytes, seconds."""
    started = time.monotonic()
    answer = request("127.0.0.1", kiosk.port, "GET", f"/api/videos/{post}.mp4", [("Authorization", f"Bearer {BOOTH}")], timeout=120)
    return answer.status, len(answer.body), time.monotonic() - started


def crowd_of(target_host, target_port, count):
    """`count` stalled readers from the namespace's crowd addresses; returns the process, once connected."""
    crowd = subprocess.Popen([*inside, sys.executable, str(pathlib.Path(__file__).parent / "crowd.py"), target_host, str(target_port),
                              f"/s/{token}/video.mp4", "0", "0", CROWD_PREFIX, str(ADDRESSES), str(count)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    arrived = json.loads(crowd.stdout.readline())
    check(f"the crowd is there ({count} stalled readers from {ADDRESSES} addresses)", arrived["stalled"] == count, str(arrived))
    return crowd


def phase(name, target_host, target_port):
    """The stalled crowd against one way in; its checks and figures under `name`."""
    expected = min(STALLED, 256, ADDRESSES * 4)
    before = rss_mib(pid)
    crowd = crowd_of(target_host, target_port, STALLED)
    # Every answer under way: the kiosk's own count says so (an older binary has none: then its
    # memory is watched until it stops growing for 3 s).
    started = time.monotonic()
    if metric("video_answers") is not None:
        reached = wait_until("the answers", lambda: (metric("video_answers") or 0) >= expected, 120)
        check(f"{name}: the kiosk sends {expected} of them at once (its count of video answers)", reached, str(metric("video_answers")))
    samples = [rss_mib(pid)]
    steady_since = time.monotonic()
    while time.monotonic() - steady_since < 3 and time.monotonic() - started < 60:
        time.sleep(0.25)
        samples.append(rss_mib(pid))
        if samples[-1] > max(samples[:-1]) + 1:
            steady_since = time.monotonic()
    queued = send_queues_kib(target_port) if name == "direct" else None
    status, length, seconds = booth_video()
    samples.append(rss_mib(pid))
    peak = max(samples)
    figures[f"{name}: RSS before"] = f"{before:.0f} MiB"
    per_reader = f", {(peak - before) * 1024 / expected:.0f} KiB a reader sent" if expected else ""
    figures[f"{name}: RSS with {STALLED} stalled"] = f"{peak:.0f} MiB (+{peak - before:.0f} MiB{per_reader})"
    figures[f"{name}: booth's own video meanwhile"] = f"{status}, {length / 1e6:.1f} MB in {seconds:.2f} s"
    bound = expected * CHUNK_BOUND_KIB / 1024 + SLACK_MIB
    check(f"{name}: {STALLED} readers that never read hold at most {CHUNK_BOUND_KIB} KiB each of the kiosk's memory "
          f"(+{SLACK_MIB} MiB): RSS +{peak - before:.0f} MiB, bound +{bound:.0f} MiB", peak - before <= bound, figures[f"{name}: RSS with {STALLED} stalled"])
    check(f"{name}: meanwhile the booth's own screen gets a video whole (200)", status == 200 and length == size, f"{status} {length} of {size}")
    if queued is not None:
        figures[f"{name}: kernel send queues"] = f"{queued / 1024:.1f} MiB ({queued / max(expected, 1):.0f} KiB a reader)"
        check(f"{name}: the kiosk's sockets hold at most their fixed send buffer each (256 KiB)", queued <= expected * 256,
              figures[f"{name}: kernel send queues"])
    # They go.
    crowd.stdin.close()
    left = json.loads(crowd.stdout.readline())
    crowd.wait(timeout=60)
    figures[f"{name}: answers"] = json.dumps(left["stalledReaderAnswers"])
    check(f"{name}: the readers were sent the video or told to wait (200 or 429)", set(left["stalledReaderAnswers"]) <= {"200", "429"},
          figures[f"{name}: answers"])
    if metric("video_answers") is not None:
        wait_until("the answers to end", lambda: metric("video_answers") == 0, 60)
    else:
        time.sleep(3)
    # (the spec's own time: what the kiosk holds 10 s after the last answer, not how soon it let go)
    ended = time.monotonic()
    while time.monotonic() - ended < 10:
        time.sleep(0.25)
    after = rss_mib(pid)
    figures[f"{name}: RSS 10 s after they left"] = f"{after:.0f} MiB (+{after - before:.0f} MiB)"
    check(f"{name}: 10 s after the readers left, the kiosk's memory is within {BACK_MIB} MiB of before", after <= before + BACK_MIB,
          figures[f"{name}: RSS 10 s after they left"])


kiosk_env = {"RECORDER_KIOSK_TOKEN": OPERATOR, "RECORDER_KIOSK_BOOTH_TOKEN": BOOTH, "RECORDER_KIOSK_HOSTS": "booth"}
if with_socket:
    socket_dir = pathlib.Path(tempfile.mkdtemp(prefix="recorder-stall-socket-"))
    os.chmod(socket_dir, 0o755)
    kiosk_env["RECORDER_KIOSK_PROXY_SOCKET"] = str(socket_dir / "proxy.sock")
kiosk = Kiosk(binary, artifacts / "stalled-kiosk.log", args=["--countdown", "0"], prefix="recorder-stall-", listen="0.0.0.0", env=kiosk_env)
nginx, crowd, machines, work = None, None, None, pathlib.Path(tempfile.mkdtemp(prefix="recorder-stall-nginx-"))
os.chmod(work, 0o755)
status = None
try:
    # The other machines: a namespace with 65 addresses and a phone, IPv4 and IPv6, on a veth link.
    machines = OtherMachines("stall", HOST, CROWD_PREFIX, ADDRESSES, extra=[PHONE, PHONE_A1, PHONE_A2, PHONE_B], host6=HOST6)
    inside = machines.inside

    metadata = noisy_post(binary, kiosk)
    post, token, size = metadata["id"], metadata["shareToken"], metadata["byteSize"]
    figures["shared video"] = f"{size / 1e6:.1f} MB"
    kiosk.start()
    pid = kiosk.process.pid
    # Before: the video once to a phone and once to the booth (the cache and the pools in use).
    phone = subprocess.run([*inside, "curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{size_download}", "--max-time", "120",
                            "--interface", PHONE, f"http://{HOST}:{kiosk.port}/s/{token}/video.mp4"], capture_output=True, text=True)
    check("a phone on the network gets the share video", phone.stdout == f"200 {size}", phone.stdout)
    check("the booth's screen gets it", booth_video()[:2] == (200, size))
    figures["RSS at start"] = f"{rss_mib(pid):.0f} MiB"

    if VIA in ("direct", "both"):
        phase("direct", HOST, kiosk.port)

    if VIA in ("proxy", "both"):
        # The shipped nginx file without a certificate (its "# tls" lines deleted), on the veth
        # link, in front of the kiosk's proxy socket (an older binary: its loopback port).
        port = free_port()
        replacements = [("listen 80;", f"listen {HOST}:{port};"), ("listen [::]:80;", f"listen [{HOST6}]:{port};")]
        replacements.append(("unix:/run/recorder/proxy.sock", f"unix:{socket_dir}/proxy.sock") if with_socket
                            else ("127.0.0.1:8080", f"127.0.0.1:{kiosk.port}"))
        replacements.append(("/var/log/nginx/access.log", f"{work}/access.log"))
        if os.environ.get("NGINX_SITE"):
            # An older binary's own file, whole (one file then, with no "# tls" marks: its TLS lines
            # go by what they say).
            site = pathlib.Path(os.environ["NGINX_SITE"]).read_text()
            for old, new in replacements:
                assert old in site, f"the nginx file no longer has {old!r}"
                site = site.replace(old, new)
            site = "\n".join(line for line in without_tls(site).splitlines() if "443" not in line and "ssl_certificate" not in line)
        else:
            site = shipped_nginx(work, replacements, tls=False)
        tested, nginx = start_nginx(work, site, artifacts / "stalled-nginx.log")
        check("nginx takes the shipped file (nginx -t)", tested.returncode == 0, tested.stderr)
        wait_until("nginx", lambda: subprocess.run([*inside, "curl", "-s", "-o", "/dev/null", f"http://{HOST}:{port}/"]).returncode == 0, 20)
        phase("through nginx", HOST, port)

        # An IPv6 phone is one /64, however many addresses it takes: nginx's 8 connections are the
        # /64's. Each connection here is a delete form whose body never comes (nginx holds it,
        # counted, for its 10 s body timeout); the ninth from the /64 is nginx's 429 at once.
        holder = r"""
import socket, sys, json
port, token = int(sys.argv[1]), sys.argv[2]
def form(source):
    s = socket.socket(socket.AF_INET6)
    s.bind((source, 0))
    s.connect((sys.argv[3], port))
    s.sendall(f"POST /s/{token}/delete HTTP/1.1\r\nHost: booth\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 500\r\n\r\n".encode())
    return s
held = [form(sys.argv[4]) for _ in range(4)] + [form(sys.argv[5]) for _ in range(4)]
ninth = form(sys.argv[5])
ninth.settimeout(8)
try:
    ninth_head = ninth.recv(200).split(b"\r\n", 1)[0].decode()
except OSError:
    ninth_head = "no answer in 8 s"
other = socket.socket(socket.AF_INET6)
other.bind((sys.argv[6], 0))
other.connect((sys.argv[3], port))
other.sendall(f"GET /s/{token} HTTP/1.1\r\nHost: booth\r\nConnection: close\r\n\r\n".encode())
other.settimeout(30)
other_head = other.recv(200).split(b"\r\n", 1)[0].decode()
print(json.dumps({"ninth": ninth_head, "other": other_head}))
"""
        answers = subprocess.run([*inside, sys.executable, "-c", holder, str(port), token, HOST6, PHONE_A1, PHONE_A2, PHONE_B],
                                 capture_output=True, text=True, timeout=120)
        heads = json.loads(answers.stdout or "{}")
        check("nginx counts an IPv6 phone by its /64: the ninth connection from two of its addresses is nginx's 429",
              heads.get("ninth", "").startswith("HTTP/1.1 429"), answers.stdout + answers.stderr[-300:])
        check("meanwhile a phone of another /64 is served", heads.get("other") == "HTTP/1.1 200 OK", answers.stdout)

    # kiosk.listen believes no X-Real-IP: five videos at once from one address, each naming
    # another phone, are that one address's four and a 429.
    claims = r"""
import socket, sys
host, port, path, source = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
held, heads = [], []
for n in range(5):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.bind((source, 0))
    s.connect((host, port))
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: booth\r\nX-Real-IP: 10.99.0.{n + 1}\r\n\r\n".encode())
    s.settimeout(30)
    heads.append(s.recv(100).split(b"\r\n", 1)[0].decode())
    held.append(s)
print("|".join(heads))
"""
    heads = subprocess.run([*inside, sys.executable, "-c", claims, HOST, str(kiosk.port), f"/s/{token}/video.mp4", PHONE],
                           capture_output=True, text=True, timeout=120).stdout.strip().split("|")
    check("kiosk.listen takes no X-Real-IP from a client: one address's fifth video at once is 429, whoever it claims to be",
          heads[:4] == ["HTTP/1.1 200 OK"] * 4 and heads[4:] == ["HTTP/1.1 429 Too Many Requests"], str(heads))
    check("the kiosk is healthy after it all", request("127.0.0.1", kiosk.port, "GET", "/healthz").status == 200)
finally:
    if crowd:
        crowd.kill()
    stop(nginx)
    status = kiosk.stop() if kiosk.process else None
    if machines:
        machines.close()
    shutil.rmtree(work, ignore_errors=True)

check("the kiosk exits 0 on SIGTERM", status == 0, f"exit {status}")
print("figures:")
for name, value in figures.items():
    print(f"  {name:44} {value}")
print(f"stalled readers: {check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
