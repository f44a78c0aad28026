import XCTest
import FleetCore
import FleetKit
import FleetTestSupport
@testable import FleetNightly

/// `nightly-last-run.json` is what alerting reads (`jq .exit_code`). While a run is under way it
/// says `running` with no exit code, so a run killed midway never leaves the previous night's
/// `exit_code: 0` behind; a run stopped by an error says `stopped` with exit code 2; a finished
/// run's summary says `finished`.
final class NightlyLastRunStateTests: XCTestCase {
    /// Reads the reports folder's last-run file when a file is imported, then imports it, or
    /// throws as a full disk would.
    final class Peeking: FileImportRunner {
        let inner: InProcessImportRunner
        let reports: URL
        let fail: Bool
        var seen: [String: Any]?
        init(_ session: ImportSession, reports: URL, fail: Bool) {
            inner = InProcessImportRunner(session: session)
            (self.reports, self.fail) = (reports, fail)
        }
        func importFile(_ url: URL, request: FileImportRequest) throws -> FileOutcome {
            seen = try JSONSerialization.jsonObject(with: Data(contentsOf: reports.appendingPathComponent("nightly-last-run.json"))) as? [String: Any]
            if fail { throw FleetError.warehouse(path: request.warehouse, reason: "the disk is full", hint: "Free space.") }
            return try inner.importFile(url, request: request)
        }
        func detectFormat(_ url: URL, request: FileImportRequest) throws -> FormatDetection { try inner.detectFormat(url, request: request) }
    }

    private func setUpRoot() throws -> URL {
        let root = URL(fileURLWithPath: NightlyPaths.canonical(FileManager.default.temporaryDirectory.appendingPathComponent("nightly-state-\(UUID())").path))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        try "date,unit_number,category,amount,currency\n2026-10-01,T-01,tolls,12.00,USD\n"
            .write(to: root.appendingPathComponent("inbox/expenses.csv"), atomically: false, encoding: .utf8)
        try "warehouse: fleet.sqlite\ninbox: inbox\narchive: archive\nquarantine: quarantine\nreports: reports\ntimezone: UTC\nreports_to_refresh: [summary]\nperiods: [previous_month]\nformats: [json]\nsettle_seconds: 0\n"
            .write(to: root.appendingPathComponent("fleetkit.yml"), atomically: true, encoding: .utf8)
        return root
    }

    private func lastRun(_ root: URL) throws -> [String: Any] {
        try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("reports/nightly-last-run.json"))) as? [String: Any])
    }

    func testARunUnderWaySaysRunningAndAFinishedOneSaysFinished() throws {
        let root = try setUpRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        var runner: Peeking?
        let summary = try NightlyJob(config: try NightlyConfig.load(root.appendingPathComponent("fleetkit.yml").path), now: Date(timeIntervalSince1970: 1_793_620_800))
            .run(command: "test", runner: { session in
                let r = Peeking(session, reports: root.appendingPathComponent("reports"), fail: false)
                runner = r
                return r
            })
        let during = try XCTUnwrap(runner?.seen)
        XCTAssertEqual(during["state"] as? String, "running")
        XCTAssertEqual(during["run_id"] as? Int, summary.run_id.map(Int.init))
        XCTAssertNil(during["exit_code"], "a run under way has no exit code yet: \(during)")
        let after = try lastRun(root)
        XCTAssertEqual(after["state"] as? String, "finished")
        XCTAssertEqual(after["exit_code"] as? Int, 0)
    }

    func testARunStoppedByAWarehouseErrorSaysStoppedWithExit2() throws {
        let root = try setUpRoot()
        defer { try? FileManager.default.removeItem(at: root) }
        let job = NightlyJob(config: try NightlyConfig.load(root.appendingPathComponent("fleetkit.yml").path), now: Date(timeIntervalSince1970: 1_793_620_800))
        XCTAssertThrowsError(try job.run(command: "test", runner: { Peeking($0, reports: root.appendingPathComponent("reports"), fail: true) }))
        let after = try lastRun(root)
        XCTAssertEqual(after["state"] as? String, "stopped")
        XCTAssertEqual(after["exit_code"] as? Int, 2)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("inbox/expenses.csv").path), "the file stays in the inbox")
    }
}
