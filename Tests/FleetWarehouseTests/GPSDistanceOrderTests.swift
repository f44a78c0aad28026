import XCTest
import GRDB
import FleetCore
import FleetTestSupport
import FleetKit
@testable import FleetWarehouse

/// The daily GPS distance is a function of the final set of positions: the same fixes give the
/// same `asset_day` rows whether they arrive in one file, one file per day, or cut at arbitrary
/// instants and imported backwards or shuffled (docs/METRICS.md, daily rollup, `distance_m`).
final class GPSDistanceOrderTests: XCTestCase {
    let chicago = FleetZone(identifier: "America/Chicago")!

    struct Fix { var unit: String; var at: Int64; var lat: Double; var lon: Double }

    /// Metres of latitude per degree on the 6,371,008.8 m mean radius.
    static let metresPerDegree = 6_371_008.8 * Double.pi / 180

    /// A fixed pseudo-random sequence in -1...1, so every load sees the very same fixes.
    struct Noise {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) * 2 - 1
        }
    }

    private func local(_ day: String, _ h: Int, _ m: Int, _ s: Int = 0) -> Int64 {
        chicago.start(of: CivilDate(day)!) + Int64(h * 3600 + m * 60 + s) * 1000
    }

    /// V-1, a GPS-only vehicle logging every 10 s while on: parked wobble, a 3 km drive on Oct 5,
    /// a drive from 23:50 to 00:10 across local midnight into Oct 7, and 4.5 km back on Oct 8.
    /// M-1, a machine seen twice a day (06:30 and 16:30, as ISO 15143-3 snapshots report it)
    /// somewhere on its site, moved 8.9 km to another site overnight into Oct 8.
    func fixes() -> [Fix] {
        var noise = Noise(state: 7)
        var out: [Fix] = []
        let (lat0, lon0) = (41.5, -88.1)
        let step = 150 / Self.metresPerDegree           // 150 m north per 10 s: 15 m/s
        var lat = lat0
        func parked(_ from: Int64, minutes: Int) {
            for k in 0..<(minutes * 6) {
                out.append(Fix(unit: "V-1", at: from + Int64(k) * 10_000, lat: lat + noise.next() * 0.00003, lon: lon0 + noise.next() * 0.00004))
            }
        }
        func drive(_ from: Int64, steps: Int, north: Bool) {
            for k in 1...steps {
                lat += north ? step : -step
                out.append(Fix(unit: "V-1", at: from + Int64(k) * 10_000, lat: lat, lon: lon0))
            }
        }
        parked(local("2026-10-05", 8, 0), minutes: 10)
        drive(local("2026-10-05", 8, 10), steps: 20, north: true)
        parked(local("2026-10-05", 8, 13, 30), minutes: 10)
        parked(local("2026-10-06", 23, 40), minutes: 10)
        drive(local("2026-10-06", 23, 50), steps: 120, north: true)
        parked(local("2026-10-07", 0, 10, 30), minutes: 10)
        drive(local("2026-10-08", 12, 0), steps: 30, north: false)
        parked(local("2026-10-08", 12, 5, 30), minutes: 5)

        var site = (41.6, -88.2)
        for d in 3...10 {
            let day = String(format: "2026-10-%02d", d)
            if d == 8 { site.0 += 0.08 }
            for (h, m) in [(6, 30), (16, 30)] {
                // A parked machine's fixes hours apart scatter over a few hundred metres.
                out.append(Fix(unit: "M-1", at: local(day, h, m), lat: site.0 + noise.next() * 0.002, lon: site.1 + noise.next() * 0.002))
            }
        }
        return out.sorted { ($0.at, $0.unit) < ($1.at, $1.unit) }
    }

    /// Loads `fixes` as one file, then derives, as ImportSession does.
    private func file(_ t: TestWarehouse, _ fixes: [Fix]) throws {
        try t.warehouse.pool.write { db in
            let f = try SourceFile.insertedForTest(db)
            var sink = WarehouseSink(db: db, sourceFileID: f.id!)
            for p in fixes {
                let a = try sink.asset(AssetRef(unitNumber: p.unit))
                try sink.load(Position(assetID: a, at: p.at, lat: p.lat, lon: p.lon, sourceFileID: sink.sourceFileID))
            }
            try Derivations.refresh(db, touched: sink.touched, settings: DeriveSettings(zone: chicago))
        }
    }

    /// Every `asset_day` column, one line per row.
    private func rollup(_ files: [[Fix]]) throws -> [String] {
        let t = try TestWarehouse()
        for f in files { try file(t, f) }
        return try t.rows("""
            SELECT a.unit_number, d.day, d.distance_m, d.distance_method, d.engine_s, d.idle_s, d.fuel_ml, d.first_at, d.last_at, d.trips
            FROM asset_day d JOIN asset a ON a.id = d.asset_id ORDER BY a.unit_number, d.day
            """).map { $0.databaseValues.map(\.description).joined(separator: " ") }
    }

    /// Cuts the time-sorted fixes at these instants.
    private func cut(_ fixes: [Fix], at instants: [Int64]) -> [[Fix]] {
        let bounds = [Int64.min] + instants.sorted() + [Int64.max]
        return (0..<(bounds.count - 1)).map { i in fixes.filter { $0.at >= bounds[i] && $0.at < bounds[i + 1] } }.filter { !$0.isEmpty }
    }

    func testSameFixesGiveTheSameRollupHoweverSplitAndOrdered() throws {
        let all = fixes()
        let oneBatch = try rollup([all])

        let perDay = Dictionary(grouping: all) { chicago.day(of: $0.at) }.sorted { $0.key < $1.key }.map(\.value)
        XCTAssertEqual(try rollup(perDay), oneBatch, "one file per local day")

        let instants = [local("2026-10-05", 8, 12, 35), local("2026-10-06", 23, 55, 3), local("2026-10-07", 0, 0), local("2026-10-07", 0, 0, 7),
                        local("2026-10-08", 3, 0), local("2026-10-08", 12, 2, 41), local("2026-10-09", 12, 0)]
        let pieces = cut(all, at: instants)
        XCTAssertEqual(try rollup(pieces.reversed()), oneBatch, "cut at arbitrary instants, newest file first")

        // The vehicle in pieces, the machine one snapshot per file, in a fixed shuffled order.
        var files = cut(all.filter { $0.unit == "V-1" }, at: instants) + all.filter { $0.unit == "M-1" }.map { [$0] }
        var noise = Noise(state: 99)
        for i in stride(from: files.count - 1, to: 0, by: -1) {
            files.swapAt(i, Int((noise.next() + 1) / 2 * Double(i + 1)) % (i + 1))
        }
        XCTAssertEqual(try rollup(files), oneBatch, "shuffled, one machine snapshot per file")
    }

    /// The committed sample's Deere machines: the ISO 15143-3 snapshots one file each, and the
    /// month of Operations Center location history in one file, give the same days in either
    /// order, and a machine working its site all month travels nowhere.
    func testISOSnapshotsAndDeereHistoryGiveTheSameDaysInEitherOrder() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("SampleData")
        func files(_ folder: String) throws -> [String] {
            let dir = root.appendingPathComponent(folder)
            return try FileManager.default.subpathsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") || $0.hasSuffix(".xml") }
                .sorted().map { dir.appendingPathComponent($0).path }
        }
        let iso = try files("iso15143/jdlink"), deere = try files("deere")
        XCTAssertEqual(iso.count, 62)
        var results: [[String]] = []
        for order in [iso + deere, deere + iso.reversed()] {
            let t = try TestWarehouse()
            let summary = try t.importFiles(order, options: ImportOptions(zone: chicago))
            XCTAssertEqual(summary.totals.rejected, 0)
            results.append(try t.rows("""
                SELECT a.pin, d.day, d.distance_m, d.distance_method, d.engine_s, d.idle_s, d.fuel_ml, d.first_at, d.last_at, d.trips
                FROM asset_day d JOIN asset a ON a.id = d.asset_id ORDER BY a.pin, d.day
                """).map { $0.databaseValues.map(\.description).joined(separator: " ") })
        }
        XCTAssertEqual(results[0], results[1])
        XCTAssertEqual(results[0].count { $0.contains("\"gps\"") }, 0)
        XCTAssertGreaterThan(results[0].count, 4 * 20)
    }

    /// What the rule gives: each day's path is anchored at the last fix before the day, so the
    /// drive across midnight is split at its fix times; fixes hours apart count only a real move.
    func testEachDayCountsItsOwnPathAndOnlyRealMovesBetweenSparseFixes() throws {
        let all = fixes()
        let t = try TestWarehouse()
        try file(t, all)
        let rows = try t.rows("""
            SELECT a.unit_number, d.day, d.distance_m, d.distance_method FROM asset_day d JOIN asset a ON a.id = d.asset_id
            ORDER BY a.unit_number, d.day
            """)
        func gps(_ unit: String, _ day: String) -> Double? {
            rows.first { $0[0] as String == unit && $0[1] as String == day }.flatMap { $0[3] as String? == "gps" ? $0[2] as Double? : nil }
        }
        // 20 steps of 150 m, the first from the parked anchor a few metres off the road.
        XCTAssertEqual(try XCTUnwrap(gps("V-1", "2026-10-05")), 3000, accuracy: 8)
        // 23:50:10 … 23:59:50 end 59 steps on Oct 6; 00:00:00 … 00:10:00 end 61 on Oct 7.
        XCTAssertEqual(try XCTUnwrap(gps("V-1", "2026-10-06")), 59 * 150, accuracy: 8)
        XCTAssertEqual(try XCTUnwrap(gps("V-1", "2026-10-07")), 61 * 150, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(gps("V-1", "2026-10-08")), 30 * 150, accuracy: 8)

        // The machine's scatter on its site is no distance; the overnight move is, on the day it ends.
        let machine = all.filter { $0.unit == "M-1" }
        let before = try XCTUnwrap(machine.last { $0.at < local("2026-10-08", 0, 0) })
        let after = try XCTUnwrap(machine.first { $0.at >= local("2026-10-08", 0, 0) })
        let moved = Geo.haversine(before.lat, before.lon, after.lat, after.lon)
        XCTAssertGreaterThan(moved, 8000)
        XCTAssertEqual(try XCTUnwrap(gps("M-1", "2026-10-08")), moved, accuracy: 0.001)
        for d in [3, 4, 5, 6, 7, 9, 10] {
            XCTAssertNil(gps("M-1", String(format: "2026-10-%02d", d)), "M-1 on Oct \(d)")
        }
    }
}
