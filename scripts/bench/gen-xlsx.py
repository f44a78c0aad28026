#!/usr/bin/env python3
"""Input of row 9: a fuel-card statement as a card provider's portal exports it to Excel, ROWS
transactions, written by XlsxWriter in constant_memory mode (one row in memory at a time, inline
strings): two title lines, the header (units in it: "Quantity (gal)", "Price (USD/gal)",
"Amount (USD)", "Odometer (mi)"), the transactions in date order, and a totals row whose first cell
is "Total". Transaction times are typed Excel date-times (local time, America/Chicago, between 06:00
and 21:59, so no row falls in a daylight-saving gap or repeated hour); numbers are numbers.

Merchants include TotalEnergies stations and units include "Totalfina" names: data rows whose
cells start with "Total" that a totals-row rule must not skip.

    gen-xlsx.py --rows N --seed S --out FILE.xlsx     prints "rows total_cents"
"""
import argparse
import datetime as dt
import random

import xlsxwriter

ap = argparse.ArgumentParser()
ap.add_argument("--rows", type=int, required=True)
ap.add_argument("--seed", type=int, default=42)
ap.add_argument("--out", required=True)
a = ap.parse_args()
rng = random.Random(a.seed)

UNITS = ["T-%04d" % i for i in range(1, 1801)] + ["Totalfina %d" % i for i in range(1, 201)]
CARDS = {u: "%016d" % rng.randrange(10**15, 10**16) for u in UNITS}
DRIVERS = ["Ana Ruiz", "Ben Okafor", "Chen Li", "Dana Novak", "Eli Haddad", "Farah Aziz", "Gus Moreno", "Hana Sato"]
MERCHANTS = [("Pilot #%d" % n, c, s) for n, c, s in [(312, "Joliet", "IL"), (1188, "Gary", "IN"), (77, "Toledo", "OH")]] + [
    ("Love's #%d" % n, c, s) for n, c, s in [(402, "Effingham", "IL"), (233, "Rochelle", "IL")]] + [
    ("TotalEnergies %s" % c, c, s) for c, s in [("Dallas", "TX"), ("Houston", "TX")]] + [
    ("Casey's #%d" % n, c, s) for n, c, s in [(2811, "Ames", "IA"), (1570, "Peoria", "IL")]] + [
    ("Speedway #%d" % n, c, s) for n, c, s in [(6401, "Dayton", "OH")]]
PRODUCTS = [("Diesel #2", 3.899), ("Unleaded 87", 3.219), ("DEF", 2.799)]

wb = xlsxwriter.Workbook(a.out, {"constant_memory": True})
ws = wb.add_worksheet("Transactions")
when = wb.add_format({"num_format": "mm/dd/yyyy hh:mm"})
money = wb.add_format({"num_format": "#,##0.00"})
price = wb.add_format({"num_format": "0.000"})
ws.write_row(0, 0, ["Fleet Card Statement - Account 400012"])
ws.write_row(1, 0, ["Period: 01/01/2026 - 12/31/2026 (times are local, Central)"])
header = ["Transaction ID", "Transaction Date", "Card Number", "Unit", "Driver", "Merchant", "City", "State",
          "Product", "Quantity (gal)", "Price (USD/gal)", "Amount (USD)", "Odometer (mi)"]
ws.write_row(2, 0, header)
odometer = {u: rng.randrange(20_000, 400_000) for u in UNITS}
start = dt.datetime(2026, 1, 1)
total_cents = 0
gallons_milli = 0
for i in range(a.rows):
    r = 3 + i
    # Times rise through the year, each at a whole minute between 06:00 and 21:59.
    day = start + dt.timedelta(days=i * 365 // a.rows)
    at = day + dt.timedelta(minutes=rng.randrange(6 * 60, 22 * 60))
    unit = rng.choice(UNITS)
    merchant, city, state = rng.choice(MERCHANTS)
    product, base = PRODUCTS[0] if rng.random() < 0.8 else rng.choice(PRODUCTS[1:])
    qty = rng.randrange(5_000, 150_000) / 1000  # gallons, 3 decimals
    unit_price = round(base + rng.randrange(-300, 300) / 1000, 3)
    cents = round(qty * unit_price * 100)
    odometer[unit] += rng.randrange(0, 600)
    ws.write_number(r, 0, 70_000_000 + i)
    ws.write_datetime(r, 1, at, when)
    ws.write_string(r, 2, "XXXXXXXXXXXX" + CARDS[unit][-4:])
    ws.write_string(r, 3, unit)
    ws.write_string(r, 4, rng.choice(DRIVERS))
    ws.write_string(r, 5, merchant)
    ws.write_string(r, 6, city)
    ws.write_string(r, 7, state)
    ws.write_string(r, 8, product)
    ws.write_number(r, 9, qty)
    ws.write_number(r, 10, unit_price, price)
    ws.write_number(r, 11, cents / 100, money)
    ws.write_number(r, 12, odometer[unit])
    total_cents += cents
    gallons_milli += round(qty * 1000)
r = 3 + a.rows
ws.write_string(r, 0, "Total")
ws.write_number(r, 9, gallons_milli / 1000)
ws.write_number(r, 11, total_cents / 100, money)
wb.close()
print(a.rows, total_cents)
