#!/usr/bin/env bash
# One boot of the power-cut test (Tests/vm/power-cut.sh), INSIDE the qemu guest, on the ext4 file
# system of the virtual disk (/dev/vda) that holds the workspace, the outbox and the local store:
#   power-cut-guest.sh cycle|final BACKEND BOOT S3PORT PHASE [DIR BYTES]
# The guests' mail goes to the host's SMTP server (Tests/mail/smtp-server.py, plain SMTP) at
# 10.0.2.2:$POWER_CUT_SMTP; the outbox phase's posts are made with --email (see below).
# Every boot after the first begins after a power cut: what the cut left is checked first, before
# any recorder command touches it (power_cut_check.py after-cut; DIR BYTES: the recording under way
# at the cut had BYTES flushed, the host worked out from the progress lines), then the interrupted
# recording is recovered, the outbox flushed and the store checked. `cycle` then shoots and posts
# in a loop and creates /tmp/vm/armed: the host cuts the power a random time after that. PHASE says
# when it is created: as the loop starts (anywhere), as the first recording has data on the disk
# (recording: its shots last 8 s), as the first post starts (post), as recorder stands
# stopped at a step of finishing a shot (finishing: see below), or once posts wait in the outbox
# (outbox: the store is taken away or slowed, POWER_CUT_FAULT says how, see below). After the
# flush, each mail queued at the cut has gone (power_cut_check.py mail-flushed); the host then
# checks the server received it once (power_cut_check.py received).
# Lines: PASS:/FAIL: checks, "progress UPTIME DIR BYTES" (the recording's size, 4 times a second),
# "step UPTIME WHAT", "queued ID SHA256" (each post queued at the cut, read before recorder runs),
# "orphan KEY UPLOAD" (an upload the store holds for a queued post and no journal names), "mailqueued
# ID POSTID ADDRESS" (each mail waiting at the cut), "mailpending ID", "mailorphan ID POSTID",
# "mailshared ID POSTID URL" (the share link a mail queued at the cut carries), and at
# the end (final) "power-cut guest: N passed, M failed".
set -u
mode=$1 backend=$2 boot=$3 port=$4 phase=$5 expect_dir=${6:-} expect_bytes=${7:-0}
fault=${POWER_CUT_FAULT:-}
smtp_port=${POWER_CUT_SMTP:?the port of the SMTP server on the host}
here=$(cd "$(dirname "$0")" && pwd)
REC=${RECORDER_BIN:?}
D=/tmp/disk
pass=0; fail=0
ok() { echo "PASS: $*"; pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
finish() { echo "power-cut guest: $pass passed, $fail failed"; exit $((fail > 0)); }
checked() {  # runs power_cut_check.py, counting its PASS/FAIL lines and passing the rest through
  local line
  while IFS= read -r line; do
    case $line in PASS:*) pass=$((pass + 1)) ;; FAIL:*) fail=$((fail + 1)) ;; esac
    echo "$line"
  done < <(python3 "$here/power_cut_check.py" "$@" | tee /tmp/last-check)
}
uptime_s() { cut -d' ' -f1 /proc/uptime; }

# The guest's /dev is a bare devtmpfs (no udev): bash's <(...) needs /dev/fd.
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
mkdir -p "$D"
# noauto_da_alloc: ext4 otherwise writes a file replaced by a rename out early by itself, which
# would hide a missing fsync; the test wants the file system to do only what it is asked.
mount -t ext4 -o noauto_da_alloc /dev/vda "$D" || { bad "the disk mounts (journal replayed)"; finish; }
WS=$D/ws OB=$D/outbox
# (The local store is a configured directory recorder does not create: a disk that is not there
# must not be filled in its place. The first boot makes it.)
# S3: the host's SeaweedFS behind the fault proxy (Tests/s3/faultproxy.py), which the outbox phase
# tells to refuse, stall or throttle. Parts of 5 MiB, so a post of the outbox phase's large shots
# goes up in 3 parts, and a short stall timeout, so a stalled part gives up in seconds (but
# one part at a time and a long one where the outbox phase throttles the link: a slow reader's
# socket buffers take longer than 4 s to drain half-way, which libcurl would take for a stall).
settings=(--set retry.initial_seconds=0.5 --set retry.max_seconds=4)
# The guests' mail: the host's SMTP server, in the clear (it offers no STARTTLS).
settings+=(--set "mail.smtp_url=smtp://10.0.2.2:$smtp_port" --set mail.insecure=yes --set mail.from=booth@example.org)
if [ "$phase" = outbox ] && [ "$fault" = throttle ]; then
  transfer=(--set network.stall_timeout_seconds=60 --set s3.parallel_parts=1)
