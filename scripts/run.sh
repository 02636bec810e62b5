#!/usr/bin/env bash
# The main job on a fresh machine: install, build, record a shot from the first camera (or the
# built-in test pattern when there is none, which it says), then post it to the configured store
# (by default the embedded local store) and print where the video and its metadata went.
# Extra arguments go to `recorder shoot`; CAPTION sets the caption.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh run
bin=$(bash scripts/build-release.sh)
"$bin" shoot --seconds "${SECONDS_TO_RECORD:-5}" "$@"
exec "$bin" post --caption "${CAPTION:-Recorded $(date -u +%Y-%m-%dT%H:%M:%SZ)}"
