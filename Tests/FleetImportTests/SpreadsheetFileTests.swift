import XCTest
import FleetKit
import FleetTestSupport

/// A workbook given to `import` is refused with the one step that fixes it ("save the sheet as
/// CSV"), found from its bytes whatever its name or `--format`, and nothing of it is loaded.
final class SpreadsheetFileTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/spreadsheet")

    func assertRefused(_ name: String, options: ImportOptions = ImportOptions(), kind: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(Self.fixtures.appendingPathComponent(name), options: options)
        XCTAssertEqual(outcome.status, .failed, file: file, line: line)
        let error = outcome.error ?? ""
        XCTAssertTrue(error.contains("save the sheet as CSV"), error, file: file, line: line)
        XCTAssertTrue(error.contains(kind), error, file: file, line: line)
        XCTAssertEqual(try t.count("expense"), 0, file: file, line: line)
        XCTAssertEqual(try t.count("reject"), 0, "a workbook is not rows to reject", file: file, line: line)
    }

    func testAnXLSXIsToldToBeSavedAsCSV() throws {
        try assertRefused("expenses.xlsx", kind: "XLSX")
    }

    func testAnXLSXNamedCSVIsFoundByItsContent() throws {
        try assertRefused("expenses-xlsx-named.csv", kind: "XLSX")
    }

    func testAForcedFormatDoesNotReadAWorkbookAsRows() throws {
        try assertRefused("expenses-xlsx-named.csv", options: ImportOptions(format: "expenses"), kind: "XLSX")
    }

    func testALegacyXLSIsToldToBeSavedAsCSV() throws {
        try assertRefused("legacy.xls", kind: "XLS")
    }
}
