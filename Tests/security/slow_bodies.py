#!/usr/bin/env python3
"""Request bodies sent slowly must not hold the kiosk (issue 50): a real `recorder kiosk` listening
on the network with both tokens and on the proxy's socket, and from a network namespace (other
machines: 16 addresses and a fresh one, on a veth link, Debian's iproute2):

- 16 addresses x 32 connections send `POST /login` (Content-Length 900, under the route's limit)
  and `POST /s/<token>/delete` (200) a byte every 5 s after `{`, and never open another: every one
  is closed by the kiosk, within the whole-request deadline (the kiosk before this held all 512,
  every place it has for other machines, as long as they kept sending);
- meanwhile a fresh address's `GET /healthz` is answered (before: closed unanswered);
- `Content-Length: 60000` on `/login` is refused at once (413), before a byte of it is read;
- of one phone's bodies (the proxy's socket, X-Real-IP) 4 are taken at once, the next refused (429),
  another phone's still taken;
- a body that keeps above the minimum rate but would take 32 s is cut at the whole-request deadline
  (20 s), where before it was read to its end;
- afterwards the kiosk is healthy, and a login with the right token works.

Prints its figures. Needs root (a network namespace).

    python Tests/security/slow_bodies.py RECORDER_BINARY
"""
import json, pathlib, socket, subprocess, sys, tempfile, threading, time

from raw_http import request
from security_support import BOOTH, OPERATOR, Checks, Kiosk, OtherMachines, artifacts_folder, finish, noisy_post

binary = sys.argv[1]
artifacts = artifacts_folder()
check = Checks()
figures = {}
HOST_ADDRESS, SENDERS_PREFIX, FRESH = "10.214.0.1", "10.214.1.", "10.214.2.1"
ADDRESSES, PER_ADDRESS, OBSERVE = 16, 32, 40
PROXY_SOCKET = str(pathlib.Path(tempfile.mkdtemp(prefix="recorder-slow-")) / "proxy.sock")


def slow_post(target, length, headers=(), unix=None, port=None, first=b"{", every=None, chunk=b" ", seconds=6):
    """Sends a POST's head and `first`, then `chunk` every `every` seconds, for at most `seconds`:
    returns (seconds until the kiosk answered or closed, the status it answered or 0, whether it
    closed the connection)."""
    if unix:
        s = socket.socket(socket.AF_UNIX)
        s.connect(unix)
    else:
        s = socket.create_connection(("127.0.0.1", port))
    head = f"POST {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n"
    head += "".join(f"{name}: {value}\r\n" for name, value in headers) + "\r\n"
    s.sendall(head.encode() + first)
    started, data, closed, answered = time.monotonic(), b"", False, None
    s.settimeout(every or 0.5)
    next_send = started + (every or seconds)
    while time.monotonic() - started < seconds:
        try:
            chunk_in = s.recv(4096)
            if not chunk_in:
                closed = True
                break
            data += chunk_in
            if b"\r\n\r\n" in data and answered is None:
                # Answered: how long it took; then whether the kiosk closes the connection soon after.
                answered = time.monotonic() - started
                seconds = min(seconds, answered + 2)
        except socket.timeout:
            pass
        except OSError:
            closed = True
            break
        if every and time.monotonic() >= next_send:
            next_send += every
            try:
                s.send(chunk)
            except OSError:
                closed = True
                break
    elapsed = answered if answered is not None else time.monotonic() - started
    s.close()
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.1 ") else 0
    return elapsed, status, closed


kiosk = Kiosk(binary, artifacts / "slow-bodies-kiosk.log", prefix="recorder-slow-", listen="0.0.0.0",
              env={"RECORDER_KIOSK_TOKEN": OPERATOR, "RECORDER_KIOSK_BOOTH_TOKEN": BOOTH, "RECORDER_KIOSK_HOSTS": "booth",
                   "RECORDER_KIOSK_PROXY_SOCKET": PROXY_SOCKET})
