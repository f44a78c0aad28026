#!/usr/bin/env python3
"""Writes the .xlsx fixtures of XLSXReaderTests (run with .venv-tools/bin/python, `make test-tools`).

openpyxl writes the workbooks a user's Excel-like tool would (shared strings, styles, dates);
parts openpyxl cannot write (a formula's saved value, inline strings, an error cell, a DTD,
a zip bomb) are written as XML into a zip by Python's zipfile, with the parts openpyxl wrote.
"""
import csv, datetime, io, os, zipfile
import openpyxl
from openpyxl.styles import Alignment

here = os.path.dirname(os.path.abspath(__file__))
out = lambda name: os.path.join(here, name)

# 1. fuel-card.xlsx: the rows of ../fuel-card/good.csv, typed as a spreadsheet holds them
#    (dates as dates, clock times as times, quantities and amounts as numbers).
wb = openpyxl.Workbook()
ws = wb.active
ws.title = "Transactions"
with open(os.path.join(here, "..", "fuel-card", "good.csv"), newline="") as f:
    rows = list(csv.reader(f))
ws.append(rows[0])
numeric = {"Gallons", "Price Per Gallon", "Total Amount", "Odometer (mi)"}
for r in rows[1:]:
    typed = []
    for name, v in zip(rows[0], r):
        if v == "":
            typed.append(None)
        elif name == "Transaction Date":
            typed.append(datetime.date.fromisoformat(v))
        elif name == "Transaction Time" and v.count(":") == 2 and "M" not in v:
            typed.append(datetime.time.fromisoformat(v))
        elif name in numeric:
            typed.append(float(v) if "." in v else int(v))
        else:
            typed.append(v)
    ws.append(typed)
for row in ws.iter_rows(min_row=2):
    row[0].number_format = "yyyy-mm-dd"
    if isinstance(row[1].value, datetime.time):
        row[1].number_format = "hh:mm:ss"
wb.save(out("fuel-card.xlsx"))

# 2. merged-header.xlsx: a two-row header whose top cells are merged ("Fuel" over Gallons and
#    Total Amount), a second sheet, and the data on the sheet named "Card".
wb = openpyxl.Workbook()
first = wb.active
first.title = "Notes"
first.append(["This sheet is not the data"])
ws = wb.create_sheet("Card")
ws.append(["Transaction Date", "Vehicle Number", "Transaction", None, "Fuel", None, "Product"])
ws.append([None, None, "ID", "Card Number", "Gallons", "Total Amount", None])
ws.merge_cells("A1:A2"); ws.merge_cells("B1:B2"); ws.merge_cells("C1:D1"); ws.merge_cells("E1:F1"); ws.merge_cells("G1:G2")
ws["E1"].alignment = Alignment(horizontal="center")
ws.append([datetime.date(2026, 10, 5), "T-12", "WX-1", "****1234", 40.5, 161.6, "Diesel"])
ws.append([datetime.date(2026, 10, 6), "T-12", "WX-2", "****1234", 12, 47.88, "Diesel"])
for row in ws.iter_rows(min_row=3):
    row[0].number_format = "d-mmm-yy"
wb.save(out("merged-header.xlsx"))

# 3. Hand-written parts, zipped with the boilerplate a workbook needs.
CT = """<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>"""
RELS = """<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>"""
def workbook(date1904=False, sheets=(("Sheet1", "rId1"),)):
    pr = '<workbookPr date1904="1"/>' if date1904 else '<workbookPr/>'
    s = "".join(f'<sheet name="{n}" sheetId="{i+1}" r:id="{rid}"/>' for i, (n, rid) in enumerate(sheets))
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">{pr}<sheets>{s}</sheets></workbook>"""
def wbrels(targets=(("rId1", "worksheets/sheet1.xml"),)):
    t = "".join(f'<Relationship Id="{i}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="{p}"/>' for i, p in targets)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{t}<Relationship Id="rS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rT" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>"""
STYLES = """<?xml version="1.0" encoding="UTF-8"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd\\ hh:mm"/><numFmt numFmtId="165" formatCode="#,##0.00 &quot;km&quot;"/></numFmts><cellStyleXfs count="1"><xf numFmtId="0"/></cellStyleXfs><cellXfs count="5"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="164" applyNumberFormat="1"/><xf numFmtId="165" applyNumberFormat="1"/><xf numFmtId="21" applyNumberFormat="1"/></cellXfs></styleSheet>"""
def shared(strings):
    si = "".join(f"<si><t>{s}</t></si>" for s in strings)
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="{len(strings)}" uniqueCount="{len(strings)}">{si}</sst>'
def sheet(body, extra=""):
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>{body}</sheetData>{extra}</worksheet>'
def pack(name, parts):
    with zipfile.ZipFile(out(name), "w", zipfile.ZIP_DEFLATED) as z:
        for path, text in parts.items():
            z.writestr(path, text)
def book(sheet_xml, strings=(), date1904=False, **more):
    parts = {"[Content_Types].xml": CT, "_rels/.rels": RELS, "xl/workbook.xml": workbook(date1904), "xl/_rels/workbook.xml.rels": wbrels(),
             "xl/styles.xml": STYLES, "xl/sharedStrings.xml": shared(strings), "xl/worksheets/sheet1.xml": sheet_xml}
    parts.update(more)
    return parts

