import XCTest
import GRDB
import FleetCore
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// The `.xlsx` reader against workbooks written by openpyxl and by hand
/// (Fixtures/xlsx/make-fixtures.py). Expected values come from openpyxl's own reading:
/// `openpyxl.load_workbook(f, data_only=True)`, each sheet's `[[c.value for c in r] for r in ws.iter_rows()]`.
final class XLSXReaderTests: XCTestCase {
    func records(_ name: String, sheet: String? = nil) throws -> [(record: CSVRecord, problems: [String])] {
        let source = try XLSXRecords(url: fixture("xlsx/\(name)"), sheet: sheet)
        var out: [(CSVRecord, [String])] = []
        while let r = try source.next() {
            out.append((r, source.cellProblems.map { "\(source.location(line: r.line, column: $0.column)) \($0.message)" }))
        }
        return out
    }

    /// openpyxl: A2 'Shared & text', B2 'Inline rich' (the phonetic run is not text), C2 0.0015,
    /// D2 True, E2 2026-10-01, F2 2026-10-01 14:30; A3 42 (a formula's saved value), C3 '#N/A',
    /// D3 1234.5 (a "km" number format, not a date), E3 time(12, 0); row 4 absent; A5 7, B5 'xy'.
    func testEveryCellTypeReadsAsTheTextOfACSV() throws {
        let r = try records("typed.xlsx")
        XCTAssertEqual(r.map(\.record.line), [1, 2, 3, 5])
        XCTAssertEqual(r[0].record.fields, ["name", "note", "small", "flag", "day", "when"])
        XCTAssertEqual(r[1].record.fields, ["Shared & text", "Inline rich", "0.0015", "TRUE", "2026-10-01", "2026-10-01T14:30:00"])
        XCTAssertEqual(r[2].record.fields, ["42", "", "", "1234.5", "12:00:00"])
        XCTAssertEqual(r[2].problems, ["Sheet1!C3 holds the spreadsheet error #N/A; correct the formula or clear the cell"])
        XCTAssertEqual(r[3].record.fields, ["7", "xy"], "cells without a reference follow the one before")
        XCTAssertEqual(r[1].record.raw, "Shared & text,Inline rich,0.0015,TRUE,2026-10-01,2026-10-01T14:30:00")
        XCTAssertTrue(r.allSatisfy { $0.problems.isEmpty || $0.record.line == 3 })
    }

    /// openpyxl: 1904 book (epoch 1904-01-01): 44834 → 2026-10-01, 0.25 → time(6, 0). 1900 book:
    /// 59 → 1900-02-28, 61 → 1900-03-01, 1 → 1900-01-01; 60 is the 29 February 1900 that never was
    /// (openpyxl maps it to 1900-02-28; FleetKit refuses it rather than guess).
    func testBothDateSystemsAndThe1900LeapYearBug() throws {
        XCTAssertEqual(try records("dates-1904.xlsx").dropFirst().map(\.record.fields), [["2026-10-01"], ["06:00:00"]])
        let r = try records("dates-1900.xlsx").dropFirst()
        XCTAssertEqual(r.map(\.record.fields), [["1900-02-28"], [""], ["1900-03-01"], ["1900-01-01"]])
        XCTAssertEqual(r.map(\.problems).flatMap { $0 }, ["Sheet1!A3 holds serial 60, the 29 February 1900 that Excel counts but that never was; correct the date"])
    }

    func testSerialsAndNumbersAsText() {
        XCTAssertEqual(try XLSXDates.text(serial: 46296.5, date1904: false).get(), "2026-10-01T12:00:00")
        XCTAssertEqual(try XLSXDates.text(serial: 46296.0000001, date1904: false).get(), "2026-10-01T00:00:00.009")
        XCTAssertThrowsError(try XLSXDates.text(serial: -1, date1904: false).get())
        XCTAssertThrowsError(try XLSXDates.text(serial: 2_958_466, date1904: false).get())
        XCTAssertEqual(XLSXDates.number("0.30000000000000004"), "0.3")
        XCTAssertEqual(XLSXDates.number("1E+20"), "100000000000000000000")
        XCTAssertEqual(XLSXDates.number("-2.5E-3"), "-0.0025")
        XCTAssertEqual(XLSXDates.number("332.39"), "332.39")
        XCTAssertNil(XLSXDates.number("abc"))
        XCTAssertTrue(XLSXDates.isDateFormat("d-mmm-yy"))
        XCTAssertTrue(XLSXDates.isDateFormat("[$-409]h:mm AM/PM"))
        XCTAssertFalse(XLSXDates.isDateFormat("#,##0.00 \"km\""))
        XCTAssertFalse(XLSXDates.isDateFormat("[h]:mm"), "elapsed time is a duration")
        XCTAssertFalse(XLSXDates.isDateFormat("[Red]0.00"))
    }

