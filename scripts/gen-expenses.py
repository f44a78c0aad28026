#!/usr/bin/env python3
"""Writes a seeded expenses CSV with N lines in one month, for measuring report memory.

Issue 18 item 11: a month with 1 M expense lines took 1 GB to report. The lines spread over
200 units (T-0001...) and the categories the cost report knows, with vendors and descriptions of
realistic length; amounts are 1.00-999.99 USD. Import it with
`fleetkit import --format expenses`, then run `fleetkit report cost --month 2026-10`.

Usage: gen-expenses.py --lines 1000000 --seed 42 --out expenses-1m.csv [--month 2026-10]
"""
import argparse
import random

CATEGORIES = ["tolls", "parts", "tires", "insurance", "lease", "registration", "other"]
VENDORS = ["Illinois Tollway", "Great Lakes Fleet Insurance", "Midwest Truck Parts", "Tire Barn", "City of Chicago", "Penske Leasing"]
WORDS = ["toll", "bridge", "filter", "brake pads", "wiper blades", "premium", "monthly lease", "plate renewal", "parking", "wash"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--lines", type=int, default=1_000_000)
    p.add_argument("--seed", type=int, default=42)
    p.add_argument("--month", default="2026-10")
    p.add_argument("--units", type=int, default=200)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    rng = random.Random(a.seed)
    with open(a.out, "w", encoding="utf-8", newline="") as f:
        f.write("expense_id,date,category,amount,currency,vendor,description,unit_number\r\n")
        for i in range(a.lines):
            day = 1 + rng.randrange(31)
            words = " ".join(rng.choice(WORDS) for _ in range(1 + rng.randrange(4)))
            f.write(f"EXP-{i:08d},{a.month}-{day:02d},{rng.choice(CATEGORIES)},{rng.randrange(100, 100000) / 100:.2f},USD,"
                    f"{rng.choice(VENDORS)},{words} #{i},T-{1 + rng.randrange(a.units):04d}\r\n")


if __name__ == "__main__":
    main()
