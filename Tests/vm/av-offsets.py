"""A/V offsets of a recorded file of the sync rig (Tests/vm/av-rig.c), read by ffprobe alone:

    av-offsets.py FILE [--earliest MS] [--latest MS] [--min-pairs N] [--min-at-end N]
                  [--skip FROM TO]... [--after SECONDS [--min-after N]] [--window S] [--label TEXT] [--summary]

Pictures: the rig's pictures are flat, and their mean luma (signalstats YAVG) says how many frames
after its cycle's flash each one is (white 235, 215 for the flash, then dark grey 16 + 5k; see
av-rig.c), so each picture dates its cycle's start: its time less k frames (--fps, 15). A cycle's
start is its flash's first picture when that was recorded, else the median of what its recorded
pictures say (a busy recorder drops pictures; the rig stamps every one exactly, so they must agree
within 2 ms, else a picture is not at its time and that fails; a picture that is not flat was torn
by v4l2loopback's two-buffer ring under load and is left out; so is the file's first picture,
reported when it is off the time the others give it). Beeps: where sound starts after silence
(silencedetect -30 dB, 0.05 s). Each beep is paired with the nearest cycle start within
0.5 s (--window); its offset is the beep's time minus the cycle's start (positive: sound late).
Prints every pair's offset in ms and how its cycle was timed, then a summary line "pairs N: min ..
max ms, first .., last .."; with --min-at-end the pairs of the last 10 s, with --after the pairs
after that time, and the picture's longest gap if over 0.3 s. --summary prints only "PAIRS START
END MIN MAX STAMPED_END" (START, END: the means of the first and last 3 pairs; STAMPED_END: END by
the sound's timestamps instead of its samples).
Beep times are on the timeline a player plays: the first sound frame's time plus the samples before
the onset; when the sound's own timestamps say otherwise (by more than 2 ms), that is printed too.
Pairs whose picture falls in a --skip FROM TO (a stall: a beep there may have lost its start, or
be heard twice; given once for each stall) are printed but not judged, nor counted below.
Exits 0 when every pair is within [--earliest, --latest] (default -15 and +45 ms, ATSC IS-191's
lip-sync limits) and there are at least --min-pairs (default 3) pairs (and --min-at-end in the last
10 s of the picture, and --min-after, default 1, after --after); 1 otherwise; 2 when ffprobe
fails.
"""
import argparse
import statistics
import subprocess
import sys


def ffprobe(args):
    out = subprocess.run(["ffprobe", "-v", "error", *args], capture_output=True, text=True)
    if out.returncode != 0:
        print(f"av-offsets: ffprobe failed: {out.stderr.strip()[:500]}", file=sys.stderr)
        sys.exit(2)
    return out.stdout


def frames(path):
    """(pts, mean luma, whether the picture is flat) of every picture. The rig's pictures are flat;
    one that is not was torn: v4l2loopback has two buffers, and a writer may refill the one a late
    reader is still copying (its stamp is then the old picture's, its content partly the new)."""
    out = ffprobe(["-f", "lavfi", "-i", f"movie={path},signalstats", "-show_entries",
                   "frame=pts_time:frame_tags=lavfi.signalstats.YAVG,lavfi.signalstats.YMIN,lavfi.signalstats.YMAX",
                   "-of", "compact=p=0"])
    result = []
    for line in out.splitlines():
        fields = dict(part.split("=", 1) for part in line.strip().split("|") if "=" in part)
        try:
            low, high = float(fields["tag:lavfi.signalstats.YMIN"]), float(fields["tag:lavfi.signalstats.YMAX"])
            result.append((float(fields["pts_time"]), float(fields["tag:lavfi.signalstats.YAVG"]), high - low <= 8))
        except (KeyError, ValueError):
            pass
    return result


def frame_number(luma):
    """A rig picture's place in its cycle, from its flat luma (Tests/vm/av-rig.c): the flash's
    frames 235, 215, 195 are 0, 1, 2; dark grey 16 + 5k is k (1..32); black (16) says nothing."""
    if luma > 180:
        k = round((235 - luma) / 20)
        return k if 0 <= k <= 2 else None
    k = round((luma - 16) / 5)
    return k if 1 <= k <= 32 else None


