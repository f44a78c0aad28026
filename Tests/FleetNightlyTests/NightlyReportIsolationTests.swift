import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetNightly

/// The nightly report refresh after the files were imported and archived: one value or one
/// report can no longer fail the others (issue 18 item 4). Each report and format is written or
/// fails alone; a failure is in `report_failures` of nightly-last-run.json and makes exit code 1.
final class NightlyReportIsolationTests: XCTestCase {
    var root: URL!
    let asOf = Date(timeIntervalSince1970: 1_793_620_800)   // 2026-11-02 noon in Chicago: reports October

    static var testsFolder: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent() }
    static var longText: URL { testsFolder.appendingPathComponent("FleetReportsTests/Fixtures/hostile/expense-description-60k.csv") }
    static var sampleData: URL { testsFolder.deletingLastPathComponent().appendingPathComponent("SampleData") }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-reports-\(UUID())")
        let inbox = root.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        for folder in ["master", "expenses"] {
            try FileManager.default.copyItem(at: Self.sampleData.appendingPathComponent(folder), to: inbox.appendingPathComponent(folder))
        }
        try FileManager.default.copyItem(at: Self.longText, to: inbox.appendingPathComponent("expenses/expense-description-60k.csv"))
    }

    func config() throws -> NightlyConfig {
        let yml = root.appendingPathComponent("fleetkit.yml")
        try """
        warehouse: fleet.sqlite
        inbox: inbox
        archive: archive
        quarantine: quarantine
        reports: reports
        settle_seconds: 0
        timezone: America/Chicago
        currency: USD
        units: us
        reports_to_refresh: [summary, cost, trips]
        periods: [previous_month]
        formats: [csv, xlsx, html, json]
        """.write(to: yml, atomically: true, encoding: .utf8)
        return try NightlyConfig.load(yml.path)
    }

    func reports() throws -> Set<String> {
        Set(try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("reports").path))
    }

    /// Fixtures/hostile/expense-description-60k.csv in the inbox used to end the refresh with
    /// exit 2 after every file had been archived; now every report is written, exit 0.
    func testA60KBDescriptionNoLongerFailsTheRefresh() throws {
        let summary = try NightlyJob(config: try config(), now: asOf).run(command: "test")
        XCTAssertEqual(summary.report_failures, [])
        XCTAssertEqual(summary.exit_code, 0)
        XCTAssertEqual(summary.quarantined, 0)
        let names = try reports()
        for report in ["summary", "cost", "trips"] {
            for ext in ["xlsx", "html", "json"] { XCTAssertTrue(names.contains("\(report)-2026-10.\(ext)"), "\(report).\(ext)") }
        }
        let csv = try String(contentsOf: root.appendingPathComponent("reports/cost-2026-10-detail.csv"), encoding: .utf8)
        XCTAssertTrue(csv.contains("Brake job"))
    }

    /// The cost workbook cannot be written (a folder holds its name): that file fails alone,
    /// said in the summary, the run exits 1 and every other report and the index are written.
    func testOneReportFileThatCannotBeWrittenFailsAloneWithExit1() throws {
        let blocker = root.appendingPathComponent("reports/cost-2026-10.xlsx")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: blocker.appendingPathComponent("keep.txt"))
        let summary = try NightlyJob(config: try config(), now: asOf).run(command: "test")
        XCTAssertEqual(summary.report_failures.map { "\($0.report)/\($0.format ?? "-")" }, ["cost/xlsx"])
        XCTAssertTrue(summary.report_failures[0].reason.hasPrefix("2026-10: "), summary.report_failures[0].reason)
        XCTAssertEqual(summary.exit_code, 1)
        XCTAssertEqual(summary.quarantined, 0, "the files were imported; a report failure never quarantines them")
        let names = try reports()
        for name in ["summary-2026-10.xlsx", "trips-2026-10.xlsx", "cost-2026-10.html", "cost-2026-10.json", "cost-2026-10-detail.csv", "index.html"] {
            XCTAssertTrue(names.contains(name), name)
        }
        let last = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("reports/nightly-last-run.json"))) as? [String: Any]
        XCTAssertEqual((last?["report_failures"] as? [[String: Any]])?.first?["format"] as? String, "xlsx")
        XCTAssertEqual(last?["exit_code"] as? Int, 1)
    }
}
