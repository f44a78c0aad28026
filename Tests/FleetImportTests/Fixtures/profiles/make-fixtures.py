#!/usr/bin/env python3
"""Writes meters.xlsx for ProfileImportTests (run with .venv-tools/bin/python, `make test-tools`):
a machine-hours export as a spreadsheet holds it, the reading time a typed Excel date-time."""
import datetime, os
import openpyxl

here = os.path.dirname(os.path.abspath(__file__))
wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Hours"
ws.append(["Machine", "Reading Date", "Engine Hours", "Odometer (km)", "Fuel Used (gal)"])
ws.append(["M-1", datetime.datetime(2026, 10, 1, 6, 0), 1234.5, 5678, 10])
ws.append(["M-1", datetime.datetime(2026, 10, 2, 6, 0), "n/a", 5700, 12.5])
ws.append(["M-1", datetime.datetime(2026, 10, 3, 6, 0), 1250.25, 5710.5, 20])
wb.save(os.path.join(here, "meters.xlsx"))
