import XCTest
import GRDB
import FleetCore
import FleetTestSupport
@testable import FleetWarehouse

final class DailyRollupTests: XCTestCase {
    let chicago = FleetZone(identifier: "America/Chicago")!

    /// Loads facts as one file would, then derives, as ImportSession does.
    private func file(_ t: TestWarehouse, zone: FleetZone, _ body: (inout WarehouseSink) throws -> Void) throws {
        try t.warehouse.pool.write { db in
            let f = try SourceFile.insertedForTest(db)
            var sink = WarehouseSink(db: db, sourceFileID: f.id!)
            try body(&sink)
            try Derivations.refresh(db, touched: sink.touched, settings: DeriveSettings(zone: zone))
        }
    }

    private func ms(_ s: String) -> Int64 { Timestamp.parse(s)! }

    private func days(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT day, distance_m, distance_method, engine_s, fuel_ml FROM asset_day ORDER BY day").map { r in
            "\(r[0] as String) \(r[1] as Double? ?? -1) \(r[2] as String? ?? "-") \(r[3] as Double? ?? -1) \(r[4] as Double? ?? -1)"
        }
    }

    func testDeltasAreSplitAcrossLocalMidnightByTime() throws {
        let t = try TestWarehouse()
        try file(t, zone: chicago) { sink in
            let a = try sink.asset(AssetRef(unitNumber: "T-1"))
            // 22:00 to 02:00 Chicago (CDT, UTC-5): 2 hours on Oct 1, 2 hours on Oct 2.
            for (at, odo, hours) in [("2026-10-02T03:00:00Z", 10_000.0, 100.0), ("2026-10-02T07:00:00Z", 10_400.0, 104.0)] {
                try sink.load(MeterReading(assetID: a, meter: "odometer", at: ms(at), value: odo * 1000, sourceFileID: sink.sourceFileID))
                try sink.load(MeterReading(assetID: a, meter: "engine_hours", at: ms(at), value: hours * 3600, sourceFileID: sink.sourceFileID))
            }
        }
        XCTAssertEqual(try days(t), ["2026-10-01 200000.0 odometer 7200.0 -1.0", "2026-10-02 200000.0 odometer 7200.0 -1.0"])
    }

    func testTheLongDSTDayGetsItsShare() throws {
        let t = try TestWarehouse()
        try file(t, zone: chicago) { sink in
            let a = try sink.asset(AssetRef(unitNumber: "T-1"))
            // Local midnight Nov 1 to local midnight Nov 3: 25 h + 24 h.
            try sink.load(MeterReading(assetID: a, meter: "fuel_used", at: chicago.start(of: CivilDate("2026-11-01")!), value: 0, sourceFileID: sink.sourceFileID))
            try sink.load(MeterReading(assetID: a, meter: "fuel_used", at: chicago.start(of: CivilDate("2026-11-03")!), value: 49_000, sourceFileID: sink.sourceFileID))
        }
        let fuel = try t.rows("SELECT day, fuel_ml FROM asset_day ORDER BY day").map { "\($0[0] as String)=\(($0[1] as Double?).map { String($0) } ?? "unknown")" }
        // Nov 3 has a reading at its first instant and none after: its fuel is unknown, not zero.
        XCTAssertEqual(fuel, ["2026-11-01=25000.0", "2026-11-02=24000.0", "2026-11-03=unknown"])
    }

    func testRollbackAndImpossibleJumpAreExcludedAndRecorded() throws {
        let t = try TestWarehouse()
        try file(t, zone: .utc) { sink in
            let a = try sink.asset(AssetRef(unitNumber: "T-1"))
            let readings: [(String, Double)] = [("2026-10-01T08:00:00Z", 1_000), ("2026-10-01T10:00:00Z", 1_100),
                                                ("2026-10-01T12:00:00Z", 50),      // unit swapped: rollback
                                                ("2026-10-01T14:00:00Z", 130),
                                                ("2026-10-01T14:30:00Z", 9_130),   // 9,000 km in 30 minutes
                                                ("2026-10-01T16:00:00Z", 9_200)]
            for (at, km) in readings {
                try sink.load(MeterReading(assetID: a, meter: "odometer", at: ms(at), value: km * 1000, sourceFileID: sink.sourceFileID))
            }
        }
        XCTAssertEqual(try t.rows("SELECT distance_m FROM asset_day").map { $0[0] as Double }, [(100 + 80 + 70) * 1000])
        let anomalies = try t.rows("SELECT meter, kind, previous_value, value FROM meter_anomaly ORDER BY at")
            .map { "\($0[0] as String) \($0[1] as String) \($0[2] as Double) \($0[3] as Double)" }
        XCTAssertEqual(anomalies, ["odometer rollback 1100000.0 50000.0", "odometer implausible_rate 130000.0 9130000.0"])
    }

    func testParkedJitterAddsNoDistanceAndADriveDoes() throws {
        let t = try TestWarehouse()
        try file(t, zone: .utc) { sink in
            let a = try sink.asset(AssetRef(unitNumber: "T-1"))
            let start = ms("2026-10-01T08:00:00Z")
            var rng = SystemRandomNumberGenerator()
            for i in 0..<600 {   // ten minutes parked, fixes wandering within about 5 m
                try sink.load(Position(assetID: a, at: start + Int64(i) * 1000, lat: 41.5 + Double.random(in: -0.00004...0.00004, using: &rng),
                                       lon: -88.1 + Double.random(in: -0.00004...0.00004, using: &rng), sourceFileID: sink.sourceFileID))
            }
            // Then 1 km due north at 10 m/s.
            for i in 1...100 {
                try sink.load(Position(assetID: a, at: start + 600_000 + Int64(i) * 1000, lat: 41.5 + Double(i) * 10 / 111_195,
                                       lon: -88.1, sourceFileID: sink.sourceFileID))
            }
        }
        let row = try t.rows("SELECT distance_m, distance_method, first_at, last_at FROM asset_day")[0]
        XCTAssertEqual(row[1] as String, "gps")
        XCTAssertEqual(row[0] as Double, 1000, accuracy: 25)
        XCTAssertEqual(row[2] as Int64, ms("2026-10-01T08:00:00Z"))
    }

    func testOrderOfFilesDoesNotMatter() throws {
        var results: [[String]] = []
        let batches: [[(String, Double)]] = [[("2026-10-01T12:00:00Z", 100), ("2026-10-03T12:00:00Z", 400)],
                                             [("2026-10-02T12:00:00Z", 150), ("2026-10-04T12:00:00Z", 600)]]
        for order in [[0, 1], [1, 0]] {
            let t = try TestWarehouse()
            for b in order {
                try file(t, zone: .utc) { sink in
                    let a = try sink.asset(AssetRef(unitNumber: "T-1"))
                    for (at, km) in batches[b] {
                        try sink.load(MeterReading(assetID: a, meter: "odometer", at: ms(at), value: km * 1000, sourceFileID: sink.sourceFileID))
                    }
                }
            }
            results.append(try days(t))
        }
        XCTAssertEqual(results[0], results[1])
        XCTAssertEqual(results[0].count, 4)
    }

    func testAMergeRebuildsTheSurvivorsDays() throws {
        let t = try TestWarehouse()
        let vin = "1FTFW1E50PFA00001"
        try file(t, zone: .utc) { sink in
            let a = try sink.asset(AssetRef(identifiers: [.init(source: "samsara", type: "vehicle_id", value: "9")]))
            try sink.load(MeterReading(assetID: a, meter: "odometer", at: ms("2026-10-01T08:00:00Z"), value: 0, sourceFileID: sink.sourceFileID))
            try sink.load(MeterReading(assetID: a, meter: "odometer", at: ms("2026-10-01T10:00:00Z"), value: 50_000, sourceFileID: sink.sourceFileID))
            let b = try sink.asset(AssetRef(vin: vin))
            try sink.load(MeterReading(assetID: b, meter: "odometer", at: ms("2026-10-01T12:00:00Z"), value: 80_000, sourceFileID: sink.sourceFileID))
        }
        XCTAssertEqual(try t.count("asset_day"), 2)   // two assets, 50 km and 0 km
        try file(t, zone: .utc) { sink in
            _ = try sink.defineAsset(AssetRef(identifiers: [.init(source: "samsara", type: "vehicle_id", value: "9")], vin: vin, unitNumber: "T-1"),
                                     fields: Asset(unitNumber: "T-1", kind: "vehicle", autoCreated: false))
        }
        XCTAssertEqual(try t.rows("SELECT distance_m FROM asset_day").map { $0[0] as Double }, [80_000])
    }

    /// The per-meter seeks list every meter the table allows: a meter added to the CHECK
    /// constraint but not to `DailyRollup.meters` would be left out of the span's widening.
    func testThePerMeterSeeksListEveryMeterTheTableAllows() throws {
        let t = try TestWarehouse()
        let sql = try t.warehouse.pool.read { db in try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'meter_reading'")! }
        // `CHECK (meter = 'odometer' OR meter = 'engine_hours' OR …)` (v14-check-lists).
        let check = try XCTUnwrap(sql.range(of: #"CHECK \(meter = [^)]*\)"#, options: .regularExpression))
        let listed = sql[check].dropFirst("CHECK (".count).dropLast().components(separatedBy: " OR ")
            .map { $0.replacingOccurrences(of: "meter = ", with: "").trimmingCharacters(in: CharacterSet(charactersIn: "' ")) }
        XCTAssertEqual(listed, DailyRollup.meters)
    }

    /// The previous and next readings around a span, as the recursive CTE over the asset's own
    /// meters (the formulation the seeks replace) finds them, on assets with two meters, one
    /// meter and none, at instants before, between, on and after their readings.
    func testThePerMeterSeeksFindWhatTheMeterListingQueryFinds() throws {
        let t = try TestWarehouse()
        var assets: [Int64] = []
        try file(t, zone: .utc) { sink in
            let f = sink.sourceFileID
            let a = try sink.asset(AssetRef(unitNumber: "T-1")), b = try sink.asset(AssetRef(unitNumber: "T-2")), c = try sink.asset(AssetRef(unitNumber: "T-3"))
            assets = [a, b, c]
            for (i, at) in [1_000, 5_000, 9_000].enumerated() {
                try sink.load(MeterReading(assetID: a, meter: "odometer", at: Int64(at), value: Double(i), sourceFileID: f))
            }
            for at in [3_000, 7_000] { try sink.load(MeterReading(assetID: a, meter: "engine_hours", at: Int64(at), value: 1, sourceFileID: f)) }
            try sink.load(MeterReading(assetID: b, meter: "fuel_level", at: 4_000, value: 50, sourceFileID: f))
        }
        let listing = """
            WITH RECURSIVE m(meter) AS (
                SELECT MIN(meter) FROM meter_reading WHERE asset_id = ?1
                UNION ALL SELECT (SELECT MIN(meter) FROM meter_reading WHERE asset_id = ?1 AND meter > m.meter) FROM m WHERE m.meter IS NOT NULL)
            """
        let previous = listing + " SELECT MIN((SELECT MAX(at) FROM meter_reading WHERE asset_id = ?1 AND meter = m.meter AND at < ?2)) FROM m WHERE meter IS NOT NULL"
        let next = listing + " SELECT MAX((SELECT MIN(at) FROM meter_reading WHERE asset_id = ?1 AND meter = m.meter AND at > ?2)) FROM m WHERE meter IS NOT NULL"
        var compared = 0
        try t.warehouse.pool.read { db in
            for asset in assets {
                for at: Int64 in [0, 1_000, 2_000, 3_000, 4_000, 6_000, 7_000, 9_000, 10_000] {
                    for (new, old) in [(DailyRollup.previousReadingSQL, previous), (DailyRollup.nextReadingSQL, next)] {
                        XCTAssertEqual(try Int64.fetchOne(db, sql: new, arguments: [asset, at]), try Int64.fetchOne(db, sql: old, arguments: [asset, at]),
                                       "asset \(asset) at \(at): \(new)")
                        compared += 1
                    }
                }
            }
            // By hand: T-1 before 6,000 has odometer 5,000 and engine hours 3,000, the earliest 3,000;
            // after 4,000 odometer 5,000 and engine hours 7,000, the latest 7,000.
            XCTAssertEqual(try Int64.fetchOne(db, sql: DailyRollup.previousReadingSQL, arguments: [assets[0], 6_000]), 3_000)
            XCTAssertEqual(try Int64.fetchOne(db, sql: DailyRollup.nextReadingSQL, arguments: [assets[0], 4_000]), 7_000)
            XCTAssertNil(try Int64.fetchOne(db, sql: DailyRollup.previousReadingSQL, arguments: [assets[2], 6_000]))
        }
        XCTAssertEqual(compared, 54)
    }
}
