import XCTest
@testable import FleetOCR

/// Every regular expression of the receipt rules compiles: a pattern that did not was dropped in
/// silence at run time before (`try?`), disabling its rule (a country's tax-number evidence, a
/// total's "incl. VAT").
final class ReceiptPatternCompileTests: XCTestCase {
    func testEveryIDPatternOfEveryCountryCompiles() {
        XCTAssertEqual(ReceiptCountry.idPatternFailures, [])
        for c in ReceiptCountry.all {
            XCTAssertEqual(ReceiptCountry.compiledIDPatterns[c.code]?.count, c.idPatterns.count, c.code)
        }
        XCTAssertGreaterThan(ReceiptCountry.all.map(\.idPatterns.count).reduce(0, +), 10)
    }

    func testTheIncludedTaxPatternCompilesAndIsUsed() throws {
        _ = try ReceiptTotals.includedTax.get()
        XCTAssertEqual(ReceiptTotals.withoutIncludedTax("TOTAL INCL. VAT").trimmingCharacters(in: .whitespaces), "TOTAL")
    }

    /// A pattern that does not compile is kept as a failure naming its country, pattern and
    /// reason, and the country's other patterns still compile: never a trap.
    func testABadPatternIsAFailureWithItsOwnerNotATrap() {
        var bad = ReceiptCountry.all[0]
        bad.idPatterns = [#"\b(unclosed"#, #"\bOK\d{3}\b"#]
        let (compiled, failures) = ReceiptCountry.compile([bad])
        XCTAssertEqual(compiled[bad.code]?.count, 1)
        XCTAssertEqual(failures.map(\.owner), ["ReceiptCountry \(bad.code) idPatterns"])
        XCTAssertEqual(failures.map(\.pattern), [#"\b(unclosed"#])
        XCTAssertTrue(failures[0].description.contains("does not compile"), failures[0].description)
    }
}
