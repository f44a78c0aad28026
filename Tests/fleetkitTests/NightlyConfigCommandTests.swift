import XCTest
import FleetTestSupport

/// `nightly --init-config` writes a starter configuration that validates and runs; a config with
/// unknown report or format names is refused with every problem listed at once, the valid names
/// read from the report and format registries.
final class NightlyConfigCommandTests: XCTestCase {
    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-config-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    func testInitConfigWritesAStarterThatRuns() throws {
        let yml = root.appendingPathComponent("fleetkit.yml").path
        let r = try Fleetkit.run(["nightly", "--init-config", yml])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stdout, "wrote \(yml); edit it, then run: fleetkit nightly --config \(yml)\n")
        let text = try String(contentsOfFile: yml, encoding: .utf8)
        XCTAssertTrue(text.contains("reports_to_refresh: [summary, cost, utilization, maintenance-due, dvir-compliance, trips, fuel-exceptions]"), text)
        XCTAssertTrue(text.contains("formats: [csv, xlsx, html, json]"), text)
        XCTAssertTrue(text.contains("# "), "annotated")
        let mode = (try FileManager.default.attributesOfItem(atPath: yml)[.posixPermissions] as? NSNumber)?.intValue
        XCTAssertEqual(mode, 0o600)

        // It never overwrites (it may be the production config): usage error, file unchanged.
        let again = try Fleetkit.run(["nightly", "--init-config", yml])
        XCTAssertEqual(again.status, 64)
        XCTAssertTrue(again.stderr.contains("already exists"), again.stderr)
        XCTAssertEqual(try String(contentsOfFile: yml, encoding: .utf8), text)

