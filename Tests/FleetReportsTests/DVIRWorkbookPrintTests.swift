import XCTest
import FleetKit
@testable import FleetReports
import FleetTestSupport

/// The DVIR register in the workbook prints at a size a person reads: its 26 columns (about 400
/// characters wide) printed one page wide came out at about 2.5 pt; now it prints across pages,
/// left to right, with the header row and the unit and VIN columns repeated on each.
final class DVIRWorkbookPrintTests: XCTestCase {
    func testTheRegisterPrintsAcrossPagesWithItsKeysRepeated() throws {
        let f = try DVIRFixture(drives: DVIRChainTests.drives, dvirs: DVIRChainTests.dvirs)
        let dir = try ReportFixture.temporaryDirectory("dvir-xlsx")
        let url = try XCTUnwrap(try XLSXFormat().write(try f.output(), to: dir).first)
        let parts = try ToolRunner.xlsxParts(url.path)
        let workbook = try XCTUnwrap(parts["xl/workbook.xml"])
        // Sheets: Summary, findings, violations, driver documents, licence class, documents due, register (7), retention.
        XCTAssertTrue(workbook.contains("<definedName name=\"_xlnm.Print_Titles\" localSheetId=\"6\">'DVIR register'!$A:$B,'DVIR register'!$1:$1</definedName>"), workbook)
        let register = try XCTUnwrap(parts["xl/worksheets/sheet7.xml"])
        let setup = try XCTUnwrap(register.range(of: "<pageSetup[^>]*>", options: .regularExpression).map { String(register[$0]) })
        XCTAssertTrue(setup.contains("pageOrder=\"overThenDown\""), setup)
        let wide = try XCTUnwrap(setup.range(of: "fitToWidth=\"[0-9]+\"", options: .regularExpression).map { Int(register[$0].filter(\.isNumber))! })
        XCTAssertGreaterThanOrEqual(wide, 2, setup)
        // A narrow sheet still prints one page wide.
        let violations = try XCTUnwrap(parts["xl/worksheets/sheet3.xml"])
        XCTAssertFalse(violations.contains("fitToWidth"), violations)
    }
}
