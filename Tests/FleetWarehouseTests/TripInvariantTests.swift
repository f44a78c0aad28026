import XCTest
import GRDB
import FleetCore
import FleetTestSupport
@testable import FleetWarehouse

/// Trips that cannot contradict themselves (docs/METRICS.md, "Trip invariants"): the average
/// speed is at most the maximum, moving plus idle at most the duration, the distance at least
/// the straight line between the ends, nothing negative; a jump is judged from the previous
/// fix, and a leg across more than a day adds no distance. One fixture per failure mode.
final class TripInvariantTests: XCTestCase {
    typealias Fix = (at: Int64, lat: Double, lon: Double, speed: Double?)
    let t0 = Timestamp.parse("2026-10-01T08:00:00Z")!

    /// `seconds` at `speed` m/s due north from `p`, a fix every `every` seconds reporting `reported`.
    func north(from p: Fix, speed: Double, seconds: Int, every: Int = 1, reported: Double?) -> [Fix] {
        stride(from: every, through: seconds, by: every).map { s in
            (p.at + Int64(s) * 1000, p.lat + speed * Double(s) / 111_195, p.lon, reported)
        }
    }

    func still(at p: Fix, seconds: Int, every: Int = 10) -> [Fix] {
        stride(from: every, through: seconds, by: every).map { s in (p.at + Int64(s) * 1000, p.lat, p.lon, 0) }
    }

    func load(_ t: TestWarehouse, _ fixes: [Fix], engine: [(Int64, String)] = []) throws {
        try t.warehouse.pool.write { db in
            let f = try SourceFile.insertedForTest(db)
            var sink = WarehouseSink(db: db, sourceFileID: f.id!)
            let a = try sink.asset(AssetRef(unitNumber: "T-1"))
            for x in fixes { try sink.load(Position(assetID: a, at: x.at, lat: x.lat, lon: x.lon, speedMps: x.speed, sourceFileID: f.id!)) }
            for (at, state) in engine { try sink.load(EngineEvent(assetID: a, at: at, state: state, sourceFileID: f.id!)) }
            try Derivations.refresh(db, touched: sink.touched, settings: DeriveSettings())
        }
    }

    /// Every stored GPS trip meets the invariants; returns their `repair` values.
    @discardableResult
    func assertInvariants(_ t: TestWarehouse, file: StaticString = #filePath, line: UInt = #line) throws -> [String?] {
        let rows = try t.rows("""
            SELECT distance_m, duration_s, moving_s, idle_s, max_speed_mps, start_lat, start_lon, end_lat, end_lon, repair
            FROM trip WHERE source = 'gps' ORDER BY start_at
            """)
        XCTAssertFalse(rows.isEmpty, "no trip", file: file, line: line)
        for r in rows {
            let (distance, duration, moving, idle, top) = (r[0] as Double, r[1] as Double, r[2] as Double, r[3] as Double, r[4] as Double)
            let line0 = Geo.haversine(r[5], r[6], r[7], r[8])
            XCTAssertTrue([distance, duration, moving, idle, top].allSatisfy { $0 >= 0 }, "negative: \(r)", file: file, line: line)
            XCTAssertGreaterThanOrEqual(distance, line0, "shorter than the straight line: \(r)", file: file, line: line)
            XCTAssertLessThanOrEqual(moving + idle, duration, "moving + idle over the duration: \(r)", file: file, line: line)
            if moving > 0 { XCTAssertLessThanOrEqual(distance / moving, top, "average above the maximum: \(r)", file: file, line: line) }
        }
        return rows.map { $0[9] as String? }
    }

