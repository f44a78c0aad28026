import XCTest
import GRDB
import FleetCore
import FleetTestSupport
@testable import FleetWarehouse

/// The shortcuts of derivation's position pass: the threshold test without trigonometry, the
/// cosine computed once per fix, and the daily rollup taking trip detection's day GPS figures
/// (DayPaths) instead of reading the positions again. Each must give exactly what the plain
/// computation gives.
final class DeriveSharedPassTests: XCTestCase {
    let chicago = FleetZone(identifier: "America/Chicago")!

    typealias LCG = DriveFixtures.LCG

    func testHaversineWithCosinesIsBitIdentical() {
        var rng = LCG(state: 3)
        for _ in 0..<20_000 {
            let lat1 = rng.next() * 178 - 89, lon1 = rng.next() * 360 - 180
            let lat2 = lat1 + (rng.next() - 0.5) * 0.1, lon2 = lon1 + (rng.next() - 0.5) * 0.1
            let plain = Geo.haversine(lat1, lon1, lat2, lon2)
            let cached = Geo.haversine(lat1, lon1, Geo.cosLat(lat1), lat2, lon2, Geo.cosLat(lat2))
            XCTAssertEqual(plain.bitPattern, cached.bitPattern, "\(lat1),\(lon1) → \(lat2),\(lon2)")
        }
    }

    /// Pairs spread around each radius (most within ±1 %, some within a millimetre, some
    /// exactly at a computed distance), at every latitude up to the poles: `exceeds` answers as
    /// the full formula does, and fills in the second cosine whenever it had to compute it.
    func testExceedsAnswersExactlyAsTheFullFormula() {
        var rng = LCG(state: 11)
        var decidedFast = 0
        for radius in [15.0, 200, 1000, 5000] {
            let r = Geo.Radius(radius)
            for i in 0..<40_000 {
                let lat1 = rng.next() * 179.8 - 89.9, lon1 = rng.next() * 360 - 180
                let bearing = rng.next() * 2 * .pi
                let scale = i % 4 == 0 ? 1 + (rng.next() - 0.5) * 2e-7 : i % 4 == 1 ? rng.next() * 3 : 1 + (rng.next() - 0.5) * 0.02
                let metres = radius * scale
                let lat2 = lat1 + metres * cos(bearing) / 111_195
                let lon2 = lon1 + metres * sin(bearing) / (111_195 * max(cos(lat1 * .pi / 180), 1e-6))
                let cos1 = Geo.cosLat(lat1)
                let expected = Geo.haversine(lat1, lon1, lat2, lon2) > radius
                var cos2 = Double.nan
                XCTAssertEqual(Geo.exceeds(r, lat1, lon1, cos1, lat2, lon2, &cos2), expected, "\(radius) m: \(lat1),\(lon1) → \(lat2),\(lon2)")
                if cos2.isNaN { decidedFast += 1 } else { XCTAssertEqual(cos2.bitPattern, Geo.cosLat(lat2).bitPattern) }
                // A radius equal to the computed distance itself: never "exceeds".
                let d = Geo.haversine(lat1, lon1, lat2, lon2)
                var c = Double.nan
                XCTAssertFalse(Geo.exceeds(Geo.Radius(d), lat1, lon1, cos1, lat2, lon2, &c), "\(d) m: \(lat1),\(lon1) → \(lat2),\(lon2)")
                c = .nan
                XCTAssertTrue(d.nextDown <= 0 || Geo.exceeds(Geo.Radius(d.nextDown), lat1, lon1, cos1, lat2, lon2, &c))
            }
        }
        // Most pairs are far enough from the radius to be decided by the bounds alone.
        XCTAssertGreaterThan(decidedFast, 60_000)
        var c = Double.nan
        // Bad input goes to the full formula, whatever it makes of it.
        XCTAssertEqual(Geo.exceeds(Geo.Radius(15), .nan, 0, 1, 0, 0, &c), Geo.haversine(.nan, 0, 0, 0) > 15)
        c = .nan
        XCTAssertTrue(Geo.exceeds(Geo.Radius(-1), 10, 10, Geo.cosLat(10), 10, 10, &c), "any distance exceeds a negative radius")
    }