def beep_onsets(path, by_samples=True):
    """Onsets in seconds. by_samples: on the timeline a player plays, the first sound frame's time
    plus the samples before the onset (a player plays samples one after the other at the sample
    rate); else by the sound frames' own timestamps, which a file may stretch (a muxer keeps the
    packets' times as it was given them: small gaps and overlaps no player honours)."""
    timeline = ",asetpts=STARTPTS+N/SR/TB" if by_samples else ""
    out = ffprobe(["-f", "lavfi", "-i", f"amovie={path}{timeline},silencedetect=n=-30dB:d=0.05", "-show_entries",
                   "frame_tags=lavfi.silence_end", "-of", "csv=p=0"])
    onsets = []
    for line in out.splitlines():
        try:
            onsets.append(float(line.strip().strip(",")))
        except ValueError:
            pass
    return onsets


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--earliest", type=float, default=-15)
    parser.add_argument("--latest", type=float, default=45)
    parser.add_argument("--min-pairs", type=int, default=3)
    parser.add_argument("--skip", type=float, nargs=2, metavar=("FROM", "TO"), action="append", default=[],
                        help="file times (s) of a stall: its pairs are printed, not judged (a beep may have lost its start)")
    parser.add_argument("--after", type=float, default=None, help="file time (s) of an event, e.g. a stall's end")
    parser.add_argument("--min-after", type=int, default=1, help="pairs needed after --after")
    parser.add_argument("--min-at-end", type=int, default=0)
    parser.add_argument("--label", default="")
    parser.add_argument("--fps", type=float, default=15, help="the rig's frame rate")
    parser.add_argument("--window", type=float, default=0.5, help="seconds within which a beep is paired with a flash")
    parser.add_argument("--summary", action="store_true",
                        help='print only "PAIRS START END MIN MAX" (ms; START and END: the mean of the first and last 3 pairs)')
    args = parser.parse_args()
    label = f"{args.label}: " if args.label else ""

    pictures = frames(args.file)
    if len(pictures) < 2:
        print(f"{label}no pictures in {args.file}")
        return 1
    intervals = [b[0] - a[0] for a, b in zip(pictures, pictures[1:])]
    step = statistics.median(intervals)
    # Each picture's place in its cycle (frames since the flash, from its luma), hence the cycle's
    # start: t - k / fps. Cycles are the starts within 0.3 s of each other.
    torn = [t for t, _, flat in pictures if not flat]
    # The file's first picture is left out of the timing: recorder may start the file on it at 0
    # while the next pictures keep their own times (it is reported below when it disagrees).
    first_t, first_y, first_flat = pictures[0]
    first_k = frame_number(first_y) if first_flat else None
    starts = sorted((t - k / args.fps, t, k) for t, y, flat in pictures[1:] if flat and (k := frame_number(y)) is not None)
    cycles = []
    for start, t, k in starts:
        if cycles and start - cycles[-1][0][0] < 0.3:
            cycles[-1].append((start, t, k))
        else:
            cycles.append([(start, t, k)])
    flashes, counted, spread, worst = [], [], 0.0, None
    for cycle in cycles:
        white = [t for _, t, k in cycle if k == 0]
        # The flash is stamped at its beep's play time, off the frame grid by a few ms on purpose
        # (av-rig.c); the pictures after it are on the grid and must agree with each other.
        numbered = [(s, t, k) for s, t, k in cycle if k != 0]
        width = (max(s for s, _, _ in numbered) - min(s for s, _, _ in numbered)) * 1000 if numbered else 0.0
        if width > spread:
            spread, worst = width, numbered
        if white:
            flashes.append(min(white))
        else:
            counted.append((statistics.median(s for s, _, _ in cycle), min(k for _, _, k in cycle)))
    gaps = [(b[0] - a[0], a[0], b[0]) for a, b in zip(pictures, pictures[1:]) if b[0] - a[0] > 0.3]
    beeps = beep_onsets(args.file)
    # The same onsets by the sound's own timestamps: a track whose timestamps are not its samples'
    # count (a muxer given stretched times) looks in sync to a reader of timestamps, not to a player.
    stamped = beep_onsets(args.file, by_samples=False)
    stretch = max((abs(a - b) * 1000 for a, b in zip(beeps, stamped)), default=0) if len(beeps) == len(stamped) else None

    if not args.summary and first_k is not None and first_k != 0:
        others = [s for s, t, k in starts if abs(s - (first_t - first_k / args.fps)) < 0.3]
        if others:
            late = (first_t - first_k / args.fps - statistics.median(others)) * 1000
            if abs(late) > 2:
                print(f"{label}the first picture (#{first_k}, at {first_t:.3f} s) is {late:+.1f} ms off the time the next "
                      f"pictures give it (not counted)")
    # Each beep with the nearest cycle start: its flash when recorded, else counted back from the
    # cycle's first recorded picture (how: "flash" or "frame K").
    onsets = [(f, "flash") for f in flashes] + [(c, f"frame {k}") for c, k in counted]
    pairs, unpaired = [], []
    for beep in beeps:
        nearest = min(onsets, key=lambda o: abs(o[0] - beep), default=None)
        if nearest is not None and abs(nearest[0] - beep) < args.window:
            pairs.append((nearest[0], (beep - nearest[0]) * 1000, nearest[1]))
        else:
            unpaired.append(beep)
    pairs.sort()
    if args.summary:
        offs = [o for _, o, _ in pairs]
        if not offs:
            print("0 - - - -")
            return 1
        start, end = statistics.mean(offs[:3]), statistics.mean(offs[-3:])
        by_stamps = [(b - f) * 1000 for f in (p[0] for p in pairs) for b in stamped if abs(b - f) < args.window]
        stamped_end = f"{statistics.mean(by_stamps[-3:]):+.1f}" if by_stamps else "-"
        print(f"{len(offs)} {start:+.1f} {end:+.1f} {min(offs):+.1f} {max(offs):+.1f} {stamped_end}")
        return 0 if args.earliest <= min(offs) and max(offs) <= args.latest and len(offs) >= args.min_pairs else 1
    if torn:
        print(f"{label}{len(torn)} torn pictures (not flat: two of the rig's pictures in one), left out, at "
              f"{', '.join(f'{t:.3f}' for t in torn[:20])}{' ...' if len(torn) > 20 else ''}")
    print(f"{label}{len(pictures)} pictures (every {step * 1000:.1f} ms), flashes at "
          f"{', '.join(f'{f:.3f}' for f in flashes) or 'none'}; cycles whose flash was not recorded, timed from a later "
          f"picture, at {', '.join(f'{c:.3f}' for c, _ in counted) or 'none'}; beeps at "
          f"{', '.join(f'{b:.3f}' for b in beeps) or 'none'}")
    if stretch is None or stretch > 2:
        print(f"{label}the sound's timestamps are not its sample count: by timestamps the beeps are at "
              f"{', '.join(f'{b:.3f}' for b in stamped)} (a player plays the samples: the offsets below are by samples)")
    if unpaired:
        print(f"{label}beeps with no flash within {args.window} s: {', '.join(f'{b:.3f}' for b in unpaired)}")
    failed = False
    # The pictures of a cycle must agree on when it started: a recorder that moved a picture in
    # time would show here (the rig stamps every picture exactly).
    if spread > 2:
        print(f"{label}the pictures of a cycle disagree on its start by up to {spread:.1f} ms: some picture is not at its time")
        middle = statistics.median(s for s, _, _ in worst)
        lumas = {t: y for t, y, _ in pictures}
        print(f"{label}  that cycle's pictures (time, luma, frame number, start it says - median): " + ", ".join(
            f"{t:.3f} {lumas[t]:.0f} #{k} {(s - middle) * 1000:+.1f}" for s, t, k in sorted(worst, key=lambda x: x[1])))
        failed = True
    judged = []
    for flash, offset, how in pairs:
        skipped = any(lo <= flash <= hi for lo, hi in args.skip)
        inside = args.earliest <= offset <= args.latest
        failed |= not inside and not skipped
        verdict = " (in the stall: not judged)" if skipped else "" if inside else "  OUTSIDE the limits"
        print(f"{label}pair at {flash:7.3f} s: {offset:+6.1f} ms ({how}){verdict}")
        if not skipped:
            judged.append((flash, offset, how))
    if judged != pairs:
        print(f"{label}{len(pairs) - len(judged)} pairs in stalls not judged; the counts below are of the {len(judged)} judged")
    pairs = judged
    if pairs:
        offs = [o for _, o, _ in pairs]
        print(f"{label}pairs {len(pairs)}: min {min(offs):+.1f} ms, max {max(offs):+.1f} ms, first {offs[0]:+.1f} ms, "
              f"last {offs[-1]:+.1f} ms (limits {args.earliest:+.0f}..{args.latest:+.0f} ms)")
    if len(pairs) < args.min_pairs:
        print(f"{label}only {len(pairs)} pairs, {args.min_pairs} needed")
        failed = True
    end = pictures[-1][0]
    at_end = [o for f, o, _ in pairs if f >= end - 10]
    if args.min_at_end:
        print(f"{label}pairs in the last 10 s (to {end:.3f} s): {', '.join(f'{o:+.1f}' for o in at_end) or 'none'} ms")
        if len(at_end) < args.min_at_end:
            print(f"{label}only {len(at_end)} pairs in the last 10 s, {args.min_at_end} needed")
            failed = True
    if gaps:
        length, gap_start, gap_end = max(gaps)
        print(f"{label}longest picture gap: {length:.3f} s from {gap_start:.3f} to {gap_end:.3f}")
    if args.after is not None:
        after = [o for f, o, _ in pairs if f >= args.after]
        print(f"{label}pairs after {args.after:.3f} s: {', '.join(f'{o:+.1f}' for o in after) or 'none'} ms")
        if len(after) < args.min_after:
            print(f"{label}only {len(after)} pairs after {args.after:.3f} s, {args.min_after} needed")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
