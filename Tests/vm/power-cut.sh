#!/usr/bin/env bash
# Power cuts, not only kill -9: kill -9 leaves the page cache to the kernel, a power cut does not.
# The workspace, the outbox and the local store live on an ext4 file system on a virtual disk (a
# raw image, cache=writeback: what the guest flushed is on the host's disk, what it did not is lost
# with qemu). The guest shoots and posts in a loop (Tests/vm/power-cut-guest.sh) and qemu is killed
# with SIGKILL at a random moment; the next boot checks what the cut left before anything touches
# it, recovers, flushes the outbox and checks the store; the last boot only checks.
#   Tests/vm/power-cut.sh [local|s3|both] [CUTS] [SEED]
# CUTS per store (default $POWER_CUTS, else 3); SEED (default $POWER_CUT_SEED, else random) picks
# the cut moments and is printed first: the same seed replays the same moments (the guest's own
# timing under emulation varies, so a replay lands near the same step, not on the same instruction).
# POWER_CUT_PHASE=recording (or post, finishing, anywhere, outbox) puts every cut in that phase;
# POWER_CUT_FINISH_STEP=copy or link, every finishing cut at that step. Without it, each store's
# last cut is in the outbox phase (posts waiting for a store that is away or slow) and the others
# at random among all five; POWER_CUT_FAULT=missing|readonly (local) or refuse|stall|throttle|
# unanswered (S3) chooses how the outbox phase takes the store away (else each in turn, from one
# drawn at random).
# The S3 store is SeaweedFS behind the fault proxy (Tests/s3/faultproxy.py); its faults are lifted
# before every boot, so the store is back for the boot after a cut.
# The guests' mail goes to Tests/mail/smtp-server.py on this host (plain SMTP, which the guest
# reaches at 10.0.2.2 through qemu's user network, for both stores), up throughout: the outbox
# phase's posts are made with --email, so their mails wait with them for the store. After a cut,
# the guest lists the mails waiting before recorder runs and checks the flush sent them; then this
# script reads the server (power_cut_check.py received): each came once, with the Message-ID made
# from its post and address, carrying its post's share link, and no mail came twice.
# Ends with "power cut: N cuts, ..., Q posts queued at the cuts, D of them delivered once, M mails
# queued at the cuts, E delivered once, ..., lost 0" (lost: posts and mails queued at a cut and not
# delivered once) and exits 1 on any failed check, anything lost, or an outbox phase whose cut found
# no post, or posts and no mail, waiting.
# The longer run for the figures in CONTRIBUTING.md (20 or more posts queued at cuts):
#   POWER_CUT_PHASE=outbox Tests/vm/power-cut.sh both 4
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
which=${1:-both}
cuts=${2:-${POWER_CUTS:-3}}
seed=${3:-${POWER_CUT_SEED:-$(( $(od -An -N2 -tu2 /dev/urandom) ))}}
case $which in local) backends=(local) ;; s3) backends=(s3) ;; both) backends=(local s3) ;;
  *) echo "power-cut: local, s3 or both, not $which" >&2; exit 64 ;; esac
echo "power cut: seed $seed (replay: Tests/vm/power-cut.sh $which $cuts $seed)"
RANDOM=$seed
command -v mkfs.ext4 > /dev/null || { echo "power-cut: mkfs.ext4 (e2fsprogs) is missing" >&2; exit 70; }

mkdir -p "$repo/.vm"
out=$(mktemp -d "$repo/.vm/power-cut.XXXXXX")
server= proxy= smtp=
cleanup() {
  [ -z "$smtp" ] || kill "$smtp" 2> /dev/null || true
  [ -z "$proxy" ] || kill "$proxy" 2> /dev/null || true
  [ -z "$server" ] || bash "$repo/Tests/s3/seaweedfs.sh" stop "$server" > /dev/null 2>&1 || true
  rm -rf "$out"
}
trap cleanup EXIT

