#!/usr/bin/env python3
"""Bought against burned on the sample fleet, read straight from SampleData (no FleetKit):
the card CSV and the receipts' truth file for fuel bought, the Samsara stats for the fuel-used
and fuel-level meters, the assets master for tank capacities. Prints one line per asset for
October 2026 in America/Chicago, the figures docs/METRICS.md ("Bought against burned") defines.

Usage: python3 scripts/verify/bought-burned.py [SampleData]
"""
import csv, json, os, sys
from datetime import datetime, timezone
from zoneinfo import ZoneInfo

root = sys.argv[1] if len(sys.argv) > 1 else "SampleData"
tz = ZoneInfo("America/Chicago")
GAL = 3785.411784  # mL per US gallon
start = datetime(2026, 10, 1, tzinfo=tz).timestamp()
end = datetime(2026, 11, 1, tzinfo=tz).timestamp()

tank = {}
fuel_type = {}
for r in csv.DictReader(open(os.path.join(root, "master/assets.csv"))):
    if r["tank_capacity_gal"]:
        tank[r["unit_number"]] = float(r["tank_capacity_gal"]) * GAL
    fuel_type[r["unit_number"]] = r["fuel_type"]

# Fuel bought: every card row, and every receipt not linked to a card row or an earlier image.
bought = {}
purchases = {}
for r in csv.DictReader(open(os.path.join(root, "fuel-card/fuel-card-2026-10.csv"))):
    t = datetime.fromisoformat(r["transaction_date"] + "T" + r["transaction_time"]).replace(tzinfo=tz).timestamp()
    if start <= t < end:
        u = r["unit_number"]
        bought[u] = bought.get(u, 0) + float(r["gallons"]) * GAL
        purchases.setdefault(u, []).append(r["transaction_id"])
truth = json.load(open("scripts/receipts/sample-truth.json"))
seen_images = set()
for rc in truth["receipts"]:
    if rc["kind"] != "fuel" or rc.get("links_to"):
        continue
    unit = rc["file"].split("/")[0]
    key = (unit, rc["merchant"], rc["date"], rc["time"], rc["total"])
    if key in seen_images:
        continue  # a second photo of the same purchase
    seen_images.add(key)
    t = datetime.fromisoformat(rc["date"] + "T" + rc["time"]).replace(tzinfo=tz).timestamp()
    if start <= t < end:
        bought[unit] = bought.get(unit, 0) + float(rc["volume"]) * GAL
        purchases.setdefault(unit, []).append(rc["file"])

# Meters from the Samsara stats: every file, readings deduplicated by time.
used, level = {}, {}
sdir = os.path.join(root, "samsara/stats")
for f in sorted(os.listdir(sdir)):
    for v in json.load(open(os.path.join(sdir, f)))["data"]:
        unit = v["name"].split(" ")[0]
        for p in v.get("fuelConsumedMilliliters", []):
            used.setdefault(unit, {})[datetime.fromisoformat(p["time"].replace("Z", "+00:00")).timestamp()] = p["value"]
        for p in v.get("fuelPercents", []):
            level.setdefault(unit, {})[datetime.fromisoformat(p["time"].replace("Z", "+00:00")).timestamp()] = p["value"]

def burned_in_period(readings):
    """Deltas between consecutive readings, each spread over its interval in proportion to time."""
    pts = sorted(readings.items())
    total = 0.0
    for (t0, v0), (t1, v1) in zip(pts, pts[1:]):
        d = v1 - v0
        if d < 0:
            continue
        lo, hi = max(t0, start), min(t1, end)
        if hi <= lo:
            if t0 == t1 and start <= t1 < end:
                total += d
            continue
        total += d * (hi - lo) / (t1 - t0) if t1 > t0 else d
    return total

def level_at(readings, boundary, at_start):
    before = [t for t in readings if t <= boundary]
    if before:
        return readings[max(before)]
    if at_start:
        after = [t for t in readings if t > boundary and t < end]
        if after:
            return readings[min(after)]
    return None

print(f"{'unit':5} {'type':7} {'bought gal':>10} {'burned gal':>10} {'lvl0':>5} {'lvl1':>5} {'dLevel gal':>10} {'variance gal':>12} {'var %':>7} {'raw %':>7}")
for unit in sorted(set(used) | set(bought)):
    b = bought.get(unit, 0.0)
    u = burned_in_period(used.get(unit, {}))
    l0 = level_at(level.get(unit, {}), start, True)
    l1 = level_at(level.get(unit, {}), end, False)
    change = (l1 - l0) / 100 * tank[unit] if (l0 is not None and l1 is not None and unit in tank) else 0.0
    var = b - u - change
    pct = var / u * 100 if u > 0 else float("nan")
    raw = (b - u) / u * 100 if u > 0 else float("nan")
    print(f"{unit:5} {fuel_type.get(unit, ''):7} {b / GAL:10.1f} {u / GAL:10.1f} {l0 if l0 is not None else '-':>5} {l1 if l1 is not None else '-':>5} "
          f"{change / GAL:10.1f} {var / GAL:12.1f} {pct:7.1f} {raw:7.1f}")

# The machines: fuel-used readings of the ISO 15143-3 snapshots (litres), same spreading rule.
import re, glob
iso = {}
for path in glob.glob(os.path.join(root, "iso15143/*/fleet-*.xml")):
    text = re.sub(r"<(/?)\w+:", r"<\1", open(path).read())   # Komatsu's feed prefixes every element (j:)
    for eq in re.findall(r"<Equipment>(.*?)</Equipment>", text, re.S):
        unit = re.search(r"<EquipmentID>(\S+)", eq).group(1)
        m = re.search(r'<FuelUsed datetime="([^"]+)">.*?<FuelUnits>(\w+)</FuelUnits>.*?<FuelConsumed>([\d.]+)</FuelConsumed>', eq, re.S)
        if m:
            assert m.group(2) == "litre"
            iso.setdefault(unit, {})[datetime.fromisoformat(m.group(1)).timestamp()] = float(m.group(3)) * 1000
machines = {u: burned_in_period(r) for u, r in sorted(iso.items())}
for u, ml in machines.items():
    print(f"{u:5} machine {0:10.1f} {ml / GAL:10.1f}   bought none: -100 %")
print(f"machines burned {sum(machines.values()) / GAL:.1f} gal")
