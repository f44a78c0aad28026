import XCTest
@testable import FleetCore

final class CSVWriterTests: XCTestCase {
    func testFormulaInjectionIsNeutralised() {
        XCTAssertEqual(CSVWriter.text("=HYPERLINK(\"http://x\")"), "\"'=HYPERLINK(\"\"http://x\"\")\"")
        for lead in ["=", "+", "-", "@", "\t", "\r"] {
            XCTAssertTrue(CSVWriter.text(lead + "1+1").contains("'" + lead), lead)
        }
        XCTAssertEqual(CSVWriter.text("T-12"), "T-12")
        XCTAssertEqual(CSVWriter.number("-12.50"), "-12.50")
    }

    func testCellKeepsNumbersAndGuardsText() {
        XCTAssertEqual(CSVWriter.cell("-66.2"), "-66.2")
        XCTAssertEqual(CSVWriter.cell("12"), "12")
        XCTAssertEqual(CSVWriter.cell("-1-2"), "'-1-2")
        XCTAssertEqual(CSVWriter.cell("-"), "'-")
        XCTAssertEqual(CSVWriter.cell("1."), "1.")   // not a plain number, but harmless text
    }

    func testQuoting() {
        XCTAssertEqual(CSVWriter.text("a,b"), "\"a,b\"")
        XCTAssertEqual(CSVWriter.text("say \"hi\""), "\"say \"\"hi\"\"\"")
        XCTAssertEqual(CSVWriter.line(["a", "b"]), "a,b\r\n")
    }
}
