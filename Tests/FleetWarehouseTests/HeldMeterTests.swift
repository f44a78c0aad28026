import XCTest
import GRDB
import FleetCore
import FleetTestSupport
@testable import FleetWarehouse

/// Held (stale) meter values from the field: a gateway re-sends the last known odometer or
/// engine-hours value at new times while the asset works, then catches up with one jump
/// (docs/METRICS.md, "Daily rollup", held values). One tiny named fixture per shape, a generic
/// meter series polled every 30 s (10 min for the spike) in UTC, with its truth known from how it
/// was built, never from what FleetKit produces.
final class HeldMeterTests: XCTestCase {
    typealias Series = [(meter: String, at: Int64, value: Double)]
    typealias Fix = (at: Int64, lat: Double, lon: Double)
    /// 2026-10-01 23:00 UTC: every fixture crosses midnight into Oct 2.
    let t0 = Timestamp.parse("2026-10-01T23:00:00Z")!
    let speed = 12.5   // m/s, 45 km/h
    func at(_ minutes: Double) -> Int64 { t0 + Int64(minutes * 60_000) }

    /// (a) Driving 23:00–00:40 at 12.5 m/s; the odometer (polled every 30 s) holds its 23:40:00
    /// value until 00:20:00 while the vehicle covers 30 km, and the 00:20:30 reading catches up
    /// with the true value (+30,375 m in 30 s). Truth: 45,000 m on Oct 1, 30,000 m on Oct 2.
    func heldOdometer() -> Series {
        stride(from: 0.0, through: 100, by: 0.5).map { m in
            let shown = m > 40 && m <= 80 ? 40 : m
            return ("odometer", at(m), 100_000 + speed * shown * 60)
        }
    }

    /// (b) The same for the engine-hour meter (seconds): running 23:00–00:40, held at its 23:40
    /// value until 00:20, catching up at 00:20:30. Truth: 3,600 s on Oct 1, 2,400 s on Oct 2.
    func heldEngineHours() -> Series {
        stride(from: 0.0, through: 100, by: 0.5).map { m in
            let shown = m > 40 && m <= 80 ? 40 : m
            return ("engine_hours", at(m), 3_600_000 + shown * 60)
        }
    }

    /// (c) Driving 22:00–23:00, parked 23:00–00:00 (the odometer stands, polled every 10 min),
    /// driving again 00:00–01:00; the 00:00 reading is a bad value 5,000 km ahead, and 00:10 is
    /// back on the trend. Truth: 45,000 m each day.
    func spike() -> Series {
        stride(from: -60.0, through: 120, by: 10).map { m in
            let driven = min(m, 0) + 60 + max(0, m - 60)
            return ("odometer", at(m), 100_000 + speed * driven * 60 + (m == 60 ? 5_000_000 : 0))
        }
    }

    /// (d) A whole-km odometer polled every 30 s, driving 22:00–01:00: the value repeats two or
    /// three polls before each step, which looks like holding. Truth: 90,000 m on Oct 1, 45,000
    /// m on Oct 2.
    func quantisedOdometer() -> Series {
        stride(from: -60.0, through: 120, by: 0.5).map { m in
            ("odometer", at(m), ((100_000 + speed * (m + 60) * 60) / 1000 + 1e-9).rounded(.down) * 1000)
        }
    }

    /// Loads each element as one file, in the order given, deriving after each like an import.
    func load(_ t: TestWarehouse, _ files: [Series], fixes: [Fix] = []) throws {
        for (i, series) in files.enumerated() {
            try t.warehouse.pool.write { db in
                let f = try SourceFile.insertedForTest(db)
                var sink = WarehouseSink(db: db, sourceFileID: f.id!)
                let a = try sink.asset(AssetRef(unitNumber: "T-1"))
                if i == 0 { for x in fixes { try sink.load(Position(assetID: a, at: x.at, lat: x.lat, lon: x.lon, sourceFileID: f.id!)) } }
                for r in series { try sink.load(MeterReading(assetID: a, meter: r.meter, at: r.at, value: r.value, sourceFileID: f.id!)) }
                try Derivations.refresh(db, touched: sink.touched, settings: DeriveSettings(zone: .utc))
            }
        }
    }

    func days(_ t: TestWarehouse, _ column: String) throws -> [String] {
        try t.rows("SELECT day, \(column) FROM asset_day ORDER BY day").map { "\($0[0] as String) \(($0[1] as Double?).map { String(format: "%.3f", $0) } ?? "NULL")" }
    }

    func anomalies(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT meter, at, kind FROM meter_anomaly ORDER BY meter, at").map { "\($0[0] as String) \(Timestamp.iso($0[1] as Int64)) \($0[2] as String)" }
    }

