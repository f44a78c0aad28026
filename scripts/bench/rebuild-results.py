#!/usr/bin/env python3
"""Rebuilds the results JSON lines of every row but those to re-measure (default: 7) from
BENCHMARKS.md's table, for when the raw results ($BENCH_WORK/results-full.jsonl) are gone with
/tmp: then `run.sh --merge receipt-accuracy` can re-measure row 7 alone and keep the other rows as
they were measured (with their dates).

    python3 scripts/bench/rebuild-results.py BENCHMARKS.md /tmp/fleetkit-bench/results-full.jsonl [--skip 7,8]

Row 7's accuracy table is not in the results: before re-rendering without re-measuring row 7,
copy that section of BENCHMARKS.md to $BENCH_WORK/receipt-accuracy-full.md.

Rendering the rebuilt rows gives the table's lines back unchanged (checked with render.py); item
counts of rate rows not named below are rebuilt from rate × seconds, which renders the same.
"""
import json, re, sys
skip = set(sys.argv[sys.argv.index("--skip") + 1].split(",")) if "--skip" in sys.argv else {"7"}
md = open(sys.argv[1]).read().splitlines()
start = next(i for i, l in enumerate(md) if l.startswith("| # |"))
rows = []
for l in md[start + 2:]:
    if not l.startswith("|"): break
    rows.append([c.strip() for c in l.strip().strip("|").split("|")])
notes = {}
measured = {}
for l in md:
    m = re.match(r"- Row (\d), (.*?): (.*)$", l)
    if m: notes[(m.group(1), m.group(2))] = m.group(3)
    if l.startswith("- Measured: "):
        for r, at, load in re.findall(r"row (\d) at (\S+ \S+) \(load average ([\d.]+)\)", l):
            measured[r] = (at.replace(" ", "T"), load)
def secs(cell):
    m = re.search(r"\(([\d.]+) s\)", cell)
    if m: return m.group(1)
    m = re.match(r"([\d.]+) s$", cell)
    return m.group(1) if m else None
def rate(cell):
    m = re.match(r"([\d.]+)( k| M)? \(", cell)
    if not m: return None
    return float(m.group(1)) * {None: 1, " k": 1e3, " M": 1e6}[m.group(2)]
out = []
for c in rows:
    row, what_unit, runs, fkw, fkc, fkr, peer, pw, pc, pr, _, _, target, _ = c
    if row in skip: continue
    m = re.match(r"(.*) \(([^()]*)\)$", what_unit)
    what, unit = (m.group(1), m.group(2)) if m else (what_unit, "")
    d = {"row": row, "what": what}
    if unit: d["unit"] = unit
    ns = {"GPX import, 1 M points": 1_000_000, "GPX import, 10 M points": 10_000_000, "OBD ELM327 transcript, 1 M samples": 1_000_000,
          "OBD Torque CSV, 1 M samples": 1_000_000, "ISO 15143-3 XML, 10000 machines × 2 snapshots": 20000,
          "Samsara stats, 10 pages, 981631 readings": 981631}
    if unit.endswith("/s"):
        d["n"] = str(ns.get(what) or round(rate(fkw) * float(secs(fkw))))
    d["fk_wall"], d["fk_cpu"] = secs(fkw), secs(fkc)
    if fkr != "–": d["fk_rss"] = fkr.split()[0]
    r = runs.split(" / ")
    d["fk_runs"] = r[0]
    if len(r) > 1: d["runs"] = r[1]
    if peer != "–":
        d["peer"], d["peer_wall"], d["peer_cpu"] = peer, secs(pw), secs(pc)
        if pr != "–": d["peer_rss"] = pr.split()[0]
    if target:
        d["target"] = target
        checks = []
        for part in target.split(";"):
            part = part.strip()
            if m := re.match(r">= (\d+)k points/s", part): checks.append("rate>=%d000" % int(m.group(1)))
            elif m := re.match(r">= ([\d.]+)x", part): checks.append("ratio>=%s" % m.group(1))
            elif m := re.match(r"RSS <= (\d+) MB", part): checks.append("rss<=%s" % m.group(1))
            elif part == "<= its import": checks.append("ratio>=1")
        d["check"] = ";".join(checks)
    if (row, what) in notes: d["note"] = notes[(row, what)]
    if row in measured: d["at"], d["load"] = measured[row]
    out.append(d)
with open(sys.argv[2], "w") as f:
    for d in out: f.write(json.dumps(d) + "\n")
print(len(out), "rows")
