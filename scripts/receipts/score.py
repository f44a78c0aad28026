#!/usr/bin/env python3
"""Receipt accuracy as a user meets it: `fleetkit import` of the images into a fresh warehouse,
then the stored fuel purchases and expenses and their review listing read back from SQLite and
compared field by field with a truth file written independently of FleetKit.

    score.py --fleetkit BIN --truth TRUTH.json --images DIR --work DIR --name NAME [--peer]

Per field, one of three outcomes:
  correct             stored, equal to the truth, and the receipt not listed for review
  wrong, not flagged  stored, different from the truth, and the receipt not listed for review:
                      the case that puts a wrong figure in the costs in silence
  flagged or empty    the receipt is listed for review (`reject` reason needs_review, or fuel
                      `needs_review = 1`), or it was not loaded, or the field is empty
Fields: date (local date of `at`, fleet zone UTC), total (minor units, exact), currency,
volume (within half a unit of the printed last digit), unit price (within half a unit of the
printed last digit, per litre), merchant (at least half the words of the printed name, or for
the real scans the name's own word, in the stored name),
category (fuel purchase for a fuel slip, else the expense category). Volume and unit price are
scored only where the slip prints them. With --peer the plain `tesseract` command reads each
image too (one at a time, one after another, as a user would script it; `fleetkit import` reads
one receipt per core at once) and is scored for date and total
*presence*: the printed date anywhere in its text, the printed total on a line with a total word.
It extracts no fields, so it is never "wrong"; absent means "empty".
Prints a JSON summary on stdout; writes NAME.md (tables) in --work. `score.py --self-test` checks
the scoring rules on hand-made rows.
"""
import argparse
import json
import os
import re
import resource
import sqlite3
import subprocess
import sys
import time
import unicodedata
from datetime import datetime, timezone

FIELDS = ["date", "total", "currency", "volume", "unit_price", "merchant", "category"]
L_PER_GAL = 3.785411784
TOTAL_WORDS = re.compile(r"TOTAL|SUMME|MOKETI|JUMLAH|SUMA|GESAMT", re.I)


def fold(s):
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c)).upper()


def half_unit(printed):
    """Half a unit of the last printed digit: 35.10 -> 0.005."""
    return 0.5 * 10 ** -(len(printed.split(".")[1]) if "." in printed else 0)


