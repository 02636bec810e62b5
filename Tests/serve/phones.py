#!/usr/bin/env python3
"""The phones of Tests/serve/share_servers.py's crowd, run inside its network namespace (other
machines): each of ADDRESSES opens one HTTPS connection to nginx from its own address, at the same
moment as the others, and asks on it for every path of its list in turn (a share page, its poster,
its video; the host's gallery page and its first page of posts), reading each answer whole. Reads
its task as JSON on its standard input: {"host", "port", "name", "cafile", "addresses": [...],
"paths": [[[path, sha256 or null], ...], ...]} (phone i asks for paths[i % len(paths)]). Prints
one JSON line: how many phones got every answer whole (200, and a video byte for byte: its SHA-256),
the first failures, the upstreams that answered, the seconds it took.

    python3 phones.py < task.json
"""
import hashlib, http.client, json, resource, socket, ssl, sys, threading, time

task = json.load(sys.stdin)
addresses, lists = task["addresses"], task["paths"]
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, len(addresses) + 256)), hard))
context = ssl.create_default_context(cafile=task["cafile"])
start = threading.Barrier(len(addresses))
results = [None] * len(addresses)
upstreams = {}
lock = threading.Lock()


def phone(i):
    """Phone i's answers: None when each was whole, else what went wrong first."""
    try:
        raw = socket.create_connection((task["host"], task["port"]), timeout=60, source_address=(addresses[i], 0))
    except OSError as error:
        raw = error
    # (every phone waits here once, connected or not: they ask all at once)
    start.wait(timeout=120)
    if isinstance(raw, OSError):
        return f"connect: {raw}"
    try:
        connection = http.client.HTTPConnection(task["host"], task["port"], timeout=60)
        # TLS for the certificate's name, not the address dialled.
        connection.sock = context.wrap_socket(raw, server_hostname=task["name"])
        for path, digest in lists[i % len(lists)]:
            connection.request("GET", path, headers={"Host": task["name"]})
            answer = connection.getresponse()
            body = answer.read()
            with lock:
                upstream = answer.getheader("X-Test-Upstream", "none")
                upstreams[upstream] = upstreams.get(upstream, 0) + 1
            if answer.status != 200:
                return f"{path}: {answer.status}"
            if digest and hashlib.sha256(body).hexdigest() != digest:
                return f"{path}: {len(body)} bytes, not the store's"
        connection.close()
        return None
    except Exception as error:  # noqa: BLE001
        return f"{type(error).__name__}: {error}"


started = time.monotonic()
threads = [threading.Thread(target=lambda i=i: results.__setitem__(i, phone(i) or "ok")) for i in range(len(addresses))]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
failures = [f"{addresses[i]}: {r}" for i, r in enumerate(results) if r != "ok"]
print(json.dumps({"phones": len(addresses), "served": len(addresses) - len(failures), "failures": failures[:5], "upstreams": upstreams,
                  "seconds": round(time.monotonic() - started, 1)}), flush=True)
