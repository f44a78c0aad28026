import XCTest
import FleetTestSupport

/// The nightly job refreshes the reports of every month the night's files changed, beside its
/// configured periods: a late October card file on a December night rewrites October's cost
/// report. Before, only the configured periods were written, and October's report in the
/// reports folder stayed as it was, without the late fill.
final class NightlyTouchedPeriodsTests: XCTestCase {
    func testALateFileRefreshesTheReportsOfItsMonth() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-touched-\(UUID())")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        let config = try NightlySetup.writeConfig(in: dir, timezone: "America/Chicago", reports: ["cost"])   // periods: [previous_month]
        let reports = dir.appendingPathComponent("reports")
        try (MonthEndTests.header + MonthEndTests.fill("T1", 3, "70.00") + MonthEndTests.fill("T2", 20, "30.00").replacingOccurrences(of: "2026-10-", with: "2026-08-"))
            .write(to: dir.appendingPathComponent("inbox/card-late.csv"), atomically: true, encoding: .utf8)
        let r = try Fleetkit.run(["nightly", "--config", config.path, "--as-of", "2026-12-02"])
        XCTAssertLessThanOrEqual(r.status, 1, r.stderr)
        let fm = FileManager.default
        XCTAssertTrue(fm.fileExists(atPath: reports.appendingPathComponent("cost-2026-11.json").path), "the configured period")
        for month in ["2026-10", "2026-08"] {
            let url = reports.appendingPathComponent("cost-\(month).json")
            XCTAssertTrue(fm.fileExists(atPath: url.path), "the touched month \(month): \((try? fm.contentsOfDirectory(atPath: reports.path)) ?? [])")
        }
        let october = try String(contentsOf: reports.appendingPathComponent("cost-2026-10.json"), encoding: .utf8)
        XCTAssertTrue(october.contains("70.00") || october.contains("70"), "October's report holds the late fill")
        XCTAssertFalse(fm.fileExists(atPath: reports.appendingPathComponent("cost-2026-09.json").path), "a month no file touched")
    }
}
