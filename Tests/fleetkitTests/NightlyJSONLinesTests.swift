import XCTest
import FleetTestSupport

/// `nightly --json` prints its run summary on one line, so the cron job's
/// `>> nightly.jsonl` (docs/OPERATIONS.md, "cron") is JSON Lines: one run a line, each a whole
/// JSON object. Before, the summary was pretty-printed over many lines and the log could not
/// be read line by line.
final class NightlyJSONLinesTests: XCTestCase {
    func testEachRunIsOneLineOfJSON() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-jsonl-\(UUID())")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        let config = try NightlySetup.writeConfig(in: dir, timezone: "America/Chicago", reports: ["cost"])
        try (MonthEndTests.header + MonthEndTests.fill("T1", 3, "70.00")).write(to: dir.appendingPathComponent("inbox/card.csv"), atomically: true, encoding: .utf8)
        var log = ""
        for day in ["2026-11-02", "2026-11-03"] {
            let r = try Fleetkit.run(["nightly", "--config", config.path, "--as-of", day, "--json"])
            XCTAssertEqual(r.status, 0, r.stderr)
            log += r.stdout
        }
        let lines = log.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 3, "two lines and the final newline: \(log)")
        XCTAssertEqual(lines.last, "")
        let runs = try lines.dropLast().map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        XCTAssertEqual(runs.map { $0["as_of"] as? String }, ["2026-11-02", "2026-11-03"])
        XCTAssertEqual(runs.map { $0["exit_code"] as? Int }, [0, 0])
        XCTAssertEqual((runs[0]["totals"] as? [String: Any])?["loaded"] as? Int, 1)
    }
}
