import XCTest
import FleetTestSupport
import FleetWarehouse

/// `rejects --file` takes the path people imported (or its end, or the id from `status --json`);
/// an unknown or ambiguous one is a usage error, never an empty list that reads "no rejects".
final class RejectsFileTests: XCTestCase {
    private var root: URL!
    private var db: String { root.appendingPathComponent("fleet.sqlite").path }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("rejects-file-\(UUID())")
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FleetImportTests/Fixtures/assets")
        for sub in ["a", "b"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        // Two files with rejects, and one name that exists in two folders.
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("vin-with-i.csv"), to: root.appendingPathComponent("a/vin-with-i.csv"))
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("bad-number-and-date.csv"), to: root.appendingPathComponent("a/bad.csv"))
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("duplicate-unit.csv"), to: root.appendingPathComponent("b/bad.csv"))
        // The folder holds the warehouse: it, its WAL and the run's own lock file are skipped.
        let r = try Fleetkit.run(["import", "--db", db, "--create", "--format", "assets", root.path])
        XCTAssertEqual(r.status, 1)
        XCTAssertFalse(r.stderr.contains("fleet.sqlite"), "the warehouse's own files are not imported: \(r.stderr)")
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    private func rejects(_ args: [String]) throws -> [[String: Any]] {
        let r = try Fleetkit.run(["rejects", "--db", db, "--json"] + args)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [[String: Any]]
    }

    func testFileByPathNameOrID() throws {
        let all = try rejects([])
        let vin = root.appendingPathComponent("a/vin-with-i.csv").path
        XCTAssertTrue(Set(all.map { $0["path"] as! String }).isSuperset(of: [vin]))
        let byName = try rejects(["--file", "vin-with-i.csv"])
        XCTAssertFalse(byName.isEmpty)
        XCTAssertEqual(Set(byName.map { $0["path"] as! String }), [vin])
        XCTAssertEqual(byName.first?["reason"] as? String, "bad_vin")
        XCTAssertEqual(try rejects(["--file", vin]).count, byName.count)
        XCTAssertEqual(try rejects(["--file", "a/bad.csv"]).map { $0["path"] as! String }.first, root.appendingPathComponent("a/bad.csv").path)
        // A relative path from the working folder, as typed after `cd`.
        let relative = try Fleetkit.run(["rejects", "--db", db, "--json", "--file", "a/vin-with-i.csv"], in: root)
        XCTAssertEqual(relative.status, 0, relative.stderr)
        let id = byName[0]["file_id"] as! Int
        XCTAssertEqual(try rejects(["--file", String(id)]).count, byName.count)
    }

    /// A file that failed as a whole has no rejected rows; `status` names it with its error.
    func testFailedFilesOfAPlainImportShowInStatus() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FleetImportTests/Fixtures/assets")
        let broken = root.appendingPathComponent("c/truncated.csv")
        try FileManager.default.createDirectory(at: broken.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("truncated.csv"), to: broken)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, broken.path]).status, 1)
        let text = try Fleetkit.run(["status", "--db", db])
        XCTAssertTrue(text.stdout.contains("files that failed in these runs"), text.stdout)
        XCTAssertTrue(text.stdout.contains("  #2 \(broken.path): unterminated quoted field in record 2"), text.stdout)
        let json = try JSONSerialization.jsonObject(with: Data(try Fleetkit.run(["status", "--db", db, "--json"]).stdout.utf8)) as! [String: Any]
        let failed = json["failed_files"] as! [[String: Any]]
        XCTAssertEqual(failed.map { $0["path"] as? String }, [broken.path])
        XCTAssertEqual(failed.first?["run_id"] as? Int, 2)
    }

    /// A stored run summary that cannot be read is named in `status`, never a silent gap.
    func testAnUnreadableRunSummaryIsNamedInStatus() throws {
        try Warehouse(path: db).pool.write { db in
            try db.execute(sql: "UPDATE import_run SET summary_json = '{not json' WHERE id = (SELECT MAX(id) FROM import_run)")
        }
        let json = try JSONSerialization.jsonObject(with: Data(try Fleetkit.run(["status", "--db", db, "--json"]).stdout.utf8)) as! [String: Any]
        let failed = json["failed_files"] as! [[String: Any]]
        let entry = try XCTUnwrap(failed.first { ($0["path"] as? String)?.hasSuffix("summary)") == true }, "\(failed)")
        XCTAssertTrue((entry["error"] as? String ?? "").contains("the run's stored summary cannot be read"), "\(entry)")
    }

    func testUnknownOrAmbiguousFileIsAUsageError() throws {
        let unknown = try Fleetkit.run(["rejects", "--db", db, "--file", "vin-with-l.csv"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertTrue(unknown.stderr.contains("no imported file has this path (close: vin-with-i.csv)"), unknown.stderr)
        let ambiguous = try Fleetkit.run(["rejects", "--db", db, "--file", "bad.csv"])
        XCTAssertEqual(ambiguous.status, 64)
        XCTAssertTrue(ambiguous.stderr.contains("2 imported files end so: \(root.path)/a/bad.csv, \(root.path)/b/bad.csv"), ambiguous.stderr)
    }
}
