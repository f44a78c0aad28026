import XCTest
import FleetKit
import FleetTestSupport

/// A workbook given to `import` is found from its bytes, whatever its name or `--format`: an
/// XLSX is read as the CSV of its sheet; an ODS or a legacy XLS is refused with the one step that
/// fixes it ("save it as an Excel workbook (.xlsx) or the sheet as CSV"), and nothing of it is loaded.
final class SpreadsheetFileTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/spreadsheet")

    /// expenses.xlsx: one row, 2026-10-03 tolls 12.5 (its sheet XML, inline strings).
    func assertImported(_ name: String, options: ImportOptions = ImportOptions(), file: StaticString = #filePath, line: UInt = #line) throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(Self.fixtures.appendingPathComponent(name), options: options)
        XCTAssertEqual(outcome.status, .imported, outcome.error ?? "", file: file, line: line)
        XCTAssertEqual(outcome.format, "expenses", file: file, line: line)
        XCTAssertEqual(try t.rows("SELECT category, amount_minor FROM expense").map { "\($0[0] as String) \($0[1] as Int64)" }, ["tolls 1250"], file: file, line: line)
        XCTAssertEqual(try t.count("reject"), 0, file: file, line: line)
    }

    func testAnXLSXIsReadAsItsSheetsCSV() throws {
        try assertImported("expenses.xlsx")
    }

    func testAnXLSXNamedCSVIsFoundByItsContent() throws {
        try assertImported("expenses-xlsx-named.csv")
    }

    func testAForcedFormatReadsTheWorkbooksRowsNotItsZipBytes() throws {
        try assertImported("expenses-xlsx-named.csv", options: ImportOptions(format: "expenses"))
    }

    func testALegacyXLSIsToldToBeSavedAsXLSXOrCSV() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(Self.fixtures.appendingPathComponent("legacy.xls"))
        XCTAssertEqual(outcome.status, .failed)
        let error = outcome.error ?? ""
        XCTAssertTrue(error.contains("legacy Excel workbook (XLS)"), error)
        XCTAssertTrue(error.contains("save it as an Excel workbook (.xlsx) or the sheet as CSV UTF-8"), error)
        XCTAssertEqual(try t.count("reject"), 0, "a workbook is not rows to reject")
    }
}