    func fixes() -> [(at: Int64, lat: Double, lon: Double)] { DriveFixtures.sixDays(chicago) }

    /// Loads one piece as a file would, then derives either sharing the pass (what
    /// `Derivations.refresh` does) or with each step reading the positions itself.
    private func load(_ t: TestWarehouse, _ piece: [(at: Int64, lat: Double, lon: Double)], shared: Bool) throws -> DayPaths? {
        try t.warehouse.pool.write { db in
            let f = try SourceFile.insertedForTest(db)
            var sink = WarehouseSink(db: db, sourceFileID: f.id!)
            let a = try sink.asset(AssetRef(unitNumber: "V-1"))
            for p in piece { try sink.load(Position(assetID: a, at: p.at, lat: p.lat, lon: p.lon, sourceFileID: f.id!)) }
            var touched = sink.touched
            let settings = DeriveSettings(zone: chicago)
            guard shared else {
                try TripDetection().refresh(db, touched: &touched, settings: settings)
                try DailyRollup().refresh(db, touched: &touched, settings: settings)
                return nil
            }
            let scratch = DeriveScratch()
            try TripDetection().refresh(db, touched: &touched, settings: settings, scratch: scratch)
            let paths = scratch.dayPaths[a]
            try DailyRollup().refresh(db, touched: &touched, settings: settings, scratch: scratch)
            XCTAssertNil(scratch.dayPaths[a], "the rollup takes the figures")
            return paths
        }
    }

    private func derived(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT * FROM trip ORDER BY start_at").map { $0.databaseValues.map(\.description).joined(separator: " ") }
            + t.rows("SELECT * FROM asset_day ORDER BY day").map { $0.databaseValues.map(\.description).joined(separator: " ") }
    }

    /// In one file, in pieces in order, backwards, and with a middle piece last (trip detection
    /// then stops where its new trips meet the stored ones, so the rollup reads the rest): after
    /// every file, trips and days are the same with and without the shared pass.
    func testSharedPassGivesTheSameTablesInEveryLoadOrder() throws {
        let all = fixes()
        let cuts = [2, 3, 5].map { (d: Int) -> Int64 in chicago.start(of: CivilDate(year: 2026, month: 10, day: d)!) + 12 * 3_600_000 }
        let bounds = [Int64.min] + cuts + [Int64.max]
        let pieces = (0..<4).map { i in all.filter { $0.at >= bounds[i] && $0.at < bounds[i + 1] } }
        var covers: [DayPaths] = []
        for order in [[], [0, 1, 2, 3], [3, 2, 1, 0], [0, 2, 3, 1]] {
            let (plain, fast) = (try TestWarehouse(), try TestWarehouse())
            for piece in order.isEmpty ? [all] : order.map({ pieces[$0] }) {
                _ = try load(plain, piece, shared: false)
                if let cover = try load(fast, piece, shared: true) { covers.append(cover) }
                XCTAssertEqual(try derived(fast), try derived(plain), "order \(order)")
            }
            XCTAssertGreaterThan(try derived(plain).count, 10)
        }
        // Both ways the cover can be partial were met: starting after a stored trip's end, and
        // stopping where the new trips met the stored ones.
        XCTAssertTrue(covers.contains { $0.coverStart == Int64.min && $0.coverEnd == Int64.max })
        XCTAssertTrue(covers.contains { $0.coverStart > Int64.min })
        XCTAssertTrue(covers.contains { $0.coverEnd < Int64.max })
    }

