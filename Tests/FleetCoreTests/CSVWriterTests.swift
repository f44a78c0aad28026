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

    func testQuoting() {
        XCTAssertEqual(CSVWriter.text("a,b"), "\"a,b\"")
        XCTAssertEqual(CSVWriter.text("say \"hi\""), "\"say \"\"hi\"\"\"")
        XCTAssertEqual(CSVWriter.line(["a", "b"]), "a,b\r\n")
    }
}