else
  transfer=(--set network.stall_timeout_seconds=4)
fi
# qemu's user network: the host's SMTP server, and SeaweedFS for S3.
ip link set lo up && ip link set eth0 up && ip addr add 10.0.2.15/24 dev eth0 && ip route add default via 10.0.2.2 ||
  { bad "the guest's network (qemu user network to the host's SMTP server and SeaweedFS)"; finish; }
case $backend in
  # (a local store gives a mail no link by itself: share.base_url says where its videos are seen)
  local) store=(--store-dir "$D/store" "${settings[@]}" --set 'share.base_url=https://booth.example.org/{key}'); check_store=(local "$D/store") ;;
  s3)
    export AWS_ACCESS_KEY_ID=recorder-test AWS_SECRET_ACCESS_KEY=recorder-test-secret
    endpoint=http://10.0.2.2:$port
    store=(--backend s3 --endpoint "$endpoint" --bucket clips --region us-east-1 "${settings[@]}"
           --set s3.multipart_threshold_mib=5 --set s3.part_size_mib=5 "${transfer[@]}")
    check_store=(s3 "$endpoint" clips) ;;
  *) echo "power-cut-guest: backend local or s3, not $backend"; exit 64 ;;
esac
traced=()  # the loop's shots run under strace in the finishing phase's "link" step (below)
shoot() { "${traced[@]}" "$REC" shoot --workspace "$WS" --device testsrc --size 320x240 --fps 15 --quiet "$@" > /dev/null; }
post() { "$REC" post --workspace "$WS" --outbox "$OB" "${store[@]}" --attempts 1 --quiet "$@" > /dev/null; }

