#!/usr/bin/env python3
"""Finds the processes a test run started that are still alive.

    leftovers.py MARKER [--wait SECONDS] [--kill]

scripts/test.sh exports RECORDER_TEST_RUN=MARKER; every process the tests start inherits it, even
one that left the process group (setsid, as SeaweedFS does) or was re-parented when its parent
died. Lists each such process (pid and command line), other than this one and its ancestors, on
standard output. --wait gives them that long to end by themselves first; --kill then sends SIGTERM,
and SIGKILL to any still there 3 s later. Exits 1 when there were any, else 0.
"""
import os, signal, sys, time


def ancestors():
    pids, pid = set(), os.getpid()
    while pid > 1:
        pids.add(pid)
        try:
            with open(f"/proc/{pid}/stat") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return pids


def marked(marker):
    needle = f"RECORDER_TEST_RUN={marker}".encode()
    mine = ancestors()
    found = {}
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) in mine:
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                if needle not in f.read().split(b"\0"):
                    continue
            with open(f"/proc/{name}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
            with open(f"/proc/{name}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    continue  # a zombie has ended; its parent has only not reaped it yet
        except OSError:
            continue  # ended meanwhile, or not ours to read
        found[int(name)] = cmdline or "[no command line]"
    return found


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 64
    marker, kill = args[0], "--kill" in args
    wait = float(args[args.index("--wait") + 1]) if "--wait" in args else 0
    deadline = time.time() + wait
    found = marked(marker)
    while found and time.time() < deadline:
        time.sleep(0.25)
        found = marked(marker)
    for pid, cmdline in sorted(found.items()):
        print(f"{pid} {cmdline}")
    if kill and found:
        for sig, grace in ((signal.SIGTERM, 3), (signal.SIGKILL, 1)):
            for pid in marked(marker):
                try:
                    os.kill(pid, sig)
                except OSError:
                    pass
            end = time.time() + grace
            while marked(marker) and time.time() < end:
                time.sleep(0.1)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
