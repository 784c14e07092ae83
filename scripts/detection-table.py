#!/usr/bin/env python3
"""Turns the per-unit records of the training-corpus runner into the tables
of docs/DETECTION.md: per source, malicious caught, benign falsely blocked,
vulnerable flagged and not evaluated; then the misses grouped by behaviour.

Usage (from a checkout, with the corpus mirrors fetched as the corpus README
says):
  go build -o /tmp/attest ./cmd/attest
  python3 ../shared/corpus/run.py /tmp/attest --jobs 2 --json-out /tmp/corpus.json
  python3 scripts/detection-table.py /tmp/corpus.json

Only labels, outcomes and the datasets' own category names are read; no
artifact content is printed.
"""
import collections
import json
import re
import sys


def behaviour(r):
    """The behaviour a unit is labelled with, from its source's own
    categories (the manifest's `why` and the unit's path)."""
    why, path = r.get("why", ""), r.get("path", "")
    m = re.search(r"attack=([a-z_]+)", why)
    if m and m.group(1) != "-":
        return m.group(1)
    m = re.search(r"MSB attack server variant \(([^)]+)\)", why)
    if m:
        return "mcp:" + m.group(1)
    m = re.search(r"skill_files/\d+_([a-z_]+)/", path)
    if m:
        return m.group(1)
    m = re.search(r"(adv|benchmark)-\d+-", path)
    if m:
        return "obfuscation and evasion" if m.group(1) == "adv" else "basic (exfiltration, download-and-run, persistence, hooks, impersonation)"
    if "wild" in why:
        return "wild malware (no category)"
    m = re.search(r"corpus/([a-z_]+)/", path)
    if m:
        return m.group(1)
    if r.get("wrap") == "json":
        return "poisoned tool surface"
    m = re.match(r"(?:README|classic PoC|experiment module)[^:]*: ?([^(,;.]+)", why)
    if m:
        return m.group(1).strip()[:60]
    return "other"


def main(path):
    rs = json.load(open(path))
    by = collections.OrderedDict()
    for r in sorted(rs, key=lambda r: r["corpus"]):
        by.setdefault(r["corpus"], []).append(r)
    tot = collections.Counter()
    print("| source | units (m/b/v) | malicious caught | benign falsely blocked | vulnerable flagged | not evaluated |")
    print("|---|---:|---:|---:|---:|---:|")
    for c, units in by.items():
        n = collections.Counter(u["label"] for u in units)
        caught = sum(u["outcome"] == "caught" for u in units)
        fb = sum(u["outcome"] == "false-block" for u in units)
        vf = sum(u["label"] == "vulnerable" and u["outcome"] == "flagged" for u in units)
        ne = sum(u["outcome"] == "not-evaluated" for u in units)
        tot.update({"m": n["malicious"], "b": n["benign"], "v": n["vulnerable"], "caught": caught, "fb": fb, "vf": vf, "ne": ne,
                    "units": len(units)})

        def frac(a, b):
            return f"{a}/{b} ({100 * a / b:.1f}%)" if b else "–"
        print(f"| {c} | {len(units)} ({n['malicious']}/{n['benign']}/{n['vulnerable']}) | {frac(caught, n['malicious'])} | "
              f"{frac(fb, n['benign'])} | {frac(vf, n['vulnerable'])} | {ne} |")
    t = tot
    print(f"| **total** | **{t['units']} ({t['m']}/{t['b']}/{t['v']})** | **{t['caught']}/{t['m']} ({100 * t['caught'] / t['m']:.1f}%)** | "
          f"**{t['fb']}/{t['b']} ({100 * t['fb'] / t['b']:.1f}%)** | **{t['vf']}/{t['v']}** | **{t['ne']} ({100 * t['ne'] / t['units']:.1f}%)** |")
    print()
    misses = collections.defaultdict(collections.Counter)
    for r in rs:
        if r["label"] == "malicious" and r["outcome"] != "caught":
            misses[r["corpus"]][behaviour(r)] += 1
    print("Misses by behaviour (the sources' own category names):")
    print()
    print("| source | behaviour | missed |")
    print("|---|---|---:|")
    for c in sorted(misses):
        for b, k in misses[c].most_common():
            print(f"| {c} | {b} | {k} |")
    print()
    fbs = collections.Counter()
    for r in rs:
        if r["outcome"] == "false-block":
            for b in r.get("blockers", []):
                fbs[(r["corpus"], b)] += 1
    if fbs:
        print("Benign units blocked, by source and blocking check:")
        print()
        print("| source | check | units |")
        print("|---|---|---:|")
        for (c, b), k in sorted(fbs.items()):
            print(f"| {c} | {b} | {k} |")


if __name__ == "__main__":
    main(sys.argv[1])
