#!/usr/bin/env bash
# A crowd on the event's network against the release binary, as root (it makes network namespaces).
#
# First, readers that never read (Tests/security/stalled_readers.py): 0, 100 and 300 clients of a
# 29 MB share video from 65 addresses with 4 KiB receive buffers, directly and through the shipped
# nginx file; for each, the kiosk's RSS before, with them and 10 s after they left, and how long the
# booth's own screen took for the whole video meanwhile. OLD=path measures an older binary beside it
# (one without kiosk.proxy_socket: OLD_NGINX=its nginx file, e.g. from `git show
# cc12353:systemd/nginx-recorder.conf`; nginx then reaches it on its loopback port).
#
# Then (unless STALLED_ONLY=1) Tests/security/exhaustion.py's crowd: 1,100 half-open connections and
# 300 slow readers from 50 addresses while the booth records a 4 s shot, run once with the crowd and
# once with a single reader (what the shot itself costs), and the memory one slow reader costs.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" -eq 0 ] || { echo "crowd.sh needs root (a network namespace); CI runs as root"; exit 77; }
REC=${REC:-$(bash scripts/build-release.sh 2>/dev/null)}
OUT=$PWD/Benchmarks/out/crowd; rm -rf "$OUT"; mkdir -p "$OUT"
py=.cache/venv/bin/python; [ -x "$py" ] || py=python3

# stalled NAME BINARY [ENV...]: the three crowds against one binary, a table row per crowd and way in.
stalled() {
  local name=$1 binary=$2; shift 2
  for n in 0 100 300; do
    env "$@" STALLED=$n ARTIFACTS=$OUT "$py" Tests/security/stalled_readers.py "$binary" > "$OUT/stalled-$name-$n.txt" 2>&1 || true
    for way in direct "through nginx"; do
      figure() { sed -n "s/^  $way: $1 *//p" "$OUT/stalled-$name-$n.txt" | head -n 1; }
      printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$name" "$way" "$n" "$(figure 'RSS before')" \
        "$(figure "RSS with $n stalled")" "$(figure 'RSS 10 s after they left')" "$(figure "booth's own video meanwhile")"
    done
  done
}
echo "== readers that never read (29 MB share video; 256 of them are sent at most, the rest told to wait)"
echo "| binary | way in | stalled readers | RSS before | RSS with them | RSS 10 s after they left | the booth's own video meanwhile |"
echo "|---|---|---|---|---|---|---|"
stalled this "$REC"
if [ -n "${OLD:-}" ]; then
  stalled old "$OLD" PROXY_SOCKET=0 ${OLD_NGINX:+NGINX_SITE=$OLD_NGINX}
fi
echo "(the checks each run passed or failed: $OUT/stalled-*.txt)"
[ "${STALLED_ONLY:-0}" = 1 ] && exit 0

HALF_OPEN=0 SLOW=1 ARTIFACTS=$OUT "$py" Tests/security/exhaustion.py "$REC" > "$OUT/alone.txt" 2>&1 || { cat "$OUT/alone.txt"; exit 1; }
ARTIFACTS=$OUT "$py" Tests/security/exhaustion.py "$REC" > "$OUT/crowd.txt" 2>&1 || { cat "$OUT/crowd.txt"; exit 1; }
peak() { sed -n 's/^  RSS peak *\([0-9]*\) MiB.*/\1/p' "$1"; }
served() { sed -n 's/^  slow readers. answers *{"200": \([0-9]*\).*/\1/p' "$1"; }
echo "== one reader (the shot alone)"; sed -n '/^figures:/,/^exhaustion/p' "$OUT/alone.txt"
echo "== the crowd"; sed -n '/^figures:/,/^exhaustion/p' "$OUT/crowd.txt"
alone=$(peak "$OUT/alone.txt"); crowd=$(peak "$OUT/crowd.txt"); n=$(served "$OUT/crowd.txt")
echo "memory per slow reader being sent the video: $(( (crowd - alone) * 1024 / (n > 0 ? n : 1) )) KiB ((${crowd} - ${alone}) MiB over ${n} readers)"
