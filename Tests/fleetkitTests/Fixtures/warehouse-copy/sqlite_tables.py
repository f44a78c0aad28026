#!/usr/bin/env python3
"""An independent reading of a FleetKit SQLite warehouse for WarehouseCopyTests (Python's sqlite3,
no FleetKit code).

  sqlite_tables.py facts DB   -> JSON {table: {"columns": [[name, type]], "count": n,
                                 "sums": {column: sum}, "md5": hex, "months": {"YYYY-MM": n}}}
  sqlite_tables.py same A B   -> JSON list of differences between every table of A and B (empty: identical)

The checksum is the MD5 of the table's rows in a canonical text form, sorted by code point and
joined by newlines: fields joined by U+001F, NULL as \\N, INTEGER as decimal, REAL as the hex of
its 8 big-endian IEEE 754 bytes, TEXT as is, BLOB as hex. The test computes the same form in
PostgreSQL with SQL (float8send, extract(epoch)), so the two agree only if every value does.
Sums cover money (columns ending _minor) and metres (columns ending _m).
"""
import hashlib, json, sqlite3, struct, sys

SKIP = {"grdb_migrations", "sqlite_sequence", "sqlite_stat1", "sqlite_stat4"}

def tables(db, skip):
    return [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name") if r[0] not in skip]

def columns(db, t):
    return [(r[1], (r[2] or "").upper()) for r in db.execute(f'PRAGMA table_info("{t}")')]

def field(v, declared):
    if v is None:
        return "\\N"
    if declared == "REAL":
        return struct.pack(">d", float(v)).hex()
    if isinstance(v, bytes):
        return v.hex()
    return str(v)

def facts(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    out = {}
    for t in tables(db, SKIP):
        cols = columns(db, t)
        names = ", ".join(f'"{c}"' for c, _ in cols)
        rows = db.execute(f'SELECT {names} FROM "{t}"').fetchall()
        canon = sorted("\x1f".join(field(v, d) for v, (_, d) in zip(r, cols)) for r in rows)
        sums = {}
        for i, (c, d) in enumerate(cols):
            if c.endswith("_minor") or c.endswith("_m"):
                vals = [r[i] for r in rows if r[i] is not None]
                sums[c] = sum(vals) if d == "INTEGER" else sum(float(v) for v in vals)
        months = {}
        part = {"position": "at", "obd_sample": "at", "meter_reading": "at", "trip": "start_at"}.get(t)
        if part:
            for (m, n) in db.execute(f'SELECT strftime(\'%Y-%m\', "{part}" / 1000, \'unixepoch\'), COUNT(*) FROM "{t}" GROUP BY 1'):
                months[m] = n
        out[t] = {"columns": cols, "count": len(rows), "sums": sums,
                  "md5": hashlib.md5("\n".join(canon).encode()).hexdigest(), "months": months}
    return out

def same(a, b):
    da = sqlite3.connect(f"file:{a}?mode=ro", uri=True)
    db = sqlite3.connect(f"file:{b}?mode=ro", uri=True)
    skip = {"sqlite_sequence", "sqlite_stat1", "sqlite_stat4"}
    diffs = []
    ta, tb = tables(da, skip), tables(db, skip)
    if ta != tb:
        diffs.append(f"tables differ: {sorted(set(ta) ^ set(tb))}")
    for t in ta:
        if t not in tb:
            continue
        ca, cb = columns(da, t), columns(db, t)
        if ca != cb:
            diffs.append(f"{t}: columns differ"); continue
        names = ", ".join(f'"{c}"' for c, _ in ca)
        key = lambda r: tuple((0, "") if v is None else (1, repr(type(v)), v) for v in r)
        ra = sorted(da.execute(f'SELECT {names} FROM "{t}"').fetchall(), key=key)
        rb = sorted(db.execute(f'SELECT {names} FROM "{t}"').fetchall(), key=key)
        if len(ra) != len(rb):
            diffs.append(f"{t}: {len(ra)} rows vs {len(rb)}"); continue
        for x, y in zip(ra, rb):
            # Same values and the same storage class (an integer must not come back as a real).
            if x != y or [type(v) for v in x] != [type(v) for v in y]:
                diffs.append(f"{t}: {x!r} vs {y!r}"); break
    return diffs

if __name__ == "__main__":
    if sys.argv[1] == "facts":
        print(json.dumps(facts(sys.argv[2])))
    else:
        print(json.dumps(same(sys.argv[2], sys.argv[3])))
