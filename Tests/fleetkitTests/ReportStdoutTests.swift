import XCTest
import FleetTestSupport

/// `fleetkit report NAME --format F --out -` writes the report's one file to stdout and nothing
/// else, for scripts (`| jq`); messages stay on stderr and no folder is written. Before, `-`
/// was taken as a folder named "-".
final class ReportStdoutTests: XCTestCase {
    func testOneReportInOneFormatStreamsToStdout() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("report-stdout-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let db = dir.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "America/Chicago"]).status, 0)
        let card = dir.appendingPathComponent("card.csv")
        try (MonthEndTests.header + MonthEndTests.fill("T1", 3, "70.00") + MonthEndTests.fill("T2", 4, "35.00")).write(to: card, atomically: true, encoding: .utf8)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, card.path]).status, 0)

        var r = try Fleetkit.run(["report", "cost", "--month", "2026-10", "--db", db, "--format", "json", "--out", "-", "--allow-partial"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "stdout is one JSON document: \(r.stdout.prefix(200))")
        XCTAssertNotNil(json["tables"] ?? json["metadata"], "\(json.keys)")
        XCTAssertTrue(r.stdout.contains("105.00") || r.stdout.contains("105"), "the total of the two fills")
        XCTAssertFalse(r.stdout.contains("wrote "), "no progress on stdout")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("-").path), "a folder named -")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("Reports").path), "the default folder")

        r = try Fleetkit.run(["report", "cost", "--month", "2026-10", "--db", db, "--format", "html", "--out", "-", "--allow-partial"], in: dir)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.hasPrefix("<!DOCTYPE html>") || r.stdout.lowercased().hasPrefix("<!doctype html>"), String(r.stdout.prefix(80)))

        // What cannot be one stream is refused before anything is read.
        for (args, says) in [(["cost", "--format", "csv"], "csv writes one file per table"), (["all", "--format", "json"], "name one report"),
                             (["cost", "--format", "json,html"], "give one --format"), (["cost", "--format", "json", "--json"], "both write to stdout")] {
            r = try Fleetkit.run(["report"] + args + ["--month", "2026-10", "--db", db, "--out", "-"], in: dir)
            XCTAssertNotEqual(r.status, 0, args.joined(separator: " "))
            XCTAssertTrue(r.stderr.contains(says), r.stderr)
            XCTAssertEqual(r.stdout, "", args.joined(separator: " "))
        }
    }
}
