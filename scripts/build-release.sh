#!/usr/bin/env bash
# The release binary, as scripts/run.sh and the benchmarks build it; prints its path.
# - --static-swift-stdlib: self-contained, so it runs on a kiosk with only Debian's libraries
#   (and starts in about half the time of a dynamically linked one).
# - -s: stripped.
# - --disable-local-rpath: no $ORIGIN run path (nothing is loaded from beside the binary; Debian's
#   lintian refuses a custom library search path in a package).
# - --no-export-dynamic: the static runtime's link file exports every symbol of the objects, and
#   an exported symbol is a root that --gc-sections must keep.
# - -function-sections (Swift) / -ffunction-sections -fdata-sections (C), --icf=all: one section
#   per function, so the linker drops the unused ones and folds identical ones.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib --disable-local-rpath -Xswiftc -Osize \
  -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections -Xcc -fdata-sections \
  -Xlinker -s -Xlinker --no-export-dynamic -Xlinker --icf=all >&2
echo "$PWD/.build/release/recorder"
