import XCTest
@testable import FleetReports

final class ValueTextTests: XCTestCase {
    func testPlainNumbersAreShortAndStable() {
        XCTAssertEqual(ValueText.plain(12.5), "12.5")
        XCTAssertEqual(ValueText.plain(12.500000000001), "12.5")
        XCTAssertEqual(ValueText.plain(0.1 + 0.2), "0.3")
        XCTAssertEqual(ValueText.plain(-3), "-3")
        XCTAssertEqual(ValueText.plain(-0.0000001), "0")
        XCTAssertEqual(ValueText.plain(1e20), "100000000000000000000")
        XCTAssertNil(ValueText.plain(.infinity))
    }

    func testMoneyUsesTheCurrencyMinorDigits() {
        XCTAssertEqual(ValueText.money(minor: 123_450, currency: "USD"), "1234.50")
        XCTAssertEqual(ValueText.money(minor: -5, currency: "EUR"), "-0.05")
        XCTAssertEqual(ValueText.money(minor: 1235, currency: "JPY"), "1235")
        XCTAssertEqual(ValueText.money(minor: 1_234_567, currency: "KWD"), "1234.567")
        XCTAssertEqual(ValueText.groupedMoney(minor: -123_456_789, currency: "USD"), "-$1,234,567.89")
        XCTAssertEqual(ValueText.groupedMoney(minor: 100_000, currency: "CHF"), "1,000.00 CHF")
    }

    func testGroupedNumbers() {
        XCTAssertEqual(ValueText.grouped(1234.56, places: 1), "1,234.6")
        XCTAssertEqual(ValueText.grouped(-999_999.96, places: 1), "-1,000,000.0")
        XCTAssertEqual(ValueText.grouped(0.04, places: 1), "0.04")
        XCTAssertEqual(ValueText.grouped(-0.00001, places: 1), "-0.00001")
        XCTAssertEqual(ValueText.grouped(-0.000001, places: 1), "0.0")
        XCTAssertEqual(ValueText.grouped(123, places: 0), "123")
        // Half away from zero, as Excel shows it, not printf's half-to-even on the binary value.
        XCTAssertEqual(ValueText.grouped(12.25, places: 1), "12.3")
        XCTAssertEqual(ValueText.grouped(-12.25, places: 1), "-12.3")
        XCTAssertEqual(ValueText.grouped(1.005, places: 2), "1.01")
        XCTAssertEqual(ValueText.grouped(2.5, places: 0), "3")
    }

    func testZonedTimeAcrossDST() {
        let zone = ZonedTime.zone("America/Chicago")
        XCTAssertEqual(ZonedTime(1_793_484_900_000, in: zone).iso, "2026-10-31T17:15:00-05:00")
        XCTAssertEqual(ZonedTime(1_793_518_200_000, in: zone).iso, "2026-11-01T01:30:00-06:00")
        XCTAssertEqual(ZonedTime(0, in: ZonedTime.zone("UTC")).iso, "1970-01-01T00:00:00+00:00")
        XCTAssertEqual(ZonedTime(-1, in: ZonedTime.zone("UTC")).iso, "1969-12-31T23:59:59.999+00:00")
    }

    func testSheetNames() {
        var names = XLSXSheetName(reserving: ["Summary"])
        XCTAssertEqual(names.make("summary"), "summary (2)")
        XCTAssertEqual(names.make("Cost [by] asset: a/b*c?d\\e"), "Cost _by_ asset - a_b_c_d_e")
        XCTAssertEqual(names.make(String(repeating: "x", count: 40)), String(repeating: "x", count: 31))
        XCTAssertEqual(names.make(String(repeating: "x", count: 40)), String(repeating: "x", count: 27) + " (2)")
        XCTAssertEqual(names.make("'quoted'"), "quoted")
        XCTAssertEqual(names.make("History"), "Sheet")
    }

    /// Long titles are cut at a word, without a dangling joining word or an unclosed parenthesis.
    func testSheetNamesAreCutAtWordBoundaries() {
        var names = XLSXSheetName()
        XCTAssertEqual(names.make("Driven with an uncertified safety defect"), "Driven with an uncertified")
        XCTAssertEqual(names.make("Three-month retention (49 CFR 396.11(a)(4))"), "Three-month retention")
        XCTAssertEqual(names.make("PM compliance: services done in the period"), "PM compliance - services done")
        XCTAssertEqual(names.make("Service status by asset and schedule"), "Service status by asset")
        XCTAssertEqual(names.make("Service status by asset and schedule type"), "Service status by asset (2)")
        // Exactly 31 with a space after: the cut already ends a word.
        XCTAssertEqual(names.make("Fuel purchases by card and unit x"), "Fuel purchases by card and unit")
        for name in ["Driven with an uncertified", "Three-month retention"] { XCTAssertLessThanOrEqual(name.count, 31) }
    }

    func testFileNamesCannotLeaveTheOutputFolder() {
        XCTAssertEqual(ReportFileName.safe("../etc/passwd"), "_etc_passwd")
        XCTAssertEqual(ReportFileName.safe("2026-10-01_2026-10-31"), "2026-10-01_2026-10-31")
    }
}
