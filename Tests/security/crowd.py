#!/usr/bin/env python3
"""The hostile crowd of Tests/security/exhaustion.py and stalled_readers.py, run inside their network
namespace (other machines on the event's network): from ADDRESSES source addresses it opens
HALF_OPEN connections that send half a request head and then nothing, SLOW readers of one share
link's video that read a kilobyte every two seconds, and STALLED readers of it that never read a
byte (what nginx forwards from phones that stop reading); every reader asks for a 4 KiB receive
buffer. It prints one JSON line when its connections are made, holds them until its standard input
closes, then prints what the kiosk did to them (JSON).

    python3 crowd.py HOST PORT PATH HALF_OPEN SLOW ADDRESS_PREFIX ADDRESSES [STALLED]
"""
import json, resource, select, socket, sys, time

host, port, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
half_open, slow = int(sys.argv[4]), int(sys.argv[5])
prefix, addresses = sys.argv[6], int(sys.argv[7])
stalled = int(sys.argv[8]) if len(sys.argv) > 8 else 0
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, half_open + slow + stalled + 256)), hard))


def source(i):
    return f"{prefix}{1 + i % addresses}"


def connect(i):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.bind((source(i), 0))
    s.settimeout(10)
    try:
        s.connect((host, port))
    except OSError:
        s.close()
        return None
    s.setblocking(False)
    return s


def asking(i, request):
    """A connection from source `i` that has sent `request`; None when it could not connect."""
    s = connect(i)
    if s is not None:
        try:
            s.send(request)
        except OSError:
            pass
    return s


started = time.monotonic()
video = f"GET {path} HTTP/1.1\r\nHost: booth\r\n\r\n".encode()
# (the stalled readers first, one per address in turn: each address's share of the kiosk's places)
still = [s for s in (asking(i, video) for i in range(stalled)) if s is not None]
readers = [[s, b"", 0] for s in (asking(i, video) for i in range(slow)) if s is not None]
unconnected = stalled - len(still) + slow - len(readers)
# (the readers first: they take their places before the half-open connections fill the rest)
halves = [s for s in (asking(slow + i, b"GET /healthz HTTP/1.1\r\nHost: booth\r\nX-Half: ") for i in range(half_open)) if s is not None]
unconnected += half_open - len(halves)
print(json.dumps({"ready": True, "halfOpen": len(halves), "slow": len(readers), "stalled": len(still), "unconnected": unconnected,
                  "seconds": round(time.monotonic() - started, 1)}), flush=True)

# Hold on until told to stop: the slow readers read a little now and then; a half-open connection
# the kiosk closes is noted with when.
closed_at = {}
statuses = {}
while True:
    ready, _, _ = select.select([sys.stdin], [], [], 2.0)
    if ready and not sys.stdin.readline():
        break
    now = time.monotonic() - started
    for s in halves:
        if s.fileno() in closed_at or s.fileno() < 0:
            continue
        try:
            data = s.recv(4096)
            if data == b"":
                closed_at[s.fileno()] = now
        except BlockingIOError:
            pass
        except OSError:
            closed_at[s.fileno()] = now
    for reader in readers:
        s, head, got = reader
        if got < 0:
            continue
        try:
            data = s.recv(1024)
            if data == b"":
                reader[2] = -1
                continue
            if len(head) < 64:
                reader[1] = head + data
            reader[2] = got + len(data)
        except BlockingIOError:
            pass
        except OSError:
            reader[2] = -1
for reader in readers:
    head = reader[1]
    status = head.split(b" ", 2)[1].decode() if head.startswith(b"HTTP/") else ("closed" if reader[2] < 0 else "none")
    statuses[status] = statuses.get(status, 0) + 1
# What each stalled reader was answered: the first bytes waiting in its buffer, read only now.
stalled_statuses = {}
for s in still:
    try:
        head = s.recv(64)
        status = head.split(b" ", 2)[1].decode() if head.startswith(b"HTTP/") else "closed" if not head else "garbled"
    except BlockingIOError:
        status = "none"
    except OSError:
        status = "reset"
    stalled_statuses[status] = stalled_statuses.get(status, 0) + 1
    s.close()
times = sorted(closed_at.values())
print(json.dumps({"halfOpenClosedByKiosk": len(times), "firstClosedAfter": round(times[0], 1) if times else None,
                  "lastClosedAfter": round(times[-1], 1) if times else None, "slowReaderAnswers": statuses,
                  "slowReadBytes": sum(max(r[2], 0) for r in readers), "stalledReaderAnswers": stalled_statuses}), flush=True)
