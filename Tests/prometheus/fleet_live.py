#!/usr/bin/env python3
"""A fleet of two booths on one SeaweedFS, watched by `recorder fleet`, the fleet page in Debian's
chromium and Debian's own Prometheus (issue 54's Done-when), with heartbeats every 2 s:

- Booth A (the test pattern) and booth B (a Y4M file as its camera, its store reached through
  Tests/s3/faultproxy.py) start; `recorder fleet --json` lists both within one interval. One shot
  each reaches the store; every metric the shipped dashboard's panels and alert rules read is in
  their live /metrics (Tests/prometheus/dashboard_check.py).
- Prometheus (prometheus, its scrape and evaluation every second) scrapes both kiosks and the fleet
  exporter (`recorder fleet --prometheus --listen`) with the shipped rules and
  Tests/prometheus/short-parameters.yml (the thresholds made 6 s the way an operator overrides
  them: the shipped file is read as installed, not copied).
- B's store is taken away (the proxy refuses every connection) with a shot waiting, and its camera
  unplugged (the Y4M moved away): /api/v1/alerts shows OutboxStuck and CameraMissing firing for B;
  B's own fleet page says its heartbeat does not reach the store. A is killed -9: after 3
  intervals `recorder fleet --json` says it is offline (exit 1). The fleet page on B, in chromium
  (booth and phone sizes), shows both; screenshots in ARTIFACTS (default
  .cache/browser-artifacts/fleet). So does the fleet page on `recorder serve` (the share server,
  reading the same store, with the operator's token in serve.token_file): its data is refused
  without the token (401), the page asks for it, and once logged in it lists both booths.
- B's store and camera come back: both alerts resolve, and B is online again in `recorder fleet`.

    python Tests/prometheus/fleet_live.py RECORDER_BINARY
"""
import json, os, pathlib, secrets, shutil, subprocess, sys, tempfile, time, urllib.error, urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "browser"))
from browser_support import Checks, Kiosk, free_port, launch, repo, wait_until  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

binary = sys.argv[1]
artifacts = pathlib.Path(os.environ.get("ARTIFACTS", repo / ".cache" / "browser-artifacts" / "fleet"))
shutil.rmtree(artifacts, ignore_errors=True)
artifacts.mkdir(parents=True)
check = Checks()
INTERVAL = 2
BUCKET = "fleet"
work = pathlib.Path(tempfile.mkdtemp(prefix="recorder-fleet-"))
weed_port, proxy_port, exporter_port, prometheus_port, serve_port = free_port(), free_port(), free_port(), free_port(), free_port()
SERVE_TOKEN = secrets.token_urlsafe(24)
proxy_state = work / "proxy"
proxy_state.mkdir()


def store(port):
    return {"RECORDER_BACKEND": "s3", "RECORDER_S3_ENDPOINT": f"http://127.0.0.1:{port}", "RECORDER_S3_BUCKET": BUCKET,
            "RECORDER_S3_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "recorder-test", "AWS_SECRET_ACCESS_KEY": "recorder-test-secret",
            "RECORDER_RETRY_INITIAL_SECONDS": "0.2", "RECORDER_RETRY_MAX_SECONDS": "1",
            "RECORDER_NETWORK_CONNECT_TIMEOUT_SECONDS": "2", "RECORDER_NETWORK_STALL_TIMEOUT_SECONDS": "2",
            "RECORDER_FLEET_HEARTBEAT_SECONDS": str(INTERVAL)}


def fleet_json():
    """`recorder fleet --json` on the store itself: (exit status, {kiosk: booth})."""
    env = dict(os.environ, **store(weed_port))
    env.pop("RECORDER_CONFIG", None)
    done = subprocess.run([binary, "fleet", "--json"], capture_output=True, env=env, timeout=60)
    try:
        # (the booths, then - on exit 1 - the status as a JSON line of its own, as every --json command ends)
        document = json.JSONDecoder().raw_decode(done.stdout.decode())[0]
    except ValueError:
        document = {"booths": []}
    if not document["booths"]:
        print(f"(recorder fleet --json: exit {done.returncode}, {done.stdout[-300:]!r} {done.stderr[-300:]!r})")
    return done.returncode, {b["kiosk"]: b for b in document["booths"]}