if [ -f "$D/started" ]; then
  echo "== boot $boot: what the power cut left"
  checked after-cut "$WS" "$OB" ${expect_dir:+"$expect_dir" "$expect_bytes"}
  cp /tmp/last-check /tmp/after-cut
  # The queued posts' uploads as the store holds them, before a flush touches either.
  [ "$backend" = s3 ] && checked uploads "$endpoint" clips "$OB"
  # The store comes back: its disk is there again (an outbox phase took it away; the host has
  # lifted the proxy's faults before this boot).
  if [ -d "$D/store.unplugged" ]; then
    mv "$D/store.unplugged" "$D/store" && echo "the store's disk is back"
  fi
  interrupted=$(ls -d "$WS"/.incoming-*/ 2>/dev/null | wc -l)
  # The next shot recovers an interrupted recording (kept/<id>/, shot.json "recovered").
  before=$(ls "$WS/kept" 2>/dev/null | wc -l)
  # (not --quiet: the note that it recovered something is what is looked for)
  if "$REC" shoot --workspace "$WS" --device testsrc --size 320x240 --fps 15 --seconds 1 > "$D/recover.out" 2> "$D/recover.err"; then ok "a shot after the cut records"; else bad "a shot after the cut records: $(head -c 400 "$D/recover.err")"; fi
  after=$(ls "$WS/kept" 2>/dev/null | wc -l)
  if [ "$interrupted" -gt 0 ]; then
    if grep -q "recovered an interrupted recording" "$D/recover.err" && [ "$after" -gt "$before" ]; then
      kept=$(ls -d "$WS"/kept/*/ | sort | tail -n 1)
      frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of default=nw=1:nk=1 "${kept}video.mp4" 2>/dev/null)
      if ffmpeg -v error -xerror -i "${kept}video.mp4" -f null - 2> "$D/kept.err" && [ "${frames:-0}" -gt 0 ]; then
        ok "the interrupted recording was recovered and plays ($frames frames)"; echo "recovered $frames"
      elif [ "${frames:-0}" = 0 ] && [ -z "$expect_dir" ]; then
        ok "the interrupted recording had not reached a flushed fragment (younger than 2 s): nothing to recover"
      else
        bad "the recovered recording plays: ${frames:-no} frames, $(head -c 300 "$D/kept.err")"
      fi
    elif [ -z "$expect_dir" ]; then
      ok "the interrupted recording was too young to hold a fragment; the next shot said: $(grep -m1 -i "recover\|interrupted" "$D/recover.err" || echo nothing)"
    else
      bad "the interrupted recording was recovered: $(head -c 400 "$D/recover.err")"
    fi
  fi
  # A shot finished but not yet current at the cut is kept beside the current one, whole.
  for id in $(sed -n 's/^unlinked //p' /tmp/last-check); do
    frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of default=nw=1:nk=1 "$WS/kept/$id/video.mp4" 2>/dev/null)
    if [ "${frames:-0}" -gt 0 ] && grep -q "shot $id was finished when a stop" "$D/recover.err"; then
      ok "shot $id, finished but not yet current at the cut, is kept beside the current shot ($frames frames)"
    else
      bad "shot $id, finished but not yet current at the cut, is kept beside the current shot: ${frames:-no} frames in $WS/kept/$id; the next shot said: $(head -c 300 "$D/recover.err")"
    fi
  done
  listed=$("$REC" outbox list --outbox "$OB" "${store[@]}" --json 2> "$D/list.err"); rc=$?
  if [ $rc = 0 ]; then ok "outbox list reads the queue after the cut"; else bad "outbox list after the cut ($rc): $(head -c 400 "$D/list.err")"; fi
  if "$REC" outbox flush --outbox "$OB" "${store[@]}" > "$D/flush.out" 2> "$D/flush.err"; then
    ok "outbox flush sends what the cut left queued"
  else
    bad "outbox flush after the cut: $(head -c 600 "$D/flush.err")"
  fi
  left=$(ls -A "$OB/queue" 2>/dev/null)
  if [ -z "$left" ]; then ok "nothing is left in the outbox's queue after the flush, not even a half-built post"; else bad "left in the outbox's queue after the flush: $left"; fi
  left=$(cd "$WS" && ls -d .incoming-* .interrupted-* .current-* 2>/dev/null)
  if [ -z "$left" ]; then ok "nothing half-made is left in the workspace after the next shot"; else bad "left in the workspace after the next shot: $left"; fi
  checked store "${check_store[@]}"
  # Each post queued at the cut (as read before recorder ran) is in the store now, its video the
  # bytes its queued metadata names; once (the store check counts captions, one per shot).
  while read -r _ id sha; do
    if grep -q "^stored $id $sha " /tmp/last-check; then ok "post $id, queued at the cut, reached the store with the SHA-256 it was queued with"
    else bad "post $id, queued at the cut, reached the store with the SHA-256 it was queued with ($sha): $(grep "^stored $id " /tmp/last-check || echo not stored)"; fi
  done < <(grep '^queued ' /tmp/after-cut)
  # recorder's own listing named the same posts.
  mine=$(python3 -c 'import json, sys; print(" ".join(sorted(i["id"] for i in json.load(sys.stdin))))' <<< "${listed:-[]}" 2>&1)
  theirs=$(grep '^queued ' /tmp/after-cut | cut -d' ' -f2 | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
  if [ "$mine" = "$theirs" ]; then ok "recorder's outbox list named the posts queued at the cut (${theirs:-none})"; else bad "recorder's outbox list named $mine, the outbox held $theirs"; fi
  # The mail the cut left waiting went with the flush (the host then reads what the server got).
  checked mail-flushed "$OB" /tmp/after-cut
else
  echo "== boot $boot: a first shot and post before the cuts begin"
  mkdir -p "$D/store"
  shoot --seconds 1 2> "$D/first.err" && post --caption "boot $boot first" 2>> "$D/first.err" ||
    { bad "the first shot and post: $(head -c 400 "$D/first.err")"; finish; }
  touch "$D/started"
  ok "the first shot is recorded and posted"
fi
sync

if [ "$mode" = final ]; then finish; fi
[ "$fail" = 0 ] || finish

echo "== boot $boot: shooting and posting until the power is cut"
# Four times a second, the size of the recording under way: the host works out from the last
# lines before the cut how much must have reached the disk.
(
  while :; do
    for f in "$WS"/.incoming-*/recording.mp4; do
      [ -f "$f" ] || continue
      d=${f%/recording.mp4}
      size=$(stat -c %s "$f" 2>/dev/null || echo 0)
      echo "progress $(uptime_s) ${d##*/.incoming-} $size"
      # Armed once the first fragment follows the header (the file grew past its first size).
      if [ "$phase" = recording ] && [ "$size" -gt 0 ]; then
        if [ -z "${header:-}" ]; then header=$size; elif [ "$size" -gt "$header" ]; then touch /tmp/vm/armed; fi
      fi
    done
    sleep 0.25
  done
) &
[ "$phase" = anywhere ] && touch /tmp/vm/armed
if [ "$phase" = finishing ]; then
  # The remux and the commit of a short shot take about 0.2 s under emulation, less than the
  # host needs to see the signal and kill qemu. So recorder is stopped where it is at one of two
  # steps of the finishing, chosen at random, and the host cuts while it stands there:
  # - copy: as its remuxed copy appears (looked for every 2 ms; SIGSTOP);
  # - link: as it is about to link the shot as current, its folder already in shots/ (strace
  #   stops it at the symlink call itself: no polling could land between the two, and a cut
  #   there once lost a finished shot).
  # Only the process waits; the kernel goes on writing back and committing its journal.
  steps=(copy link); step=${POWER_CUT_FINISH_STEP:-${steps[RANDOM % 2]}}
  [ "$step" = link ] && traced=(strace -f -qq -o /dev/null --seccomp-bpf -e trace=symlink -e inject=symlink:signal=STOP)
  ( python3 - "$WS" "$step" <<'PY'
import glob, os, signal, sys, time
ws, step = sys.argv[1], sys.argv[2]
def shoots():
    """(pid, whether every thread of it is stopped) of each recorder shoot: a whole process
    stopped is the SIGSTOP, not one thread held a moment by strace (a new thread, say)."""
    for pid in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            argv = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
            states = [open(f"/proc/{pid}/task/{t}/stat").read().rsplit(")", 1)[1].split()[0] for t in os.listdir(f"/proc/{pid}/task")]
        except (OSError, IndexError):
            continue
        if len(argv) > 1 and argv[0].endswith(b"/recorder") and argv[1] == b"shoot":
            yield int(pid), bool(states) and all(state in "tT" for state in states)
seen = set()  # the drafts of the shots recorded meanwhile
while True:
    seen.update(os.path.basename(d)[len(".incoming-"):] for d in glob.glob(ws + "/.incoming-*"))
    if step == "copy" and glob.glob(ws + "/.incoming-*/video.mp4"):
        for pid, _ in shoots():
            os.kill(pid, signal.SIGSTOP)
        print("finishing: recorder stopped as its remuxed copy appeared", flush=True)
        break
    # Stopped whole, with its folder in shots/: at the link (strace also holds a process a moment
    # as it starts, before it has a draft).
    if step == "link" and any(stopped for _, stopped in shoots()) and any(os.path.isdir(f"{ws}/shots/{i}") for i in seen):
        print("finishing: recorder stopped as it was about to link the shot as current", flush=True)
        break
    time.sleep(0.002)
PY
    echo "step $(uptime_s) finishing"; touch /tmp/vm/armed ) &
