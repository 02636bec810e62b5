#!/usr/bin/env python3
"""The slow senders of Tests/security/slow_bodies.py, run inside its network namespace (other
machines on the event's network): from ADDRESSES source addresses, PER_ADDRESS connections each
send a request's head with a Content-Length, then `{`, then one more byte of the body every 5 s
(each connection its own turn), never the rest; the targets (TARGET LENGTH pairs) take turns. It
never opens a connection again. It prints one JSON line when its connections are made, then after
SECONDS what the kiosk did to them: how many it closed, after how long, and the statuses it
answered before closing (JSON).

    python3 slow_senders.py HOST PORT ADDRESS_PREFIX ADDRESSES PER_ADDRESS SECONDS TARGET LENGTH [TARGET LENGTH ...]
"""
import json, resource, select, socket, sys, time

host, port, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
addresses, per_address, seconds = int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6])
targets = [(sys.argv[i], int(sys.argv[i + 1])) for i in range(7, len(sys.argv), 2)]
count = addresses * per_address
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, count + 256)), hard))

connections = []  # [socket, opened at, next byte at, closed after or None, bytes answered]
unconnected = 0
started = time.monotonic()
for i in range(count):
    target, length = targets[i % len(targets)]
    s = socket.socket()
    s.bind((f"{prefix}{1 + i % addresses}", 0))
    s.settimeout(10)
    try:
        s.connect((host, port))
        s.sendall(f"POST {target} HTTP/1.1\r\nHost: booth\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n{{".encode())
    except OSError:
        s.close()
        unconnected += 1
        continue
    s.setblocking(False)
    now = time.monotonic()
    connections.append([s, now, now + 5 * (i % 50) / 50, None, b""])
print(json.dumps({"ready": True, "connected": len(connections), "unconnected": unconnected, "seconds": round(time.monotonic() - started, 1)}),
      flush=True)

end = time.monotonic() + seconds
while time.monotonic() < end:
    open_ones = [c for c in connections if c[3] is None]
    if not open_ones:
        break
    readable, _, _ = select.select([c[0] for c in open_ones], [], [], 0.2)
    now = time.monotonic()
    for c in open_ones:
        if c[0] in readable:
            try:
                data = c[0].recv(4096)
            except OSError:
                data = b""
            if data:
                c[4] += data
            else:
                c[3] = now - c[1]
                c[0].close()
                continue
        if now >= c[2]:
            c[2] = now + 5
            try:
                c[0].send(b" ")
            except OSError:
                c[3] = now - c[1]
                c[0].close()

closed = sorted(c[3] for c in connections if c[3] is not None)
statuses = {}
for c in connections:
    status = c[4].split(b" ", 2)[1].decode() if c[4].startswith(b"HTTP/1.1 ") else ("closed unanswered" if c[3] is not None else "open")
    statuses[status] = statuses.get(status, 0) + 1
print(json.dumps({"connected": len(connections), "closedByKiosk": len(closed),
                  "firstClosedAfter": round(closed[0], 1) if closed else None,
                  "medianClosedAfter": round(closed[len(closed) // 2], 1) if closed else None,
                  "lastClosedAfter": round(closed[-1], 1) if closed else None, "statuses": statuses}), flush=True)
for c in connections:
    if c[3] is None:
        c[0].close()