    /// openpyxl, sheet 'Card': row 1 'Transaction Date', 'Vehicle Number', 'Transaction', None,
    /// 'Fuel', None, 'Product'; row 2 None, None, 'ID', 'Card Number', 'Gallons', 'Total Amount';
    /// merged A1:A2 B1:B2 C1:D1 E1:F1 G1:G2 (`ws.merged_cells.ranges`); then
    /// 2026-10-05, 'T-12', 'WX-1', '****1234', 40.5, 161.6, 'Diesel'. The first sheet is 'Notes'.
    func testAMergedTwoRowHeaderAndANamedSheet() throws {
        let r = try records("merged-header.xlsx", sheet: "Card")
        XCTAssertEqual(r.first?.record.fields, ["Transaction Date", "Vehicle Number", "Transaction ID", "Transaction Card Number",
                                                "Fuel Gallons", "Fuel Total Amount", "Product"])
        XCTAssertEqual(r.dropFirst().map(\.record.fields), [["2026-10-05", "T-12", "WX-1", "****1234", "40.5", "161.6", "Diesel"],
                                                            ["2026-10-06", "T-12", "WX-2", "****1234", "12", "47.88", "Diesel"]])
        XCTAssertEqual(r.dropFirst().map(\.record.line), [3, 4])
        XCTAssertEqual(try records("merged-header.xlsx").map(\.record.fields), [["This sheet is not the data"]])
        XCTAssertEqual(try records("merged-header.xlsx", sheet: "card").count, 3, "sheet names match as Excel's do, case-insensitively")
    }

    /// The merges are found by scanning markup (`XLSXMergeScan`): a merge written in a comment
    /// or as a cell's CDATA text is no merge, a `>` in a quoted attribute ends no tag. Expected
    /// from the parts as written (make-fixtures.py): only A1:A2 merges, so the header is two
    /// rows deep and C is 'Fuel Gallons', not 'Unit Gallons'; B3 holds the CDATA text.
    func testMergesInCommentsOrCellTextAreNoMerges() throws {
        let r = try records("merge-decoys.xlsx")
        XCTAssertEqual(r.first?.record.fields, ["Date", "Unit", "Fuel Gallons"])
        XCTAssertEqual(r.dropFirst().map(\.record.fields), [["2026-10-01", "<mergeCell ref=\"B1:C1\"/>", "12.5"]])
        XCTAssertNil(XLSXMergeScan.mergeRef(Array("mergeCells count=\"1\"".utf8)).map { "\($0)" })
        XCTAssertEqual(XLSXMergeScan.mergeRef(Array("x:mergeCell ref='B2:D9'/".utf8)).map { [$0.rows.lowerBound, $0.rows.upperBound, $0.columns.lowerBound, $0.columns.upperBound] }, [2, 9, 1, 3])
        XCTAssertNil(XLSXMergeScan.mergeRef(Array("mergeCell ref=\"B9:A1\"/".utf8)).map { "\($0)" }, "an inverted range is none")
    }

