#!/usr/bin/env python3
"""A crowd on the event's network must not take the booth: a real `recorder kiosk` listening on the
network with both tokens, and from a network namespace (other machines: 50 addresses on a veth
link, Debian's iproute2) 1,100 connections that send half a request head and stop, and 300 slow
readers of one share link's 29 MB video (Tests/security/crowd.py). Meanwhile, on the booth's own
loopback:

- /healthz answers, each time within 5 s;
- a shot records (the booth's token), whole: ffprobe reads its length;
- the kiosk's memory stays bounded (RSS at most its start + 400 MiB: the 4 s 720p shot costs
  about 100 MiB; a video read ahead per reader was 2 MiB each, 400 MiB for the 200 readers it
  serves, and copied whole it would be 29 MB each) and its open files stay under the caps;
- the half-open connections are closed by the kiosk (the idle timeout that bounds a head's arrival);
- afterwards a phone from the network opens the share link again, and the kiosk is healthy.

Prints its figures (FIGURES=1 prints only them, for Benchmarks/exhaustion.sh). Needs root (a
network namespace).

    python Tests/security/exhaustion.py RECORDER_BINARY
"""
import json, os, pathlib, shutil, subprocess, sys, threading, time, urllib.request

from raw_http import request
from security_support import BOOTH, OPERATOR, Checks, Kiosk, OtherMachines, artifacts_folder, noisy_post, repo, rss_kib

HALF_OPEN, SLOW, ADDRESSES = int(os.environ.get("HALF_OPEN", 1100)), int(os.environ.get("SLOW", 300)), 50
HOLD_SECONDS = int(os.environ.get("HOLD_SECONDS", 40))
binary = sys.argv[1]
artifacts = artifacts_folder()
check = Checks()
figures = {}
HOST_ADDRESS, CROWD_PREFIX, PHONE = "10.213.0.1", "10.213.1.", "10.213.2.1"


