import XCTest
import Foundation
import GRDB
import FleetTestSupport

/// Trip rules live in the warehouse: `import` derives with the ones `nightly` (or `init`) stored,
/// so the two commands give the same trips from the same files; `init --trip-rule` changes them
/// and re-derives; an unreadable stored value stops every command with the way to fix it.
final class StoredTripRulesCommandTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("stored-rules-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    /// A nightly setup under `name` whose inbox holds the assets and the given drives of T-01.
    private func nightlyRoot(_ name: String, drives: [String: String]) throws -> URL {
        let dir = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("inbox/master"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("inbox/gpx/T-01"), withIntermediateDirectories: true)
        try StopAndGoGPX.assets.write(to: dir.appendingPathComponent("inbox/master/assets.csv"), atomically: true, encoding: .utf8)
        for (file, text) in drives { try text.write(to: dir.appendingPathComponent("inbox/gpx/T-01/\(file)"), atomically: true, encoding: .utf8) }
        try """
        warehouse: fleet.sqlite
        inbox: inbox
        archive: archive
        quarantine: quarantine
        reports: reports
        settle_seconds: 0
        timezone: America/Chicago
        reports_to_refresh: []
        trips:
          stop_seconds: 600
        """.write(to: dir.appendingPathComponent("fleetkit.yml"), atomically: true, encoding: .utf8)
        return dir
    }

    private func nightly(_ dir: URL) throws {
        let r = try Fleetkit.run(["nightly", "--config", dir.appendingPathComponent("fleetkit.yml").path])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
    }

    /// The derived tables as text, without row ids.
    private func derived(_ db: String) throws -> [String] {
        try TestWarehouse(existing: db).factDump(tables: ["trip", "asset_day"])
    }

    func testImportAfterNightlyDerivesTheSameTripsAsNightlyAlone() throws {
        let a = StopAndGoGPX.text(day: "2026-10-05", stopSeconds: 300)
        let b = StopAndGoGPX.text(day: "2026-10-07", stopSeconds: 300, startLat: 42.0)
        // W1: the nightly job imports A (and stores its rules); then a person imports B.
        let w1 = try nightlyRoot("w1", drives: ["a.gpx": a])
        try nightly(w1)
        let bFile = root.appendingPathComponent("b.gpx")
        try b.write(to: bFile, atomically: true, encoding: .utf8)
        let imported = try Fleetkit.run(["import", "--db", w1.appendingPathComponent("fleet.sqlite").path, "--asset", "T-01", bFile.path])
        XCTAssertEqual(imported.status, 0, imported.stderr)
        // W2: the nightly job imports both.
        let w2 = try nightlyRoot("w2", drives: ["a.gpx": a, "b.gpx": b])
        try nightly(w2)

        let one = try derived(w1.appendingPathComponent("fleet.sqlite").path)
        let both = try derived(w2.appendingPathComponent("fleet.sqlite").path)
        XCTAssertEqual(one, both)
        // Each file's five-minute stop is under the stored ten-minute rule: one trip per file
        // (the default three-minute rule, which `import` used before, makes two).
        XCTAssertEqual(one.filter { $0.hasPrefix("trip: ") }.count, 2, one.joined(separator: "\n"))
    }

    func testInitSetsATripRuleAndReDerivesAndStatusShowsIt() throws {
        let db = root.appendingPathComponent("fleet.sqlite").path
        let assets = root.appendingPathComponent("assets.csv"), drive = root.appendingPathComponent("drive.gpx")
        try StopAndGoGPX.assets.write(to: assets, atomically: true, encoding: .utf8)
        try StopAndGoGPX.text(day: "2026-10-05", stopSeconds: 300).write(to: drive, atomically: true, encoding: .utf8)
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db]).status, 0)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, assets.path]).status, 0)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, "--asset", "T-01", drive.path]).status, 0)
        XCTAssertEqual(try TestWarehouse(existing: db).count("trip"), 2)

        let set = try Fleetkit.run(["init", "--db", db, "--trip-rule", "stop_seconds=600"])
        XCTAssertEqual(set.status, 0, set.stderr)
        XCTAssertEqual(set.stdout, """
            warehouse \(db) is ready (time zone UTC, currency USD, units metric)
            trip rules: gap_seconds 3600, idle_speed_mps 0.2777777777777778, start_distance_m 200, stop_radius_m 200, stop_seconds 600
            trip_rules changed: re-derived the trips and daily rollups of 1 asset

            """)
        XCTAssertEqual(try TestWarehouse(existing: db).count("trip"), 1)
        let status = try Fleetkit.run(["status", "--db", db])
        XCTAssertTrue(status.stdout.contains("trips:     gap_seconds 3600, idle_speed_mps 0.2777777777777778, start_distance_m 200, stop_radius_m 200, stop_seconds 600"), status.stdout)

        let bad = try Fleetkit.run(["init", "--db", db, "--trip-rule", "stop_secs=600"])
        XCTAssertEqual(bad.status, 64)
        XCTAssertTrue(bad.stderr.contains("stop_secs=600"), bad.stderr)
        XCTAssertTrue(bad.stderr.contains("stop_seconds"), bad.stderr)

        let reset = try Fleetkit.run(["init", "--db", db, "--reset-trip-rules"])
        XCTAssertEqual(reset.status, 0, reset.stderr)
        XCTAssertEqual(try TestWarehouse(existing: db).count("trip"), 2)
    }

    func testAnUnreadableStoredSettingStopsTheCommandsWithTheFix() throws {
        let db = root.appendingPathComponent("fleet.sqlite").path
        let assets = root.appendingPathComponent("assets.csv")
        try StopAndGoGPX.assets.write(to: assets, atomically: true, encoding: .utf8)
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db]).status, 0)
        try TestWarehouse(existing: db).warehouse.pool.write { db in
            try db.execute(sql: "INSERT INTO setting(key, value) VALUES ('trip_rules', '{\"stop_secs\":600}')")
        }
        for command in [["import", "--db", db, assets.path], ["status", "--db", db], ["report", "trips", "--db", db, "--month", "2026-10", "--out", root.appendingPathComponent("r").path],
                        ["init", "--db", db, "--trip-rule", "stop_seconds=600"]] {
            let r = try Fleetkit.run(command)
            XCTAssertEqual(r.status, 2, "\(command): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("the warehouse setting 'trip_rules' is '{\"stop_secs\":600}', which names the unknown rule 'stop_secs'"), "\(command): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("fleetkit init --reset-trip-rules"), r.stderr)
        }
        XCTAssertEqual(try TestWarehouse(existing: db).count("asset"), 0)
        let repaired = try Fleetkit.run(["init", "--db", db, "--reset-trip-rules", "--trip-rule", "stop_seconds=600"])
        XCTAssertEqual(repaired.status, 0, repaired.stderr)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, assets.path]).status, 0)
    }
}