        // The starter runs as written: an empty inbox, reports refreshed, exit 0.
        let run = try Fleetkit.run(["nightly", "--config", yml, "--as-of", "2026-11-02", "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("reports/index.html").path))
    }

    func testUnknownReportAndFormatNamesAreAllListed() throws {
        try FileManager.default.createDirectory(at: root.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        let yml = root.appendingPathComponent("fleetkit.yml").path
        try """
        warehouse: fleet.sqlite
        inbox: inbox
        archive: archive
        quarantine: quarantine
        reports: reports
        reports_to_refresh: [summary, costs]
        formats: [csv, pdf]
        """.write(toFile: yml, atomically: true, encoding: .utf8)
        let r = try Fleetkit.run(["nightly", "--config", yml])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("2 problems"), r.stderr)
        XCTAssertTrue(r.stderr.contains("reports_to_refresh 'costs': not a report; the reports are summary, cost, utilization, maintenance-due, dvir-compliance, trips, fuel-exceptions"), r.stderr)
        XCTAssertTrue(r.stderr.contains("formats 'pdf': not a report format; the formats are csv, xlsx, html, json"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("fleet.sqlite").path), "nothing is done with a bad config")
    }

    /// `report_mode: strict` makes a run whose reports are partial exit 1 with each reason on
    /// stderr, as `fleetkit report` does without --allow-partial; `partial` (the default)
    /// writes the same reports marked partial, lists them in `partial_reports`, and exits 0.
    func testReportModeStrictMakesPartialReportsExit1() throws {
        for mode in ["partial", "strict"] {
            let dir = root.appendingPathComponent(mode)
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let yml = dir.appendingPathComponent("fleetkit.yml").path
            XCTAssertEqual(try Fleetkit.run(["nightly", "--init-config", yml]).status, 0)
            var text = try String(contentsOfFile: yml, encoding: .utf8)
            text = text.replacingOccurrences(of: "report_mode: partial ", with: "report_mode: \(mode) ")
            text = text.replacingOccurrences(of: "settle_seconds: 60 ", with: "settle_seconds: 0  ")
            try text.write(toFile: yml, atomically: true, encoding: .utf8)
            // Master data only: no dated facts, so every report of November is partial.
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("inbox/master"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                                                .appendingPathComponent("FleetImportTests/Fixtures/assets/good.csv"),
                                             to: dir.appendingPathComponent("inbox/master/assets.csv"))
            let r = try Fleetkit.run(["nightly", "--config", yml, "--as-of", "2026-11-02"])
            let last = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("reports/nightly-last-run.json"))) as! [String: Any]
            let partial = last["partial_reports"] as! [String]
            XCTAssertTrue(partial.contains("cost (2026-11): the warehouse holds no dated data yet: import files first"), "\(partial)")
            XCTAssertTrue(r.stdout.contains("1 imported"), r.stdout)
            if mode == "strict" {
                XCTAssertEqual(r.status, 1, r.stderr)
                XCTAssertTrue(r.stderr.contains("error: partial report (report_mode: strict): cost (2026-11): the warehouse holds no dated data yet"), r.stderr)
            } else {
                XCTAssertEqual(r.status, 0, r.stderr)
                XCTAssertFalse(r.stderr.contains("partial report"), r.stderr)
            }
        }
        let bad = root.appendingPathComponent("partial/fleetkit.yml").path
        try (try String(contentsOfFile: bad, encoding: .utf8)).replacingOccurrences(of: "report_mode: partial ", with: "report_mode: lax ")
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let r = try Fleetkit.run(["nightly", "--config", bad])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("report_mode"), r.stderr)
    }

    /// nightly --quiet: a clean run prints nothing; a quarantined file is still said on stderr.
    func testNightlyQuiet() throws {
        let yml = root.appendingPathComponent("fleetkit.yml").path
        XCTAssertEqual(try Fleetkit.run(["nightly", "--init-config", yml]).status, 0)
        try (try String(contentsOfFile: yml, encoding: .utf8)).replacingOccurrences(of: "settle_seconds: 60 ", with: "settle_seconds: 0  ")
            .replacingOccurrences(of: "[month_to_date, previous_month]", with: "[previous_month]")
            .write(toFile: yml, atomically: true, encoding: .utf8)
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FleetImportTests/Fixtures/assets")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("inbox/master"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("good.csv"), to: root.appendingPathComponent("inbox/master/assets.csv"))
        let clean = try Fleetkit.run(["nightly", "--config", yml, "--as-of", "2026-11-02", "--quiet"])
        XCTAssertEqual(clean.status, 0, clean.stderr)
        XCTAssertEqual(clean.stdout, "")
        XCTAssertEqual(clean.stderr, "")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("truncated.csv"), to: root.appendingPathComponent("inbox/master/broken.csv"))
        let bad = try Fleetkit.run(["nightly", "--config", yml, "--as-of", "2026-11-02", "--quiet"])
        XCTAssertEqual(bad.status, 1)
        XCTAssertEqual(bad.stdout, "")
        XCTAssertTrue(bad.stderr.hasPrefix("quarantined \(root.path)/inbox/master/broken.csv: unterminated quoted field"), bad.stderr)
    }

    /// report_file_mode sets the mode of every report file the run writes (0600 without it).
    func testReportFileModeFromTheConfig() throws {
        let yml = root.appendingPathComponent("fleetkit.yml").path
        XCTAssertEqual(try Fleetkit.run(["nightly", "--init-config", yml]).status, 0)
        let starter = try String(contentsOfFile: yml, encoding: .utf8)
        func mode(_ name: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("reports/\(name)").path)[.posixPermissions] as! NSNumber).intValue
        }
        XCTAssertEqual(try Fleetkit.run(["nightly", "--config", yml, "--as-of", "2026-11-02"], environment: ["FLEETKIT_REPORT_MODE": "0600"]).status, 0)
        XCTAssertEqual(try mode("cost-2026-10.json"), 0o600)
        try starter.replacingOccurrences(of: "# report_file_mode: \"0640\"", with: "report_file_mode: \"0640\"  ")
            .write(toFile: yml, atomically: true, encoding: .utf8)
        let r = try Fleetkit.run(["nightly", "--config", yml, "--as-of", "2026-11-02"], environment: ["FLEETKIT_REPORT_MODE": "0600"])
        XCTAssertEqual(r.status, 0, r.stderr)
        for name in ["cost-2026-10.json", "cost-2026-10-detail.csv", "cost-2026-10.xlsx", "summary-2026-11.html", "index.html"] { XCTAssertEqual(try mode(name), 0o640, name) }
        try starter.replacingOccurrences(of: "# report_file_mode: \"0640\"", with: "report_file_mode: \"0466\"  ")
            .write(toFile: yml, atomically: true, encoding: .utf8)
        let bad = try Fleetkit.run(["nightly", "--config", yml])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("report_file_mode '0466': an octal file mode that lets the owner read and write"), bad.stderr)
    }

    func testConfigAndInitConfigAreExclusive() throws {
        XCTAssertEqual(try Fleetkit.run(["nightly"]).status, 64)
        XCTAssertEqual(try Fleetkit.run(["nightly", "--config", "a.yml", "--init-config", "b.yml"]).status, 64)
    }
}
