#!/usr/bin/env python3
"""A share link that opens nothing costs the kiosk the same work whatever the reason (issue 50): a
real `recorder kiosk` with posts in its local store, made by the CLI - one whose link opens, one the
operator hid, one whose link expired (its metadata says so), one the operator deleted - and a token
nobody made. Each is asked for its share page while strace watches the kiosk's file system calls:
every link that opens nothing (404, byte for byte the same page) must make the same calls on the
store (before: an unknown or deleted token none, a hidden one two, so the answer's time told why).
Prints the median time of each kind's answer over loopback (figures, not judged).

    python Tests/security/share_lookups.py RECORDER_BINARY
"""
import json, random, statistics, string, subprocess, sys, time

from raw_http import request
from security_support import OPERATOR, Checks, Kiosk, artifacts_folder, finish, noisy_post

binary = sys.argv[1]
artifacts = artifacts_folder()
check = Checks()
figures = {}
kiosk = Kiosk(binary, artifacts / "share-lookups-kiosk.log", prefix="recorder-lookups-", env={"RECORDER_KIOSK_TOKEN": OPERATOR})
operator = [("Authorization", f"Bearer {OPERATOR}"), ("Content-Type", "application/json")]
store = kiosk.work / "store"


def store_calls(path_prefix, pid, ask):
    """The file system calls the kiosk makes on `path_prefix` while `ask()` runs (strace)."""
    trace = artifacts / f"share-lookups-{time.monotonic_ns()}.strace"
    tracer = subprocess.Popen(["strace", "-f", "-qq", "-e", "trace=%file,%desc", "-o", str(trace), "-p", str(pid)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)
    try:
        ask()
        time.sleep(0.5)
    finally:
        tracer.terminate()
        tracer.wait(timeout=20)
    calls = []
    for line in trace.read_text(errors="replace").splitlines():
        if f'"{path_prefix}' in line:
            name = line.split("(", 1)[0].split()[-1]
            calls.append(f"{name} {line.split(chr(34))[1][len(str(path_prefix)):]}")
    trace.unlink()
    return calls


def shape(calls):
    """What the calls did, whichever post they were for: the call and the store's folder."""
    return sorted(f"{c.split()[0]} {c.split()[1].strip('/').split('/')[0]}" for c in calls)


status = None
try:
    posts = [noisy_post(binary, kiosk, seconds=1, size="320x240", caption=f"post {n}") for n in range(4)]
    good, hidden, expired, deleted = posts
    # The expired one: its metadata in the store says its link ended a day ago.
    path = store / "posts" / f"{expired['id']}.json"
    document = json.loads(path.read_text())
    document["shareExpiresAt"] = "2020-01-01T00:00:00Z"
    path.write_text(json.dumps(document))
    kiosk.start()
    pid = kiosk.process.pid
    hid = request("127.0.0.1", kiosk.port, "POST", f"/api/admin/posts/{hidden['id']}/hide", operator, b"{}")
    gone = request("127.0.0.1", kiosk.port, "POST", f"/api/admin/posts/{deleted['id']}/delete", operator, json.dumps({"confirm": deleted["id"]}))
    check("the operator hid one post and deleted another", hid.status == 200 and gone.status == 200, f"{hid!r} {gone!r}")
    unknown = "".join(random.SystemRandom().choice(string.ascii_letters + string.digits) for _ in range(22))
    kinds = {"opens": good["shareToken"], "unknown": unknown, "deleted": deleted["shareToken"], "hidden": hidden["shareToken"],
             "expired": expired["shareToken"]}

    answers = {kind: request("127.0.0.1", kiosk.port, "GET", f"/s/{token}") for kind, token in kinds.items()}
    check("the good link opens (200)", answers["opens"].status == 200, repr(answers["opens"]))
    nothing = [kind for kind in kinds if kind != "opens"]
    check("every other link is the same 404 page, byte for byte", all(answers[k].status == 404 for k in nothing)
          and len({answers[k].body for k in nothing}) == 1, str({k: answers[k].status for k in nothing}))

    work = {}
    for kind in kinds:
        work[kind] = store_calls(store, pid, lambda: [request("127.0.0.1", kiosk.port, "GET", f"/s/{kinds[kind]}") for _ in range(3)])
        figures[f"store calls, {kind} (3 asks)"] = ", ".join(work[kind]) or "none"
    shapes = {kind: shape(work[kind]) for kind in nothing}
    check("every link that opens nothing makes the same calls on the store (unknown, deleted, hidden, expired)",
          len({tuple(s) for s in shapes.values()}) == 1 and shapes["unknown"], json.dumps(shapes))

    for kind in kinds:
        times = []
        for _ in range(200):
            started = time.perf_counter()
            request("127.0.0.1", kiosk.port, "GET", f"/s/{kinds[kind]}")
            times.append(time.perf_counter() - started)
        figures[f"median answer, {kind}"] = f"{statistics.median(times) * 1e6:.0f} us"
finally:
    status = kiosk.stop()

finish(check, "share_lookups", status, figures)
