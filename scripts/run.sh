#!/usr/bin/env bash
# The main job on a fresh machine: install, build, and record a shot from the first camera (or the
# built-in test pattern when there is none, which it says). Extra arguments go to `recorder shoot`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh run
swift build -c release
exec .build/release/recorder shoot --seconds "${SECONDS_TO_RECORD:-5}" "$@"
