#!/usr/bin/env bash
# The first screen of a host's gallery of POSTS posts (default 1,000) against one of a few: a local
# store of POSTS posts 20 s apart (Tests/browser/gallery_seed.py: one real clip, the rest copies
# under their own ids), `recorder serve` over it, and two galleries of the same store: all of it, and
# the last SMALL_MINUTES (default 10: 30 posts). For each, the seconds from opening the link to the
# page with its first two posters shown, in Debian's chromium at a phone's size (390x844) and a
# desktop's (1280x800), best of RUNS (default 5) in fresh browser contexts (Benchmarks/first-screen.py);
# prints them and the ratio (the whole gallery's first screen should cost what a small one's does: it
# pages, never loads all its posts).
#   bash Benchmarks/gallery-screen.sh            (REC=path/to/recorder to skip the release build)
#   POSTS=300 RUNS=3 bash Benchmarks/gallery-screen.sh
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .cache/venv/bin/python ] && [ -x /usr/bin/chromium ] || { echo "install Playwright and chromium (scripts/setup.sh test)"; exit 69; }
if [ -z "${REC:-}" ]; then
  REC=$(bash scripts/build-release.sh 2>/dev/null)  # as scripts/run.sh builds it
fi
OUT=$PWD/Benchmarks/out/gallery-screen; rm -rf "$OUT"; mkdir -p "$OUT"
POSTS=${POSTS:-1000}
RUNS=${RUNS:-5}
SMALL_MINUTES=${SMALL_MINUTES:-10}
SERVE=${SERVE:-18568}
export RECORDER_SHARE_BASE_URL="http://127.0.0.1:$SERVE/s/{token}" XDG_CACHE_HOME="$OUT/cache" RECORDER_KIOSK_ID=booth-1
unset RECORDER_CONFIG

.cache/venv/bin/python - "$REC" "$OUT" "$POSTS" <<'PY'
import os, pathlib, sys
sys.path.insert(0, "Tests/browser")
from gallery_seed import seed
binary, out, posts = sys.argv[1], pathlib.Path(sys.argv[2]), int(sys.argv[3])
seed(binary, out, out / "store", dict(os.environ), posts)
PY
link() { "$REC" gallery create --event "Anna & Ben" --no-card --json --store-dir "$OUT/store" "$@" | sed -n 's/.*"link":"\([^"]*\)".*/\1/p'; }
whole=$(link)
small=$(link --since "$(date -u -d "-$SMALL_MINUTES minutes" +%Y-%m-%dT%H:%M:%SZ)")
[ -n "$whole" ] && [ -n "$small" ] || { echo "making the galleries failed"; exit 1; }
"$REC" serve --listen "127.0.0.1:$SERVE" --store-dir "$OUT/store" > "$OUT/serve.log" 2>&1 & serve_pid=$!
trap 'kill $serve_pid 2>/dev/null' EXIT
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$SERVE/healthz" && break; sleep 0.2; done

.cache/venv/bin/python Benchmarks/first-screen.py "$small" "$RUNS" > "$OUT/small.txt"
.cache/venv/bin/python Benchmarks/first-screen.py "$whole" "$RUNS" > "$OUT/whole.txt"
printf "%-44s %12s %12s\n" "first screen (best of $RUNS), seconds" "phone" "desktop"
for kind in small whole; do
  label=$([ "$kind" = small ] && echo "a gallery of the last $SMALL_MINUTES minutes' posts" || echo "a gallery of all $POSTS posts")
  printf "%-44s %12s %12s\n" "$label" "$(awk '$1 == "phone" {print $2}' "$OUT/$kind.txt")" "$(awk '$1 == "desktop" {print $2}' "$OUT/$kind.txt")"
done
ratio() { echo "scale=2; $(awk -v k="$1" '$1 == k {print $2}' "$OUT/whole.txt") / $(awk -v k="$1" '$1 == k {print $2}' "$OUT/small.txt")" | bc -l; }
printf "%-44s %12s %12s\n" "ratio, all $POSTS posts / the last few" "$(ratio phone)" "$(ratio desktop)"
