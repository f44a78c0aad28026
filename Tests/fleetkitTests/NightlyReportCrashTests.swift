import XCTest
import Foundation
import FleetTestSupport

/// `fleetkit nightly` writes its reports in a child process (`fleetkit nightly-reports`). That
/// child is killed here while it writes, as a crash in libxlsxwriter or the out-of-memory killer
/// would end it: the run still finishes, with every file imported and archived, the failure
/// recorded in `report_failures` and `nightly-last-run.json`, the ledger closed, and exit 1.
final class NightlyReportCrashTests: XCTestCase {
    func testAReportWriterKilledMidwayIsARecordedFailureAndTheRunCloses() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-report-crash-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        try NightlySetup.addSampleFolders(["master", "expenses", "fuel-card"], in: root)
        try NightlySetup.writeConfig(in: root, timezone: "America/Chicago", reports: ["cost", "utilization", "summary"], formats: ["csv", "json", "html", "xlsx"])
        let p = Process()
        p.executableURL = Fleetkit.executable
        p.arguments = ["nightly", "--config", root.appendingPathComponent("fleetkit.yml").path, "--as-of", "2026-11-02", "--json"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let writer = ChildProcessFinder.child(of: p.processIdentifier, mentioning: "nightly-reports", within: 300)
        XCTAssertNotNil(writer, "the nightly job never started its report writer")
        if let writer { kill(writer, SIGKILL) }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()

        XCTAssertEqual(p.terminationReason, .exit)
        XCTAssertEqual(p.terminationStatus, 1)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: stdout) as? [String: Any], String(decoding: stdout, as: UTF8.self))
        let failures = summary["report_failures"] as? [[String: Any]] ?? []
        XCTAssertEqual(failures.count, 1, "\(failures)")
        let reason = failures.first?["reason"] as? String ?? ""
        XCTAssertTrue(reason.contains("the report writer was killed (SIGKILL)"), reason)
        let files = summary["files"] as? [[String: Any]] ?? []
        XCTAssertGreaterThan(files.count, 3)
        XCTAssertTrue(files.allSatisfy { $0["action"] as? String == "archived" }, "\(files.filter { $0["action"] as? String != "archived" })")
        let last = try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("reports/nightly-last-run.json"))) as? [String: Any]
        XCTAssertEqual((last?["report_failures"] as? [[String: Any]])?.count, 1)
        let t = try TestWarehouse(existing: root.appendingPathComponent("fleet.sqlite").path)
        XCTAssertEqual(try t.rows("SELECT status FROM import_run").map { $0[0] as String }, ["ok"], "the run is closed, not left running")
    }
}
