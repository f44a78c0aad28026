import XCTest
@testable import FleetCore

final class VINTests: XCTestCase {
    func testNormaliseTrimsUppercasesAndDropsSeparators() {
        XCTAssertEqual(VIN.normalise(" 1ftfw1e5-0pfa 00001 "), "1FTFW1E50PFA00001")
    }

    func testProblems() {
        XCTAssertNil(VIN.problem("1FTFW1E50PFA00001"))
        XCTAssertEqual(VIN.problem("1FTFW1E5IPFA00002"), .forbiddenLetter("I"))
        XCTAssertEqual(VIN.problem("1FTFW1E5OPFA00002"), .forbiddenLetter("O"))
        XCTAssertEqual(VIN.problem("1FTFW1E5QPFA00002"), .forbiddenLetter("Q"))
        XCTAssertEqual(VIN.problem("1FTFW1E50PFA0001"), .length(16))
        XCTAssertEqual(VIN.problem("1FTFW1E50PFA0000*"), .invalidCharacter("*"))
    }

    func testCheckDigit() {
        // Published examples with valid North American check digits.
        XCTAssertTrue(VIN.hasValidCheckDigit("1M8GDM9AXKP042788"))
        XCTAssertTrue(VIN.hasValidCheckDigit("11111111111111111"))
        XCTAssertFalse(VIN.hasValidCheckDigit("1M8GDM9A1KP042788"))
        XCTAssertFalse(VIN.hasValidCheckDigit("1DW260EXJEF00107"))  // 16 characters
    }
}