fi
if [ "$phase" = outbox ]; then
  # Posts pile up in the outbox. The store is taken away or slowed as POWER_CUT_FAULT says, the
  # loop goes on shooting and posting (one attempt each; two posts in three with --email, so their
  # mails wait too: a mail goes once its post is in the store), and the host cuts the power once at
  # least three posts and a mail wait, and for S3 one of them is a large post in parts that got as
  # far as this fault lets it:
  #   missing     (local) the store's disk is not there: its directory is moved away, and the
  #               next boot puts it back; recorder refuses to make it (exit 73)
  #   readonly    (local) the store's file system is read-only, as ext4 leaves a failing disk (73)
  #   refuse      (S3) the proxy resets every connection: a store that is down
  #   stall       (S3) part 1 of an upload goes through; every other video body stops part-way
  #               and hangs (the post gives up after the stall timeout): parts journaled
  #   throttle    (S3) every body goes at 100 KB/s, and each post goes on in the background as
  #               the next guest shoots: the first sends what is queued, the others find it
  #               sending and leave theirs queued (75): parts journaled as they arrive
  #   unanswered  (S3) the store starts each multipart upload, but its answer never comes back:
  #               uploads the store holds and no journal names
  rules= refused=
  case $fault in
    missing) mv "$D/store" "$D/store.unplugged" && sync; refused=73 ;;
    readonly) mount --bind "$D/store" "$D/store" && mount -o remount,bind,ro "$D/store"; refused=73 ;;
    refuse) rules='[{"match": "", "action": "refuse", "count": 1000000}]' ;;
    stall) rules='[{"regex": "^PUT .*[?&]partNumber=1&", "action": "pass", "count": 1000000},
                  {"regex": "^PUT /clips/videos/", "action": "stall", "after": 65536, "count": 1000000}]' ;;
    throttle) rules='[{"match": "PUT ", "action": "throttle", "rate": 100000, "count": 1000000}]' ;;
    unanswered) rules='[{"regex": "^POST .*[?]uploads=", "action": "hold-answer", "count": 1000000},
                       {"regex": "^PUT /clips/videos/", "action": "stall", "after": 65536, "count": 1000000}]' ;;
    *) false ;;
  esac || { bad "the store is taken away (POWER_CUT_FAULT=$fault: missing or readonly for local, refuse, stall, throttle or unanswered for s3)"; finish; }
  if [ -n "$rules" ]; then
    [ "$backend" = s3 ] && curl -sS --fail -X PUT --data-binary "$rules" "$endpoint/.faultproxy/faults" ||
      { bad "the fault proxy takes the rules for $fault"; finish; }
  fi
  echo "step $(uptime_s) store $fault"
  n=0
  while :; do
    n=$((n + 1))
    # (Three posts wait after three rounds unless the fault lets them through: it is not doing its part.)
    [ "$n" -gt 12 ] && [ ! -f /tmp/vm/armed ] && { bad "the outbox phase ($fault) had no three posts waiting after 12 rounds"; finish; }
    echo "step $(uptime_s) shoot $n"
    if [ "$backend" = s3 ] && [ $((n % 4)) = 1 ]; then
      # A large shot: 40 frames of noise at 640x360, lossless (about 14 MB): 3 parts.
      python3 - /tmp/noise.y4m 640 360 40 <<'PY' &&
