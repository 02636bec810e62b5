"""Reads packaging/prometheus/recorder-dashboard.json as Grafana would need it: the dashboard's
own fields (title, uid, schemaVersion, panels, templating, time), each panel's (id unique, type,
title, gridPos inside the 24 columns and not overlapping another, a datasource, targets each with
refId and expr), the rows repeated per booth by the `kiosk` variable. Then every metric a panel's
query or an alert rule reads (recorder_*) must be one that `metrics` - a live kiosk's /metrics
text, or several files of them - exports (the exporter's own fleet-wide series aside for the rules).

    dashboard_check.py [--unknowable METRIC]... DASHBOARD RULES [METRICS_TEXT...]

--unknowable names a metric the kiosk leaves out where it cannot tell (recorder_clock_synchronised
with no time service to ask): noted, not failed, when the live text lacks it.

Prints PASS/FAIL lines; exits 1 on a failure. Without METRICS_TEXT only the structure is checked."""
import json, re, sys
import yaml  # Debian's python3-yaml

arguments, unknowable = sys.argv[1:], set()
while arguments[:1] == ["--unknowable"]:
    unknowable.add(arguments[1])
    arguments = arguments[2:]
dashboard_path, rules_path, metrics_paths = arguments[0], arguments[1], arguments[2:]
failed = 0


def check(what, ok, detail=""):
    global failed
    print(("PASS: " if ok else "FAIL: ") + what + ("" if ok else f" {detail}"))
    failed += 0 if ok else 1


dashboard = json.load(open(dashboard_path))
for field, kind in [("title", str), ("uid", str), ("schemaVersion", int), ("panels", list), ("templating", dict), ("time", dict)]:
    check(f"the dashboard has {field} ({kind.__name__})", isinstance(dashboard.get(field), kind), repr(dashboard.get(field)))
check("the uid is at most 40 characters of letters, digits, - and _", re.fullmatch(r"[A-Za-z0-9_-]{1,40}", dashboard.get("uid", "")) is not None)
variables = {v.get("name"): v for v in dashboard.get("templating", {}).get("list", [])}
check("a datasource variable of type prometheus", variables.get("datasource", {}).get("type") == "datasource"
      and variables["datasource"].get("query") == "prometheus")
kiosk = variables.get("kiosk", {})
check("a kiosk variable listing the booths by their label", kiosk.get("type") == "query" and "kiosk)" in json.dumps(kiosk.get("query")))

panels = dashboard.get("panels", [])
ids = [p.get("id") for p in panels]
check("every panel has an id, none twice", all(isinstance(i, int) for i in ids) and len(set(ids)) == len(ids), repr(ids))
rows = [p for p in panels if p.get("type") == "row"]
check("a row repeated per booth (repeat: kiosk)", any(r.get("repeat") == "kiosk" for r in rows))
cells = set()
queries = []
for panel in panels:
    name = f"panel {panel.get('id')} ({panel.get('title')})"
    grid = panel.get("gridPos", {})
    ok = all(isinstance(grid.get(k), int) for k in "hwxy") and grid["w"] > 0 and grid["h"] > 0 and grid["x"] + grid["w"] <= 24
    check(f"{name}: gridPos h, w, x, y inside the 24 columns", ok, repr(grid))
    if not ok:
        continue
    mine = {(x, y) for x in range(grid["x"], grid["x"] + grid["w"]) for y in range(grid["y"], grid["y"] + grid["h"])}
    check(f"{name}: overlaps no other panel", not (mine & cells))
    cells |= mine
    check(f"{name}: a type and a title", isinstance(panel.get("type"), str) and bool(panel.get("title")))
    if panel.get("type") == "row":
        continue
    check(f"{name}: a Prometheus datasource", panel.get("datasource", {}).get("type") == "prometheus")
    targets = panel.get("targets", [])
    refs = [t.get("refId") for t in targets]
    check(f"{name}: targets, each with a refId (none twice) and an expr", bool(targets) and len(set(refs)) == len(refs)
          and all(r and t.get("expr") for r, t in zip(refs, targets)), repr(targets))
    queries += [(name, t.get("expr", "")) for t in targets]

# The rules' expressions: each alert's (the recording rules' are the parameters).
rules = yaml.safe_load(open(rules_path))
alerts = [r for g in rules["groups"] for r in g["rules"] if "alert" in r]
queries += [(f"alert {r['alert']}", r["expr"]) for r in alerts]
check("every alert has a summary and a description", all(r.get("annotations", {}).get("summary") and
                                                        r["annotations"].get("description") for r in alerts))
check("the seven alerts", sorted(r['alert'] for r in alerts) == sorted(['BoothDown', 'CameraMissing', 'CameraFpsLow', 'OutboxStuck',
                                                               'DiskFillingUp', 'ClockNotSynchronised', 'MailRefused']))

if metrics_paths:
    exported = set()
    for path in metrics_paths:
        exported |= set(re.findall(r"^(recorder_\w+?)(?:\{| )", open(path).read(), re.M))
    print(f"(the live /metrics give {len(exported)} recorder_ series)")
    for name, expr in queries:
        used = set(re.findall(r"\b(recorder_\w+)", expr))
        missing = used - exported
        if missing and missing <= unknowable:
            print(f"NOTE: {name}: {', '.join(sorted(missing))} not in this kiosk's /metrics (it cannot tell here)")
            missing = set()
        check(f"{name}: reads metrics the kiosk exports ({', '.join(sorted(used))})", bool(used) and not missing,
              f"not exported: {sorted(missing)}")

print(f"dashboard_check: {'FAIL' if failed else 'PASS'} ({failed} failed)")
sys.exit(1 if failed else 0)
