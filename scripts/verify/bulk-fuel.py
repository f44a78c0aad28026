#!/usr/bin/env python3
"""Bulk fuel on the sample fleet, read straight from SampleData (no FleetKit): each machine's
fuel cost for October 2026 (America/Chicago) at the yard tank's moving weighted-average cost,
and the tank reconciliation, by the rules docs/METRICS.md ("Bulk fuel") defines:

- per tank, deliveries and dispenses in time order (deliveries first at the same instant, then
  by key); book stock Q from 0, average A (cents per mL) unknown;
- delivery q mL costing c: Q > 0 and A known: A = (Q*A + c) / (Q + q); Q <= 0: A = c / q; then Q += q;
- dispense v mL: cost = v*A rounded half-to-even to the cent; Q -= v; no A: not costed.

Volumes are read as FleetKit reads a decimal (the digits as an integer, divided by 10 once per
decimal place) so the floating-point average is the same to the last bit.

Usage: python3 scripts/verify/bulk-fuel.py [SampleData]
"""
import csv, glob, os, sys
from datetime import datetime
from decimal import Decimal
from zoneinfo import ZoneInfo

root = sys.argv[1] if len(sys.argv) > 1 else "SampleData"
tz = ZoneInfo("America/Chicago")
GAL = 3785.411784
start = datetime(2026, 10, 1, tzinfo=tz).timestamp()
end = datetime(2026, 11, 1, tzinfo=tz).timestamp()

def number(text):
    d = Decimal(text.strip())
    sign, digits, exp = d.as_tuple()
    mantissa = int("".join(map(str, digits))) * (-1 if sign else 1)
    v = float(mantissa)
    for _ in range(-exp if exp < 0 else 0):
        v /= 10
    return v * (10 ** exp if exp > 0 else 1)

def ml(text, unit):
    u = unit.strip().lower()
    return number(text) * (GAL if u in ("gal", "gallons") else 1000.0 if u in ("l", "litres", "liters") else float("nan"))

def when(date, time):
    return datetime.fromisoformat(date + "T" + time).replace(tzinfo=tz).timestamp()

events = {}   # tank -> [(t, kind, key, ml, cents, unit)]
dips = {}
for path in sorted(glob.glob(os.path.join(root, "bulk-fuel/fuel-delivery-*.csv"))):
    for r in csv.DictReader(open(path)):
        tank, t = r["tank"].upper(), when(r["date"], r["time"])
        if r["kind"] == "dip":
            dips.setdefault(tank, []).append((t, number(r["gallons"]) * GAL))
            continue
        key = "id:" + r["supplier"].lower() + "|" + r["invoice"]
        events.setdefault(tank, []).append((t, 0, key, number(r["gallons"]) * GAL, int(Decimal(r["cost"]) * 100), None))
for path in sorted(glob.glob(os.path.join(root, "bulk-fuel/fuel-dispense-*.csv"))):
    for r in csv.DictReader(open(path)):
        tank = r["tank"].upper()
        key = "id:" + tank + "|" + r["transaction_id"]
        events.setdefault(tank, []).append((when(r["date"], r["time"]), 1, key, ml(r["quantity"], r["unit_of_measure"]), None, r["unit_number"]))

cost, litres, unpriced = {}, {}, 0
for tank, evs in sorted(events.items()):
    q, a = 0.0, None
    delivered = dispensed = 0.0
    for t, kind, key, v, cents, unit in sorted(evs, key=lambda e: (e[0], e[1], e[2])):
        inside = start <= t < end
        if kind == 0:
            if q <= 0:
                a = cents / v
            elif a is not None:
                a = (q * a + cents) / (q + v)
            q += v
            delivered += v if inside else 0
        else:
            if inside:
                dispensed += v
                litres[unit] = litres.get(unit, 0) + v / 1000
                if a is None:
                    unpriced += 1
                else:
                    cost[unit] = cost.get(unit, 0) + round(v * a)
            q -= v
    lv = sorted(dips.get(tank, []))
    l0 = [x for t, x in lv if t <= start]
    l1 = [x for t, x in lv if t < end]
    change = (l1[-1] - l0[-1]) if l0 and l1 else float("nan")
    print(f"tank {tank}: delivered {delivered / GAL:.1f} gal, dispensed {dispensed / GAL:.1f} gal, "
          f"level {l0[-1] / GAL if l0 else float('nan'):.1f} -> {l1[-1] / GAL if l1 else float('nan'):.1f} gal, "
          f"variance {(delivered - dispensed - change) / GAL:.3f} gal")

print(f"{'unit':6} {'dispensed gal':>13} {'fuel cost USD':>14}")
for unit in sorted(cost):
    print(f"{unit:6} {litres[unit] * 1000 / GAL:13.1f} {cost[unit] / 100:14.2f}")
print(f"machines' fuel cost {sum(cost.values()) / 100:.2f} USD; dispenses not costed: {unpriced}")
