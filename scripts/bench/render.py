#!/usr/bin/env python3
"""Renders the benchmark results (JSON lines from the row scripts) as the table that run.sh prints
and writes to BENCHMARKS.md, with the machine, load average, date and reproducing command.

Rates are items / seconds, for wall clock and for CPU time (user + sys; the steadier figure on a
shared machine). Ratio = peer time / FleetKit time, so above 1 FleetKit is faster. A target's
`check` (e.g. "rate>=700000;ratio>=1;rss<=150") is evaluated on wall and on CPU figures.
"""
import argparse
import json
import os
import platform
import subprocess
import sys


def num(d, k):
    try:
        return float(d[k]) if d.get(k) not in (None, "") else None
    except ValueError:
        return None


def human(v):
    if v is None:
        return "–"
    if v >= 1e6:
        return "%.2f M" % (v / 1e6)
    if v >= 1e4:
        return "%.0f k" % (v / 1e3)
    if v >= 100:
        return "%.0f" % v
    return "%.2f" % v


def figure(d, prefix):
    """'rate (seconds)' for wall and CPU, per the record's unit."""
    n, unit = num(d, "n"), d.get("unit", "")
    out = []
    for kind in ("wall", "cpu"):
        s = num(d, "%s_%s" % (prefix, kind))
        if s is None:
            out.append("–")
        elif unit.endswith("/s") and n:
            out.append("%s (%.2f s)" % (human(n / s), s))
        else:
            out.append("%.2f s" % s)
    return out


def runs(d):
    """FleetKit's runs / the peer's (medians of that many)."""
    fk = d.get("fk_runs") or ""
    if d.get("peer") and d.get("peer_wall"):
        return "%s / %s" % (fk or "?", d.get("runs") or "?")
    return fk or d.get("runs", "") if d.get("fk_wall") else ""


def ratio(d, kind):
    fk, peer = num(d, "fk_" + kind), num(d, "peer_" + kind)
    return peer / fk if fk and peer else None


def check(d):
    spec = d.get("check")
    if not spec:
        return ""
    verdict = []
    for kind in ("wall", "cpu"):
        ok = True
        for cond in spec.split(";"):
            key, limit = cond.split(">=") if ">=" in cond else cond.split("<=")
            limit = float(limit)
            if key == "rate":
                s, n = num(d, "fk_" + kind), num(d, "n")
                value = n / s if s and n else None
            elif key == "ratio":
                value = ratio(d, kind)
            else:
                value = num(d, "fk_rss")
            if value is None:
                ok = None if kind == "cpu" else False
                break
            if (">=" in cond and value < limit) or ("<=" in cond and value > limit):
                ok = False
        verdict.append(ok)
    wall, cpu = verdict
    if cpu is None:
        return "met" if wall else "missed"
    return "met" if wall and cpu else "met on CPU time" if cpu else "met on wall only" if wall else "missed"


def machine():
    cores = os.cpu_count()
    model = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        mem = next(int(l.split()[1]) for l in open("/proc/meminfo") if l.startswith("MemTotal")) / 1024 / 1024
    except (OSError, StopIteration):
        mem = 0
    try:
        swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        swift = "?"
    sqlite = subprocess.run(["sqlite3", "--version"], capture_output=True, text=True).stdout.split(" ")[0]
    return "%d cores (%s), %.1f GB RAM, %s, %s; sqlite3 %s" % (cores, model or platform.processor(), mem, platform.platform(), swift, sqlite)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("out")
    ap.add_argument("--command", required=True)
    ap.add_argument("--started", required=True)
    ap.add_argument("--load-before", required=True)
    ap.add_argument("--load-after", required=True)
    ap.add_argument("--runs", required=True)
    ap.add_argument("--quick", default="0")
    ap.add_argument("--notes")
    ap.add_argument("--extra", help="a section appended as it is (the receipt accuracy table of row 7)")
    a = ap.parse_args()
    rows = [json.loads(l) for l in open(a.results) if l.strip()]
    rows.sort(key=lambda d: int(d.get("row") or 0))   # stable: a merged re-run keeps its place
    head = ["#", "Benchmark", "Runs", "FleetKit wall", "FleetKit CPU", "FleetKit RSS", "Peer", "Peer wall", "Peer CPU", "Peer RSS",
            "Ratio wall", "Ratio CPU", "Target", "Result"]
    table = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    notes = []
    for d in rows:
        fk, peer = figure(d, "fk"), figure(d, "peer")
        rw, rc = ratio(d, "wall"), ratio(d, "cpu")
        rss = lambda k: ("%.0f MB" % num(d, k)) if num(d, k) is not None else "–"
        table.append("| " + " | ".join([
            d.get("row", ""), d.get("what", "") + (" (%s)" % d["unit"] if d.get("unit") else ""), runs(d), fk[0], fk[1], rss("fk_rss"),
            d.get("peer", "–"), peer[0], peer[1], rss("peer_rss"),
            "%.2fx" % rw if rw else "–", "%.2fx" % rc if rc else "–", d.get("target", ""), check(d)]) + " |")
        if d.get("note"):
            notes.append("- Row %s, %s: %s" % (d.get("row", ""), d.get("what", ""), d["note"]))
    text = ["# FleetKit benchmarks" + (" (quick sizes)" if a.quick == "1" else ""), "",
            "Generated by `scripts/bench/run.sh`; reproduce with `%s` (inputs are generated into $BENCH_WORK, "
            "default /tmp/fleetkit-bench, and reused)." % a.command, "",
            "- Date: %s (UTC start)" % a.started,
            "- Machine: %s" % machine(),
            "- Load average (1/5/15 min) before: %s, after: %s. The machine is shared with other builds, so CPU "
            "time (user + sys) is the steadier figure; both are given." % (a.load_before, a.load_after),
            "- Figures are medians of the runs in the Runs column (FleetKit / peer; %s for short measurements, once for "
            "those of minutes: 10 M points, 1 M readings or samples, the year warehouse, gpxpy, pandas). "
            "Peak RSS from `/usr/bin/time -v`." % a.runs,
            "- Rates are items / seconds (seconds in brackets). Ratio = peer time ÷ FleetKit time: above 1, FleetKit is "
            "faster. Result evaluates the target on wall and on CPU figures.", "",
            *table, ""]
    when = {}
    for d in rows:
        if d.get("at"):
            when.setdefault(d.get("row", ""), (d["at"], d.get("load", "?")))
    if len({at[:13] for at, _ in when.values()}) > 1:
        # Rows re-measured at different times (run.sh --merge): say when, and how loaded the machine was.
        notes.append("- Measured: " + "; ".join("row %s at %s (load average %s)" % (r, at.replace("T", " "), load)
                                                for r, (at, load) in sorted(when.items())))
    if notes:
        text += ["Notes:", "", *notes, ""]
    if a.extra and os.path.exists(a.extra):
        text += [open(a.extra).read().rstrip(), ""]
    if a.notes and os.path.exists(a.notes):
        text += [open(a.notes).read().rstrip(), ""]
    out = "\n".join(text)
    open(a.out, "w").write(out)
    print("\n".join(table))
    if notes:
        print("\n".join(notes))


if __name__ == "__main__":
    main()