    /// Across the end of daylight saving time (Nov 1, 2026 in Chicago: a 25-hour day), in one
    /// file and in two cut in the long day, the days are the same with and without the pass.
    func testSharedPassAcrossADaylightSavingChange() throws {
        var rng = LCG(state: 17)
        let start = chicago.start(of: CivilDate(year: 2026, month: 10, day: 31)!)
        var (lat, lon) = (41.5, -88.1)
        var all: [(at: Int64, lat: Double, lon: Double)] = []
        for k in 0..<(3 * 24 * 12) {
            // Five minutes apart: an hour's drive east every six hours, wobble in between.
            let at = start + Int64(k) * 300_000
            if k % 72 < 12 { lon += 7000 / (111_195 * cos(lat * .pi / 180)) }
            all.append((at, lat + (rng.next() - 0.5) * 0.00004, lon))
        }
        let cut = chicago.start(of: CivilDate(year: 2026, month: 11, day: 1)!) + 24 * 3_600_000
        for files in [[all], [all.filter { $0.at >= cut }, all.filter { $0.at < cut }]] {
            let (plain, fast) = (try TestWarehouse(), try TestWarehouse())
            for piece in files {
                _ = try load(plain, piece, shared: false)
                _ = try load(fast, piece, shared: true)
                XCTAssertEqual(try derived(fast), try derived(plain))
            }
            let days = try fast.rows("SELECT day, distance_method FROM asset_day ORDER BY day").map { "\($0[0] as String) \($0[1] as String? ?? "-")" }
            XCTAssertEqual(days, ["2026-10-31 gps", "2026-11-01 gps", "2026-11-02 gps"])
        }
    }

    /// The one-file load: the whole history is covered, and the figures are the rollup's own.
    func testOneFileIsCoveredWhole() throws {
        let t = try TestWarehouse()
        let cover = try XCTUnwrap(try load(t, fixes(), shared: true))
        XCTAssertEqual(cover.zone, "America/Chicago")
        XCTAssertEqual(cover.days.map { chicago.day(of: $0.start).description },
                       ["2026-10-01", "2026-10-02", "2026-10-03", "2026-10-04", "2026-10-05", "2026-10-06"])
        // Oct 6: twenty minutes parked — positions, but no path.
        XCTAssertEqual(cover.days.last?.counted, false)
        let days = try t.rows("SELECT day, distance_m, distance_method, first_at, last_at FROM asset_day ORDER BY day")
        XCTAssertEqual(days.count, 6)
        for (row, day) in zip(days, cover.days) {
            XCTAssertEqual(row[3] as Int64, day.first)
            XCTAssertEqual(row[4] as Int64, day.last)
            if day.counted { XCTAssertEqual(row[1] as Double, DayGrid.round(day.metres)) }
        }
    }

    /// The tracker offers only whole days: from the day after `after`, up to the day the pass
    /// stopped in (or to the end of that day when it stopped at the next day's first fix).
    func testTrackerOffersWholeDaysOnly() {
        let zone = FleetZone.utc
        let day = { (d: Int) in zone.start(of: CivilDate(year: 2026, month: 10, day: d)!) }
        let after = day(2) + 3_600_000
        var t = DayPathTracker(zone: zone, after: after, before: (after, 41.5, -88.1))
        for k in 1...60 {
            var c = Double.nan
            t.add(at: after + Int64(k) * 3_600_000, lat: 41.5 + Double(k) * 0.001, lon: -88.1, cos: &c, probe: .none)
        }
        // The last fix was Oct 4 13:00; stopping before a fix later that day drops Oct 4.
        var stopped = t
        let cut = stopped.finish(stoppedAt: day(4) + 20 * 3_600_000)
        XCTAssertEqual(cut?.coverStart, day(3))
        XCTAssertEqual(cut?.coverEnd, day(4))
        XCTAssertEqual(cut?.days.map(\.start), [day(3)])
        XCTAssertEqual(cut?.days.first?.first, day(3))
        XCTAssertEqual(cut?.days.first?.last, day(3) + 23 * 3_600_000)
        // 24 legs of 111 m, the first from the Oct 2 fix at 23:00.
        XCTAssertEqual(cut?.days.first?.metres ?? 0, 24 * 0.001 * Geo.earthRadius * .pi / 180, accuracy: 0.01)
        var atNextDay = t
        XCTAssertEqual(atNextDay.finish(stoppedAt: day(5))?.coverEnd, day(5))
        let whole = t.finish(stoppedAt: nil)
        XCTAssertEqual(whole?.coverEnd, Int64.max)
        XCTAssertEqual(whole?.days.map(\.start), [day(3), day(4)])
    }
}