def children_cpu():
    """User + system seconds of the finished child processes: steadier than wall clock on a
    shared machine."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_import(bin_, db, files, log):
    for p in (db, db + "-wal", db + "-shm"):
        if os.path.exists(p):
            os.remove(p)
    subprocess.run([bin_, "init", "--db", db, "--tz", "UTC"], check=True, stdout=subprocess.DEVNULL)
    t0, c0 = time.monotonic(), children_cpu()
    with open(log, "w") as out:
        rc = subprocess.run([bin_, "import", "--db", db, "--json", *files], stdout=out, stderr=subprocess.STDOUT).returncode
    wall, cpu = time.monotonic() - t0, children_cpu() - c0
    if rc not in (0, 1):
        sys.exit(f"fleetkit import exited {rc}: see {log}")
    return wall, cpu


def stored(db):
    """Per image file name: what the warehouse holds for it."""
    con = sqlite3.connect(db)
    out = {}
    for sid, path in con.execute("SELECT id, path FROM source_file"):
        rec = {"review": False, "row": None}
        fp = con.execute("SELECT at, total_minor, currency, volume_ml, unit_price_minor_per_l, merchant, needs_review "
                         "FROM fuel_purchase WHERE source_file_id = ?", (sid,)).fetchone()
        ex = con.execute("SELECT at, amount_minor, currency, vendor, category FROM expense WHERE source_file_id = ?", (sid,)).fetchone()
        if fp:
            rec["row"] = dict(kind="fuel", at=fp[0], total=fp[1], currency=fp[2], volume_ml=fp[3], price=fp[4], merchant=fp[5], category="fuel")
            rec["review"] = bool(fp[6])
        elif ex:
            rec["row"] = dict(kind="expense", at=ex[0], total=ex[1], currency=ex[2], volume_ml=None, price=None, merchant=ex[3], category=ex[4])
        n = con.execute("SELECT count(*) FROM reject WHERE source_file_id = ? AND reason = 'needs_review'", (sid,)).fetchone()[0]
        rec["review"] = rec["review"] or n > 0
        out[os.path.basename(path)] = rec
    con.close()
    return out


def judge(field, t, row):
    """True (equal), False (different) or None (nothing stored / not applicable)."""
    if row is None:
        return None
    if field == "date":
        return datetime.fromtimestamp(row["at"] / 1000, timezone.utc).strftime("%Y-%m-%d") == t["date"]
    if field == "total":
        if row["total"] is None:
            return None
        digits = 0 if t["currency"] == "JPY" else 2
        return row["total"] == round(float(t["total"]) * 10 ** digits)
    if field == "currency":
        return row["currency"] == t["currency"]
    if field == "volume":
        if row["volume_ml"] is None:
            return None
        per = 1000 * (L_PER_GAL if t.get("volume_unit") == "gal" else 1)
        return abs(row["volume_ml"] / per - float(t["volume"])) <= half_unit(t["volume"]) + 1e-9
    if field == "unit_price":
        if row["price"] is None:
            return None
        digits = 0 if t["currency"] == "JPY" else 2   # the stored price is in the currency's minor unit
        per_unit = row["price"] / 10 ** digits * (L_PER_GAL if t.get("volume_unit") == "gal" else 1)
        return abs(per_unit - float(t["unit_price"])) <= half_unit(t["unit_price"]) + 1e-6
    if field == "merchant":
        if not row["merchant"]:
            return None
        have = set(re.findall(r"[A-Z0-9]+", fold(row["merchant"])))
        if t.get("merchant_match"):   # hand-written truth: the name's own word(s)
            return any(w in have or (len(w) >= 5 and w in fold(row["merchant"])) for w in t["merchant_match"])
        words = re.findall(r"[A-Z0-9]+", fold(t["merchant"]))
        return 2 * sum(w in have for w in words) >= len(words)   # at least half the name's words
    if field == "category":
        return row["category"] == t["category"]
    raise ValueError(field)


def applies(field, t):
    return field not in ("volume", "unit_price") or t.get(field) is not None


def peer(files, work):
    """The `tesseract` command once per image, one after another, as a user would script it;
    returns (wall seconds, CPU seconds, texts)."""
    outdir = os.path.join(work, "tesseract-out")
    os.makedirs(outdir, exist_ok=True)
    env = dict(os.environ, OMP_THREAD_LIMIT="1")
    texts = {}
    t0, c0 = time.monotonic(), children_cpu()
    for f in files:
        base = os.path.join(outdir, os.path.basename(f))
        subprocess.run(["tesseract", f, base], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        texts[os.path.basename(f)] = open(base + ".txt", errors="replace").read() if os.path.exists(base + ".txt") else ""
    return time.monotonic() - t0, children_cpu() - c0, texts


def peer_found(field, t, text):
    squash = lambda s: re.sub(r"\s+", "", s)
    if field == "date":
        return squash(t["date_printed"]) in squash(text)
    return any(squash(t["total_printed"]) in squash(line) and TOTAL_WORDS.search(fold(line)) for line in text.splitlines())


def self_test():
    """The scoring rules on hand-made rows, so a broken scorer fails the benchmark instead of
    reporting wrong figures (run by scripts/bench/receipt-accuracy.sh before every scoring)."""
    us = dict(date="2025-03-14", total="41.52", currency="USD", volume="12.003", volume_unit="gal", unit_price="3.459",
              merchant="PILOT TRAVEL CENTER #318", category="fuel")
    at = int(datetime(2025, 3, 14, 23, 59, tzinfo=timezone.utc).timestamp() * 1000)
    row = dict(at=at, total=4152, currency="USD", volume_ml=12.003 * 3785.411784, price=3.459 * 100 / L_PER_GAL,
               merchant="Pilot Travel Center", category="fuel")
    checks = [(f, judge(f, us, row), True) for f in FIELDS]
    checks += [
        ("a cent off", judge("total", us, dict(row, total=4153)), False),
        ("450.00 for 50.00", judge("total", dict(us, total="50.00"), dict(row, total=45000)), False),
        ("the next day in UTC", judge("date", us, dict(row, at=at + 60_000)), False),
        ("half a unit of 12.003 gal", judge("volume", us, dict(row, volume_ml=12.0034 * 3785.411784)), True),
        ("36.10 L for 35.10 L", judge("volume", dict(us, volume="35.10", volume_unit="L"), dict(row, volume_ml=36100.0)), False),
        ("price per litre, not per gallon", judge("unit_price", us, dict(row, price=345.9)), False),
        ("logo noise as merchant", judge("merchant", us, dict(row, merchant="eR ANG i ps")), False),
        ("one common word of a name", judge("merchant", dict(us, merchant="THE RED LION"), dict(row, merchant="THE")), False),
        ("no merchant is empty, not wrong", judge("merchant", us, dict(row, merchant=None)), None),
        ("a fuel slip filed as parts", judge("category", us, dict(row, category="parts")), False),
        ("nothing stored", judge("total", us, None), None),
        ("JPY has no minor digits", judge("total", dict(us, currency="JPY", total="5840"), dict(row, total=5840)), True),
        ("peer: date with spaces", peer_found("date", dict(date_printed="03/14/2025"), "x 03/14/ 2025 y"), True),
        ("peer: total off a total line", peer_found("total", dict(total_printed="41.52"), "VISA 41.52\nTOTAL 4152"), False),
        ("peer: MOKĖTI line", peer_found("total", dict(total_printed="81,05"), "Mokėti 81,05"), True),
    ]
    bad = [f"{name}: {got!r}, expected {want!r}" for name, got, want in checks if got is not want]
    if bad:
        sys.exit("score.py self-test failed:\n" + "\n".join(bad))
    print(f"score.py self-test: {len(checks)} checks passed", file=sys.stderr)


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    ap = argparse.ArgumentParser()
    ap.add_argument("--fleetkit", required=True)
    ap.add_argument("--truth", required=True)
    ap.add_argument("--images", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--name", required=True)
    ap.add_argument("--peer", action="store_true")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    truth = json.load(open(a.truth))["receipts"]
    files = [os.path.join(a.images, t["file"]) for t in truth]
    db = os.path.join(a.work, a.name + ".sqlite")
    wall, cpu = run_import(a.fleetkit, db, files, os.path.join(a.work, a.name + "-import.json"))
    got = stored(db)
    groups = {}
    wrong = []
    for t in truth:
        rec = got.get(t["file"], {"review": False, "row": None})
        g = groups.setdefault(t.get("split", a.name), {"n": 0, "fields": {f: [0, 0, 0] for f in FIELDS}, "date_total": 0, "files": []})
        g["n"] += 1
        g["files"].append(t["file"])
        ok_dt = True
        for f in FIELDS:
            if not applies(f, t):
                continue
            v = judge(f, t, rec["row"])
            cell = 2 if (v is None or rec["review"]) else (0 if v else 1)
            g["fields"][f][cell] += 1
            if cell == 1:
                wrong.append(f"{t['file']}: {f}")
            if f in ("date", "total") and cell != 0:
                ok_dt = False
        g["date_total"] += ok_dt
    summary = {"name": a.name, "images": len(files), "fleetkit_wall": round(wall, 3), "fleetkit_cpu": round(cpu, 3), "groups": {}, "wrong_not_flagged": wrong}
    texts = {}
    if a.peer:
        pw, pc, texts = peer(files, a.work)
        summary["peer_wall"], summary["peer_cpu"] = round(pw, 3), round(pc, 3)
    for name, g in groups.items():
        fields = sum(sum(c) for c in g["fields"].values())
        s = {"receipts": g["n"], "fields": fields, "per_field": g["fields"], "date_and_total_correct": g["date_total"],
             "wrong_not_flagged": sum(c[1] for c in g["fields"].values())}
        if texts:
            by = {os.path.basename(f): t for f, t in zip(files, truth)}
            s["peer_date"] = sum(peer_found("date", by[f], texts.get(f, "")) for f in g["files"])
            s["peer_total"] = sum(peer_found("total", by[f], texts.get(f, "")) for f in g["files"])
            s["peer_date_and_total"] = sum(peer_found("date", by[f], texts.get(f, "")) and peer_found("total", by[f], texts.get(f, "")) for f in g["files"])
        summary["groups"][name] = s
    with open(os.path.join(a.work, a.name + ".md"), "w") as out:
        out.write(table(summary))
    json.dump(summary, sys.stdout)
    print()


def pct(a, b):
    return f"{100 * a / b:.0f} %" if b else "–"


def table(s):
    rows = ["| set | field | correct | wrong, not flagged | flagged or empty |", "|---|---|---|---|---|"]
    for name, g in s["groups"].items():
        for f in FIELDS:
            c = g["per_field"][f]
            n = sum(c)
            if n:
                rows.append(f"| {name} ({g['receipts']}) | {f} | {c[0]}/{n} | {c[1]}/{n} | {c[2]}/{n} |")
        rows.append(f"| {name} | **all fields** | {pct(sum(c[0] for c in g['per_field'].values()), g['fields'])} | "
                    f"**{pct(g['wrong_not_flagged'], g['fields'])}** ({g['wrong_not_flagged']}/{g['fields']}) | "
                    f"{pct(sum(c[2] for c in g['per_field'].values()), g['fields'])} |")
        peer_txt = (f"; `tesseract` CLI text holds the printed date {g['peer_date']}/{g['receipts']}, the total on a total line "
                    f"{g['peer_total']}/{g['receipts']}, both {g['peer_date_and_total']}/{g['receipts']}") if "peer_date" in g else ""
        rows.append(f"| {name} | date and total both correct | {g['date_and_total_correct']}/{g['receipts']} "
                    f"({pct(g['date_and_total_correct'], g['receipts'])}){peer_txt} | | |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    main()
