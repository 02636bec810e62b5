"""What the browser tests share: PASS/FAIL counting, a kiosk process on a free port with its own
workspace, outbox, store and cache, and Debian's chromium through Playwright."""
import os, pathlib, shutil, socket, subprocess, tempfile, time, urllib.request

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


class Kiosk:
    """`recorder kiosk` on the test pattern, listening on a free loopback port, with everything it
    writes in a temporary directory (`work`); `env` adds settings (RECORDER_* variables)."""

    def __init__(self, binary, log_path, args=(), env=None, prefix="recorder-browser-", listen="127.0.0.1"):
        self.work = pathlib.Path(tempfile.mkdtemp(prefix=prefix))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.listen = listen
        environment = dict(os.environ)
        environment.pop("RECORDER_CONFIG", None)
        environment["XDG_CACHE_HOME"] = str(self.work / "cache")
        environment.update(env or {})
        self.binary, self.args, self.environment, self.log_path = binary, list(args), environment, log_path
        self.process = None

    def start(self):
        self.log = open(self.log_path, "w")
        w = self.work
        self.process = subprocess.Popen(
            [self.binary, "kiosk", "--device", "testsrc", "--listen", f"{self.listen}:{self.port}", *self.args,
             "--workspace", str(w / "ws"), "--outbox", str(w / "outbox"), "--store-dir", str(w / "store"), "--create"],
            stdout=self.log, stderr=subprocess.STDOUT, env=self.environment)
        for _ in range(300):
            try:
                urllib.request.urlopen(self.base + "/healthz", timeout=1)
                return
            except Exception:
                time.sleep(0.1)

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


def wait_until(page, expression, timeout=30000):
    """Evaluates `expression` in the page every 0.2 s until it is truthy; raises TimeoutError after
    `timeout` ms. (Playwright's wait_for_function evaluates its predicate with eval, which the
    kiosk's CSP refuses, as it should: the pages are tested under their real policy.)"""
    end = time.monotonic() + timeout / 1000
    while True:
        value = page.evaluate(expression)
        if value:
            return value
        if time.monotonic() > end:
            raise TimeoutError(f"waited {timeout / 1000:.0f} s for {expression}")
        time.sleep(0.2)


def launch(playwright):
    """Debian's chromium, headless; sound may play before a touch (as the booth's kiosk mode allows)."""
    return playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                      args=["--no-sandbox", "--autoplay-policy=no-user-gesture-required"])
