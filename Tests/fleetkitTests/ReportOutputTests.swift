import XCTest
import FleetTestSupport

/// `fleetkit report` with the manners of `import` (issue 19): `--json` prints one object on
/// stdout with what was written; progress goes to stderr only on a terminal or with
/// `--verbose`, one plain line per report and format; `--quiet` prints only errors.
/// The warehouse holds two October 2026 expenses, 12.34 + 100.00 USD for T-01, and nothing
/// else, so the reports are partial (no trips or telematics behind the period).
final class ReportOutputTests: XCTestCase {
    private var root: URL!
    private var db: String { root.appendingPathComponent("fleet.sqlite").path }
    private var out: URL { root.appendingPathComponent("out") }

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("report-output-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let csv = root.appendingPathComponent("expenses.csv")
        try Data("""
            expense_id,date,category,amount,currency,vendor,description,unit_number
            EXP-1,2026-10-05,repair,12.34,USD,Garage,Brake job,T-01
            EXP-2,2026-10-20,tires,100.00,USD,Tyre Shop,Two tyres,T-01

            """.utf8).write(to: csv)
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "UTC", "--currency", "USD"]).status, 0)
        let r = try Fleetkit.run(["import", "--db", db, "--format", "expenses", csv.path])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    private func object(_ text: String) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try XCTUnwrap(value as? [String: Any], "stdout must be one JSON object: \(text)")
    }

    /// `report all --json`: one object naming every file on disk with its report and format,
    /// the cost headline from the two expenses, the partial reasons, no failures; exit 0 with
    /// --allow-partial, and no text lines on stdout.
    func testJSONNamesEveryFileWrittenWithItsReportAndFormat() throws {
        let r = try Fleetkit.run(["report", "all", "--db", db, "--month", "2026-10", "--allow-partial", "--json", "--out", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let o = try object(r.stdout)
        XCTAssertEqual(o["period"] as? String, "2026-10")
        XCTAssertEqual(o["from"] as? String, "2026-10-01")
        XCTAssertEqual(o["to"] as? String, "2026-10-31")
        XCTAssertEqual(o["exit_code"] as? Int, 0)
        XCTAssertEqual(o["allow_partial"] as? Bool, true)
        XCTAssertEqual((o["failures"] as? [Any])?.count, 0)
        let files = try XCTUnwrap(o["files"] as? [[String: String]])
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertEqual(files.compactMap { $0["path"].map { URL(fileURLWithPath: $0).lastPathComponent } }.sorted(), onDisk)
        for f in files {
            let name = URL(fileURLWithPath: f["path"] ?? "").lastPathComponent
            XCTAssertTrue(name.hasPrefix(f["report"] ?? "?"), "\(f)")
            XCTAssertEqual(URL(fileURLWithPath: name).pathExtension, f["format"], "\(f)")
        }
        XCTAssertTrue(files.contains { $0["report"] == "index" && $0["format"] == "html" }, "\(files)")
        let reports = try XCTUnwrap(o["reports"] as? [[String: Any]])
        let cost = try XCTUnwrap(reports.first { $0["report"] as? String == "cost" })
        // A number with its unit, and the text the report prints (issue 29: scripts parsed "$112.34").
        let headlines = try XCTUnwrap(cost["headlines"] as? [[String: Any]])
        let total = try XCTUnwrap(headlines.first { $0["name"] as? String == "total" })
        XCTAssertEqual(total["value"] as? Double, 112.34)
        XCTAssertEqual(total["unit"] as? String, "USD")
        XCTAssertTrue((total["text"] as? String ?? "").contains("112.34"), "\(total)")
        XCTAssertEqual(cost["partial"] as? Bool, true)
        XCTAssertFalse((cost["partial_reasons"] as? [String] ?? []).isEmpty)
        XCTAssertFalse((o["partial"] as? [Any] ?? []).isEmpty)
        XCTAssertFalse(r.stdout.contains("wrote "), r.stdout)
    }

    /// Without --allow-partial the exit code is 1 as in text mode, the JSON says so, and the
    /// error is on stderr, not in stdout's JSON text.
    func testJSONKeepsTheExitCodeAndErrorsOnStderr() throws {
        let r = try Fleetkit.run(["report", "cost", "--db", db, "--month", "2026-10", "--format", "json", "--json", "--out", out.path])
        XCTAssertEqual(r.status, 1, r.stderr)
        let o = try object(r.stdout)
        XCTAssertEqual(o["exit_code"] as? Int, 1)
        XCTAssertEqual(o["allow_partial"] as? Bool, false)
        let partial = try XCTUnwrap(o["partial"] as? [[String: Any]])
        XCTAssertEqual(partial.first?["reports"] as? [String], ["cost"])
        XCTAssertTrue(r.stderr.contains("error: partial (cost): "), r.stderr)
    }

    /// A report file that cannot be written (a folder stands at its path): in `failures` with
    /// its report and format, not in `files`; the error on stderr; exit 1, the other format written.
    func testJSONListsAFailedFormat() throws {
        try FileManager.default.createDirectory(at: out.appendingPathComponent("cost-2026-10.xlsx/keep"), withIntermediateDirectories: true)
        let r = try Fleetkit.run(["report", "cost", "--db", db, "--month", "2026-10", "--format", "xlsx,json", "--allow-partial", "--json", "--out", out.path])
        XCTAssertEqual(r.status, 1, r.stderr)
        let o = try object(r.stdout)
        XCTAssertEqual(o["exit_code"] as? Int, 1)
        let failures = try XCTUnwrap(o["failures"] as? [[String: Any]])
        XCTAssertEqual(failures.count, 1, "\(failures)")
        XCTAssertEqual(failures.first?["report"] as? String, "cost")
        XCTAssertEqual(failures.first?["format"] as? String, "xlsx")
        let files = try XCTUnwrap(o["files"] as? [[String: String]])
        XCTAssertEqual(files.map { $0["format"] ?? "" }, ["json"])
        XCTAssertTrue(r.stderr.contains("error: the cost report (xlsx) was not written: "), r.stderr)
    }

    /// Piped, as from cron: a "wrote" line per file on stdout, no progress on stderr.
    func testPipedReportHasNoProgress() throws {
        let r = try Fleetkit.run(["report", "all", "--db", db, "--month", "2026-10", "--allow-partial", "--out", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stderr.contains("report: "), r.stderr)
        XCTAssertFalse(r.stderr.contains("\r"), r.stderr)
        let onDisk = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { !$0.hasPrefix(".") }
        XCTAssertEqual(r.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("wrote ") }.count, onDisk.count, r.stdout)
    }

    /// --verbose into a log: one plain progress line per report and format on stderr, as each
    /// is written; stdout stays pure JSON.
    func testVerboseShowsOneProgressLinePerReportFormatOnStderrOnly() throws {
        let r = try Fleetkit.run(["report", "cost", "--db", db, "--month", "2026-10", "--format", "csv,json", "--allow-partial",
                                  "--verbose", "--json", "--out", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let progress = r.stderr.split(separator: "\n").filter { $0.hasPrefix("report: ") }
        XCTAssertEqual(progress.count, 2, r.stderr)
        XCTAssertTrue(progress[0].hasPrefix("report: 1/2 outputs"), r.stderr)
        XCTAssertTrue(progress[1].hasPrefix("report: 2/2 outputs"), r.stderr)
        XCTAssertFalse(r.stderr.contains("\r"), r.stderr)
        XCTAssertNoThrow(try object(r.stdout))
        XCTAssertFalse(r.stdout.contains("report: "), r.stdout)
    }

    /// --quiet: nothing on stdout; accepted partial figures print nothing either; an error still
    /// does (stderr, exit 1); --quiet with --verbose is a usage error.
    func testQuietPrintsOnlyErrors() throws {
        let ok = try Fleetkit.run(["report", "all", "--db", db, "--month", "2026-10", "--allow-partial", "--quiet", "--out", out.path])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        XCTAssertEqual(ok.stdout, "")
        XCTAssertEqual(ok.stderr, "")
        let partial = try Fleetkit.run(["report", "cost", "--db", db, "--month", "2026-10", "--quiet", "--out", out.path])
        XCTAssertEqual(partial.status, 1)
        XCTAssertEqual(partial.stdout, "")
        XCTAssertTrue(partial.stderr.contains("error: partial (cost): "), partial.stderr)
        XCTAssertEqual(try Fleetkit.run(["report", "cost", "--db", db, "--month", "2026-10", "--quiet", "--verbose"]).status, 64)
    }
}
