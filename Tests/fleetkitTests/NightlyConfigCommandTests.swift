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
        XCTAssertTrue(text.contains("reports_to_refresh: [summary, cost, utilization, maintenance-due, dvir-compliance, trips]"), text)
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
        XCTAssertTrue(r.stderr.contains("reports_to_refresh 'costs': not a report; the reports are summary, cost, utilization, maintenance-due, dvir-compliance, trips"), r.stderr)
        XCTAssertTrue(r.stderr.contains("formats 'pdf': not a report format; the formats are csv, xlsx, html, json"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("fleet.sqlite").path), "nothing is done with a bad config")
    }

    func testConfigAndInitConfigAreExclusive() throws {
        XCTAssertEqual(try Fleetkit.run(["nightly"]).status, 64)
        XCTAssertEqual(try Fleetkit.run(["nightly", "--config", "a.yml", "--init-config", "b.yml"]).status, 64)
    }
}
