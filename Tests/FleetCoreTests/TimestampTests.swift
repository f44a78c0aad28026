import XCTest
@testable import FleetCore

final class TimestampTests: XCTestCase {
    let chicago = TimeZone(identifier: "America/Chicago")!

    func testISOVariants() {
        XCTAssertEqual(Timestamp.parse("2026-10-01T12:00:00Z"), 1_790_856_000_000)
        XCTAssertEqual(Timestamp.parse("2026-10-01T12:00:00.5Z"), 1_790_856_000_500)
        XCTAssertEqual(Timestamp.parse("2026-10-01T12:00:00.123456Z"), 1_790_856_000_123)
        XCTAssertEqual(Timestamp.parse("2026-10-01T14:00:00+02:00"), 1_790_856_000_000)
        XCTAssertEqual(Timestamp.parse("2026-10-01T07:00:00-0500"), 1_790_856_000_000)
        XCTAssertEqual(Timestamp.parse("2026-10-01 12:00:00Z"), 1_790_856_000_000)
        XCTAssertEqual(Timestamp.parse("2026-10-01T12:00Z"), 1_790_856_000_000)
    }

    func testZoneLessNeedsAZone() {
        XCTAssertNil(Timestamp.parse("2026-10-01T07:00:00"))
        XCTAssertEqual(Timestamp.parse("2026-10-01T07:00:00", zone: chicago), 1_790_856_000_000)  // CDT, UTC-5
        XCTAssertEqual(Timestamp.parse("2026-12-01T06:00:00", zone: chicago), Timestamp.parse("2026-12-01T12:00:00Z"))  // CST
        XCTAssertEqual(Timestamp.parse("2026-10-01", zone: chicago), Timestamp.parse("2026-10-01T05:00:00Z"))
    }

    func testGarbage() {
        for bad in ["", "yesterday", "2026-13-01T00:00:00Z", "2026-02-30", "2026-10-01T25:00:00Z", "2026-10-01T12:00:00+2", "2026-10-01T12:00:00Zjunk"] {
            XCTAssertNil(Timestamp.parse(bad, zone: chicago), bad)
        }
    }

    func testPlausibleRangeExcludesPlaceholders() {
        XCTAssertFalse(Timestamp.plausible.contains(Timestamp.parse("0001-01-01T00:00:00Z") ?? 0))
        XCTAssertFalse(Timestamp.plausible.contains(Timestamp.parse("9999-12-31T00:00:00Z")!))
    }

    func testISOFormatting() {
        XCTAssertEqual(Timestamp.iso(1_790_856_000_000), "2026-10-01T12:00:00Z")
        XCTAssertEqual(Timestamp.iso(1_790_856_000_250), "2026-10-01T12:00:00.250Z")
        XCTAssertEqual(Timestamp.iso(-1000), "1969-12-31T23:59:59Z")
    }

    func testLocalDaysAcrossDST() {
        let zone = FleetZone(chicago)
        // 2026-11-01 is the fall-back day in the US: 25 hours long.
        let day = CivilDate(year: 2026, month: 11, day: 1)!
        XCTAssertEqual(zone.start(of: day.adding(days: 1)) - zone.start(of: day), 25 * 3_600_000)
        // 2026-03-08 springs forward: 23 hours.
        let spring = CivilDate(year: 2026, month: 3, day: 8)!
        XCTAssertEqual(zone.start(of: spring.adding(days: 1)) - zone.start(of: spring), 23 * 3_600_000)
        // 03:30 UTC on Oct 2 is still Oct 1 in Chicago.
        XCTAssertEqual(zone.day(of: Timestamp.parse("2026-10-02T03:30:00Z")!).description, "2026-10-01")
    }

    func testCivilDate() {
        XCTAssertEqual(CivilDate(daysSinceEpoch: 0).description, "1970-01-01")
        XCTAssertEqual(CivilDate("2024-02-29")?.adding(days: 1).description, "2024-03-01")
        XCTAssertNil(CivilDate("2023-02-29"))
        XCTAssertEqual(CivilDate("2026-01-31")?.adding(months: 1).description, "2026-02-28")
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            XCTAssertEqual(CivilDate(daysSinceEpoch: days).daysSinceEpoch, days)
        }
    }
}
