import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetNightly

/// The nightly job reads each file's format through its `FileImportRunner` (in the import child
/// under `fleetkit nightly`), to import master data first; a file whose format could not be read
/// (the reader crashed or hung) is quarantined with the reason and the run goes on. The real
/// child's death is `fleetkitTests.NightlyDetectionCrashTests`; this checks what the job does
/// with the answers.
final class NightlyFormatDetectionTests: XCTestCase {
    /// Imports in process, records the order, and answers "crashed" for one file's format.
    final class Recording: FileImportRunner {
        let inner: InProcessImportRunner
        let crashing: String
        var asked: [String] = []
        var imported: [String] = []
        init(_ session: ImportSession, crashing: String) {
            inner = InProcessImportRunner(session: session)
            self.crashing = crashing
        }
        func importFile(_ url: URL, request: FileImportRequest) throws -> FileOutcome {
            XCTAssertNotEqual(request.detectOnly, true)
            imported.append(url.lastPathComponent)
            return try inner.importFile(url, request: request)
        }
        func detectFormat(_ url: URL, request: FileImportRequest) throws -> FormatDetection {
            XCTAssertEqual(request.detectOnly, true)
            asked.append(url.lastPathComponent)
            if url.lastPathComponent == crashing { return .failed("the importer crashed (SIGSEGV) reading this file; nothing of this file was imported") }
            return try inner.detectFormat(url, request: request)
        }
    }

    func testMasterDataFirstAndACrashedDetectionIsQuarantined() throws {
        let root = URL(fileURLWithPath: NightlyPaths.canonical(FileManager.default.temporaryDirectory.appendingPathComponent("nightly-detect-\(UUID())").path))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        try "date,unit_number,category,amount,currency\n2026-10-01,T-01,tolls,12.00,USD\n"
            .write(to: root.appendingPathComponent("inbox/a-expenses.csv"), atomically: false, encoding: .utf8)
        try "unit_number,vin,make\nT-02,1FTFW1E50PFA00002,Ford\n".write(to: root.appendingPathComponent("inbox/b-crash.csv"), atomically: false, encoding: .utf8)
        try "unit_number,vin,make\nT-01,1FTFW1E50PFA00001,Ford\n".write(to: root.appendingPathComponent("inbox/z-assets.csv"), atomically: false, encoding: .utf8)
        let yml = root.appendingPathComponent("fleetkit.yml")
        try "warehouse: fleet.sqlite\ninbox: inbox\narchive: archive\nquarantine: quarantine\nreports: reports\ntimezone: UTC\nreports_to_refresh: [summary]\nperiods: [previous_month]\nformats: [json]\nsettle_seconds: 0\n"
            .write(to: yml, atomically: true, encoding: .utf8)
        var runner: Recording?
        let summary = try NightlyJob(config: try NightlyConfig.load(yml.path), now: Date(timeIntervalSince1970: 1_793_620_800))
            .run(command: "test", runner: { session in
                let r = Recording(session, crashing: "b-crash.csv")
                runner = r
                return r
            })
        XCTAssertEqual(runner?.asked.sorted(), ["a-expenses.csv", "b-crash.csv", "z-assets.csv"])
        XCTAssertEqual(runner?.imported, ["z-assets.csv", "a-expenses.csv"], "master data first; the crashed file is never imported")
        let crashed = summary.files.first { $0.path.hasSuffix("b-crash.csv") }
        XCTAssertEqual(crashed?.action, "quarantined")
        XCTAssertTrue(crashed?.reason?.contains("crashed (SIGSEGV)") ?? false, "\(String(describing: crashed))")
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("quarantine/b-crash.csv.reason.txt").path))
        XCTAssertEqual(summary.totals.imported, 2)
        XCTAssertEqual(summary.exit_code, 1)
    }
}
