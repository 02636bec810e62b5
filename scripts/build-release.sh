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
# - -use-ld=scripts/release-ld: the toolchain's ld.lld, linking the Swift packages' object files as
#   a static library's (a file nothing names is left out; see the script): 1.3 MB.
# - -z pack-relative-relocs: the position-independent binary's relocations packed (DT_RELR, glibc
#   2.36, Debian 12): 2.0 MB of .rela.dyn become 16 KB.
# After the build, the table of what each module adds (scripts/binary-size.py, from the map
# scripts/release-ld leaves beside the binary) on stderr: issue 51, scripts/package.sh holds the
# binary at 24 MiB.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --static-swift-stdlib --disable-local-rpath -Xswiftc -Osize \
  -Xswiftc -Xfrontend -Xswiftc -function-sections -Xcc -ffunction-sections -Xcc -fdata-sections \
  -Xswiftc -use-ld="$PWD/scripts/release-ld" -Xlinker -z -Xlinker pack-relative-relocs \
  -Xlinker -s -Xlinker --no-export-dynamic -Xlinker --icf=all >&2
python3 scripts/binary-size.py .build/release/recorder.map .build/release/recorder >&2
echo "$PWD/.build/release/recorder"
