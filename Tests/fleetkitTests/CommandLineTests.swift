import XCTest
import FleetTestSupport

/// The command line is a contract that scripts and cron jobs rely on (docs/OPERATIONS.md, "Exit codes (every command)"): exit codes,
/// `--json` shapes and messages are pinned here against the built executable.
final class CommandLineTests: XCTestCase {
    var dir: URL!
    var db: String { dir.appendingPathComponent("fleet.sqlite").path }

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    private var assets: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FleetImportTests/Fixtures/assets").path
    }

    func testInitStoresSettings() throws {
        let r = try Fleetkit.run(["init", "--db", db, "--tz", "America/Chicago", "--currency", "EUR", "--units", "us"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "warehouse \(db) is ready (time zone America/Chicago, currency EUR, units us)\n"
                       + "trip rules: gap_seconds 3600, idle_speed_mps 0.2777777777777778, start_distance_m 200, stop_radius_m 200, stop_seconds 180\n")
    }

    func testUsageErrorsExit64() throws {
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "Mars/Olympus"]).status, 64)
        let r = try Fleetkit.run(["import", "--db", db, "--format", "nonsense", assets])
        XCTAssertEqual(r.status, 64)
        XCTAssertTrue(r.stderr.contains("unknown format 'nonsense'; known formats: assets"), r.stderr)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db]).status, 64)  // no paths
    }

    func testImportExitCodesAndJSON() throws {
        let good = try Fleetkit.run(["import", "--db", db, "--create", "--json", assets + "/good.csv"])
        XCTAssertEqual(good.status, 0, good.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(good.stdout.utf8)) as! [String: Any]
        let files = json["files"] as! [[String: Any]]
        XCTAssertEqual(files[0]["status"] as? String, "imported")
        XCTAssertEqual(files[0]["format"] as? String, "assets")
        XCTAssertEqual(files[0]["loaded"] as? Int, 2)
        XCTAssertEqual((json["totals"] as! [String: Any])["loaded"] as? Int, 2)

        let again = try Fleetkit.run(["import", "--db", db, assets + "/good.csv"])
        XCTAssertEqual(again.status, 0)
        XCTAssertTrue(again.stdout.contains("unchanged \(assets)/good.csv: already imported (same bytes)"), again.stdout)

        let partial = try Fleetkit.run(["import", "--db", db, assets + "/vin-with-i.csv"])
        XCTAssertEqual(partial.status, 1)
        let rejects = try Fleetkit.run(["rejects", "--db", db])
        XCTAssertEqual(rejects.status, 0)
        XCTAssertTrue(rejects.stdout.contains("vin-with-i.csv:2: bad_vin: 'vin' is '1FTFW1E5IPFA00002'"), rejects.stdout)
        let csv = try Fleetkit.run(["rejects", "--db", db, "--format", "csv"])
        XCTAssertTrue(csv.stdout.hasPrefix("file_id,path,location,reason,message,raw\r\n"), csv.stdout)

        let failed = try Fleetkit.run(["import", "--db", db, assets + "/truncated.csv"])
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stderr.contains("unterminated quoted field in record 2"), failed.stderr)
    }

    func testStatus() throws {
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, "--create", assets + "/good.csv"]).status, 0)
        let r = try Fleetkit.run(["status", "--db", db, "--json"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(json["assets"] as? Int, 2)
        XCTAssertEqual((json["tables"] as! [String: Int])["source_file"], 1)
        let text = try Fleetkit.run(["status", "--db", db])
        XCTAssertTrue(text.stdout.contains("assets:    2 (0 auto-created"), text.stdout)
    }

    func testAMissingOrForeignWarehouseExits2() throws {
        let missing = try Fleetkit.run(["status", "--db", dir.appendingPathComponent("none.sqlite").path])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("there is no warehouse here"), missing.stderr)
        let notes = dir.appendingPathComponent("notes.sqlite")
        try String(repeating: "not sqlite\n", count: 100).write(to: notes, atomically: true, encoding: .utf8)
        let foreign = try Fleetkit.run(["import", "--db", notes.path, assets + "/good.csv"])
        XCTAssertEqual(foreign.status, 2)
        XCTAssertTrue(foreign.stderr.contains("not a FleetKit warehouse"), foreign.stderr)
    }

    func testFleetkitDBEnvironment() throws {
        let r = try Fleetkit.run(["import", "--create", assets + "/good.csv"], in: dir, environment: ["FLEETKIT_DB": db])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: db))
    }

    func testFormatsListsEveryImporter() throws {
        let r = try Fleetkit.run(["formats"])
        XCTAssertEqual(r.status, 0)
        XCTAssertTrue(r.stdout.contains("assets"), r.stdout)
        XCTAssertTrue(r.stdout.contains("(e.g. assets.csv)"), r.stdout)
    }
}
