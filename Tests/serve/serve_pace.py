#!/usr/bin/env python3
"""`recorder serve` paces requests as the kiosk does (issue 52: "per-phone limits as the kiosk's"): a
real share server on a local store, asked as its proxy asks (from 127.0.0.1, of `serve.proxies`, the
phone named in X-Real-IP, as the shipped nginx site names it):

- of one phone's request bodies sent slowly (`POST /s/TOKEN/delete`, Content-Length 200, under the
  route's 256, a byte a second) 4 are taken at once, the fifth refused at once (429, Retry-After),
  and another phone's still taken (before: every one held, none refused);
- every one of those slow bodies is closed by the server once it falls behind the minimum rate, a
  few seconds after its head (before: held for as long as a byte came now and then, so a few phones
  took every connection the server has);
- `Content-Length: 60000` on the delete is refused at once (413), before a byte of it is read;
- afterwards the server answers /healthz.

About 12 s. Needs no root: the phones are named by the proxy, whose address is this machine's.

    python Tests/serve/serve_pace.py RECORDER_BINARY
"""
import os, pathlib, socket, subprocess, sys, tempfile, time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "security"))
from raw_http import request  # noqa: E402
from security_support import Checks, artifacts_folder, free_port, stop  # noqa: E402

binary = sys.argv[1]
artifacts = artifacts_folder()
check = Checks()
work = pathlib.Path(tempfile.mkdtemp(prefix="recorder-serve-pace-"))
PORT = free_port()
PHONE_A, PHONE_B = "192.0.2.7", "192.0.2.8"
TOKEN = "Aq3xZr8Kp1Lw9Tn2Vb4HcJ"


class SlowBody:
    """A POST whose head and first byte are sent at once, then nothing until `more()`; what the server
    did with it: its status (0: none) and whether it closed the connection."""

    def __init__(self, phone, length=200):
        self.socket = socket.create_connection(("127.0.0.1", PORT))
        self.socket.sendall(f"POST /s/{TOKEN}/delete HTTP/1.1\r\nHost: 127.0.0.1:{PORT}\r\nX-Real-IP: {phone}\r\n"
                            f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {length}\r\n\r\nc".encode())
        self.socket.setblocking(False)
        self.data, self.closed = b"", False

    def more(self):
        """Sends one more byte of the body (if the server still takes it) and reads what came back."""
        self.look()
        if not self.closed:
            try:
                self.socket.send(b"o")
            except OSError:
                self.closed = True

    def look(self):
        while not self.closed:
            try:
                got = self.socket.recv(4096)
            except BlockingIOError:
                return
            except OSError:
                got = b""
            if not got:
                self.closed = True
            self.data += got

    @property
    def status(self):
        return int(self.data.split(b" ", 2)[1]) if self.data.startswith(b"HTTP/1.1 ") else 0

    def header(self, name):
        for line in self.data.split(b"\r\n\r\n", 1)[0].split(b"\r\n")[1:]:
            if line.lower().startswith(name.lower().encode() + b":"):
                return line.split(b":", 1)[1].strip().decode()
        return None


def settle(bodies, seconds):
    """`seconds` of a byte a second on each body still open."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for body in bodies:
            body.more()
        time.sleep(min(1, max(0, end - time.monotonic())))
    for body in bodies:
        body.look()


server = None
try:
    environment = {**os.environ, "XDG_CACHE_HOME": str(work / "cache")}
    environment.pop("RECORDER_CONFIG", None)
    server = subprocess.Popen([binary, "serve", "--listen", f"127.0.0.1:{PORT}", "--store-dir", str(work / "store"), "--create"],
                              stdout=open(artifacts / "serve-pace.log", "w"), stderr=subprocess.STDOUT, env=environment)
    end = time.monotonic() + 30
    while time.monotonic() < end and server.poll() is None:
        try:
            if request("127.0.0.1", PORT, "GET", "/healthz", timeout=2).status == 200:
                break
        except OSError:
            pass
        time.sleep(0.2)
    check("recorder serve answers /healthz", request("127.0.0.1", PORT, "GET", "/healthz").status == 200)

    # One phone's bodies: 4 taken, the fifth refused at once; another phone's taken.
    mine = [SlowBody(PHONE_A) for _ in range(4)]
    settle(mine, 0.5)
    fifth, other = SlowBody(PHONE_A), SlowBody(PHONE_B)
    settle(mine + [fifth, other], 1)
    check("of one phone's slow bodies 4 are taken (no answer yet)", [b.status for b in mine] == [0] * 4, str([b.status for b in mine]))
    check("its fifth at once is refused: 429 with Retry-After, the connection closed",
          fifth.status == 429 and fifth.header("Retry-After") == "1" and fifth.closed, f"{fifth.status} {fifth.data[:200]!r}")
    check("another phone's slow body is still taken", other.status == 0 and not other.closed, f"{other.status} closed {other.closed}")

    # A byte a second is far below the minimum rate: each is closed soon after its grace.
    started = time.monotonic()
    settle(mine + [other], 6)
    open_after = [b for b in mine + [other] if not b.closed]
    check("every slow body is closed by the server within 8 s of its head (a byte a second is too slow)", not open_after,
          f"{len(open_after)} of 5 still open {time.monotonic() - started + 1.5:.1f} s after their heads")

    # A body larger than the route takes, refused by its length before any of it is read.
    asked = time.monotonic()
    large = request("127.0.0.1", PORT, "POST", f"/s/{TOKEN}/delete",
                    [("X-Real-IP", PHONE_B), ("Content-Type", "application/x-www-form-urlencoded"), ("Content-Length", "60000")], timeout=5)
    check("Content-Length 60000 on the delete is refused at once (413), no byte of it sent",
          large.status == 413 and time.monotonic() - asked < 3, f"{large!r} after {time.monotonic() - asked:.1f} s")
    check("afterwards the server answers /healthz", request("127.0.0.1", PORT, "GET", "/healthz").status == 200)
except Exception as error:  # noqa: BLE001
    check("the check ran to its end", False, repr(error))
finally:
    stop(server)
    status = server.returncode if server else None
    subprocess.run(["rm", "-rf", str(work)])
check("recorder serve exits 0 on SIGTERM", status == 0, f"exit {status}")
print(f"serve pace: {check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
