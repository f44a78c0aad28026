#!/usr/bin/env python3
"""Writes the sample fleet's spreadsheet exports that `make run` imports through mapping profiles
(scripts/run-sample.sh; profiles in profiles/ beside this script). Run with .venv-tools/bin/python
(`make test-tools`). Deterministic: the same files every run.

- fleet-register.xlsx: finance's asset register, a title row above the header, with each
  vehicle's licence plate as SampleData/samsara/vehicles.json gives it (Samsara's licensePlate).
- parking-2026-10.xlsx: a city parking account statement for October 2026 that names vehicles
  only by plate, written as people type plates (spaces, dashes, lower case), two title rows
  above the header and a totals row below the data; fees in dollars, times local (Chicago).
"""
import datetime, json, os
import openpyxl

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))

vehicles = []
for page in json.load(open(os.path.join(root, "SampleData/samsara/vehicles.json"))):
    vehicles += page["data"]
vehicles = sorted((v for v in vehicles if v.get("licensePlate") and v["name"].startswith("T-")), key=lambda v: v["name"])

wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Register"
ws.append(["ACME Fleet - vehicle register (finance), as of 2026-10-01"])
ws.append(["Unit", "Type", "VIN", "Plate"])
for v in vehicles:
    ws.append([v["name"].split(" ")[0], "vehicle", v["vin"], v["licensePlate"]])
wb.save(os.path.join(here, "fleet-register.xlsx"))

def typed(plate, i):
    """The plate as a parking attendant might key it."""
    if i % 3 == 1:
        return plate[:3] + " " + plate[3:]
    if i % 3 == 2:
        return (plate[:3] + "-" + plate[3:]).lower()
    return plate

wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Statement"
ws.append(["City of Joliet - fleet parking account 40-1187"])
ws.append(["Statement period: 10/01/2026 - 10/31/2026"])
ws.append(["Date", "Time", "Plate", "Zone", "Fee"])
total = 0
for i in range(12):
    v = vehicles[i % 8]
    day = datetime.date(2026, 10, 1 + (i * 5) % 30)
    clock = datetime.time(8 + i % 9, (i * 17) % 60)
    fee = [2.50, 4.00, 6.75, 12.00][i % 4]
    total += fee
    ws.append([day, clock, typed(v["licensePlate"], i), ["Downtown A", "Courthouse", "Union Station"][i % 3], fee])
    ws.cell(row=ws.max_row, column=1).number_format = "mm/dd/yyyy"
    ws.cell(row=ws.max_row, column=2).number_format = "hh:mm"
ws.append(["Total", None, None, None, round(total, 2)])
wb.save(os.path.join(here, "parking-2026-10.xlsx"))