def get(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.read()


def post_json(kiosk, path, body):
    request = urllib.request.Request(kiosk.base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Origin": kiosk.base})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def shoot_and_post(kiosk):
    """A guest's shot (1 s) posted, as the guest page does it: True once the post is queued."""
    before = (json.loads(get(kiosk.base + "/api/status")).get("currentShot") or {}).get("id")
    status, _ = post_json(kiosk, "/api/shoot", {})
    if status >= 300:
        return False

    def shot():
        status = json.loads(get(kiosk.base + "/api/status"))
        current = status.get("currentShot") or {}
        return current.get("id") if current.get("id") != before and status.get("state") != "recording" else None
    shot_id = until("shot", shot, 30)
    answer = until("posted", lambda: (lambda r: r if r[0] < 300 else print(f"(POST /api/post: {r})"))(
        post_json(kiosk, "/api/post", {"id": shot_id, "caption": ""})), 10) if shot_id else None
    return answer is not None


def metric(kiosk, name):
    """The value of an unlabelled series in the kiosk's /metrics, or None."""
    for line in get(kiosk.base + "/metrics").decode().splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return None


def until(what, probe, timeout):
    """Calls probe every 0.5 s until it gives a truthy value (returned) or `timeout` s pass (None)."""
    end = time.monotonic() + timeout
    while True:
        value = probe()
        if value or time.monotonic() > end:
            return value
        time.sleep(0.5)


def alerts():
    """The Prometheus server's alerts: {(alertname, kiosk): state}."""
    document = json.loads(get(f"http://127.0.0.1:{prometheus_port}/api/v1/alerts"))
    return {(a["labels"]["alertname"], a["labels"].get("kiosk")): a["state"] for a in document["data"]["alerts"]}


def seaweed(*args):
    subprocess.run(["bash", str(repo / "Tests/s3/seaweedfs.sh"), *args], check=True, stdout=subprocess.DEVNULL)


def fleet_data(base, token=None):
    """GET BASE/api/fleet, with `token` as a bearer token: (status, the booths by kiosk, or None)."""
    request = urllib.request.Request(base + "/api/fleet", headers={"Authorization": f"Bearer {token}"} if token else {})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, {b["kiosk"]: b for b in json.load(r)["booths"]}
    except urllib.error.HTTPError as e:
        return e.code, None


def fleet_page(label, expected, base=None, token=None):
    """The fleet page (B's, or the one at `base`) in chromium at a booth's and a phone's size,
    booth-b's row opened: each booth of `expected` shows at least those problems; screenshots
    fleet-LABEL-SIZE.png. With `token`, the page first asks for it (nothing of the fleet shown; a
    screenshot fleet-LABEL-SIZE-login.png), and the operator logs in as a person does."""
    with sync_playwright() as p:
        browser = launch(p)
        for size, (width, height) in {"booth": (1280, 800), "phone": (390, 844)}.items():
            page = browser.new_page(viewport={"width": width, "height": height})
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto((base or kiosk_b.base) + "/fleet")
            if token:
                try:
                    wait_until(page, "!document.getElementById('login').hidden", 15000)
                except TimeoutError:
                    pass
                check(f"fleet page, {label} ({size}): asks for the operator's token and shows no booth",
                      page.evaluate("!document.getElementById('login').hidden && document.getElementById('fleet').hidden"
                                    " && document.querySelectorAll('#booths details').length === 0"))
                page.screenshot(path=str(artifacts / f"fleet-{label}-{size}-login.png"), full_page=True)
                page.fill("#token", token)
                page.click("#login-form button[type=submit]")
            probe = ("[...document.querySelectorAll('#booths details')].map(d => [d.dataset.kiosk, "
                     "[...d.querySelectorAll('li')].map(li => li.dataset.problem)])")
            try:
                rows = wait_until(page, f"(r => {json.dumps(sorted(expected))}.every(k => r.some(x => x[0] === k)) && r)({probe})", 15000)
            except TimeoutError:
                rows = page.evaluate(probe)
            by = {r[0]: set(r[1]) for r in rows}
            for kiosk, problems in expected.items():
                check(f"fleet page, {label} ({size}): {kiosk} shows {', '.join(sorted(problems)) or 'its row'}", problems <= by.get(kiosk, set()), repr(rows))
            page.click("details[data-kiosk='booth-b'] summary")
            page.screenshot(path=str(artifacts / f"fleet-{label}-{size}.png"), full_page=True)
            check(f"fleet page, {label} ({size}): nothing wider than the screen",
                  not page.evaluate("document.documentElement.scrollWidth > window.innerWidth"))
            check(f"fleet page, {label} ({size}): no script error", not errors, repr(errors))
            page.close()
        browser.close()


processes = []
kiosk_a = Kiosk(binary, artifacts / "booth-a.log", args=["--seconds", "1", "--countdown", "0"], prefix="recorder-fleet-a-",
                env={**store(weed_port), "RECORDER_KIOSK_ID": "booth-a", "RECORDER_AUTHOR_NAME": "Hall A",
                     # (mail configured, so its series are there; no guest asks for one)
                     "RECORDER_MAIL_SMTP_URL": f"smtp://127.0.0.1:{free_port()}", "RECORDER_MAIL_FROM": "booth@example.org",
                     "RECORDER_MAIL_INSECURE": "true"})
kiosk_b = Kiosk(binary, artifacts / "booth-b.log", args=["--seconds", "1", "--countdown", "0"], prefix="recorder-fleet-b-",
                env={**store(proxy_port), "RECORDER_KIOSK_ID": "booth-b", "RECORDER_AUTHOR_NAME": "Foyer"}, device="y4m:PLACEHOLDER")
camera = kiosk_b.work / "camera.y4m"
shutil.copy(repo / "Fixtures" / "y4m" / "clip-420.y4m", camera)
kiosk_b.device = f"y4m:{camera}"
started = time.monotonic()
try:
    seaweed("start", str(work / "weed"), str(weed_port), BUCKET)
    processes.append(subprocess.Popen([sys.executable, str(repo / "Tests/s3/faultproxy.py"), str(proxy_port), str(weed_port), str(proxy_state)],
                                      stdout=subprocess.DEVNULL, stderr=open(artifacts / "proxy.log", "w")))
    # The share server on the same store, the operator's token in its serve.token_file.
    token_file = work / "serve-token"
    token_file.write_text(SERVE_TOKEN + "\n")
    token_file.chmod(0o600)
    serve_env = {**os.environ, **store(weed_port), "RECORDER_SERVE_TOKEN_FILE": str(token_file), "XDG_CACHE_HOME": str(work / "serve-cache")}
    serve_env.pop("RECORDER_CONFIG", None)
    processes.append(subprocess.Popen([binary, "serve", "--listen", f"127.0.0.1:{serve_port}"], env=serve_env,
                                      stdout=subprocess.DEVNULL, stderr=open(artifacts / "serve.log", "w")))
    serve = f"http://127.0.0.1:{serve_port}"
    kiosk_a.start()
    kiosk_b.start()
    both_up = time.monotonic()
    status, booths = until("both listed", lambda: (lambda r: r if {"booth-a", "booth-b"} <= set(r[1]) else None)(fleet_json()), INTERVAL) or fleet_json()
    check(f"recorder fleet --json lists both booths within one interval ({time.monotonic() - both_up:.1f} s of {INTERVAL} s)",
          {"booth-a", "booth-b"} <= set(booths), repr(booths)[:400])
    check("both online, named", all(booths.get(k, {}).get("online") for k in ("booth-a", "booth-b"))
          and booths.get("booth-a", {}).get("name") == "Hall A", repr(booths)[:400])

    # One shot each reaches the store: the upload time and the encoder are in /metrics from then on.
    for kiosk in (kiosk_a, kiosk_b):
        check(f"{kiosk.environment['RECORDER_KIOSK_ID']}: a shot taken and posted", shoot_and_post(kiosk))
    for kiosk in (kiosk_a, kiosk_b):
        uploaded = until("uploaded", lambda: metric(kiosk, "recorder_last_upload_timestamp_seconds"), 60)
        check(f"{kiosk.environment['RECORDER_KIOSK_ID']}: its post reached the store (last upload time in /metrics)", uploaded is not None)
        (artifacts / f"{kiosk.environment['RECORDER_KIOSK_ID']}.metrics").write_bytes(get(kiosk.base + "/metrics"))
    # (Debian's python3, which reads YAML; recorder_clock_synchronised is only there where a time
    # service answers timedatectl, which this host, with no systemd, has not)
    checked = subprocess.run(["python3", str(repo / "Tests/prometheus/dashboard_check.py"), "--unknowable", "recorder_clock_synchronised",
                              str(repo / "packaging/prometheus/recorder-dashboard.json"), str(repo / "packaging/prometheus/recorder-alerts.yml"),
                              str(artifacts / "booth-a.metrics"), str(artifacts / "booth-b.metrics")], capture_output=True, text=True)
    print("\n".join(line for line in checked.stdout.splitlines() if not line.startswith("PASS")))
    check("every panel's query and every alert rule reads metrics a live kiosk exports", checked.returncode == 0)

    # The exporter and Prometheus.
    processes.append(subprocess.Popen([binary, "fleet", "--prometheus", "--listen", f"127.0.0.1:{exporter_port}"],
                                      env={**os.environ, **store(weed_port)}, stdout=subprocess.DEVNULL, stderr=open(artifacts / "exporter.log", "w")))
    config = work / "prometheus.yml"
    config.write_text(json.dumps({
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
        "rule_files": [str(repo / "packaging/prometheus/recorder-alerts.yml"), str(repo / "Tests/prometheus/short-parameters.yml")],
        "scrape_configs": [
            {"job_name": "recorder", "static_configs": [{"targets": [f"127.0.0.1:{kiosk_a.port}"], "labels": {"kiosk": "booth-a"}},
                                                        {"targets": [f"127.0.0.1:{kiosk_b.port}"], "labels": {"kiosk": "booth-b"}}]},
            {"job_name": "recorder-fleet", "honor_labels": True, "static_configs": [{"targets": [f"127.0.0.1:{exporter_port}"]}]},
        ]}))
    processes.append(subprocess.Popen(["prometheus", f"--config.file={config}", f"--storage.tsdb.path={work / 'tsdb'}",
                                       f"--web.listen-address=127.0.0.1:{prometheus_port}"],
                                      stdout=subprocess.DEVNULL, stderr=open(artifacts / "prometheus.log", "w")))

    def targets_up():
        try:
            document = json.loads(get(f"http://127.0.0.1:{prometheus_port}/api/v1/targets"))
        except (OSError, ValueError):
            return None
        active = document["data"]["activeTargets"]
        return len(active) == 3 and all(t["health"] == "up" for t in active)
    check("Prometheus scrapes both kiosks and the fleet exporter", until("targets up", targets_up, 30), artifacts / "prometheus.log")
    check("no alert while all is well (OutboxStuck, CameraMissing)",
          not {k for k, v in alerts().items() if k[0] in ("OutboxStuck", "CameraMissing")}, repr(alerts()))

    # A killed -9: offline after 3 intervals, by the store.
    kiosk_a.process.kill()
    kiosk_a.process.wait()
    killed = time.monotonic()
    status, booths = until("a offline", lambda: (lambda r: r if r[1].get("booth-a", {}).get("online") is False else None)(fleet_json()),
                           6 * INTERVAL) or fleet_json()
    a = booths.get("booth-a", {})
    check(f"recorder fleet --json: booth-a offline {time.monotonic() - killed:.1f} s after kill -9, its heartbeat over 3 intervals old",
          a.get("online") is False and a.get("ageSeconds", 0) > 3 * INTERVAL and "offline" in {p["problem"] for p in a.get("problems", [])},
          repr(a)[:300])
    check("recorder fleet exits 1 while a booth is offline", status == 1, status)
    check("... booth-b still online beside it", booths.get("booth-b", {}).get("online") is True, repr(booths.get("booth-b"))[:300])
    fleet_page("a-offline", {"booth-a": {"offline"}})
    # The same on the share server, which reads the store alone: its data needs the operator's token.
    status, _ = fleet_data(serve)
    check("recorder serve: /api/fleet without the operator's token is refused (401)", status == 401, status)
    status, _ = fleet_data(serve, secrets.token_urlsafe(24))
    check("... and with another token (401)", status == 401, status)
    status, served = fleet_data(serve, SERVE_TOKEN)
    check("... and with it lists both booths, booth-a offline (200)", status == 200 and served and served.get("booth-a", {}).get("online") is False
          and served.get("booth-b", {}).get("online") is True, f"{status} {repr(served)[:300]}")
    fleet_page("serve-a-offline", {"booth-a": {"offline"}, "booth-b": set()}, base=serve, token=SERVE_TOKEN)

    # B's store taken away with a post waiting, and its camera unplugged.
    (proxy_state / "faults.json").write_text(json.dumps([{"match": "", "action": "refuse", "count": 1000000}]))
    check("booth-b: a shot taken and posted while its store is away", shoot_and_post(kiosk_b))
    camera.rename(camera.with_suffix(".away"))
    fired = until("both firing", lambda: (lambda a: a if a.get(("OutboxStuck", "booth-b")) == "firing"
                                          and a.get(("CameraMissing", "booth-b")) == "firing" else None)(alerts()), 90) or alerts()
    check("/api/v1/alerts: OutboxStuck and CameraMissing firing for booth-b", fired.get(("OutboxStuck", "booth-b")) == "firing"
          and fired.get(("CameraMissing", "booth-b")) == "firing", repr(fired))
    check("... and BoothDown for booth-a (killed)", fired.get(("BoothDown", "booth-a")) == "firing", repr(fired))
    own = json.loads(get(kiosk_b.base + "/api/fleet"))
    b_own = next((b for b in own["booths"] if b["kiosk"] == "booth-b"), {})
    kinds = {p["problem"] for p in b_own.get("problems", [])}
    # (store-failing is a problem for the fleet after 2 minutes of failing: OutboxStuck says it here, at 6 s)
    check("booth-b's own fleet data: its heartbeat does not reach the store, the camera is missing",
          {"heartbeat-not-written", "camera-missing"} <= kinds, repr(kinds))
    check("booth-b's own fleet data: the post waits in its outbox, the store failing",
          b_own.get("heartbeat", {}).get("outbox", {}).get("storeFailing") is True and b_own["heartbeat"]["outbox"].get("depth", 0) >= 1,
          repr(b_own.get("heartbeat", {}).get("outbox")))
    status, booths = until("b offline", lambda: (lambda r: r if r[1].get("booth-b", {}).get("online") is False else None)(fleet_json()),
                           6 * INTERVAL) or fleet_json()
    check("recorder fleet --json: booth-b, its store away, goes silent (offline)", booths.get("booth-b", {}).get("online") is False,
          repr(booths.get("booth-b"))[:300])
    fleet_page("b-store-away", {"booth-a": {"offline"}, "booth-b": {"heartbeat-not-written", "camera-missing"}})

    # B's store and camera back: both alerts resolve, and B is online again.
    (proxy_state / "faults.json").write_text("[]")
    camera.with_suffix(".away").rename(camera)
    resolved = until("resolved", lambda: (lambda a: a if ("OutboxStuck", "booth-b") not in a and ("CameraMissing", "booth-b") not in a
                                          else None)(alerts()), 90)
    check("/api/v1/alerts: OutboxStuck and CameraMissing for booth-b resolved once the store and camera are back",
          resolved is not None, repr(alerts()))
    status, booths = until("b online", lambda: (lambda r: r if r[1].get("booth-b", {}).get("online") else None)(fleet_json()), 6 * INTERVAL) or fleet_json()
    check("recorder fleet --json: booth-b online again", booths.get("booth-b", {}).get("online") is True, repr(booths.get("booth-b"))[:300])
finally:
    for process in reversed(processes):
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
    for kiosk in (kiosk_b, kiosk_a):
        if kiosk.process and kiosk.process.poll() is None:
            kiosk.stop()
    subprocess.run(["bash", str(repo / "Tests/s3/seaweedfs.sh"), "kill", str(work / "weed")], stdout=subprocess.DEVNULL)
    shutil.rmtree(work, ignore_errors=True)

print(f"fleet_live: {check.passed} passed, {check.failed} failed ({time.monotonic() - started:.0f} s)")
sys.exit(1 if check.failed else 0)