def open_files(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


kiosk = Kiosk(binary, artifacts / "exhaustion-kiosk.log", args=["--seconds", "4", "--countdown", "0"], prefix="recorder-exhaustion-",
              listen="0.0.0.0", env={"RECORDER_KIOSK_TOKEN": OPERATOR, "RECORDER_KIOSK_BOOTH_TOKEN": BOOTH,
                                     "RECORDER_KIOSK_HOSTS": "booth"})
crowd, machines = None, None
try:
    # The other machines: a namespace with 50 addresses and one for a phone, on a veth link.
    machines = OtherMachines("crowd", HOST_ADDRESS, CROWD_PREFIX, ADDRESSES, extra=[PHONE])
    inside = machines.inside

    # A big post in the kiosk's store before it starts (a noisy 3 s 720p clip: 29 MB), made by the CLI.
    metadata = noisy_post(binary, kiosk)
    token, size = metadata["shareToken"], metadata["byteSize"]
    figures["shared video"] = f"{size / 1e6:.1f} MB"

    kiosk.start()
    pid = kiosk.process.pid
    time.sleep(1)
    base_rss, base_files = rss_kib(pid), open_files(pid)
    figures["RSS before"] = f"{base_rss / 1024:.0f} MiB"
    phone = subprocess.run([*inside, "curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{size_download}", "--max-time", "60",
                            "--interface", PHONE, f"http://{HOST_ADDRESS}:{kiosk.port}/s/{token}/video.mp4"], capture_output=True, text=True)
    check("a phone on the network opens the share link's video before the crowd comes", phone.stdout == f"200 {size}", phone.stdout)

    # The crowd arrives and stays.
    crowd = subprocess.Popen([*inside, sys.executable, str(pathlib.Path(__file__).parent / "crowd.py"), HOST_ADDRESS, str(kiosk.port),
                              f"/s/{token}/video.mp4", str(HALF_OPEN), str(SLOW), CROWD_PREFIX, str(ADDRESSES)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    arrived = json.loads(crowd.stdout.readline())
    figures["crowd connected"] = f"{arrived['halfOpen']} half-open + {arrived['slow']} slow readers in {arrived['seconds']} s"
    check(f"the crowd is there ({HALF_OPEN} half-open connections and {SLOW} slow readers tried from {ADDRESSES} addresses)",
          arrived["halfOpen"] + arrived["slow"] + arrived["unconnected"] == HALF_OPEN + SLOW, str(arrived))

    samples, health = [], []
    stop_sampling = threading.Event()

    def sample():
        while not stop_sampling.is_set():
            try:
                samples.append((rss_kib(pid), open_files(pid)))
            except OSError:
                pass
            time.sleep(0.5)
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()

    def healthz():
        started = time.monotonic()
        answer = request("127.0.0.1", kiosk.port, "GET", "/healthz", timeout=10)
        health.append((answer.status, time.monotonic() - started))

    # The booth records while the crowd holds on.
    healthz()
    shoot = request("127.0.0.1", kiosk.port, "POST", "/api/shoot", [("Authorization", f"Bearer {BOOTH}"), ("Content-Type", "application/json")],
                    b"{}", timeout=30)
    check("the booth starts a shot during the crowd (202)", shoot.status == 202, repr(shoot))
    end = time.monotonic() + HOLD_SECONDS
    shot = None
    while time.monotonic() < end:
        healthz()
        status = json.loads(request("127.0.0.1", kiosk.port, "GET", "/api/status", [("Authorization", f"Bearer {BOOTH}")], timeout=10).body)
        current = status.get("currentShot")
        if status["state"] == "idle" and current and current.get("id") and shot is None:
            shot = current
        time.sleep(1)
    crowd.stdin.close()
    left = json.loads(crowd.stdout.readline())
    crowd.wait(timeout=30)
    crowd = None
    stop_sampling.set()
    sampler.join()

    check("/healthz answered every time during the crowd, each within 5 s",
          health and all(code == 200 and seconds < 5 for code, seconds in health), str([(c, round(s, 2)) for c, s in health if c != 200 or s >= 5]))
    figures["/healthz under the crowd"] = f"{len(health)} asks, slowest {max(s for _, s in health) * 1000:.0f} ms"
    check("a shot recorded during the crowd", shot is not None and shot.get("framesDropped", 1) == 0, str(shot))
    if shot:
        video = kiosk.work / "ws" / "current" / "video.mp4"
        duration = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", str(video)],
                                  capture_output=True, text=True).stdout.strip()
        check("it is whole: ffprobe reads 4 s", duration and abs(float(duration) - 4) < 0.1, duration)
        figures["shot under the crowd"] = f"{duration} s, {shot.get('frames')} frames, {shot.get('framesDropped')} dropped"
    peak_rss = max(r for r, _ in samples)
    peak_files = max(f for _, f in samples)
    figures["RSS peak"] = f"{peak_rss / 1024:.0f} MiB (+{(peak_rss - base_rss) / 1024:.0f} MiB)"
    figures["open files peak"] = f"{peak_files} (before: {base_files})"
    # A 4 s 720p shot costs about 100 MiB by itself; each slow reader a chunk and its socket's
    # buffer. Measured: +161 to +194 MiB with the CPU to spare, +262 to +304 MiB when two busy
    # programs beside it take two thirds of the CPU (ci25 failed at +279 MiB under a bound of 250,
    # beside the qemu guests); the memory held after the crowd (+85 to +220 MiB) says the
    # allocator keeps what it freed. The bound is what this guards against: the 2 MiB read-ahead
    # per reader there was (+500 MiB with 200 readers and the shot), or a video copied whole per
    # reader (GBs).
    check("the kiosk's memory stays bounded (RSS at most 400 MiB over its start)", peak_rss - base_rss < 400 * 1024,
          figures["RSS peak"])
    check("its open files stay under the caps (512 connections from other machines, 256 videos being sent) and what it needs besides",
          peak_files < base_files + 512 + 256 + 64, figures["open files peak"])
    figures["half-open closed by the kiosk"] = f"{left['halfOpenClosedByKiosk']} of {arrived['halfOpen']}, from {left['firstClosedAfter']} s to {left['lastClosedAfter']} s"
    check("the kiosk closed the half-open connections (refused over the cap, or its idle timeout)",
          left["halfOpenClosedByKiosk"] >= arrived["halfOpen"] * 0.95, json.dumps(left))
    figures["slow readers' answers"] = json.dumps(left["slowReaderAnswers"])
    check("slow readers were served or told to wait (200 or 429), none got an error",
          set(left["slowReaderAnswers"]) <= {"200", "429", "closed"}, json.dumps(left["slowReaderAnswers"]))

    time.sleep(2)
    phone = subprocess.run([*inside, "curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{size_download}", "--max-time", "60",
                            "--interface", PHONE, f"http://{HOST_ADDRESS}:{kiosk.port}/s/{token}/video.mp4"], capture_output=True, text=True)
    check("after the crowd a phone opens the share link's video again", phone.stdout == f"200 {size}", phone.stdout)
    check("the kiosk is healthy after it", request("127.0.0.1", kiosk.port, "GET", "/healthz").status == 200)
    figures["RSS after"] = f"{rss_kib(pid) / 1024:.0f} MiB, {open_files(pid)} open files"
finally:
    if crowd:
        crowd.kill()
    status = kiosk.stop()
    if machines:
        machines.close()

check("the kiosk exits 0 on SIGTERM", status == 0, f"exit {status}")
print("figures:")
for name, value in figures.items():
    print(f"  {name:32} {value}")
print(f"exhaustion: {check.passed} passed, {check.failed} failed")
sys.exit(1 if check.failed else 0)
