#!/usr/bin/env python3
"""Idle cost on the sample fleet, read straight from SampleData (no FleetKit): idle hours from
the Samsara idling-duration counter (deltas spread over their interval, October 2026 in
America/Chicago), × the no-load rate of the vehicle's class (docs/METRICS.md "Idle cost"),
× the median card price of its fuel in the month. Prints one line per vehicle and the total.

Usage: python3 scripts/verify/idle-cost.py [SampleData]
"""
import csv, json, os, statistics, sys
from datetime import datetime
from zoneinfo import ZoneInfo

root = sys.argv[1] if len(sys.argv) > 1 else "SampleData"
tz = ZoneInfo("America/Chicago")
start = datetime(2026, 10, 1, tzinfo=tz).timestamp()
end = datetime(2026, 11, 1, tzinfo=tz).timestamp()
RATE = {"petrol": 0.39, "hybrid": 0.16, "diesel": 0.64}   # US gal/h, DOE Fact #861

fuel = {r["unit_number"]: r["fuel_type"] for r in csv.DictReader(open(os.path.join(root, "master/assets.csv")))}
prices = {"diesel": [], "gasoline": []}
for r in csv.DictReader(open(os.path.join(root, "fuel-card/fuel-card-2026-10.csv"))):
    t = datetime.fromisoformat(r["transaction_date"] + "T" + r["transaction_time"]).replace(tzinfo=tz).timestamp()
    if start <= t < end:
        prices["diesel" if "Diesel" in r["fuel_grade"] else "gasoline"].append(float(r["price_per_gallon"]))
# The receipts not linked to a card row or an earlier image (T-12's Shell diesel receipt).
seen = set()
for rc in json.load(open("scripts/receipts/sample-truth.json"))["receipts"]:
    key = (rc["file"].split("/")[0], rc.get("merchant"), rc["date"], rc.get("time"), rc.get("total"))
    if rc["kind"] != "fuel" or rc.get("links_to") or key in seen:
        continue
    seen.add(key)
    prices["diesel" if "DIESEL" in rc["grade"] else "gasoline"].append(float(rc["unit_price"]))
median = {k: statistics.median(v) for k, v in prices.items()}

idle = {}
sdir = os.path.join(root, "samsara/stats")
for f in sorted(os.listdir(sdir)):
    for v in json.load(open(os.path.join(sdir, f)))["data"]:
        for p in v.get("idlingDurationMilliseconds", []):
            idle.setdefault(v["name"].split(" ")[0], {})[datetime.fromisoformat(p["time"].replace("Z", "+00:00")).timestamp()] = p["value"]

total = 0.0
for unit in sorted(idle):
    pts = sorted(idle[unit].items())
    ms = 0.0
    for (t0, v0), (t1, v1) in zip(pts, pts[1:]):
        lo, hi = max(t0, start), min(t1, end)
        if v1 >= v0 and hi > lo:
            ms += (v1 - v0) * (hi - lo) / (t1 - t0)
    hours = ms / 3_600_000
    gal = hours * RATE[fuel[unit]]
    price = median["diesel" if fuel[unit] == "diesel" else "gasoline"]
    cost = round(gal * price, 2)
    total += cost
    print(f"{unit:5} {fuel[unit]:7} {hours:7.2f} h {gal:8.3f} gal × {price:.4f} = {cost:8.2f}")
print(f"vehicles' idle cost {total:.2f} USD; medians {median}")