free_port() { ! (exec 3<> "/dev/tcp/127.0.0.1/$1") 2> /dev/null; }
passed=0 failed=0 total_cuts=0 recovered=0 delivered=0 queued_at_cuts=0 outbox_cuts=0 journaled=0 orphans=0
mails_queued=0 mails_delivered=0
# The guests' mail server, for the whole run (Debian's python, which has python3-aiosmtpd); it
# keeps every message it takes in $out/smtp/mail.
mkdir -p "$out/smtp"
/usr/bin/python3 "$repo/Tests/mail/smtp-server.py" "$out/smtp" --tls none > "$out/smtp.log" 2>&1 &
smtp=$!
for _ in $(seq 600); do [ -f "$out/smtp/ready" ] || ! kill -0 "$smtp" 2> /dev/null && break; sleep 0.1; done
[ -f "$out/smtp/ready" ] || { cat "$out/smtp.log"; echo "FAIL: the SMTP server did not start for the power-cut test (python3-aiosmtpd: scripts/setup.sh test)"; exit 1; }
smtp_port=$(cat "$out/smtp/ready")

for backend in "${backends[@]}"; do
  # (the network for both stores: the guests' mail goes to the host's SMTP server)
  port=0 net=1
  if [ "$backend" = s3 ]; then
    # SeaweedFS also listens on port + 10000 (gRPC): both below the ephemeral range, both free.
    for _ in $(seq 100); do
      port=$((20000 + RANDOM % 2000))
      free_port "$port" && free_port $((port + 10000)) && break
    done
    server=$out/server
    bash "$repo/Tests/s3/seaweedfs.sh" start "$server" "$port" clips > "$out/server.log" 2>&1 ||
      { cat "$out/server.log"; echo "FAIL: SeaweedFS did not start for the power-cut test"; exit 1; }
    # The guest reaches the store through the fault proxy (the outbox phase sets its faults).
    mkdir -p "$out/proxy"
    python3 "$repo/Tests/s3/faultproxy.py" 0 "$port" "$out/proxy" 2> "$out/proxy.log" &
    proxy=$!
    for _ in $(seq 600); do [ -f "$out/proxy/ready" ] || ! kill -0 "$proxy" 2> /dev/null && break; sleep 0.1; done
    [ -f "$out/proxy/ready" ] || { cat "$out/proxy.log"; echo "FAIL: the fault proxy did not start for the power-cut test"; exit 1; }
    port=$(cat "$out/proxy/ready")
  fi
  rm -f "$out/disk.img"
  truncate -s 512M "$out/disk.img"
  mkfs.ext4 -q -F "$out/disk.img"
  expect=() want_unlinked= last_phase= last_fault=
  for boot in $(seq 1 $((cuts + 1))); do
    if [ "$boot" -le "$cuts" ]; then mode=cycle; else mode=final; fi
    # Where the cut falls: anywhere in the loop (0-12 s into it), in a recording (2.5-6 s after
    # its first fragment reached the file), in a post (0-3 s after it began), as a shot is
    # finished (recorder stopped as its remuxed copy appears or as it is about to link the shot
    # as current, then the power cut; a cut there once left neither copy nor recording, and once
    # a finished shot no link pointed to), or once posts wait in the outbox for a store that is
    # away or slow (0-2 s after three or more do; each store's last cut is there).
    phases=(anywhere recording post finishing outbox)
    phase=${phases[RANDOM % 5]}; [ "$boot" = "$cuts" ] && phase=outbox; phase=${POWER_CUT_PHASE:-$phase}
    # The outbox phase's cuts of a store take its faults in turn, from one drawn at random.
    if [ "$backend" = local ]; then faults=(missing readonly); else faults=(refuse stall throttle unanswered); fi
    [ "$boot" = 1 ] && turn=$((RANDOM % ${#faults[@]}))
    fault=${faults[turn % ${#faults[@]}]}; fault=${POWER_CUT_FAULT:-$fault}
    [ "$phase" = outbox ] && turn=$((turn + 1))
    case $phase in
      anywhere) delay=$((RANDOM % 12)).$((RANDOM % 10)) where="the loop" ;;
      recording) delay=$((2 + (5 + RANDOM % 35) / 10)).$((RANDOM % 10)) where="a recording" ;;
      post) delay=$((RANDOM % 3)).$((RANDOM % 10)) where="a post" ;;
      finishing) delay=0.0$((RANDOM % 10)) where="the finishing of a shot" ;;
      outbox) delay=$((RANDOM % 2)).$((RANDOM % 10)) where="posts waiting in the outbox (the store: $fault)" ;;
      *) echo "power-cut: POWER_CUT_PHASE is anywhere, recording, post, finishing or outbox, not $phase" >&2; exit 64 ;;
    esac
    [ $mode = final ] && phase=final
    echo "== power cut, $backend store, boot $boot of $((cuts + 1))$([ $mode = cycle ] && echo ": the power goes $delay s into $where")"
    cut=(); [ $mode = final ] || cut=("VM_CUT_AFTER=$delay")
    # The store is back for every boot: whatever the last one set the proxy to do is lifted.
    [ -z "$proxy" ] || echo '[]' > "$out/proxy/faults.json"
    set +e
    env VM_DISK="$out/disk.img" VM_NET=$net VM_TIMEOUT=900 "${cut[@]}" "$here/run-in-vm.sh" "POWER_CUT_FINISH_STEP=${POWER_CUT_FINISH_STEP:-} POWER_CUT_FAULT=$fault POWER_CUT_SMTP=$smtp_port bash Tests/vm/power-cut-guest.sh $mode $backend $boot $port $phase ${expect[*]}" > "$out/boot.log" 2>&1
    rc=$?
    set -e
    grep -v '^progress ' "$out/boot.log" | sed 's/^/  /'
    { grep '^progress ' "$out/boot.log" || true; } | tail -n 1 | sed 's/^/  last /'
    passed=$((passed + $(grep -c '^PASS:' "$out/boot.log" || true)))
    failed=$((failed + $(grep -c '^FAIL:' "$out/boot.log" || true)))
    recovered=$((recovered + $(grep -c '^recovered ' "$out/boot.log" || true)))
    delivered=$((delivered + $(grep -c '^PASS: post .*, queued at the cut, reached the store' "$out/boot.log" || true)))
    # What the last cut left waiting, as the after-cut check read it before recorder ran.
    if [ "$boot" -gt 1 ]; then
      queued=$(grep -c '^queued ' "$out/boot.log" || true)
      queued_at_cuts=$((queued_at_cuts + queued))
      # The mails the cut left waiting, which this boot's flush sent: what the server received.
      mails=$(grep -c '^mailqueued ' "$out/boot.log" || true)
      mails_queued=$((mails_queued + mails))
      python3 "$here/power_cut_check.py" received "$out/smtp" "$out/boot.log" example.org > "$out/received.log" 2>&1 || true
      grep -v '^maildelivered ' "$out/received.log" | sed 's/^/  /'
      passed=$((passed + $(grep -c '^PASS:' "$out/received.log" || true)))
      failed=$((failed + $(grep -c '^FAIL:' "$out/received.log" || true)))
      mails_delivered=$((mails_delivered + $(grep -c '^maildelivered ' "$out/received.log" || true)))
      journaled=$((journaled + $(grep -c '^journal ' "$out/boot.log" || true)))
      orphans=$((orphans + $(grep -c '^orphan ' "$out/boot.log" || true)))
      echo "  the cut before this boot ($last_phase) left $queued posts and $mails mails queued"
      if [ "$last_phase" = outbox ]; then
        outbox_cuts=$((outbox_cuts + 1))
        # The phase is there to cut posts while they wait: a cut that found none tried nothing.
        if [ "$queued" -gt 0 ]; then echo "  PASS: the outbox phase's cut ($last_fault) came with posts waiting"; passed=$((passed + 1))
        else echo "  FAIL: the outbox phase's cut ($last_fault) found no post waiting in the outbox (it aims at that state)"; failed=$((failed + 1)); fi
        # Its posts were made with --email: their mails wait with them.
        if [ "$queued" -gt 0 ]; then
          if [ "$mails" -gt 0 ]; then echo "  PASS: the outbox phase's cut ($last_fault) came with mails waiting"; passed=$((passed + 1))
          else echo "  FAIL: the outbox phase's cut ($last_fault) found posts waiting and no mail (it aims at that state)"; failed=$((failed + 1)); fi
        fi
        # Its store began an upload whose answer never came: the cut must have left that upload.
        if [ "$last_fault" = unanswered ]; then
          if grep -q '^orphan ' "$out/boot.log"; then echo "  PASS: the cut left an upload the store began and no journal names"; passed=$((passed + 1))
          else echo "  FAIL: the cut in the unanswered fault left no upload the store began without a journal (it aims at that state)"; failed=$((failed + 1)); fi
        fi
      fi
    fi
    last_phase=$phase last_fault=$fault
    # A cut at the link step must have left what it aims at: a finished shot no link points to.
    if [ -n "${want_unlinked:-}" ]; then
      if grep -q '^unlinked ' "$out/boot.log"; then echo "  PASS: the cut at the link step left a finished shot no link pointed to"; passed=$((passed + 1))
      else echo "  FAIL: the cut at the link step left no finished shot without its link (it aims at that state)"; failed=$((failed + 1)); fi
    fi
    want_unlinked=
    grep -q '^finishing: recorder stopped as it was about to link' "$out/boot.log" && want_unlinked=1
    if [ $mode = cycle ]; then
      if grep -q '^run-in-vm: power cut' "$out/boot.log"; then
        total_cuts=$((total_cuts + 1))
      else
        echo "FAIL: boot $boot ended before its power cut (exit $rc)"; failed=$((failed + 1))
        break
      fi
    elif [ $rc != 0 ]; then
      echo "FAIL: the last boot ended with exit $rc"; failed=$((failed + 1))
    fi
    # What must be on the disk of the recording under way at the cut: its size 2.5 s before the
    # last progress line (a fragment a second, each fsynced as the next begins, plus the time an
    # fsync takes under emulation), unless the shot had finished recording by then; all of its last
    # size when the cut came as it was being finished (its last fragment synced by then).
    expect=()
    read -r -a expect < <(python3 - "$out/boot.log" <<'PY'
import sys
lines = [l.split() for l in open(sys.argv[1], errors="replace")]
progress = [(float(l[1]), l[2], int(l[3])) for l in lines if len(l) == 4 and l[0] == "progress"]
steps = [l for l in lines if len(l) == 4 and l[0] == "step"]
finishing = any(l[:3] == ["finishing:", "recorder", "stopped"] for l in lines)
if progress and steps and steps[-1][2] == "shoot" and float(steps[-1][1]) <= progress[-1][0]:
    last_time, name, last_size = progress[-1]
    earlier = [size for time, n, size in progress if n == name and time <= last_time - 2.5]
    if finishing:
        # Stopped as it was being finished: every fragment had been synced, so all of it.
        print(name, last_size)
    elif earlier:
        print(name, earlier[-1])
PY
    ) || true
  done
  if [ -n "$proxy" ]; then kill "$proxy" 2> /dev/null || true; wait "$proxy" 2> /dev/null || true; proxy=; fi
  if [ -n "$server" ]; then bash "$repo/Tests/s3/seaweedfs.sh" stop "$server" > /dev/null 2>&1 || true; server=; fi
done
kill "$smtp" 2> /dev/null || true; wait "$smtp" 2> /dev/null || true; smtp=

lost=$((queued_at_cuts - delivered + mails_queued - mails_delivered))
summary="power cut: $total_cuts cuts ($which store, seed $seed), $recovered interrupted recordings recovered, $queued_at_cuts posts queued at the cuts ($outbox_cuts cuts in the outbox phase; $journaled with parts journaled, $orphans uploads the store began unheard), $delivered of them delivered once, $mails_queued mails queued at the cuts, $mails_delivered delivered once, $passed checks passed"
if [ "$outbox_cuts" -gt 0 ] && [ "$queued_at_cuts" = 0 ]; then echo "FAIL: no cut found a post waiting in the outbox"; failed=$((failed + 1)); fi
if [ "$failed" = 0 ] && [ "$lost" = 0 ]; then echo "$summary, lost 0"; else echo "$summary, lost $lost, $failed FAILED (see FAIL: above)"; exit 1; fi