# typed.xlsx: every cell type. Row 2: a shared string, an inline string in rich-text runs, a
# number in scientific notation, TRUE, a date (style 1, built-in 14) and a date-time (style 2,
# custom yyyy-mm-dd hh:mm); row 3 a formula with its saved value, a #N/A error, a number in a
# "km" format (not a date), a time of day (style 4, built-in 21), the cells placed by reference
# with B3 missing; row 5 (row 4 absent) cells without `r`.
typed = sheet(
    '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c><c r="E1" t="s"><v>4</v></c><c r="F1" t="s"><v>5</v></c></row>'
    '<row r="2"><c r="A2" t="s"><v>6</v></c><c r="B2" t="inlineStr"><is><r><t>Inline </t></r><r><rPr><b/></rPr><t>rich</t></r><rPh sb="0" eb="1"><t>PHONETIC</t></rPh></is></c><c r="C2"><v>1.5E-3</v></c><c r="D2" t="b"><v>1</v></c><c r="E2" s="1"><v>46296</v></c><c r="F2" s="2"><v>46296.604166666664</v></c></row>'
    '<row r="3"><c r="A3"><f>SUM(C2,41.9985)</f><v>42</v></c><c r="C3" t="e"><f>NA()</f><v>#N/A</v></c><c r="D3" s="3"><v>1234.5</v></c><c r="E3" s="4"><v>0.5</v></c></row>'
    '<row r="5"><c><v>7</v></c><c t="str"><f>"x"&amp;"y"</f><v>xy</v></c></row>',
    '<mergeCells count="0"/>')
pack("typed.xlsx", book(typed, ["name", "note", "small", "flag", "day", "when", "Shared &amp; text"]))

# dates-1904.xlsx: the same serials in the 1904 system; 60 and 61 around the 1900 bug in a 1900 book.
pack("dates-1904.xlsx", book(sheet('<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" s="1"><v>44834</v></c></row><row r="3"><c r="A3" s="2"><v>0.25</v></c></row>'), ["day"], date1904=True))
pack("dates-1900.xlsx", book(sheet('<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" s="1"><v>59</v></c></row><row r="3"><c r="A3" s="1"><v>60</v></c></row><row r="4"><c r="A4" s="1"><v>61</v></c></row><row r="5"><c r="A5" s="1"><v>1</v></c></row>'), ["day"]))

# Bad inputs, one per failure mode.
# bomb.xlsx: a sheet of 64 MiB of blanks, compressed about 1000:1.
pack("bomb.xlsx", book(sheet('<row r="1"><c r="A1" t="s"><v>0</v></c></row>' + " " * (64 << 20)), ["x"]))
# doctype.xlsx: a sheet with an internal DTD declaring entities (a billion-laughs head).
pack("doctype.xlsx", book('<?xml version="1.0"?>\n<!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&b;</t></is></c></row></sheetData></worksheet>'))
# missing-sheet.xlsx: the workbook's sheet points at a part the archive does not hold.
parts = book(sheet(""))
del parts["xl/worksheets/sheet1.xml"]
pack("missing-sheet.xlsx", parts)
# missing-shared-string.xlsx: expenses whose second row's category refers to shared string #99,
# and a third row whose amount is the text 'twelve' (a reject located at its cell).
pack("missing-shared-string.xlsx", book(sheet(
    '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c></row>'
    '<row r="2"><c r="A2" s="1"><v>46296</v></c><c r="B2" t="s"><v>4</v></c><c r="C2" t="s"><v>5</v></c><c r="D2"><v>12.5</v></c></row>'
    '<row r="3"><c r="A3" s="1"><v>46297</v></c><c r="B3" t="s"><v>4</v></c><c r="C3" t="s"><v>99</v></c><c r="D3"><v>20</v></c></row>'
    '<row r="4"><c r="A4" s="1"><v>46298</v></c><c r="B4" t="s"><v>4</v></c><c r="C4" t="s"><v>5</v></c><c r="D4" t="inlineStr"><is><t>twelve</t></is></c></row>'),
    ["date", "unit_number", "category", "amount", "T-12", "tolls"]))
# truncated.xlsx: the first 60 % of fuel-card.xlsx, as an interrupted download leaves it.
data = open(out("fuel-card.xlsx"), "rb").read()
open(out("truncated.xlsx"), "wb").write(data[: len(data) * 6 // 10])
# header-error.xlsx: expenses whose header cell D1, where 'amount' belongs, holds the error #REF!
# (a column name made by a formula whose source was deleted).
pack("header-error.xlsx", book(sheet(
    '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="e"><f>Names!A4</f><v>#REF!</v></c></row>'
    '<row r="2"><c r="A2" s="1"><v>46296</v></c><c r="B2" t="s"><v>3</v></c><c r="C2" t="s"><v>4</v></c><c r="D2"><v>12.5</v></c></row>'),
    ["date", "unit_number", "category", "T-12", "tolls"]))
# merge-decoys.xlsx: a two-row header made by one real merge (A1:A2), with a merge written in a
# comment and another as a cell's CDATA text (B1:C1, which would name column C "Unit Gallons"),
# and a '>' inside a quoted attribute before the real merges: only A1:A2 is a merge.
pack("merge-decoys.xlsx", book(sheet(
    '<!-- <mergeCell ref="B1:C1"/> --><row r="1"><c r="A1" t="inlineStr"><is><t>Date</t></is></c><c r="B1" t="inlineStr"><is><t>Unit</t></is></c><c r="C1" t="inlineStr"><is><t>Fuel</t></is></c></row>'
    '<row r="2"><c r="C2" t="inlineStr"><is><t>Gallons</t></is></c></row>'
    '<row r="3"><c r="A3" s="1"><v>46296</v></c><c r="B3" t="inlineStr"><is><t><![CDATA[<mergeCell ref="B1:C1"/>]]></t></is></c><c r="C3"><v>12.5</v></c></row>',
    '<dataValidations count="1"><dataValidation type="decimal" operator="greaterThan" prompt="gallons > 0" sqref="C3"><formula1>0</formula1></dataValidation></dataValidations>'
    '<mergeCells count="1"><mergeCell ref="A1:A2"/></mergeCells>')))
