import XCTest
import Foundation
import GRDB
import FleetTestSupport

/// `fleetkit verify` as a script runs it: exit 0 and a line per check on a clean warehouse, exit
/// 1 with each failure, where it is and what to do when a check fails, exit 2 when it cannot
/// run, 64 on a bad option; `--json` for programs.
final class VerifyCommandTests: XCTestCase {
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    func testCleanCorruptedAndMissingWarehouses() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("verify-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let db = dir.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "America/Chicago"]).status, 0)
        let imported = try Fleetkit.run(["import", "--db", db] + ["master", "samsara", "expenses"].map { Self.root.appendingPathComponent("SampleData/\($0)").path })
        XCTAssertEqual(imported.status, 0, imported.stderr)

        let clean = try Fleetkit.run(["verify", "--db", db])
        XCTAssertEqual(clean.status, 0, clean.stdout + clean.stderr)
        XCTAssertTrue(clean.stdout.hasSuffix("clean: all 6 checks passed\n"), clean.stdout)
        for check in ["trip_invariants", "trips_vs_days", "meters", "asset_identity", "rederive_sample", "report_totals"] {
            XCTAssertTrue(clean.stdout.contains("ok   \(check)"), check + "\n" + clean.stdout)
        }
        // The stored trip rules changed by hand, without the re-derivation `fleetkit init --trip-rule`
        // runs: the stored trips no longer follow from the facts (no trip starts within 100 km, the
        // largest distance a rule may take).
        let rules = try TestWarehouse(existing: db)
        let stored = try rules.rows("SELECT value FROM setting WHERE key = 'trip_rules'").first?[0] as String?
        try rules.warehouse.pool.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO setting (key, value) VALUES ('trip_rules', '{\"start_distance_m\":100000}')")
        }
        let otherRules = try Fleetkit.run(["verify", "--db", db])
        XCTAssertEqual(otherRules.status, 1, otherRules.stdout + otherRules.stderr)
        XCTAssertTrue(otherRules.stdout.contains("FAIL rederive_sample"), otherRules.stdout)
        try rules.warehouse.pool.write { db in
            if let stored { try db.execute(sql: "UPDATE setting SET value = ? WHERE key = 'trip_rules'", arguments: [stored]) }
            else { try db.execute(sql: "DELETE FROM setting WHERE key = 'trip_rules'") }
        }
        let json = try Fleetkit.run(["verify", "--db", db, "--json", "--sample", "10"])
        XCTAssertEqual(json.status, 0, json.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["clean"] as? Bool, true)
        let checks = try XCTUnwrap(object["checks"] as? [[String: Any]])
        XCTAssertEqual(checks.first { $0["name"] as? String == "rederive_sample" }?["examined"] as? Int, 10)

        // A day that counts a trip too many (by hand, as with the sqlite3 shell).
        let t = try TestWarehouse(existing: db)
        let day = try XCTUnwrap(t.rows("SELECT a.unit_number, d.day, d.asset_id FROM asset_day d JOIN asset a ON a.id = d.asset_id WHERE d.trips > 0 ORDER BY 3, 2 LIMIT 1").first)
        try t.warehouse.pool.write { db in
            try db.execute(sql: "UPDATE asset_day SET trips = trips + 1 WHERE asset_id = ? AND day = ?", arguments: [day[2] as Int64, day[1] as String])
        }
        let failed = try Fleetkit.run(["verify", "--db", db])
        XCTAssertEqual(failed.status, 1, failed.stdout + failed.stderr)
        XCTAssertTrue(failed.stdout.contains("FAIL trips_vs_days"), failed.stdout)
        XCTAssertTrue(failed.stdout.contains("\(day[0] as String) \(day[1] as String)"), failed.stdout)
        XCTAssertTrue(failed.stdout.contains("fix: rebuild the derived tables"), failed.stdout)
        XCTAssertFalse(failed.stdout.contains("clean:"), failed.stdout)

        let missing = try Fleetkit.run(["verify", "--db", dir.appendingPathComponent("nope.sqlite").path])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("there is no warehouse here"), missing.stderr)
        XCTAssertEqual(try Fleetkit.run(["verify", "--db", db, "--sample", "-1"]).status, 64)
    }
}
