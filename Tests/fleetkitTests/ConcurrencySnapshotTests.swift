import XCTest
import Foundation
import FleetTestSupport

/// Beyond ConcurrencyTests (two imports of different files and one report): the same files
/// imported by two processes at once land once, and reports run again and again during an
/// import each see the warehouse before or after a whole file, never half of one.
final class ConcurrencySnapshotTests: XCTestCase {
    static var sampleData: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SampleData")
    }

    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    private func process(_ args: [String]) -> Process { Fleetkit.process(args) }

    private func newWarehouse(_ name: String) throws -> String {
        let db = dir.appendingPathComponent(name).path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "America/Chicago"]).status, 0)
        return db
    }

    private var paths: [String] { ["master", "fuel-card", "expenses", "dvir", "maintenance"].map { Self.sampleData.appendingPathComponent($0).path } }
    private let tables = ["asset", "driver", "assignment", "maintenance_record", "service_schedule", "expense", "fuel_purchase", "dvir", "dvir_defect", "fx_rate"]

    func testTheSameFilesImportedTwiceAtOnceLandOnce() throws {
        let db = try newWarehouse("race.sqlite")
        let a = process(["import", "--db", db] + paths)
        let b = process(["import", "--db", db] + paths.reversed())
        try a.run()
        try b.run()
        a.waitUntilExit()
        b.waitUntilExit()
        XCTAssertEqual([a.terminationStatus, b.terminationStatus], [0, 0])
        let clean = try newWarehouse("clean.sqlite")
        XCTAssertEqual(try Fleetkit.run(["import", "--db", clean] + paths).status, 0)
        let t = try TestWarehouse(existing: db)
        XCTAssertEqual(try t.count("source_file"), try TestWarehouse(existing: clean).count("source_file"))
        XCTAssertEqual(try t.factDump(tables: tables), try TestWarehouse(existing: clean).factDump(tables: tables))
    }

    /// The cost report's total and the sum of its detail rows, read from one report run.
    private func cost(_ db: String, _ n: Int) throws -> (total: Double, detail: Double)? {
        let out = dir.appendingPathComponent("out-\(n)")
        let r = try Fleetkit.run(["report", "cost", "--db", db, "--month", "2026-10", "--allow-partial", "--format", "json", "--out", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        guard r.status == 0 else { return nil }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("cost-2026-10.json"))) as! [String: Any]
        let detail = (json["tables"] as! [[String: Any]]).first { $0["name"] as? String == "detail" }!
        let amount = (detail["columns"] as! [[String: Any]]).map { $0["name"] as! String }.firstIndex(of: "amount_report")!
        let sum = (detail["rows"] as! [[Any]]).compactMap { $0[amount] as? Double }.reduce(0, +)
        return ((json["totals"] as! [String: Any])["total"] as! Double, sum)
    }

    func testReportsDuringAnImportSeeWholeFilesOnly() throws {
        let db = try newWarehouse("live.sqlite")
        let master = Self.sampleData.appendingPathComponent("master").path
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, master]).status, 0)
        // The totals a report may see: the warehouse after any subset of the whole files, each
        // state staged in a copy of the master-data warehouse (closed, so one file holds it all).
        let files = ["expenses/expenses-2026-10.csv", "fuel-card/fuel-card-2026-10.csv"].map { Self.sampleData.appendingPathComponent($0).path }
        var allowed: [Double] = [try XCTUnwrap(try cost(db, 0)).total]
        for subset in 1..<(1 << files.count) {
            let staged = dir.appendingPathComponent("staged-\(subset).sqlite").path
            try FileManager.default.copyItem(atPath: db, toPath: staged)
            let chosen = files.indices.filter { subset & (1 << $0) != 0 }.map { files[$0] }
            XCTAssertEqual(try Fleetkit.run(["import", "--db", staged] + chosen).status, 0)
            allowed.append(try XCTUnwrap(try cost(staged, 100 + subset)).total)
        }
        XCTAssertEqual(Set(allowed.map { ($0 * 100).rounded() }).count, 1 << files.count, "every state has its own total: \(allowed)")

        let importer = process(["import", "--db", db] + files)
        try importer.run()
        var seen: [Double] = []
        var n = 1
        while importer.isRunning || seen.count < 3 {
            guard let c = try cost(db, n) else { break }
            n += 1
            XCTAssertEqual(c.detail, c.total, accuracy: 0.005, "report \(n): its total is not the sum of its rows")
            XCTAssertTrue(allowed.contains { abs($0 - c.total) < 0.005 }, "report \(n) saw \(c.total), not one of \(allowed)")
            seen.append(c.total)
        }
        importer.waitUntilExit()
        XCTAssertEqual(importer.terminationStatus, 0)
        XCTAssertEqual(try XCTUnwrap(try cost(db, n)).total, allowed.last!, accuracy: 0.005)
        print("ConcurrencySnapshotTests: \(seen.count) reports during the import saw totals \(Set(seen).sorted())")
    }
}
