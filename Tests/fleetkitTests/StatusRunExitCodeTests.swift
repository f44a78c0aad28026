import XCTest
import FleetTestSupport
import FleetCore
import FleetKit

/// `fleetkit status` shows the exit code each run ended with, the one cron saw: an import's
/// (1 when rows were rejected) and a nightly run's (1 when a file was quarantined, and 1 when
/// only its reports made it so: a strict partial report, a report not written, verify). The
/// ledger's status says how the imports went, so a nightly run whose imports were all fine but
/// whose reports failed reads `ok`; without the exit code beside it, status hid that night.
final class StatusRunExitCodeTests: XCTestCase {
    func testEachRunShowsItsExitCode() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("status-exit-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        var config = try NightlySetup.writeConfig(in: dir, timezone: "America/Chicago", reports: ["cost"])
        let db = dir.appendingPathComponent("fleet.sqlite").path
        try (MonthEndTests.header + MonthEndTests.fill("T1", 3, "70.00")).write(to: dir.appendingPathComponent("inbox/card.csv"), atomically: true, encoding: .utf8)
        try "not,a,known\nformat,at,all\n".write(to: dir.appendingPathComponent("inbox/mystery.csv"), atomically: true, encoding: .utf8)
        let night = try Fleetkit.run(["nightly", "--config", config.path, "--as-of", "2026-11-02"])
        XCTAssertEqual(night.status, 1, "a file was quarantined: " + night.stderr)
        let good = dir.appendingPathComponent("good.csv"), bad = dir.appendingPathComponent("bad.csv")
        try (MonthEndTests.header + MonthEndTests.fill("T2", 4, "35.00")).write(to: good, atomically: true, encoding: .utf8)
        try (MonthEndTests.header + MonthEndTests.fill("T3", 5, "abc")).write(to: bad, atomically: true, encoding: .utf8)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, good.path]).status, 0)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, bad.path]).status, 1)
        // An empty inbox: nothing imported, nothing rejected, so the ledger closes the run `ok`;
        // October's cost report is partial, which `report_mode: strict` makes exit 1.
        config = try NightlySetup.writeConfig(in: dir, timezone: "America/Chicago", reports: ["cost"], extra: "report_mode: strict")
        let strict = try Fleetkit.run(["nightly", "--config", config.path, "--as-of", "2026-11-02"])
        XCTAssertEqual(strict.status, 1, strict.stderr)
        let last = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("reports/nightly-last-run.json"))) as? [String: Any])
        XCTAssertEqual(last["quarantined"] as? Int, 0)
        XCTAssertEqual((last["files"] as? [Any])?.count, 0)
        XCTAssertFalse((last["partial_reports"] as? [String] ?? []).isEmpty, "\(last)")

        let text = try Fleetkit.run(["status", "--db", db])
        XCTAssertEqual(text.status, 0, text.stderr)
        // The lines under "last runs:", up to the next heading (the failed files' are also "  #").
        let runs = text.stdout.split(separator: "\n").drop { $0 != "last runs:" }.dropFirst().prefix { $0.hasPrefix("  ") }
        XCTAssertEqual(runs.count, 4, text.stdout)
        let expected = [" ok (exit 1): fleetkit nightly", " partial (exit 1): fleetkit import", " ok (exit 0): fleetkit import", " partial (exit 1): fleetkit nightly"]
        for (line, want) in zip(runs, expected) { XCTAssertTrue(line.contains(want), "\(line) should contain \(want)") }
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try Fleetkit.run(["status", "--db", db, "--json"]).stdout.utf8)) as? [String: Any])
        let listed = try XCTUnwrap(json["last_runs"] as? [[String: Any]])
        XCTAssertEqual(listed.map { $0["exit_code"] as? Int }, [1, 1, 0, 1])
        XCTAssertEqual(listed.map { $0["status"] as? String }, ["ok", "partial", "ok", "partial"])
    }

    /// A run stopped by an error (here, one recorded as a disk-full stop would be) keeps the exit
    /// code the command ended with, 2, beside its `failed` status.
    func testARunStoppedByAnErrorShowsExit2() throws {
        let t = try TestWarehouse()
        let session = ImportSession(warehouse: t.warehouse)
        let run = try session.begin(command: "fleetkit import inbox")
        session.abandon(run, because: FleetError.warehouse(path: t.warehouse.path, reason: "the disk is full", hint: "Free space."))
        let text = try Fleetkit.run(["status", "--db", t.warehouse.path])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains(" failed (exit 2): fleetkit import inbox"), text.stdout)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(try Fleetkit.run(["status", "--db", t.warehouse.path, "--json"]).stdout.utf8)) as? [String: Any])
        let listed = try XCTUnwrap(json["last_runs"] as? [[String: Any]])
        XCTAssertEqual(listed.first?["exit_code"] as? Int, 2)
        XCTAssertEqual(listed.first?["status"] as? String, "failed")
    }
}