    func testTheCheckRepairsEachContradictionAndNamesIt() {
        var clean = TripCheck(distance: 1200, duration: 120, moving: 100, idle: 20, maxSpeed: 15)
        clean.enforce(straightLine: 1000)
        XCTAssertEqual([clean.distance, clean.moving, clean.idle, clean.maxSpeed], [1200, 100, 20, 15])
        XCTAssertEqual(clean.repairs, [])

        var negative = TripCheck(distance: -5, duration: 60, moving: -1, idle: .nan, maxSpeed: 3)
        negative.enforce(straightLine: 0)
        XCTAssertEqual(negative.repairs, ["negative"])
        XCTAssertEqual([negative.distance, negative.moving, negative.idle], [0, 0, 0])

        var short = TripCheck(distance: 0, duration: 1200, moving: 1200, idle: 0, maxSpeed: 25)
        short.enforce(straightLine: 14_316.58227)
        XCTAssertEqual(short.repairs, ["distance_below_straight_line"])
        XCTAssertEqual(short.distance, 14_316.583)

        var jitter = TripCheck(distance: 1250, duration: 300, moving: 220, idle: 79, maxSpeed: 10)
        jitter.enforce(straightLine: 1260)
        XCTAssertEqual(jitter.repairs, [], "10 m short is the jitter radius, repaired without a name")
        XCTAssertEqual(jitter.distance, 1260)

        var long = TripCheck(distance: 6000, duration: 600, moving: 500, idle: 130, maxSpeed: 20)
        long.enforce(straightLine: 100)
        XCTAssertEqual(long.repairs, ["moving_idle_over_duration"])
        XCTAssertEqual([long.moving, long.idle], [500, 100])

        var slow = TripCheck(distance: 9000, duration: 700, moving: 600, idle: 0, maxSpeed: 8)
        slow.enforce(straightLine: 100)
        XCTAssertEqual(slow.repairs, ["average_above_max_speed"])
        XCTAssertEqual(slow.maxSpeed, 15)
    }

    /// Reported speeds that lag the fixes (a phone's stale `<speed>`, as in a Google Takeout
    /// export): 5 m/s reported while the fixes move 15 m/s. The maximum used to be the reported
    /// 5 m/s while the average (distance ÷ moving) was 15; it now includes each move's average.
    func testAverageNeverExceedsTheMaximumWhenReportedSpeedsLag() throws {
        let t = try TestWarehouse()
        let p0: Fix = (t0, 45, 7, 0)
        var fixes = still(at: p0, seconds: 300)
        fixes += north(from: fixes.last!, speed: 15, seconds: 600, every: 5, reported: 5)
        fixes += still(at: fixes.last!, seconds: 600)
        try load(t, fixes)
        let repairs = try assertInvariants(t)
        XCTAssertEqual(repairs, [nil], "met by construction, not by repair")
        let top: Double = try t.rows("SELECT max_speed_mps FROM trip").first?[0] ?? 0
        XCTAssertEqual(top, 15, accuracy: 0.05)
    }

    /// An engine-on instant between two fixes a minute apart: the first interval's time was
    /// counted from the fix before the trip's start (moving + idle 30 s over the duration). The
    /// part before the instant is now left out, so no repair is needed.
    func testMovingPlusIdleNeverExceedsTheDurationAfterAnIgnitionStart() throws {
        let t = try TestWarehouse()
        let p0: Fix = (t0, 45, 7, 0)
        var fixes = still(at: p0, seconds: 600, every: 60)
        fixes += still(at: fixes.last!, seconds: 300, every: 60).map { ($0.at, $0.lat, $0.lon, 0.1) }
        fixes += north(from: fixes.last!, speed: 12, seconds: 600, every: 60, reported: 12)
        try load(t, fixes, engine: [(t0 + 630_000, "on"), (fixes.last!.at + 30_000, "off")])
        let repairs = try assertInvariants(t)
        XCTAssertEqual(repairs, [nil], "met by construction, not by repair")
        let figures = try t.rows("SELECT duration_s, moving_s, idle_s FROM trip").map { [$0[0] as Double, $0[1] as Double, $0[2] as Double] }
        XCTAssertEqual(figures, [[870, 600, 270]], "engine on at 08:10:30: 270 s warming up, then 600 s driving")
    }

    /// Fixes a second apart, each 1.4 km from the last (a bad clock): every move is a jump, so
    /// nothing between them is a distance driven. The trip used to be stored as the 14 km
    /// straight line between its ends, repaired; a jump now ends a trip, so there is none, and
    /// the day's path adds nothing either.
    func testFixesThatOnlyJumpMakeNoTrip() throws {
        let t = try TestWarehouse()
        let p0: Fix = (t0, 45, 7, 0)
        var fixes = still(at: p0, seconds: 300)
        let base = fixes.last!
        fixes += (1...10).map { k in (base.at + Int64(k) * 1000, base.lat + 1_400 * Double(k) / 111_195, base.lon, nil) }
        fixes += still(at: fixes.last!, seconds: 600)
        try load(t, fixes)
        XCTAssertEqual(try t.count("trip"), 0, "a run of jumps is no trip")
        // No leg counted: the day's GPS distance is NULL, as for any day whose fixes never moved.
        let day: Double = try t.rows("SELECT COALESCE(distance_m, 0) FROM asset_day").first?[0] ?? -1
        XCTAssertEqual(day, 0)
    }

