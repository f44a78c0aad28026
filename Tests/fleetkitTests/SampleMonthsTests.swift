import XCTest
import FleetTestSupport

/// The sample fleet of two months, imported one after the other, as the nightly inbox gets them
/// (issue 29). November's sample reused every id of October's (transactions T880001…, DVIRs
/// 70001…, work orders WO-4101…): the natural-key upsert moved October's fills, DVIRs and
/// services into November (October's cost $63,674.83 → $41,602.82, DVIRs 513 → 28), and
/// November's own warehouse failed `verify`.
final class SampleMonthsTests: XCTestCase {
    private let small = ["--assets", "4", "--machines", "2"]

    private func folder(_ name: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("months-\(name)-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    private func sample(_ start: String, in dir: URL) throws -> URL {
        let out = dir.appendingPathComponent("sample-\(start)")
        let r = try Fleetkit.run(["sample", "--out", out.path, "--start", start] + small)
        XCTAssertEqual(r.status, 0, r.stderr)
        return out
    }

    /// The rows of one CSV file the sample wrote, as header → value dictionaries.
    private func rows(_ file: URL) throws -> [[String: String]] {
        let lines = try String(contentsOf: file, encoding: .utf8).split(whereSeparator: \.isNewline).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        guard let header = lines.first else { return [] }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
    }

    func testTwoMonthsShareNoIdAndAgreeOnWhatBothList() throws {
        let dir = try folder("ids")
        let oct = try sample("2026-10-01", in: dir), nov = try sample("2026-11-01", in: dir)
        func ids(_ sample: URL, _ file: String, _ column: String) throws -> Set<String> {
            Set(try rows(sample.appendingPathComponent(file)).compactMap { $0[column] }.filter { !$0.isEmpty })
        }
        for (file, column) in [("fuel-card/fuel-card-MONTH.csv", "transaction_id"), ("dvir/dvir-MONTH.csv", "dvir_id"),
                               ("maintenance/repairs-MONTH.csv", "work_order"), ("expenses/expenses-MONTH.csv", "expense_id")] {
            let a = try ids(oct, file.replacingOccurrences(of: "MONTH", with: "2026-10"), column)
            let b = try ids(nov, file.replacingOccurrences(of: "MONTH", with: "2026-11"), column)
            XCTAssertFalse(a.isEmpty, "\(file) \(column)")
            XCTAssertFalse(b.isEmpty, "\(file) \(column)")
            XCTAssertEqual(a.intersection(b), [], "\(file): \(column) reused by November")
        }
        // The history and the master files say the same of every day both cover: the same
        // work order is the same service, the same day the same rate.
        let octHistory = try rows(oct.appendingPathComponent("maintenance/maintenance-history.csv"))
        let novHistory = try rows(nov.appendingPathComponent("maintenance/maintenance-history.csv"))
        let octEnd = "2026-11-01", novFirst = novHistory.compactMap { $0["performed_at"] }.min() ?? ""
        let octOverlap = octHistory.filter { ($0["performed_at"] ?? "") >= novFirst && ($0["performed_at"] ?? "") < octEnd }
        let novOverlap = novHistory.filter { ($0["performed_at"] ?? "") < octEnd }
        XCTAssertFalse(octOverlap.isEmpty)
        XCTAssertEqual(octOverlap, novOverlap, "the two months' histories disagree on the days both cover")
        let octFx = try rows(oct.appendingPathComponent("master/fx-rates.csv")), novFx = try rows(nov.appendingPathComponent("master/fx-rates.csv"))
        let shared = novFx.filter { ($0["date"] ?? "") < octEnd }
        XCTAssertFalse(shared.isEmpty)
        for r in shared { XCTAssertTrue(octFx.contains(r), "November's rate \(r) differs from October's") }
        for f in ["master/assets.csv", "master/drivers.csv", "master/assignments.csv", "master/service-schedules.csv"] {
            XCTAssertEqual(try Data(contentsOf: oct.appendingPathComponent(f)), try Data(contentsOf: nov.appendingPathComponent(f)), f)
        }
    }

    /// The figures `report` prints for a month (its stdout lines), for `cost`, `dvir-compliance`,
    /// `maintenance-due` and `summary`.
    private func figures(_ db: String, _ month: String, out: URL) throws -> [String] {
        try ["cost", "dvir-compliance", "summary", "utilization"].map { name in
            let r = try Fleetkit.run(["report", name, "--month", month, "--db", db, "--format", "json", "--out", out.appendingPathComponent(UUID().uuidString).path])
            XCTAssertEqual(r.status, 0, "\(name) \(month): \(r.stderr)")
            // The figures, not the path of the file written (a new folder each time).
            return name + ": " + r.stdout.split(separator: "\n").filter { !$0.hasPrefix("wrote ") }.joined(separator: "\n")
        }
    }

    func testNovemberAfterOctoberLeavesOctoberUnchangedAndVerifies() throws {
        let dir = try folder("import")
        let oct = try sample("2026-10-01", in: dir), nov = try sample("2026-11-01", in: dir)
        let db = dir.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "America/Chicago"]).status, 0)
        var r = try Fleetkit.run(["import", "--db", db, oct.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let october = try figures(db, "2026-10", out: dir)
        r = try Fleetkit.run(["import", "--db", db, nov.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        // Nothing of October was touched: no row updated, none moved.
        XCTAssertFalse(r.stdout.contains("moved to another month"), r.stdout)
        XCTAssertTrue(r.stdout.contains("; rows: "), r.stdout)
        let totals = r.stdout.split(separator: "\n").last { $0.contains("; rows: ") } ?? ""
        XCTAssertTrue(totals.contains(" 0 updated"), String(totals))
        XCTAssertEqual(try figures(db, "2026-10", out: dir), october)
        r = try Fleetkit.run(["verify", "--db", db])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
    }

    /// A sample of any start date is a warehouse that passes `verify` on its own.
    func testAnySampleMonthVerifiesOnItsOwn() throws {
        let dir = try folder("verify")
        for start in ["2026-11-01", "2027-02-15"] {
            let s = try sample(start, in: dir)
            let db = dir.appendingPathComponent("fleet-\(start).sqlite").path
            XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "America/Chicago"]).status, 0)
            var r = try Fleetkit.run(["import", "--db", db, s.path])
            XCTAssertEqual(r.status, 0, "\(start): \(r.stderr)")
            r = try Fleetkit.run(["verify", "--db", db])
            XCTAssertEqual(r.status, 0, "\(start): " + r.stdout + r.stderr)
        }
    }
}
