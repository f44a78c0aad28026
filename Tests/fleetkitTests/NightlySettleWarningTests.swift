import XCTest
import Foundation
import FleetKit
import FleetTestSupport

/// `fleetkit nightly` with a stored settle setting that cannot be read
/// (FleetNightlyTests/Fixtures/settle/looks-wrong-shape.json): the warning reaches stderr in
/// both output modes, the run still exits 0 (the fallback is safe, docs/OPERATIONS.md), and the
/// next run, with the setting rewritten, is quiet.
final class NightlySettleWarningTests: XCTestCase {
    func testACorruptSettleSettingIsAWarningOnStderr() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("settle-warning-\(UUID())")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        let yml = root.appendingPathComponent("fleetkit.yml")
        try NightlySetup.writeConfig(in: root)
        let damaged = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FleetNightlyTests/Fixtures/settle/looks-wrong-shape.json")
        try Warehouse(path: root.appendingPathComponent("fleet.sqlite").path).pool.write { db in try db.execute(sql: "INSERT OR REPLACE INTO setting(key, value) VALUES ('nightly_settle_looks', ?)", arguments: [try String(contentsOf: damaged, encoding: .utf8)]) }

        let arguments = ["nightly", "--config", yml.path, "--as-of", "2026-11-02"]
        let json = try Fleetkit.run(arguments + ["--json"])
        XCTAssertEqual(json.status, 0, json.stdout + json.stderr)
        XCTAssertTrue(json.stderr.contains("warning: the stored setting 'nightly_settle_looks'"), json.stderr)
        let summary = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        XCTAssertEqual((summary?["warnings"] as? [String])?.count, 1, json.stdout)

        try Warehouse(path: root.appendingPathComponent("fleet.sqlite").path).pool.write { db in try db.execute(sql: "INSERT OR REPLACE INTO setting(key, value) VALUES ('nightly_settle_looks', ?)", arguments: ["not json"]) }
        let text = try Fleetkit.run(arguments)
        XCTAssertEqual(text.status, 0, text.stdout + text.stderr)
        XCTAssertTrue(text.stderr.contains("cannot be read (not JSON"), text.stderr)

        let quiet = try Fleetkit.run(arguments)
        XCTAssertEqual(quiet.status, 0, quiet.stdout + quiet.stderr)
        XCTAssertFalse(quiet.stderr.contains("warning"), quiet.stderr)
    }
}
