#!/usr/bin/env python3
"""Fills an empty FleetKit warehouse with a large, seeded year of rollup days and DVIRs, for
measuring the memory of the utilization, DVIR compliance and summary reports.

Issue 18 item 11: report memory must not grow with rows. The DVIR register has a row per
inspection and defect, and the rollup a row per asset and day, so a year of N assets is
N x 365 of each. Rows are written straight into the tables the reports read (asset, asset_day,
dvir, dvir_defect, source_file), not imported: the importers are measured elsewhere, and a
year of 1,000 vehicles' telematics takes long to import. Run `fleetkit init --db W` first.

Usage: gen-report-warehouse.py --db W [--assets 1000] [--year 2026] [--seed 42]
Then: fleetkit report utilization|dvir-compliance|summary --db W --from 2026-01-01 --to 2026-12-31
"""
import argparse
import datetime
import random
import sqlite3

COMPONENTS = ["brakes", "tires", "lights", "horn", "mirrors", "wipers", "steering", "coupling devices"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--db", required=True)
    p.add_argument("--assets", type=int, default=1000)
    p.add_argument("--year", type=int, default=2026)
    p.add_argument("--seed", type=int, default=42)
    a = p.parse_args()
    rng = random.Random(a.seed)
    db = sqlite3.connect(a.db)
    db.execute("PRAGMA foreign_keys = ON")
    first = datetime.datetime(a.year, 1, 1, tzinfo=datetime.timezone.utc)
    days = (datetime.datetime(a.year + 1, 1, 1, tzinfo=datetime.timezone.utc) - first).days
    ms = lambda t: int(t.timestamp() * 1000)
    with db:
        cur = db.execute("INSERT INTO source_file (path, sha256, format, bytes, imported_at, status) VALUES (?, ?, ?, ?, ?, 'imported')",
                         ("generated/gen-report-warehouse.py", "%064x" % rng.getrandbits(256), "dvir", 0, ms(first)))
        source = cur.lastrowid
        for n in range(1, a.assets + 1):
            kind = "equipment" if n % 10 == 0 else "vehicle"
            db.execute("INSERT INTO asset (id, unit_number, kind, asset_group, in_service_date, source_file_id) VALUES (?, ?, ?, ?, ?, ?)",
                       (n, "U-%04d" % n, kind, "Group %d" % (n % 7), "%d-01-01" % (a.year - 1), source))
        dvir_id = defect_id = 0
        for n in range(1, a.assets + 1):
            odometer = rng.uniform(10_000_000, 200_000_000)
            rollup, dvirs, defects = [], [], []
            for d in range(days):
                day = first + datetime.timedelta(days=d)
                works = rng.random() < 0.75
                distance = rng.uniform(20_000, 400_000) if works else 0.0
                engine = rng.uniform(3_600, 36_000) if works else 0.0
                odometer += distance
                rollup.append((n, day.date().isoformat(), distance, "odometer", engine, engine * rng.uniform(0.05, 0.3), engine * 4.5,
                               ms(day + datetime.timedelta(hours=6)), ms(day + datetime.timedelta(hours=18)), 2 if works else 0))
                if n % 10 == 0 or not works:
                    continue
                dvir_id += 1
                signed = day + datetime.timedelta(hours=6, minutes=rng.randrange(60))
                defect = rng.random() < 0.05
                dvirs.append((dvir_id, "dvir:gen-%d" % dvir_id, n, "pre_trip", ms(signed) - 600_000, ms(signed), "unsafe" if defect else "safe",
                              odometer, "Yard %d" % (n % 13), "Driver %d" % (n % 97), ms(signed), source))
                if defect:
                    defect_id += 1
                    resolved = signed + datetime.timedelta(hours=rng.uniform(1, 30))
                    defects.append((defect_id, dvir_id, "defect:gen-%d" % defect_id, rng.choice(COMPONENTS), "worn", "found on the pre-trip walk-round",
                                    1 if rng.random() < 0.5 else 0, ms(signed), ms(resolved), "Mechanic %d" % (n % 11), "repaired", ms(signed), source))
            db.executemany("INSERT INTO asset_day (asset_id, day, distance_m, distance_method, engine_s, idle_s, fuel_ml, first_at, last_at, trips) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rollup)
            db.executemany("INSERT INTO dvir (id, source_key, asset_id, type, started_at, signed_at, safety_status, odometer_m, location, inspector_name, "
                           "state_at, source_file_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", dvirs)
            db.executemany("INSERT INTO dvir_defect (id, dvir_id, source_key, component, defect_type, comment, safety_critical, created_at, resolved_at, "
                           "resolved_by, certification, state_at, source_file_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", defects)
    print("assets %d, rollup days %d, dvirs %d, defects %d" % (a.assets, a.assets * days, dvir_id, defect_id))


if __name__ == "__main__":
    main()
