"""Peer for row 5: Python XlsxWriter writes the cost report's detail table (the rows and columns of
the detail sheet, read from the report's own detail CSV before timing starts inside the script).

    peer_xlsx.py DETAIL.csv OUT.xlsx      prints the number of rows written
"""
import csv
import sys
import time

import xlsxwriter

rows = list(csv.reader(open(sys.argv[1], newline="", encoding="utf-8")))
header, body = rows[0], rows[1:]


def value(cell):
    try:
        return float(cell) if cell not in ("", "-") else cell
    except ValueError:
        return cell


wb = xlsxwriter.Workbook(sys.argv[2], {"constant_memory": True})
ws = wb.add_worksheet("Detail")
bold = wb.add_format({"bold": True})
ws.write_row(0, 0, header, bold)
for r, row in enumerate(body, start=1):
    ws.write_row(r, 0, [value(c) for c in row])
wb.close()
print(len(body))
