"""Peer for row 9: openpyxl in read-only mode (load_workbook(read_only=True), the mode its docs
give for large files) iterates the fuel-card statement of gen-xlsx.py and writes one row per
transaction into sqlite with executemany, converting as the profile scripts/bench/fuel-statement.yml
says: local times in America/Chicago to UTC milliseconds, gallons to millilitres, miles to
metres, USD to cents, USD/gal to cents per litre, the card number to its last four digits, the
unit to an asset id. The two title lines are skipped, and the row whose first cell is "Total".

    peer_openpyxl.py FILE.xlsx DB      prints "rows total_cents volume_litres"
"""
import datetime as dt
import sqlite3
import sys
import zoneinfo

from openpyxl import load_workbook

GAL_ML = 3785.411784
MI_M = 1609.344
ZONE = zoneinfo.ZoneInfo("America/Chicago")
path, db_path = sys.argv[1:3]
db = sqlite3.connect(db_path)
db.execute("CREATE TABLE asset (id INTEGER PRIMARY KEY, unit_number TEXT UNIQUE)")
db.execute("""CREATE TABLE fuel_purchase (id INTEGER PRIMARY KEY, source_key TEXT UNIQUE, asset_id INTEGER, at INTEGER,
    merchant TEXT, merchant_state TEXT, fuel_grade TEXT, volume_ml REAL, unit_price_minor_per_l REAL,
    total_minor INTEGER, currency TEXT, odometer_m REAL, card_last4 TEXT)""")
assets = {}


def asset(unit):
    if unit not in assets:
        assets[unit] = db.execute("INSERT INTO asset (unit_number) VALUES (?)", (unit,)).lastrowid
    return assets[unit]


wb = load_workbook(path, read_only=True)
rows = wb.worksheets[0].iter_rows(values_only=True)
for _ in range(2):
    next(rows)
header = next(rows)
col = {name: i for i, name in enumerate(header)}
batch, count, cents, ml = [], 0, 0, 0.0
for r in rows:
    if r[0] is None or (isinstance(r[0], str) and r[0].strip().lower() == "total"):
        continue
    at = r[col["Transaction Date"]].replace(tzinfo=ZONE)
    total = round(r[col["Amount (USD)"]] * 100)
    volume = r[col["Quantity (gal)"]] * GAL_ML
    batch.append(("card:%d" % r[col["Transaction ID"]], asset(r[col["Unit"]]), int(at.timestamp() * 1000),
                  "%s, %s, %s" % (r[col["Merchant"]], r[col["City"]], r[col["State"]]), r[col["State"]], r[col["Product"]],
                  volume, r[col["Price (USD/gal)"]] * 100 / (GAL_ML / 1000), total, "USD",
                  r[col["Odometer (mi)"]] * MI_M, str(r[col["Card Number"]])[-4:]))
    count += 1
    cents += total
    ml += volume
    if len(batch) == 50_000:
        db.executemany("INSERT INTO fuel_purchase (source_key, asset_id, at, merchant, merchant_state, fuel_grade, volume_ml,"
                       " unit_price_minor_per_l, total_minor, currency, odometer_m, card_last4) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", batch)
        batch = []
db.executemany("INSERT INTO fuel_purchase (source_key, asset_id, at, merchant, merchant_state, fuel_grade, volume_ml,"
               " unit_price_minor_per_l, total_minor, currency, odometer_m, card_last4) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", batch)
db.commit()
wb.close()
print(count, cents, round(ml / 1000))