    /// A drive at 10 m/s, then a fix 5 km ahead 10 s later (500 m/s: a bad fix or a clock
    /// step), then 10 m/s again from there. Before, one trip: the path skipped the jump but its
    /// ends were 17 km apart, so the distance was raised to that straight line. Now the jump
    /// ends the trip (`jump`) and the drive after it is a second trip: 6,000 m each, the
    /// distance of 60 moves of 100 m, with no repair.
    func testAJumpInsideATripSplitsIt() throws {
        let t = try TestWarehouse()
        // No reported speeds at all (a logger without `<speed>`), before, during and after.
        let p0: Fix = (t0, 45, 7, nil)
        var fixes = [p0] + still(at: p0, seconds: 300).map { x -> Fix in (x.at, x.lat, x.lon, nil) }
        fixes += north(from: fixes.last!, speed: 10, seconds: 600, every: 10, reported: nil)
        let before = fixes.last!
        let after: Fix = (before.at + 10_000, before.lat + 5_000 / 111_195, before.lon, nil)
        fixes.append(after)
        fixes += north(from: after, speed: 10, seconds: 600, every: 10, reported: nil)
        fixes += still(at: fixes.last!, seconds: 600).map { x -> Fix in (x.at, x.lat, x.lon, nil) }
        try load(t, fixes)
        let repairs = try assertInvariants(t)
        XCTAssertEqual(repairs, [nil, nil])
        let trips = try t.rows("SELECT start_at, end_at, distance_m, end_reason FROM trip ORDER BY start_at")
        XCTAssertEqual(trips.map { $0[3] as String }, ["jump", "movement"])
        XCTAssertEqual(trips[0][1] as Int64, before.at, "the first ends at the last fix before the jump")
        XCTAssertEqual(trips[1][0] as Int64, after.at, "the second starts at the fix after it")
        XCTAssertEqual(trips[0][2] as Double, 6000, accuracy: 1)
        XCTAssertEqual(trips[1][2] as Double, 6000, accuracy: 1)
    }

    /// An hour parked, then one bad fix 150 km away ten seconds later, then back. Judged from the
    /// anchor an hour back it looked like 42 m/s and counted; judged from the previous fix it is
    /// 15 km/s, a jump. The day's path adds nothing.
    func testAJumpIsJudgedFromThePreviousFixNotFromAnHourParked() throws {
        let t = try TestWarehouse()
        let p0: Fix = (t0, 45, 7, 0)
        var fixes = still(at: p0, seconds: 3600)
        let last = fixes.last!
        fixes.append((last.at + 10_000, last.lat + 150_000 / 111_195, last.lon, nil))
        fixes += still(at: (last.at + 10_000, last.lat, last.lon, 0), seconds: 600)
        try load(t, fixes)
        // Both jumps end any trip, so there is none, and no leg counts: the day's distance is
        // NULL (no movement), where the trip of the jumps used to make it 0 by the trips method.
        let day: Double = try t.rows("SELECT COALESCE(distance_m, 0) FROM asset_day").first?[0] ?? -1
        XCTAssertEqual(day, 0, "the bad fix and the way back are both jumps")
        XCTAssertEqual(try t.count("trip"), 0)
    }

    /// A file's first fix 1,000 km from the last fix stored, three years earlier: the straight
    /// line across the gap is no distance (a day of 8,839 km came from such a leg).
    func testALegAcrossMoreThanADayAddsNoDistance() throws {
        let t = try TestWarehouse()
        let old: Fix = (Timestamp.parse("2023-06-01T12:00:00Z")!, 40, -100, 0)
        try load(t, [old] + still(at: old, seconds: 60))
        let p0: Fix = (t0, 45, -90, 0)
        try load(t, [p0] + north(from: p0, speed: 10, seconds: 500, every: 10, reported: 10))
        let day: Double = try t.rows("SELECT distance_m FROM asset_day WHERE day = '2026-10-01'").first?[0] ?? -1
        XCTAssertEqual(day, 5000, accuracy: 10)
    }
}
