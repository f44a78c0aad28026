import XCTest
import FleetTestSupport

/// `fleetkit report` never gives a wrong figure with exit 0 (issue 19): incomplete figures are
/// said on stderr with exit 1 unless `--allow-partial`; unknown currency codes and unit numbers
/// are usage errors (64) that list the valid ones; an unusable output folder is a sentence.
final class PartialReportCommandTests: XCTestCase {
    /// A small sample fleet (2 vehicles, 1 machine, October 2026) imported once for the class.
    nonisolated(unsafe) static var shared: String?

    func warehouse() throws -> String {
        if let db = Self.shared { return db }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("partial-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let sample = dir.appendingPathComponent("sample")
        XCTAssertEqual(try Fleetkit.run(["sample", "--out", sample.path, "--assets", "2", "--machines", "1"]).status, 0)
        let db = dir.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "America/Chicago"]).status, 0)
        let r = try Fleetkit.run(["import", "--db", db] + ["master", "expenses", "fuel-card", "iso15143", "samsara"].map { sample.appendingPathComponent($0).path })
        XCTAssertEqual(r.status, 0, r.stderr)
        Self.shared = db
        return db
    }

    func out() -> String { FileManager.default.temporaryDirectory.appendingPathComponent("partial-out-\(UUID())").path }

    func report(_ arguments: [String], out: String? = nil) throws -> CommandResult {
        try Fleetkit.run(["report"] + arguments + ["--db", try warehouse(), "--format", "json", "--out", out ?? self.out()])
    }

    func testACompleteMonthExits0() throws {
        let r = try report(["cost", "--month", "2026-10"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(r.stderr, "")
        XCTAssertTrue(r.stdout.contains("\ncost: total $"), r.stdout)
    }

    /// `--currency GBP` with no GBP rates printed `total £0.00` and exit 0.
    func testACurrencyWithoutRatesExits1AndTheFileSaysPartial() throws {
        let dir = out()
        let r = try report(["cost", "--month", "2026-10", "--currency", "GBP"], out: dir)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stdout.contains("cost (partial): total £0.00"), r.stdout)
        XCTAssertTrue(r.stderr.contains("error: partial (cost): "), r.stderr)
        XCTAssertTrue(r.stderr.contains("cost rows have no exchange rate to GBP and are left out of the totals"), r.stderr)
        XCTAssertTrue(r.stderr.contains("pass --allow-partial to accept incomplete figures"), r.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/cost-2026-10.json"))) as! [String: Any]
        XCTAssertEqual(json["partial"] as? Bool, true)
        XCTAssertFalse((json["partial_reasons"] as? [String] ?? []).isEmpty)

        let accepted = try report(["cost", "--month", "2026-10", "--currency", "GBP", "--allow-partial"])
        XCTAssertEqual(accepted.status, 0, accepted.stderr)
        XCTAssertTrue(accepted.stderr.contains("warning: partial (cost): "), accepted.stderr)
    }

    func testANonISOCurrencyIsAUsageError() throws {
        let r = try report(["cost", "--month", "2026-10", "--currency", "XYZ"])
        XCTAssertEqual(r.status, 64, r.stderr)
        XCTAssertTrue(r.stderr.contains("--currency 'XYZ' is not an ISO 4217 currency code"), r.stderr)
    }

    /// `--assets T-99` printed `$0.00` and exit 0.
    func testAnUnknownUnitIsAUsageErrorWithCloseMatches() throws {
        let r = try report(["cost", "--month", "2026-10", "--assets", "T-01,T-99"])
        XCTAssertEqual(r.status, 64, r.stderr)
        XCTAssertTrue(r.stderr.contains("error: no asset has the unit number 'T-99' (close: T-01, T-02"), r.stderr)
        XCTAssertTrue(r.stderr.contains("the warehouse has 3 assets with a unit number: M-01, T-01, T-02."), r.stderr)
    }

    /// `--quarter 2026-Q4` counted November and December as available days: 25.8 % against 76.6 %.
    func testAQuarterPastTheDataExits1() throws {
        let dir = out()
        let r = try report(["utilization", "--quarter", "2026-Q4"], out: dir)
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("error: partial (utilization): the period 2026-Q4 ends on 2026-12-31, after today"), r.stderr)
        XCTAssertTrue(r.stderr.contains(", before the period's last day 2026-12-31: import the later files"), r.stderr)
        let october = out()
        XCTAssertEqual(try report(["utilization", "--month", "2026-10"], out: october).status, 0)
        func utilization(_ path: String) throws -> Double? {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
            return (json["totals"] as? [String: Any])?["utilization"] as? Double
        }
        // This sample's data ends on 30 October (Chicago): the quarter counts 30 available days
        // per asset, October all 31 (one quiet day at its end is not missing data). Before, the
        // quarter counted 92 and gave under a third of October's figure.
        let q = try XCTUnwrap(try utilization(dir + "/utilization-2026-Q4.json"))
        let o = try XCTUnwrap(try utilization(october + "/utilization-2026-10.json"))
        XCTAssertEqual(q, o * 31 / 30, accuracy: 0.2)
    }

    func testAnOutputFolderThatIsAFileIsASentence() throws {
        let file = out()
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        for (path, says) in [(file, "the output folder \(file) cannot be used: it is a file, not a folder. Pass --out with a folder path"),
                             (file + "/reports", "\(file) is a file, not a folder, so no folder can be made inside it")] {
            let r = try report(["cost", "--month", "2026-10"], out: path)
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.contains(says), r.stderr)
            XCTAssertFalse(r.stderr.contains("Domain="), r.stderr)
            XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
        }
    }
}
