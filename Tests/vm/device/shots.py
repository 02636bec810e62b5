"""Small readers for the device tests' shell sections (Tests/vm/device/*.sh), one per subcommand:

    shots.py seqstats FRAMELOG        "<recorded> <sequence gaps> <repeats>" of a RECORDER_FRAME_LOG
    shots.py field FILE KEY           one key of a JSON object
    shots.py fields FILE KEY...       several keys of a JSON object, space-separated
    shots.py near A B TOLERANCE       exit 0 when |A - B| <= TOLERANCE
    shots.py recovered SHOTJSON       exit 0 when shot.json says the shot was recovered after a crash
    shots.py has-driver DEVICESJSON D exit 0 when `recorder devices --json` lists a device of driver D
"""
import json
import sys


def seqstats(path):
    seqs = [int(line.split()[0]) for line in open(path) if line.strip()]
    pairs = list(zip(seqs, seqs[1:]))
    gaps = sum(b - a - 1 for a, b in pairs if b > a + 1)
    repeats = sum(1 for a, b in pairs if b <= a)
    print(len(seqs), gaps, repeats)
    return 0


def main(argv):
    command, args = argv[1], argv[2:]
    if command == "seqstats":
        return seqstats(args[0])
    if command == "field":
        print(json.load(open(args[0]))[args[1]])
        return 0
    if command == "fields":
        shot = json.load(open(args[0]))
        print(" ".join(str(shot[key]) for key in args[1:]))
        return 0
    if command == "near":
        return 0 if abs(float(args[0]) - float(args[1])) <= float(args[2]) else 1
    if command == "recovered":
        return 0 if json.load(open(args[0])).get("recovered") else 1
    if command == "has-driver":
        return 0 if any(d.get("driver") == args[1] for d in json.load(open(args[0]))) else 1
    print(f"shots.py: unknown command {command}", file=sys.stderr)
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv))
