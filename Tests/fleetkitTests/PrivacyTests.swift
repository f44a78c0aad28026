import XCTest
import Foundation
import FleetTestSupport

/// What FleetKit writes is readable by its owner only unless asked otherwise, and full card
/// numbers reach no output: not the import summary (text or JSON), not `fleetkit rejects`, not
/// a report in any format. (FuelCardImporterTests checks every table and the database bytes.)
final class PrivacyTests: XCTestCase {
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }
    static let cardFixture = root.appendingPathComponent("Tests/FleetImportTests/Fixtures/fuel-card/full-card-number.csv")
    static let cardNumbers = ["4111111111111111", "4111 1111 1111 1111", "5500000000000004", "5500-0000-0000-0004", "6011000990139424",
                              "378282246310005", "3782 822463 10005", "4012888888881881"]

    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("privacy-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as! Int) & 0o777
    }

    func testWarehouseAndReportsAreOwnerOnlyByDefaultWhateverTheUmask() throws {
        let old = umask(0o022)
        defer { umask(old) }
        let db = dir.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db]).status, 0)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, Self.root.appendingPathComponent("SampleData/master").path,
                                         Self.root.appendingPathComponent("SampleData/fuel-card").path]).status, 0)
        XCTAssertEqual(try mode(db), 0o600)
        // While a connection is open, the WAL and its index exist: owner-only as well.
        let t = try TestWarehouse(existing: db)
        XCTAssertEqual(try t.count("asset"), 33)
        for side in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: db + side) { XCTAssertEqual(try mode(db + side), 0o600, side) }

        let out = dir.appendingPathComponent("reports/2026")
        let r = try Fleetkit.run(["report", "cost", "--db", db, "--month", "2026-10", "--allow-partial", "--format", "csv,xlsx,html,json", "--out", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        XCTAssertGreaterThanOrEqual(files.count, 4)
        for f in files { XCTAssertEqual(try mode(out.appendingPathComponent(f).path), 0o600, f) }
        XCTAssertEqual(try mode(out.path), 0o700)
        XCTAssertEqual(try mode(out.deletingLastPathComponent().path), 0o700)

        // Configurable: FLEETKIT_REPORT_MODE shares reports with a group.
        let shared = dir.appendingPathComponent("shared")
        let s = try Fleetkit.run(["report", "cost", "--db", db, "--month", "2026-10", "--allow-partial", "--format", "json", "--out", shared.path],
                                 environment: ["FLEETKIT_REPORT_MODE": "0640"])
        XCTAssertEqual(s.status, 0, s.stderr)
        XCTAssertEqual(try mode(shared.appendingPathComponent("cost-2026-10.json").path), 0o640)
        XCTAssertEqual(try mode(shared.path), 0o750)

        // A mode that is not one is refused before any report is written, not replaced by 0600.
        for bad in ["640x", "0o640", "0400", "1777"] {
            let wrong = dir.appendingPathComponent("wrong-\(bad)")
            let w = try Fleetkit.run(["report", "cost", "--db", db, "--month", "2026-10", "--format", "json", "--out", wrong.path],
                                     environment: ["FLEETKIT_REPORT_MODE": bad])
            XCTAssertNotEqual(w.status, 0, bad)
            XCTAssertTrue(w.stderr.contains("FLEETKIT_REPORT_MODE is '\(bad)'"), w.stderr)
            XCTAssertFalse(FileManager.default.fileExists(atPath: wrong.appendingPathComponent("cost-2026-10.json").path), bad)
        }
    }

    func testFullCardNumbersReachNoOutput() throws {
        let db = dir.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "America/Chicago"]).status, 0)
        var outputs: [String: String] = [:]
        let text = try Fleetkit.run(["import", "--db", db, Self.cardFixture.path])
        XCTAssertEqual(text.status, 1, text.stderr)   // three rows are rejected
        outputs["import"] = text.stdout + text.stderr
        let json = try Fleetkit.run(["import", "--db", db, "--json", "--dry-run", Self.cardFixture.path])
        outputs["import --json"] = json.stdout + json.stderr
        let rejects = try Fleetkit.run(["rejects", "--db", db])
        XCTAssertTrue(rejects.stdout.contains("************1881"), rejects.stdout)
        outputs["rejects"] = rejects.stdout + rejects.stderr
        let csv = try Fleetkit.run(["rejects", "--db", db, "--format", "csv"])
        outputs["rejects csv"] = csv.stdout + csv.stderr
        let out = dir.appendingPathComponent("reports")
        let report = try Fleetkit.run(["report", "cost", "--db", db, "--month", "2026-10", "--allow-partial", "--format", "csv,html,json", "--out", out.path])
        XCTAssertEqual(report.status, 0, report.stderr)
        outputs["report"] = report.stdout + report.stderr
        for f in try FileManager.default.contentsOfDirectory(atPath: out.path) {
            outputs[f] = try String(contentsOf: out.appendingPathComponent(f), encoding: .utf8)
        }
        XCTAssertGreaterThanOrEqual(outputs.count, 8)
        for (name, content) in outputs {
            for n in Self.cardNumbers { XCTAssertFalse(content.contains(n), "\(name) shows card number \(n)") }
        }
    }

    /// The nightly config holds no secrets of FleetKit's own, but one pasted into it (a vendor API
    /// token, say) is named as an unknown key, never echoed, in the error and the log.
    func testAConfigValueIsNeverEchoed() throws {
        let config = dir.appendingPathComponent("fleetkit.yml")
        try """
        warehouse: fleet.sqlite
        inbox: inbox
        archive: archive
        quarantine: quarantine
        reports: reports
        samsara_api_token: samsara_api_SECRET-7f3a9c
        """.write(to: config, atomically: true, encoding: .utf8)
        for args in [["nightly", "--config", config.path], ["nightly", "--config", config.path, "--json"]] {
            let r = try Fleetkit.run(args)
            XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
            XCTAssertTrue(r.stderr.contains("samsara_api_token"), r.stderr)
            XCTAssertFalse((r.stdout + r.stderr).contains("SECRET-7f3a9c"), r.stdout + r.stderr)
        }
    }
}
