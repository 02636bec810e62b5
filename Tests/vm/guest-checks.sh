# Sourced by the scripts that run inside the systemd guest (systemd-guest.sh, package-guest.sh;
# see systemd-boot.sh) after setting GUEST_NAME: counted checks, timed sections, and the calls to
# recorder's API and to systemd they share. finish writes the exit status to /vm/status.
passed=0; failed=0
pass() { echo "PASS: $*"; passed=$((passed + 1)); }
fail() {
  echo "FAIL: $*"; failed=$((failed + 1))
  # What the guest was doing at the first failure (a slow emulated machine, or something stuck).
  [ "$failed" -eq 1 ] && { echo "   --- top at the first failure:"; top -bn1 -w 160 | head -n 16 | sed 's/^/   /'; }
}
check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }
# section NAME: prints how long the previous section took, then the new one's heading (the host's
# systemd-vm.sh names the last heading when the guest runs out of time).
SECTION=; SECTION_START=$SECONDS
section() {
  [ -n "$SECTION" ] && echo "   (section '$SECTION' took $((SECONDS - SECTION_START)) s)"
  SECTION=$1; SECTION_START=$SECONDS
  [ -n "$1" ] && echo "== $1"
}
finish() {
  section ""
  echo "$GUEST_NAME tests took $SECONDS s in the guest"
  journalctl -u recorder --no-pager -o short-monotonic > /vm/artifacts/journal.txt 2>&1
  echo "$GUEST_NAME: $passed passed, $failed failed"
  echo $(( failed > 0 ? 1 : 0 )) > /vm/status
  sync
  exit 0
}
# (with API_TOKEN set, as the operator)
api() { curl -s --max-time 20 ${API_TOKEN:+-H "Authorization: Bearer $API_TOKEN"} "$@"; }
prop() { systemctl show -p "$1" --value recorder; }
# json_of EXPR: EXPR of the JSON on standard input, as `s` (a command, so `sh -c` has it too).
printf '#!/bin/sh\nexec python3 -c "import json, sys; s = json.load(sys.stdin); print($1)"\n' > /usr/local/bin/json_of && chmod 755 /usr/local/bin/json_of
# (sed for these two: the API's JSON has sorted keys and no nesting inside these objects)
shot_id_of() { sed -n 's/.*"currentShot":{[^}]*"id":"\([^"]*\)".*/\1/p'; }
post_id_of() { sed -n 's/.*"id":"\([^"]*\)".*/\1/p'; }
# (the status has more than one "state": the button's too)
state() { api http://127.0.0.1:8080/api/status | json_of 's["state"]' 2>/dev/null; }
# wait_for SECONDS COMMAND...: polls every half second.
wait_for() { local limit=$1; shift; local end=$((SECONDS + limit)); while [ $SECONDS -lt $end ]; do "$@" && return 0; sleep 0.5; done; return 1; }
# (grep, not python, for what wait_for polls: a python start costs a second of the emulated CPU; the
# button's own "state" takes other values, waiting/ready/unplugged/refused)
state_is() { api http://127.0.0.1:8080/api/status | grep -q "\"state\":\"$1\""; }
active() { [ "$(prop ActiveState)" = active ]; }
json_post() { api -X POST -H 'Content-Type: application/json' -d "$2" "http://127.0.0.1:8080$1"; }

