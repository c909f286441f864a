#!/usr/bin/env python3
"""Validate a Chrome/Perfetto trace-event JSON file (the JSON Object Format of the Trace Event
Format): the required fields of every event by phase. Prints one line per problem and exits 1
if there is any; with --summary, prints a JSON summary the shell tests assert on.

Required fields (Trace Event Format): name (string), ph (phase), pid and tid (integers), ts
(number, microseconds) for every event but metadata; X: dur >= 0; C: args of numbers; i/I: s in
g/p/t; M: args.name for process_name / thread_name."""
import json
import sys

PHASES = set("BEXiICMbensftPOND(),")


def check(path):
    errs = []
    with open(path) as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        return doc, ["top level is not an object with a traceEvents array"]
    if doc.get("displayTimeUnit", "ms") not in ("ms", "ns"):
        errs.append("displayTimeUnit must be ms or ns")
    for k, e in enumerate(doc["traceEvents"]):
        where = f"event {k}"
        if not isinstance(e, dict):
            errs.append(f"{where}: not an object")
            continue
        ph = e.get("ph")
        if not isinstance(ph, str) or ph not in PHASES:
            errs.append(f"{where}: bad ph {ph!r}")
            continue
        if not isinstance(e.get("name"), str):
            errs.append(f"{where}: name missing")
        for key in ("pid", "tid"):
            if not isinstance(e.get(key), int):
                errs.append(f"{where}: {key} missing or not an integer")
        if ph != "M" and not (isinstance(e.get("ts"), (int, float)) and e["ts"] >= 0):
            errs.append(f"{where}: ts missing or negative")
        if ph == "X" and not (isinstance(e.get("dur"), (int, float)) and e["dur"] >= 0):
            errs.append(f"{where}: X without dur >= 0")
        if ph == "C":
            a = e.get("args")
            if not isinstance(a, dict) or not a or not all(isinstance(v, (int, float)) for v in a.values()):
                errs.append(f"{where}: C without numeric args")
        if ph in "iI" and e.get("s", "t") not in ("g", "p", "t"):
            errs.append(f"{where}: instant with bad scope {e.get('s')!r}")
        if ph == "M" and e.get("name") in ("process_name", "thread_name"):
            if not isinstance(e.get("args", {}).get("name"), str):
                errs.append(f"{where}: metadata without args.name")
    return doc, errs


def main():
    path = sys.argv[1]
    doc, errs = check(path)
    for e in errs[:20]:
        print(f"{path}: {e}")
    if errs:
        sys.exit(1)
    if "--summary" in sys.argv:
        ev = doc["traceEvents"]
        od = doc.get("otherData", {})
        tracks = {}
        for e in ev:
            if e["ph"] == "M" and e["name"] == "thread_name":
                tracks[(e["pid"], e["tid"])] = e["args"]["name"]
        slices = [{"track": tracks.get((e["pid"], e["tid"]), "?"), "name": e["name"], "start": round(e["ts"] * 1000),
                   "end": round((e["ts"] + e["dur"]) * 1000), "args": e.get("args", {})} for e in ev if e["ph"] == "X"]
        counters = {}
        for e in sorted((e for e in ev if e["ph"] == "C"), key=lambda e: e["ts"]):
            counters.setdefault(e["name"], []).append([round(e["ts"] * 1000), e["args"]])
        instants = [[tracks.get((e["pid"], e["tid"]), "?"), e["name"], round(e["ts"] * 1000)] for e in ev if e["ph"] == "i"]
        ts = [round(e["ts"] * 1000) for e in ev if e["ph"] != "M"]
        print(json.dumps({"first": od.get("first_cycle"), "end": od.get("end_cycle"), "slices": slices,
                          "counters": counters, "instants": instants, "min_ts": min(ts) if ts else None,
                          "max_ts": max(ts) if ts else None, "events": len(ev)}))


main()
