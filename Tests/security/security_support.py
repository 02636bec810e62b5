"""What the security tests share: the browser tests' kiosk and checks, the two tokens (each with the
+ and / that base64 gives), and where artifacts go."""
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