    func assertRefused(_ name: String, sheet: String? = nil, _ kind: XLSXError.Kind, _ words: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try records(name, sheet: sheet), file: file, line: line) { error in
            guard let e = error as? XLSXError else { return XCTFail("\(error)", file: file, line: line) }
            XCTAssertEqual(e.kind, kind, e.description, file: file, line: line)
            XCTAssertTrue(e.description.contains(words), e.description, file: file, line: line)
        }
    }

    func testHostileAndBrokenWorkbooksAreRefusedWithAReason() {
        assertRefused("bomb.xlsx", .bomb, "a zip bomb")
        assertRefused("doctype.xlsx", .dtd, "xl/worksheets/sheet1.xml: the part declares a DTD")
        assertRefused("missing-sheet.xlsx", .missingPart, "the workbook has no part xl/worksheets/sheet1.xml")
        assertRefused("truncated.xlsx", .truncated, "truncated")
        assertRefused("merged-header.xlsx", sheet: "Fuel", .missingSheet, "no sheet named 'Fuel'; its sheets are: 'Notes', 'Card'")
    }

    /// A workbook through `import`: the cell that refers to a missing shared string rejects its
    /// row at that cell, the text 'twelve' as an amount rejects its row at D4, both with the row as
    /// raw text; the good row loads. openpyxl refuses the whole workbook (IndexError).
    func testRejectsNameTheSheetRowAndColumn() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("xlsx/missing-shared-string.xlsx"))
        XCTAssertEqual(outcome.format, "expenses")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 2], outcome.error ?? "")
        let rejects = try t.rows("SELECT location, message, raw FROM reject ORDER BY location").map { "\($0[0] as String) | \($0[1] as String) | \($0[2] as String)" }
        guard rejects.count == 2 else { return XCTFail("\(rejects)") }
        XCTAssertTrue(rejects[0].hasPrefix("Sheet1!C3 | the cell 'category' refers to shared string #99, which the workbook does not have (6 shared strings)"), rejects[0])
        XCTAssertTrue(rejects[0].hasSuffix("| 2026-10-02,T-12,,20"), rejects[0])
        XCTAssertTrue(rejects[1].hasPrefix("Sheet1!D4 | 'amount'"), rejects[1])
        XCTAssertTrue(rejects[1].hasSuffix("| 2026-10-03,T-12,tolls,twelve"), rejects[1])
    }

    /// A header cell holding an error value leaves its column unnamed; the refusal names that cell,
    /// so the user fixes D1 instead of hunting for a column they can see in Excel.
    func testAnUnreadableHeaderCellIsNamedInTheMissingColumnError() throws {
        let r = try records("header-error.xlsx")
        XCTAssertEqual(r[0].record.fields, ["date", "unit_number", "category", ""])
        XCTAssertEqual(r[0].problems, ["Sheet1!D1 holds the spreadsheet error #REF!; correct the formula or clear the cell"])
        let t = try TestWarehouse()
        var options = ImportOptions()
        options.format = "expenses"
        let outcome = try t.importFile(fixture("xlsx/header-error.xlsx"), options: options)
        XCTAssertEqual(outcome.loaded, 0)
        let error = outcome.error ?? ""
        XCTAssertTrue(error.contains("lacks required column(s): amount"), error)
        XCTAssertTrue(error.contains("the header cell Sheet1!D1 could not be read (holds the spreadsheet error #REF!"), error)
    }

    /// The fuel card's rows from a workbook (dates, times and amounts typed as a spreadsheet
    /// holds them) land exactly as the same rows from the CSV: every column of `fuel_purchase`
    /// but its ids. Importing the same workbook again changes nothing.
    func testAFuelCardWorkbookLoadsTheSameRowsAsItsCSV() throws {
        func dump(_ file: String) throws -> (FileOutcome, [String]) {
            let t = try TestWarehouse()
            let outcome = try t.importFile(fixture(file))
            let columns = try t.rows("SELECT name FROM pragma_table_info('fuel_purchase')").map { $0[0] as String }
                .filter { $0 != "id" && $0 != "source_file_id" }
            let rows = try t.rows("SELECT \(columns.joined(separator: ", ")) FROM fuel_purchase ORDER BY at, source_key").map { row in
                zip(columns, row.databaseValues).map { "\($0)=\($1)" }.joined(separator: " ")
            }
            if file.hasSuffix(".xlsx") {
                let again = try t.importFile(fixture(file))
                XCTAssertEqual(again.status, .unchanged)
                XCTAssertEqual(try t.count("fuel_purchase"), rows.count)
            }
            return (outcome, rows)
        }
        let (csvOutcome, csv) = try dump("fuel-card/good.csv")
        let (xlsxOutcome, xlsx) = try dump("xlsx/fuel-card.xlsx")
        XCTAssertEqual(xlsxOutcome.format, "fuel-card")
        XCTAssertEqual([xlsxOutcome.loaded, xlsxOutcome.rejected], [csvOutcome.loaded, csvOutcome.rejected])
        XCTAssertEqual(csv.count, 4)
        XCTAssertEqual(xlsx, csv)
    }

    func testSheetOptionSelectsTheSheetOnImport() throws {
        let t = try TestWarehouse()
        var options = ImportOptions()
        options.sheet = "Nope"
        let outcome = try t.importFile(fixture("xlsx/fuel-card.xlsx"), options: options)
        XCTAssertEqual(outcome.status, .failed)
        XCTAssertTrue(outcome.error?.contains("no sheet named 'Nope'; its sheets are: 'Transactions'") == true, outcome.error ?? "")
        options.sheet = "Transactions"
        XCTAssertEqual(try t.importFile(fixture("xlsx/fuel-card.xlsx"), options: options).loaded, 4)
    }
}
