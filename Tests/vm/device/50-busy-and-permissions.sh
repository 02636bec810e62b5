# Sourced by Tests/vm/device-tests.sh after device/lib.sh.
section "busy device and permissions"
# busy: another process streams from the device
v4l2-ctl -d "$VIVID" --set-fmt-video=width=320,height=180 --stream-mmap --stream-count=100000 > "$T/holder.out" 2>&1 &
holder=$!
# Streaming once it prints (a "<" a buffer): a fixed wait raced its start-up under emulation.
for _ in $(seq 1 300); do [ -s "$T/holder.out" ] && break; kill -0 $holder 2>/dev/null || break; sleep 0.2; done
shoot --device "$VIVID" --size 320x180 --seconds 1 2> "$T/b.err"; rc=$?
kill $holder; wait $holder 2>/dev/null
check "busy device: exit 75 ($rc), message: $(head -c 200 "$T/b.err") (the holder printed: $(head -c 80 "$T/holder.out"))" exits_saying $rc 75 busy "$T/b.err"

# permission: a node this user cannot open
getent group video >/dev/null || groupadd -r video 2>/dev/null || true
chgrp video "$VIVID"; chmod 660 "$VIVID"
mkdir -p "$T/nobody"; chmod 777 "$T/nobody"
setpriv --reuid=65534 --regid=65534 --clear-groups "$REC" shoot --workspace "$T/nobody/ws" --device "$VIVID" --seconds 1 2> "$T/p.err"; rc=$?
chmod 600 "$VIVID"; chgrp root "$VIVID"
check "permission denied: exit 77 ($rc), message names group video: $(head -c 300 "$T/p.err")" exits_saying $rc 77 "group 'video'" "$T/p.err"