    func testACatchUpAfterAHeldOdometerCountsAndIsSplitOverTheHeldInterval() throws {
        let t = try TestWarehouse()
        try load(t, [heldOdometer()])
        XCTAssertEqual(try anomalies(t), [], "the catch-up is explained by the 40 min the value was held")
        // The 30,375 m catch-up is spread over 23:40:00–00:20:30 in proportion to time: 15,000 m
        // before midnight. At a steady speed that is exactly the truth.
        XCTAssertEqual(try days(t, "distance_m"), ["2026-10-01 45000.000", "2026-10-02 30000.000"])
        let total: Double = try t.rows("SELECT SUM(distance_m) FROM asset_day").first?[0] ?? 0
        XCTAssertEqual(total, speed * 100 * 60, accuracy: 1e-6, "the days sum to the meter's whole change, nothing lost or doubled")
    }

    func testACatchUpAfterHeldEngineHoursCounts() throws {
        let t = try TestWarehouse()
        try load(t, [heldEngineHours()])
        XCTAssertEqual(try anomalies(t), [])
        XCTAssertEqual(try days(t, "engine_s"), ["2026-10-01 3600.000", "2026-10-02 2400.000"])
    }

    func testARealSpikeIsStillAnAnomalyAfterAnHourTheMeterStood() throws {
        let t = try TestWarehouse()
        try load(t, [spike()])
        XCTAssertEqual(try anomalies(t), ["odometer 2026-10-02T00:00:00Z implausible_rate", "odometer 2026-10-02T00:10:00Z rollback"])
        // Oct 2 loses the 7,500 m of 00:00–00:10 between the refused readings, and no more.
        XCTAssertEqual(try days(t, "distance_m"), ["2026-10-01 45000.000", "2026-10-02 37500.000"])
    }

    func testAQuantisedOdometerIsNotTakenForAHeldOne() throws {
        let t = try TestWarehouse()
        let series = quantisedOdometer()
        try load(t, [series])
        XCTAssertEqual(try anomalies(t), [])
        let rows = try t.rows("SELECT distance_m FROM asset_day ORDER BY day").map { $0[0] as Double }
        XCTAssertEqual(rows.count, 2)
        for (d, truth) in zip(rows, [90_000.0, 45_000]) { XCTAssertEqual(d, truth, accuracy: 1000, "within one step of the truth") }
        XCTAssertEqual(rows.reduce(0, +), series.last!.value - series.first!.value, accuracy: 1e-6)
    }

    func testTheSameDaysWhicheverFileCameFirst() throws {
        let whole = heldOdometer() + heldEngineHours()
        // Split inside the hold (00:00) and just before the catch-up (00:20:00).
        for cut in [at(60), at(80)] {
            let (early, late) = (whole.filter { $0.at < cut }, whole.filter { $0.at >= cut })
            var seen: [[String]] = []
            for files in [[whole], [early, late], [late, early]] {
                let t = try TestWarehouse()
                try load(t, files)
                seen.append(try days(t, "distance_m") + days(t, "engine_s") + anomalies(t))
            }
            XCTAssertEqual(seen[1], seen[0], "cut at \(Timestamp.iso(cut)), in order")
            XCTAssertEqual(seen[2], seen[0], "cut at \(Timestamp.iso(cut)), reversed")
        }
    }

    /// Parked 23:00–23:45, a 22.5 km drive east 23:45–00:15 while the odometer holds, parked
    /// until 00:45; a fix every 30 s. With `catchUp`, the 00:15:30 reading shows the true value.
    func drive(catchUp: Bool) -> (Series, [Fix]) {
        let lat = 41.5, lon0 = -88.1
        let east = { (m: Double) in min(max(m - 45, 0), 30) * 60 * self.speed }
        let fixes: [Fix] = stride(from: 0.0, through: 105, by: 0.5).map { m in
            (at(m), lat, lon0 + east(m) / (111_195 * cos(lat * .pi / 180)))
        }
        let odometer: Series = stride(from: 0.0, through: 105, by: 0.5).map { m in
            ("odometer", at(m), 100_000 + (catchUp && m > 75 ? east(m) : 0))
        }
        return (odometer, fixes)
    }

    func testVerifyAcceptsATripDrivenWhileTheOdometerWasHeld() throws {
        let t = try TestWarehouse()
        let (odometer, fixes) = drive(catchUp: true)
        try load(t, [odometer], fixes: fixes)
        XCTAssertEqual(try t.count("trip"), 1)
        let result = try Verifier().run(t.warehouse, context: VerifyContext(settings: DeriveSettings(zone: .utc)))
        XCTAssertTrue(result.clean, "\(result.checks.flatMap(\.listed).map(\.what))")
        // The catch-up is spread over the hour before it (23:15:30–00:15:30): 16,687.5 m on Oct 1.
        XCTAssertEqual(try days(t, "distance_m"), ["2026-10-01 16687.500", "2026-10-02 5812.500"])
    }

    func testVerifyStillFlagsATripTheOdometerNeverCounted() throws {
        let t = try TestWarehouse()
        let (odometer, fixes) = drive(catchUp: false)
        try load(t, [odometer], fixes: fixes)
        let result = try Verifier().run(t.warehouse, context: VerifyContext(settings: DeriveSettings(zone: .utc)))
        let failing = result.checks.filter { $0.failures > 0 }.map { "\($0.name) \($0.failures)" }
        XCTAssertEqual(failing, ["trips_vs_days 1"], "\(result.checks.flatMap(\.listed).map(\.what))")
    }
}