senders, machines, status = None, None, None
try:
    machines = OtherMachines("slow", HOST_ADDRESS, SENDERS_PREFIX, ADDRESSES, extra=[FRESH])
    inside = machines.inside
    share = noisy_post(binary, kiosk, seconds=1, size="320x240")["shareToken"]
    kiosk.start()

    # A body that keeps above the minimum rate (2 KiB a second) but would take 32 s, on the
    # booth's own loopback (which no per-address count limits): the whole-request deadline ends it.
    steady = {}

    def steady_body():
        steady["result"] = slow_post("/api/post", 64 * 1024, headers=[("Authorization", f"Bearer {BOOTH}")], port=kiosk.port,
                                     first=b'{"id": "x", "caption": "', every=1, chunk=b"x" * 2048, seconds=40)
    steady_thread = threading.Thread(target=steady_body)
    steady_thread.start()

    senders = subprocess.Popen([*inside, sys.executable, str(pathlib.Path(__file__).parent / "slow_senders.py"), HOST_ADDRESS, str(kiosk.port),
                                SENDERS_PREFIX, str(ADDRESSES), str(PER_ADDRESS), str(OBSERVE), "/login", "900", f"/s/{share}/delete", "200"],
                               stdout=subprocess.PIPE, text=True)
    ready = json.loads(senders.stdout.readline())
    figures["slow senders connected"] = f"{ready['connected']} in {ready['seconds']} s ({ready['unconnected']} not)"
    check(f"the slow senders are there ({ADDRESSES} addresses x {PER_ADDRESS} connections)",
          ready["connected"] + ready["unconnected"] == ADDRESSES * PER_ADDRESS and ready["connected"] > 0, json.dumps(ready))

    # While they send: a fresh address asks for /healthz.
    fresh, arrived = [], time.monotonic()
    for at in (8, 20):
        time.sleep(max(0, arrived + at - time.monotonic()))
        asked = subprocess.run([*inside, "curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "10", "--interface", FRESH,
                                f"http://{HOST_ADDRESS}:{kiosk.port}/healthz"], capture_output=True, text=True)
        fresh.append(asked.stdout.strip() or "no answer")
    figures["a fresh address's /healthz meanwhile"] = ", ".join(fresh)
    check("a fresh address's /healthz is answered while the slow senders send", fresh == ["200", "200"], str(fresh))

    left = json.loads(senders.stdout.readline())
    senders.wait(timeout=30)
    senders = None
    figures["slow senders closed by the kiosk"] = (f"{left['closedByKiosk']} of {left['connected']}, after {left['firstClosedAfter']} to "
                                                   f"{left['lastClosedAfter']} s (median {left['medianClosedAfter']} s)")
    figures["their answers"] = json.dumps(left["statuses"])
    check(f"the kiosk closed every slow sender within {OBSERVE} s", left["closedByKiosk"] == left["connected"], json.dumps(left))
    check("each within the whole-request deadline (20 s, and 5 s for a check's turn)",
          left["lastClosedAfter"] is not None and left["lastClosedAfter"] <= 25, json.dumps(left))
    check("an address's bodies beyond 4 at once were refused (429), the others cut unanswered",
          set(left["statuses"]) <= {"429", "closed unanswered"} and left["statuses"].get("429", 0) >= ADDRESSES * (PER_ADDRESS - 4) * 0.9,
          json.dumps(left["statuses"]))

    # A body larger than its route takes is refused by its Content-Length, at once.
    elapsed, code, closed = slow_post("/login", 60000, port=kiosk.port, every=1, seconds=8)
    figures["/login, Content-Length 60000"] = f"{code or 'no answer'} after {elapsed:.1f} s" + (", closed" if closed else ", still open")
    check("/login with Content-Length 60000 is refused at once (413) and closed", code == 413 and elapsed < 2 and closed,
          figures["/login, Content-Length 60000"])

    # One phone's bodies through the proxy: 4 at once, the next refused; another phone's taken.
    phone_bodies = []
    lock = threading.Lock()

    def phone_body(ip):
        result = slow_post(f"/s/{share}/delete", 200, headers=[("X-Real-IP", ip)], unix=PROXY_SOCKET, every=1, seconds=1.5)
        with lock:
            phone_bodies.append((ip,) + result)
    threads = [threading.Thread(target=phone_body, args=("10.9.9.9",)) for _ in range(6)] + [threading.Thread(target=phone_body, args=("10.9.9.10",))]
    for thread in threads[:6]:
        thread.start()
    time.sleep(0.5)
    threads[6].start()
    for thread in threads:
        thread.join()
    one = [code for ip, _, code, _ in phone_bodies if ip == "10.9.9.9"]
    other = [code for ip, _, code, _ in phone_bodies if ip == "10.9.9.10"]
    taken = len(one) - one.count(429)
    figures["one phone's 6 bodies at once (proxy)"] = f"{taken} taken, {one.count(429)} refused (429); another phone's: {other}"
    check("one phone's bodies: 4 taken at once, the others refused (429)", taken == 4 and one.count(429) == 2, str(phone_bodies))
    check("another phone's body is still taken", other and 429 not in other, str(phone_bodies))

    steady_thread.join()
    elapsed, code, closed = steady["result"]
    figures["a steady 2 KiB/s body of 64 KiB"] = f"{code or 'no answer'} after {elapsed:.1f} s" + (", closed" if closed else "")
    check("a body above the minimum rate that would take 32 s is cut at the whole-request deadline (20 s)",
          code == 0 and closed and 18 <= elapsed <= 23, figures["a steady 2 KiB/s body of 64 KiB"])

    check("the kiosk is healthy after them", request("127.0.0.1", kiosk.port, "GET", "/healthz").status == 200)
    login = request("127.0.0.1", kiosk.port, "POST", "/login", [("Content-Type", "application/json")], json.dumps({"token": OPERATOR}))
    check("a login with the right token works after them", login.status == 200, repr(login))
finally:
    if senders:
        senders.kill()
    status = kiosk.stop()
    if machines:
        machines.close()

finish(check, "slow_bodies", status, figures)
