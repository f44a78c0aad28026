import XCTest
import Foundation
import FleetTestSupport

/// Two imports into one warehouse at once both succeed (WAL and the busy timeout make the second
/// wait for the first's transaction), nothing is lost, and a report run meanwhile reads one
/// consistent snapshot.
final class ConcurrencyTests: XCTestCase {
    static var sampleData: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SampleData")
    }

    private func process(_ args: [String]) -> Process { Fleetkit.process(args) }

    func testTwoImportsAtOnceBothLandCompletely() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("concurrent-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let db = dir.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "America/Chicago"]).status, 0)
        let a = process(["import", "--db", db, Self.sampleData.appendingPathComponent("master").path, Self.sampleData.appendingPathComponent("dvir").path])
        let b = process(["import", "--db", db, Self.sampleData.appendingPathComponent("fuel-card").path, Self.sampleData.appendingPathComponent("expenses").path,
                         Self.sampleData.appendingPathComponent("maintenance").path])
        let report = process(["report", "cost", "--db", db, "--month", "2026-10", "--allow-partial", "--format", "json", "--out", dir.appendingPathComponent("out").path])
        try a.run()
        try b.run()
        try report.run()
        for p in [a, b, report] { p.waitUntilExit() }
        XCTAssertEqual(a.terminationStatus, 0)
        XCTAssertEqual(b.terminationStatus, 0)
        XCTAssertEqual(report.terminationStatus, 0)
        let t = try TestWarehouse(existing: db)
        XCTAssertEqual(try t.count("source_file"), 10)
        // The sample's rows, counted with Python's csv: 147 card rows; 52 DVIR rows with a defect_id.
        XCTAssertEqual(try t.count("fuel_purchase"), 147)
        XCTAssertEqual(try t.count("dvir_defect"), 52)
        XCTAssertEqual(try t.count("asset"), 33)   // no asset doubled by the race between master data and facts
        XCTAssertEqual(try t.count("asset", where: "auto_created = 1"), 0)
        // The report saw some consistent state: its total equals the detail it listed.
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("out/cost-2026-10.json"))) as! [String: Any]
        let detail = (json["tables"] as! [[String: Any]]).first { $0["name"] as? String == "detail" }!
        let columns = (detail["columns"] as! [[String: Any]]).map { $0["name"] as! String }
        let amount = columns.firstIndex(of: "amount_report")!
        let sum = (detail["rows"] as! [[Any]]).compactMap { $0[amount] as? Double }.reduce(0, +)
        XCTAssertEqual(sum, (json["totals"] as! [String: Any])["total"] as! Double, accuracy: 0.005)
    }
}
