"""What the security tests share: the browser tests' kiosk and checks, the two tokens (each with the
+ and / that base64 gives), where artifacts go, a big post, the event's network's other machines
(a network namespace) and an nginx of a test's own."""
import json, os, pathlib, subprocess, sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "browser"))
from browser_support import Checks, Kiosk, free_port, repo  # noqa: E402,F401

OPERATOR = "op-Xk3+q9/Lw2ZtR8vB0aYcN1pE4sHfJ6uD"
BOOTH = "bo-Qm+3x/Zr8Kp1Lw9Tn2Vb+4Hc/5Jd6Fs7"


def artifacts_folder():
    """$ARTIFACTS, or .cache/security-artifacts: made if missing."""
    folder = pathlib.Path(os.environ.get("ARTIFACTS", repo / ".cache" / "security-artifacts"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def noisy_post(binary, kiosk, seconds=3, size="1280x720", caption="for the crowd"):
    """A post in `kiosk`'s store, made by the CLI before the kiosk starts: a clip of noise, which
    x264 cannot make small (3 s at 1280x720 is 29 MB, 4 s at 640x360 9 MB), for readers that must
    not get all of it into their buffers. Returns its metadata (shareToken, byteSize...)."""
    y4m = kiosk.work / "noise.y4m"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc2=size={size}:rate=30,noise=alls=40:allf=t", "-t", str(seconds),
                    "-pix_fmt", "yuv420p", str(y4m)], check=True, capture_output=True)
    workspace = kiosk.work / "cli-ws"
    subprocess.run([binary, "shoot", "--device", f"y4m:{y4m}", "--seconds", str(seconds), "--audio", "none", "--workspace", str(workspace)],
                   check=True, capture_output=True)
    posted = json.loads(subprocess.run([binary, "post", "--caption", caption, "--json", "--workspace", str(workspace),
                                        "--outbox", str(kiosk.work / "cli-outbox"), "--store-dir", str(kiosk.work / "store"), "--create"],
                                       check=True, capture_output=True, text=True, env=kiosk.environment).stdout)
    y4m.unlink()
    return json.loads((kiosk.work / "store" / "posts" / f"{posted['id']}.json").read_text())


def rss_kib(pid):
    """A process's resident memory (VmRSS), in KiB."""
    for line in pathlib.Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def sh(*args):
    subprocess.run(args, check=True, capture_output=True)


class OtherMachines:
    """The event's network's other machines: a network namespace on a veth link to this one (Debian's
    iproute2; needs root). This side has `host` (and `host6`, IPv6 in a /48); the namespace has
    `count` addresses `prefix`1 to `prefix`count and `extra` ones (IPv4 in a /16, IPv6 in the /48).
    Commands run there with `inside + [...]`."""

    def __init__(self, name, host, prefix, count, extra=(), host6=None):
        tag = f"{name[:3]}{os.getpid() % 100000}"
        self.ns, self.host_side, ns_side = f"recorder-{name}-{os.getpid()}", f"{tag}h", f"{tag}n"
        self.inside = ["ip", "netns", "exec", self.ns]
        sh("ip", "netns", "add", self.ns)
        sh("ip", "link", "add", self.host_side, "type", "veth", "peer", "name", ns_side)
        sh("ip", "link", "set", ns_side, "netns", self.ns)
        sh("ip", "addr", "add", f"{host}/16", "dev", self.host_side)
        if host6:
            sh("ip", "-6", "addr", "add", f"{host6}/48", "dev", self.host_side, "nodad")
        sh("ip", "link", "set", self.host_side, "up")
        sh(*self.inside, "ip", "link", "set", "lo", "up")
        sh(*self.inside, "ip", "link", "set", ns_side, "up")
        for address in [f"{prefix}{i}" for i in range(1, count + 1)] + list(extra):
            if ":" in address:
                sh(*self.inside, "ip", "-6", "addr", "add", f"{address}/48", "dev", ns_side, "nodad")
            else:
                sh(*self.inside, "ip", "addr", "add", f"{address}/16", "dev", ns_side)

    def close(self):
        subprocess.run(["ip", "netns", "del", self.ns], capture_output=True)
        subprocess.run(["ip", "link", "del", self.host_side], capture_output=True)


def without_tls(site):
    """nginx-recorder.conf as a booth without a certificate has it: its lines ending in "# tls" deleted."""
    return "\n".join(line for line in site.splitlines() if not line.rstrip().endswith("# tls"))


def shipped_nginx(folder, replacements, tls=True):
    """The event network's nginx set-up as the package installs it, for `start_nginx` in `folder`:
    the http-level names (systemd/nginx-recorder-http.conf, /etc/nginx/conf.d/recorder.conf) and
    the server (nginx-recorder.conf), whose include of the share locations
    (nginx-recorder-share.conf, /etc/nginx/snippets/recorder-share.conf; the booth's Wi-Fi includes
    the same file) names the copy written into `folder`. Each `(old, new)` of `replacements` is
    applied to all three and must be in one of them (a test never quietly tests another file);
    without `tls`, the lines ending in "# tls" are deleted."""
    shipped = repo / "systemd"
    http, server, snippet = ((shipped / name).read_text() for name in ("nginx-recorder-http.conf", "nginx-recorder.conf", "nginx-recorder-share.conf"))
    include = "include /etc/nginx/snippets/recorder-share.conf;"
    assert include in server, f"the shipped nginx-recorder.conf no longer has {include!r}"
    for old, new in replacements:
        assert old in http + server + snippet, f"the shipped nginx files no longer have {old!r}"
        http, server, snippet = (text.replace(old, new) for text in (http, server, snippet))
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "recorder-share.conf").write_text(snippet)
    site = http + "\n" + server.replace(include, f"include {folder}/recorder-share.conf;")
    return site if tls else without_tls(site)


def start_nginx(folder, site, log):
    """An nginx of its own for the server block(s) `site` (the shipped file with a test's ports and
    paths), everything it writes under `folder`, its errors to `log`. Returns (nginx -t's result, the
    running nginx or None when -t refused the file)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "site.conf").write_text(site)
    (folder / "nginx.conf").write_text(f"""worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 2048; }}
worker_rlimit_nofile 4096;
http {{
    access_log {folder}/default-access.log;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/site.conf;
}}
""")
    tested = subprocess.run(["nginx", "-t", "-c", str(folder / "nginx.conf"), "-p", str(folder)], capture_output=True, text=True)
    if tested.returncode != 0:
        return tested, None
    return tested, subprocess.Popen(["nginx", "-c", str(folder / "nginx.conf"), "-p", str(folder), "-g", "daemon off;"],
                                    stdout=subprocess.DEVNULL, stderr=open(log, "w"))


def stop(process):
    """Ends a process the test started (SIGTERM, then SIGKILL after 20 s)."""
    if process and process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def finish(check, name, status, figures=None):
    """The end of a check script: the kiosk's exit on SIGTERM judged, the figures printed, the
    PASS/FAIL count, and the script's exit status."""
    check("the kiosk exits 0 on SIGTERM", status == 0, f"exit {status}")
    if figures:
        width = max(len(key) for key in figures)
        print("figures:")
        for key, value in figures.items():
            print(f"  {key:{width}} {value}")
    print(f"{name}: {check.passed} passed, {check.failed} failed")
    sys.exit(1 if check.failed else 0)

