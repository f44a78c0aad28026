"""Peers for row 2: the same fields as FleetKit reads, loaded into sqlite with executemany.

    peer_telematics.py iso DB FILE.xml...      lxml iterparse over <Equipment> (any namespace)
    peer_telematics.py samsara DB FILE.json... json.load of each stats page, one row per reading
Prints the number of records (equipment entries, or readings) written.
"""
import json
import sqlite3
import sys

kind, db_path, files = sys.argv[1], sys.argv[2], sys.argv[3:]
db = sqlite3.connect(db_path)
n = 0
if kind == "iso":
    from lxml import etree

    db.execute("CREATE TABLE snapshot (pin TEXT, oem TEXT, model TEXT, at TEXT, lat REAL, lon REAL, hours REAL, "
               "idle_hours REAL, fuel_l REAL, running INTEGER, PRIMARY KEY (pin, at))")

    def local(tag):
        return tag.rsplit("}", 1)[-1]

    def rows(path):
        for _, el in etree.iterparse(path, events=("end",)):
            if local(el.tag) != "Equipment":
                continue
            f = {}
            for child in el.iter():
                name = local(child.tag)
                if name in ("PIN", "OEMName", "Model", "Latitude", "Longitude", "FuelConsumed", "Running"):
                    f[name] = child.text
                elif name == "Hour":
                    f[local(child.getparent().tag)] = child.text
                elif name == "Location":
                    f["at"] = child.get("datetime")
            yield (f.get("PIN"), f.get("OEMName"), f.get("Model"), f.get("at"), float(f["Latitude"]), float(f["Longitude"]),
                   float(f["CumulativeOperatingHours"]), float(f["CumulativeIdleHours"]), float(f["FuelConsumed"]),
                   f.get("Running") == "true")
            el.clear()

    for path in files:
        batch = list(rows(path))
        db.executemany("INSERT INTO snapshot VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", batch)
        n += len(batch)
else:
    db.execute("CREATE TABLE reading (vehicle_id TEXT, stat TEXT, at TEXT, value TEXT, PRIMARY KEY (vehicle_id, stat, at))")
    for path in files:
        page = json.load(open(path))
        batch = []
        for v in page["data"]:
            for stat, series in v.items():
                if not isinstance(series, list):
                    continue
                for r in series:
                    value = r["value"] if "value" in r else json.dumps({k: x for k, x in r.items() if k != "time"})
                    batch.append((v["id"], stat, r["time"], str(value)))
        db.executemany("INSERT INTO reading VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING", batch)
        n += len(batch)
db.commit()
print(n)
