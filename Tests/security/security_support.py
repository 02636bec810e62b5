"""What the security tests share: the browser tests' kiosk and checks, the two tokens (each with the
+ and / that base64 gives), and where artifacts go."""
import os, pathlib, sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "browser"))
from browser_support import Checks, Kiosk, free_port, repo  # noqa: E402,F401

OPERATOR = "op-Xk3+q9/Lw2ZtR8vB0aYcN1pE4sHfJ6uD"
BOOTH = "bo-Qm+3x/Zr8Kp1Lw9Tn2Vb+4Hc/5Jd6Fs7"


def artifacts_folder():
    """$ARTIFACTS, or .cache/security-artifacts: made if missing."""
    folder = pathlib.Path(os.environ.get("ARTIFACTS", repo / ".cache" / "security-artifacts"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder
