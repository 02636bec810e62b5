#!/usr/bin/env bash
# A crowd on the event's network against the release binary (Tests/security/exhaustion.py, as root:
# it makes a network namespace): 1,100 half-open connections and 300 slow readers of one share
# link's 29 MB video from 50 addresses, while the booth records a 4 s shot and asks /healthz. Run
# once with the crowd and once with a single reader (what the shot itself costs), it prints the
# figures of each and the memory one slow reader costs the kiosk.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "crowd.sh needs root (a network namespace); CI runs as root"; exit 77; }
REC=${REC:-$(bash scripts/build-release.sh 2>/dev/null)}
OUT=$PWD/Benchmarks/out/crowd; rm -rf "$OUT"; mkdir -p "$OUT"
py=.cache/venv/bin/python; [ -x "$py" ] || py=python3
HALF_OPEN=0 SLOW=1 ARTIFACTS=$OUT "$py" Tests/security/exhaustion.py "$REC" > "$OUT/alone.txt" 2>&1 || { cat "$OUT/alone.txt"; exit 1; }
ARTIFACTS=$OUT "$py" Tests/security/exhaustion.py "$REC" > "$OUT/crowd.txt" 2>&1 || { cat "$OUT/crowd.txt"; exit 1; }
peak() { sed -n 's/^  RSS peak *\([0-9]*\) MiB.*/\1/p' "$1"; }
served() { sed -n 's/^  slow readers. answers *{"200": \([0-9]*\).*/\1/p' "$1"; }
echo "== one reader (the shot alone)"; sed -n '/^figures:/,/^exhaustion/p' "$OUT/alone.txt"
echo "== the crowd"; sed -n '/^figures:/,/^exhaustion/p' "$OUT/crowd.txt"
alone=$(peak "$OUT/alone.txt"); crowd=$(peak "$OUT/crowd.txt"); n=$(served "$OUT/crowd.txt")
echo "memory per slow reader being sent the video: $(( (crowd - alone) * 1024 / (n > 0 ? n : 1) )) KiB ((${crowd} - ${alone}) MiB over ${n} readers)"
