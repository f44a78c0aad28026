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

    /// Issue 35 item 4. Fall-back morning, America/Chicago: 02:10 and 04:10 are CST, one instant
    /// each (they came out an hour early, as 01:10 and 03:10 CST); 01:30 is repeated, the first
    /// (CDT) wins. Spring-forward: 02:30 does not exist; 03:30 does. Expected: python3 zoneinfo,
    /// datetime(2026,11,1,2,10,tzinfo=ZoneInfo("America/Chicago")).timestamp() = 1793520600 etc.
    func testWallTimesAroundDSTChangesAndTheSkippedHour() {
        let chicago = TimeZone(identifier: "America/Chicago")!
        func local(_ text: String) -> Int64 { Timestamp.parse(text + "Z")! }
        XCTAssertEqual(Timestamp.utc(fromLocal: local("2026-11-01T02:10:00"), in: chicago), 1_793_520_600_000)
        XCTAssertEqual(Timestamp.utc(fromLocal: local("2026-11-01T04:10:00"), in: chicago), 1_793_527_800_000)
        XCTAssertEqual(Timestamp.utc(fromLocal: local("2026-11-01T01:30:00"), in: chicago), 1_793_514_600_000)
        XCTAssertEqual(Timestamp.utc(fromLocal: local("2026-03-08T03:30:00"), in: chicago), 1_772_958_600_000)
        XCTAssertFalse(Timestamp.exists(local: local("2026-03-08T02:30:00"), in: chicago))
        for t in ["2026-03-08T01:59:59", "2026-03-08T03:00:00", "2026-11-01T01:30:00", "2026-11-01T02:10:00"] {
            XCTAssertTrue(Timestamp.exists(local: local(t), in: chicago), t)
        }
    }

}
