import XCTest
import GRDB
import FleetKit
import FleetTestSupport

/// `fleetkit verify`'s checks: clean on the sample fleet (the committed SampleData, imported as a
/// user imports it), and failing, with the right place named, on a copy of it corrupted by hand
/// in each way a check looks for (one test per check; the SQL is the corruption).
final class VerifyTests: XCTestCase {
    static let zone = FleetZone(identifier: "America/Chicago")!
    nonisolated(unsafe) static var shared: TestWarehouse?

    static var sampleData: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SampleData")
    }

    /// The sample fleet's warehouse, imported once for the class (every folder but `bad/`).
    static func sample() throws -> TestWarehouse {
        if let s = shared { return s }
        let t = try TestWarehouse()
        _ = try t.warehouse.apply(setting: [.timezone, .units]) { $0.zone = zone; $0.units = .us }
        let folders = try FileManager.default.contentsOfDirectory(atPath: sampleData.path).filter { $0 != "bad" && $0 != "README.md" }.sorted()
        let summary = try t.importFiles(folders.map { sampleData.appendingPathComponent($0).path }, options: ImportOptions(zone: zone))
        XCTAssertEqual(summary.totals.rejected, 0, "the sample imports cleanly")
        shared = t
        return t
    }

    /// A private copy of the sample warehouse with `sql` applied (foreign keys off, as a hand
    /// edit with the sqlite3 shell would be), verified with every asset-day re-derived.
    func verify(after sql: String, file: StaticString = #filePath, line: UInt = #line) throws -> VerifyResult {
        let source = try Self.sample()
        let copy = try TestWarehouse()
        let path = copy.directory.appendingPathComponent("corrupt.sqlite").path
        try source.warehouse.pool.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [path]) }
        let w = try Warehouse(path: path)
        if !sql.isEmpty {
            try w.pool.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                let before = db.totalChangesCount
                try db.execute(sql: sql)
                XCTAssertGreaterThan(db.totalChangesCount, before, "the corruption changed nothing: \(sql)", file: file, line: line)
                try db.execute(sql: "PRAGMA foreign_keys = ON")
            }
        }
        return try Verifier(checks: VerifyChecks.all).run(w, context: VerifyChecks.context(w, sampleDays: Int.max, listLimit: 20))
    }

    /// The findings of `check`, asserting that it is the only check that failed.
    func only(_ check: String, in result: VerifyResult, file: StaticString = #filePath, line: UInt = #line) -> [VerifyFinding] {
        let failed = result.checks.filter { $0.failures > 0 }.map(\.name)
        XCTAssertEqual(failed, [check], "\(result.checks.flatMap(\.listed).map { "\($0.check): \($0.what)" })", file: file, line: line)
        XCTAssertFalse(result.clean, file: file, line: line)
        return result.checks.first { $0.name == check }?.listed ?? []
    }

    func testTheSampleFleetIsClean() throws {
        let result = try verify(after: "")
        XCTAssertTrue(result.clean, "\(result.checks.flatMap(\.listed).map { "\($0.check) \($0.asset ?? "") \($0.day ?? ""): \($0.what)" })")
        XCTAssertEqual(result.checks.map(\.name), ["trip_invariants", "trips_vs_days", "meters", "asset_identity", "rederive_sample", "report_totals"])
        // Each check examined the sample, not an empty table.
        for c in result.checks { XCTAssertGreaterThan(c.examined, 0, c.name) }
        let days = try Self.sample().count("asset_day")
        XCTAssertEqual(result.checks.first { $0.name == "rederive_sample" }?.examined, days, "every asset-day re-derived")
    }

    /// A trip whose moving and idle time exceed its duration, and whose average is above its maximum.
    func testATripThatContradictsItselfFails() throws {
        let id = try XCTUnwrap(Self.sample().rows("SELECT MIN(id) FROM trip WHERE source = 'gps' AND distance_m > 1000").first?[0] as Int64?)
        let result = try verify(after: "UPDATE trip SET idle_s = duration_s, max_speed_mps = 1 WHERE id = \(id)")
        let found = result.checks.first { $0.name == "trip_invariants" }?.listed ?? []
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found.first?.trip, id)
        XCTAssertTrue(found.first?.what.contains("exceed its duration") ?? false, "\(found)")
        XCTAssertTrue(found.first?.what.contains("above its maximum") ?? false, "\(found)")
        XCTAssertNotNil(found.first?.asset)
    }

    /// A day whose trip count is not the number of trips starting on it (the order bug of the
    /// issue: 6 where 5 start).
    func testADayCountingATripThatDoesNotStartOnItFails() throws {
        let row = try XCTUnwrap(Self.sample().rows("SELECT d.asset_id, d.day, a.unit_number FROM asset_day d JOIN asset a ON a.id = d.asset_id WHERE trips > 0 ORDER BY 1, 2 LIMIT 1").first)
        let (asset, day, unit): (Int64, String, String) = (row[0], row[1], row[2])
        // Re-deriving the day gives the right count too (not asserted here: the trips check alone must see it).
        let result = try verify(after: "UPDATE asset_day SET trips = trips + 1 WHERE asset_id = \(asset) AND day = '\(day)'")
        let found = result.checks.first { $0.name == "trips_vs_days" }?.listed ?? []
        XCTAssertEqual(found.map(\.day), [day])
        XCTAssertEqual(found.first?.asset, unit)
        XCTAssertTrue(found.first?.what.contains("asset_day.trips says") ?? false, "\(found)")
    }

    /// A trip longer than the odometer rose between the readings around it (its distance raised
    /// by 1,000 km, as a jumping fix would).
    func testATripLongerThanTheOdometerSaysFails() throws {
        let id = try XCTUnwrap(Self.sample().rows("""
            SELECT t.id FROM trip t WHERE t.distance_m > 5000
              AND EXISTS (SELECT 1 FROM meter_reading r WHERE r.asset_id = t.asset_id AND r.meter = 'odometer' AND r.at <= t.start_at)
              AND EXISTS (SELECT 1 FROM meter_reading r WHERE r.asset_id = t.asset_id AND r.meter = 'odometer' AND r.at >= t.end_at)
            ORDER BY t.id LIMIT 1
            """).first?[0] as Int64?)
        // The trip then contradicts itself and its re-derivation too: only this check's finding is asserted.
        let result = try verify(after: "UPDATE trip SET distance_m = distance_m + 1000000 WHERE id = \(id)")
        let found = result.checks.first { $0.name == "trips_vs_days" }?.listed ?? []
        XCTAssertEqual(found.map(\.trip), [id], "\(found)")
        XCTAssertTrue(found.first?.what.contains("between odometer readings at") ?? false, "\(found)")
    }

    /// Days whose distance is their GPS path (the sample's master data and phone tracks, no odometer): trips
    /// within a day longer than its path fail, and so does a day of unknown distance with trips.
    func testTripsLongerThanTheirGPSDayFail() throws {
        let t = try TestWarehouse()
        _ = try t.warehouse.apply(setting: [.timezone]) { $0.zone = Self.zone }
        try t.importFiles(["master", "gpx"].map { Self.sampleData.appendingPathComponent($0).path }, options: ImportOptions(zone: Self.zone))
        let days = try t.rows("SELECT asset_id, day FROM asset_day WHERE distance_method = 'gps' AND trips > 0 AND distance_m > 5000 ORDER BY 1, 2 LIMIT 2")
        guard days.count == 2 else { return XCTFail("the phone tracks give GPS days with trips") }
        let clean = try Verifier(checks: VerifyChecks.all).run(t.warehouse, context: VerifyChecks.context(t.warehouse, sampleDays: Int.max))
        XCTAssertTrue(clean.clean, "\(clean.checks.flatMap(\.listed).map(\.what))")
        try t.warehouse.pool.write { db in
            try db.execute(sql: "UPDATE asset_day SET distance_m = distance_m / 10 WHERE asset_id = ? AND day = ?", arguments: [days[0][0] as Int64, days[0][1] as String])
            try db.execute(sql: "UPDATE asset_day SET distance_m = NULL, distance_method = NULL WHERE asset_id = ? AND day = ?", arguments: [days[1][0] as Int64, days[1][1] as String])
        }
        let result = try Verifier(checks: VerifyChecks.all).run(t.warehouse, context: VerifyChecks.context(t.warehouse, sampleDays: Int.max))
        let found = result.checks.first { $0.name == "trips_vs_days" }?.listed ?? []
        XCTAssertEqual(found.map(\.day), [days[0][1] as String, days[1][1] as String], "\(found)")
        XCTAssertTrue(found.first?.what.contains("more than the day's GPS path") ?? false, "\(found)")
        XCTAssertTrue(found.last?.what.contains("the day's distance is unknown (NULL)") ?? false, "\(found)")
    }

    /// An odometer reading that goes backwards, with no anomaly recorded: the daily totals summed it.
    /// 500 km back: more than any step between two readings of the sample, so it is below the
    /// reading before it whatever the day drove.
    func testAnUnrecordedRollbackFails() throws {
        let row = try XCTUnwrap(Self.sample().rows("""
            SELECT asset_id, at FROM meter_reading WHERE meter = 'odometer' AND value > 100000 ORDER BY asset_id, at LIMIT 1 OFFSET 5
            """).first)
        let (asset, at): (Int64, Int64) = (row[0], row[1])
        let result = try verify(after: "UPDATE meter_reading SET value = value - 500000 WHERE asset_id = \(asset) AND meter = 'odometer' AND at = \(at)")
        let found = result.checks.first { $0.name == "meters" }?.listed ?? []
        XCTAssertTrue(found.contains { $0.what.contains("(rollback), and the step is not in meter_anomaly") }, "\(found)")
        XCTAssertEqual(found.first?.day, Self.zone.day(of: at).description)
    }

    /// An anomaly recorded where the readings are plausible, one where there is no reading, and
    /// a negative daily figure. (Re-deriving the asset's days also disagrees: not asserted here.)
    func testAStaleAnomalyAndANegativeDayFail() throws {
        let row = try XCTUnwrap(Self.sample().rows("""
            SELECT asset_id, at FROM meter_reading WHERE meter = 'engine_hours' ORDER BY asset_id, at LIMIT 1 OFFSET 10
            """).first)
        let (asset, at): (Int64, Int64) = (row[0], row[1])
        let result = try verify(after: """
            INSERT INTO meter_anomaly (asset_id, meter, at, previous_at, previous_value, value, kind)
            SELECT asset_id, meter, at, at - 1, 0, value, 'rollback' FROM meter_reading WHERE asset_id = \(asset) AND meter = 'engine_hours' AND at = \(at);
            INSERT INTO meter_anomaly (asset_id, meter, at, previous_at, previous_value, value, kind) VALUES (\(asset), 'odometer', 1, 0, 0, 0, 'rollback');
            UPDATE asset_day SET idle_s = -5 WHERE asset_id = \(asset) AND day = (SELECT MIN(day) FROM asset_day WHERE asset_id = \(asset) AND idle_s IS NOT NULL);
            """)
        let found = result.checks.first { $0.name == "meters" }?.listed ?? []
        XCTAssertEqual(found.count, 3, "\(found)")
        XCTAssertTrue(found.contains { $0.what.contains("is plausible, but meter_anomaly calls it rollback") }, "\(found)")
        XCTAssertTrue(found.contains { $0.what.contains("where there is no reading") }, "\(found)")
        XCTAssertTrue(found.contains { $0.what.contains("asset_day.idle_s is -5.0") }, "\(found)")
    }

    /// A second asset carrying another's VIN (in lower case with a space, which the unique index
    /// lets through), and a machine whose PIN is a vehicle's VIN.
    func testTwoAssetsForOneIdentityFail() throws {
        let rows = try Self.sample().rows("SELECT id, vin, unit_number FROM asset WHERE vin IS NOT NULL ORDER BY id LIMIT 2")
        let machine = try XCTUnwrap(Self.sample().rows("SELECT id, unit_number FROM asset WHERE vin IS NULL ORDER BY id LIMIT 1").first)
        let (vin, unit): (String, String) = (rows[0][1], rows[0][2])
        let found = only("asset_identity", in: try verify(after: """
            UPDATE asset SET vin = ' ' || lower('\(vin)') WHERE id = \(machine[0] as Int64);
            UPDATE asset SET pin = '\(rows[1][1] as String)' WHERE id = \(machine[0] as Int64);
            """))
        XCTAssertEqual(found.count, 2, "\(found)")
        XCTAssertTrue(found.contains { $0.what.hasPrefix("2 assets share VIN \(vin): ") && $0.what.contains(unit) && $0.what.contains(machine[1] as String) }, "\(found)")
        XCTAssertTrue(found.contains { $0.what.contains("is the PIN of \(machine[1] as String)") }, "\(found)")
    }

    /// Rows naming an asset that is gone drop out of every report: listed as orphans, and the
    /// cost report's asset rows no longer add up to its detail.
    func testRowsOfAMissingAssetFail() throws {
        let result = try verify(after: "UPDATE expense SET asset_id = 99999 WHERE id = (SELECT MIN(id) FROM expense WHERE asset_id IS NOT NULL)")
        let orphans = result.checks.first { $0.name == "asset_identity" }?.listed ?? []
        XCTAssertEqual(orphans.map(\.what), ["1 expense rows name asset #99999, which does not exist: every report leaves them out"])
        let totals = result.checks.first { $0.name == "report_totals" }?.listed ?? []
        XCTAssertTrue(totals.contains { $0.what.hasPrefix("cost by_asset.total sums to") }, "\(totals)")
        XCTAssertEqual(Set(result.checks.filter { $0.failures > 0 }.map(\.name)), ["asset_identity", "report_totals"])
    }

    /// Stored derived rows that the facts do not give: a day's engine hours raised by one hour,
    /// a derived trip's end reason changed. Only re-deriving finds these.
    func testDerivedRowsThatDoNotFollowFromTheFactsFail() throws {
        let day = try XCTUnwrap(Self.sample().rows("SELECT asset_id, day FROM asset_day WHERE engine_s > 3600 ORDER BY 1, 2 LIMIT 1 OFFSET 3").first)
        let trip = try XCTUnwrap(Self.sample().rows("SELECT id FROM trip WHERE source = 'gps' AND end_reason = 'ignition' ORDER BY id LIMIT 1 OFFSET 7").first?[0] as Int64?)
        let found = only("rederive_sample", in: try verify(after: """
            UPDATE asset_day SET engine_s = engine_s + 3600 WHERE asset_id = \(day[0] as Int64) AND day = '\(day[1] as String)';
            UPDATE trip SET end_reason = 'gap' WHERE id = \(trip);
            """))
        XCTAssertEqual(found.count, 2, "\(found)")
        XCTAssertTrue(found.contains { $0.day == day[1] as String && $0.what.hasPrefix("asset_day \(day[1] as String) differs") && $0.what.contains("engine_s stored") }, "\(found)")
        XCTAssertTrue(found.contains { $0.trip == trip && $0.what.contains("end_reason stored \"gap\", derived \"ignition\"") }, "\(found)")
    }

    /// An asset retired before the month it worked in: the utilization report leaves its hours
    /// out of the fleet figures, which no longer equal the daily rows.
    func testReportTotalsThatLeaveRowsOutFail() throws {
        let row = try XCTUnwrap(Self.sample().rows("""
            SELECT a.id, a.unit_number FROM asset a JOIN asset_day d ON d.asset_id = a.id WHERE d.engine_s > 0 GROUP BY a.id ORDER BY a.id LIMIT 1
            """).first)
        let found = only("report_totals", in: try verify(after: "UPDATE asset SET retired_date = '2026-09-30' WHERE id = \(row[0] as Int64)"))
        XCTAssertEqual(found.count, 1, "\(found)")
        XCTAssertEqual(found.first?.asset, row[1] as String)
        XCTAssertEqual(found.first?.day, "2026-10")
        XCTAssertTrue(found.first?.what.contains("no row in the utilization report") ?? false, "\(found)")
    }
}
