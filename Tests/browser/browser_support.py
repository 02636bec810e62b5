"""What the browser tests share: PASS/FAIL counting, a kiosk process on a free port with its own
workspace, outbox, store and cache, and Debian's chromium through Playwright."""
import os, pathlib, random, shutil, socket, subprocess, tempfile, time, urllib.error, urllib.request

from playwright.sync_api import Error as PlaywrightError

repo = pathlib.Path(__file__).resolve().parents[2]


class Checks:
    """Prints PASS/FAIL lines and counts them."""

    def __init__(self):
        self.passed = self.failed = 0

    def __call__(self, what, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"PASS: {what}")
        else:
            self.failed += 1
            print(f"FAIL: {what} {detail}")


def free_port():
    """A free port below the kernel's ephemeral range (32768 and up). A port the kernel hands out
    for bind(0) is free again once released, and any outgoing connection on the machine may take
    it before the kiosk binds it: CI saw "0.0.0.0:44033 is already in use" after a test spent 15 s
    making its video between the two."""
    for _ in range(500):
        port = random.randint(23000, 29999)
        with socket.socket() as s:
            try:
                s.bind(("0.0.0.0", port))
                return port
            except OSError:
                continue
    raise RuntimeError("no free port between 23000 and 29999")


class Kiosk:
    """`recorder kiosk` on the test pattern, listening on a free loopback port, with everything it
    writes in a temporary directory (`work`); `env` adds settings (RECORDER_* variables); `device`
    another source (a Y4M file that can be taken away, as a camera unplugged)."""

    def __init__(self, binary, log_path, args=(), env=None, prefix="recorder-browser-", listen="127.0.0.1", device="testsrc"):
        self.work = pathlib.Path(tempfile.mkdtemp(prefix=prefix))
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.listen, self.device = listen, device
        environment = dict(os.environ)
        environment.pop("RECORDER_CONFIG", None)
        environment["XDG_CACHE_HOME"] = str(self.work / "cache")
        # (its sessions and share claims: kiosk.state_dir, this kiosk's own)
        environment["XDG_STATE_HOME"] = str(self.work / "state")
        environment.update(env or {})
        self.binary, self.args, self.environment, self.log_path = binary, list(args), environment, log_path
        self.process = None

    def start(self):
        self.log = open(self.log_path, "w")
        w = self.work
        self.process = subprocess.Popen(
            [self.binary, "kiosk", "--device", self.device, "--listen", f"{self.listen}:{self.port}", *self.args,
             "--workspace", str(w / "ws"), "--outbox", str(w / "outbox"), "--store-dir", str(w / "store"), "--create"],
            stdout=self.log, stderr=subprocess.STDOUT, env=self.environment)
        for _ in range(300):
            try:
                urllib.request.urlopen(self.base + "/healthz", timeout=1)
                return
            except Exception:
                if self.process.poll() is not None:
                    break
                time.sleep(0.1)
        # Said here, with the kiosk's own words, not later as a connection that fails.
        self.log.flush()
        raise RuntimeError(f"the kiosk did not start (exit {self.process.poll()}): {pathlib.Path(self.log_path).read_text()[-800:]}")

    def stop(self):
        """SIGTERM, as systemd stops it; returns the exit status."""
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()
        shutil.rmtree(self.work, ignore_errors=True)
        return self.process.returncode


def fetch(url):
    """GET with no cookie and no token, as a phone would: (status, body)."""
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def wait_until(page, expression, timeout=30000):
    """Evaluates `expression` in the page every 0.2 s until it is truthy; raises TimeoutError after
    `timeout` ms. (Playwright's wait_for_function evaluates its predicate with eval, which the
    kiosk's CSP refuses, as it should: the pages are tested under their real policy.)"""
    end = time.monotonic() + timeout / 1000
    while True:
        try:
            value = page.evaluate(expression)
        except PlaywrightError as e:
            # A page that navigates (a login that goes on to the guest page) destroys the context
            # the expression ran in: ask again in the new one.
            if "context was destroyed" not in str(e) and "navigat" not in str(e):
                raise
            value = None
        if value:
            return value
        if time.monotonic() > end:
            raise TimeoutError(f"waited {timeout / 1000:.0f} s for {expression}")
        time.sleep(0.2)


def launch(playwright, names=()):
    """Debian's chromium, headless; sound may play before a touch (as the booth's kiosk mode allows).
    Each of `names` (booth.test, say: the name a phone on the booth's network opens its share link
    by) is this machine."""
    rules = [f"--host-resolver-rules={', '.join(f'MAP {name} 127.0.0.1' for name in names)}"] if names else []
    return playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                      args=["--no-sandbox", "--autoplay-policy=no-user-gesture-required", *rules])