import os, sys
path, width, height, frames = sys.argv[1], *map(int, sys.argv[2:])
with open(path, "wb") as f:
    f.write(b"YUV4MPEG2 W%d H%d F15:1 Ip A1:1 C420jpeg\n" % (width, height))
    for _ in range(frames):
        f.write(b"FRAME\n" + os.urandom(width * height) + bytes([128]) * (width * height // 2))
PY
      "$REC" shoot --workspace "$WS" --device y4m:/tmp/noise.y4m --size 640x360 --crf 0 --preset ultrafast --quiet > /dev/null 2> "$D/loop.err"
    else
      shoot --seconds 2 2> "$D/loop.err"
    fi || { bad "shot $n in the loop: $(head -c 400 "$D/loop.err")"; finish; }
    echo "step $(uptime_s) post $n"
    # Two posts in three mail their guest: the mail waits with its post, for the store.
    mail=(); [ $((n % 3)) = 0 ] || mail=(--email "guest-$n@example.org")
    if [ "$fault" = throttle ]; then
      # (not --quiet: its "queued post" note says the shot is in the outbox and the next may begin)
      "$REC" post --workspace "$WS" --outbox "$OB" "${store[@]}" --attempts 1 --caption "boot $boot shot $n" "${mail[@]}" > /dev/null 2> "$D/post-$n.err" &
      for _ in $(seq 1200); do grep -q '^recorder: queued post' "$D/post-$n.err" && break; kill -0 $! 2> /dev/null || break; sleep 0.1; done
      grep -q '^recorder: queued post' "$D/post-$n.err" || { bad "post $n in the outbox phase was queued: $(head -c 400 "$D/post-$n.err")"; finish; }
      rc=75
    else
      post --caption "boot $boot shot $n" "${mail[@]}" 2> "$D/loop.err"
      rc=$?
    fi
    if [ -n "$refused" ] && [ $rc = "$refused" ]; then
      [ "$n" = 1 ] && echo "the store refused, as it should: $(head -c 300 "$D/loop.err")"
    elif [ $rc != 0 ] && [ $rc != 75 ]; then
      bad "post $n in the outbox phase ($rc): $(head -c 400 "$D/loop.err")"; finish
    fi
    [ -f /tmp/vm/armed ] && continue
    waiting=$(python3 - "$OB/queue" "$fault" "$OB/mail/queue" <<'PY'
import json, os, sys
queue, fault, mail = sys.argv[1:]
items = sorted(n for n in os.listdir(queue) if not n.startswith(".")) if os.path.isdir(queue) else []
def load(item, name):
    try:
        with open(os.path.join(queue, item, name)) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None
journaled = [i for i in items if (load(i, "upload.json") or {}).get("parts")]
def failed(item):
    # (lastFailure, the failure as data; lastError, the words an outbox before 0.5.0 kept)
    state = load(item, "state.json") or {}
    return bool(state.get("lastFailure") or state.get("lastError"))
# A large post that failed with no journal: its upload was started, and the answer never came.
unheard = [i for i in items if (load(i, "post.json") or {}).get("byteSize", 0) > 5 << 20
           and failed(i) and load(i, "upload.json") is None]
mails = [n for n in os.listdir(mail) if not n.startswith(".")] if os.path.isdir(mail) else []
ready = len(items) >= 3 and mails and {"stall": journaled, "throttle": journaled, "unanswered": unheard}.get(fault, items)
# (each large post's size, whether its last attempt failed, and whether a journal names its upload)
large = [f"{(load(i, 'post.json') or {}).get('byteSize', 0) >> 20} MiB {'failed' if failed(i) else 'no failure'} {'journal' if load(i, 'upload.json') is not None else 'no journal'}"
         for i in items if (load(i, "post.json") or {}).get("byteSize", 0) > 5 << 20]
print(f"{'ready' if ready else 'waiting'}: {len(items)} posts queued, {len(journaled)} with parts journaled, {len(unheard)} large ones failed without a journal, {len(mails)} mails"
      + (f" (large: {'; '.join(large)})" if large and not ready else ""))
PY
    )
    echo "step $(uptime_s) outbox $waiting"
    case $waiting in ready:*) touch /tmp/vm/armed ;; esac
  done
fi
n=0
while :; do
  n=$((n + 1))
  echo "step $(uptime_s) shoot $n"
  seconds=$((2 + RANDOM % 4)); [ "$phase" = recording ] && seconds=8
  shoot --seconds $seconds 2> "$D/loop.err" || { bad "shot $n in the loop: $(head -c 400 "$D/loop.err")"; finish; }
  echo "step $(uptime_s) post $n"
  [ "$phase" = post ] && touch /tmp/vm/armed
  post --caption "boot $boot shot $n" 2> "$D/loop.err"
  rc=$?
  # 75: the store did not take it now; it stays queued, which is what the next boot checks.
  [ $rc = 0 ] || [ $rc = 75 ] || { bad "post $n in the loop ($rc): $(head -c 400 "$D/loop.err")"; finish; }
done
