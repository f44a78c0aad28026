import XCTest
import FleetTestSupport

/// `status` lists the assets facts created that master data does not have (issue 29: typed unit
/// numbers became phantom vehicles that nothing listed).
final class AutoCreatedStatusTests: XCTestCase {
    func testStatusListsAutoCreatedAssets() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("auto-created-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let db = root.appendingPathComponent("fleet.sqlite").path
        let assets = root.appendingPathComponent("assets.csv"), card = root.appendingPathComponent("fuel-card.csv")
        try Data("unit_number,make\nV-101,Ford\n".utf8).write(to: assets)
        try Data("transaction_id,transaction_date,card_number,unit_number,gallons,total,currency\nC1,2026-10-02,7071000000001234,V-102,10.000,35.00,USD\nC2,2026-10-03,7071000000001234,v101,10.000,35.00,USD\n".utf8).write(to: card)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, "--create", assets.path]).status, 0)
        let imported = try Fleetkit.run(["import", "--db", db, card.path])
        XCTAssertTrue(imported.stdout.contains("'V-102' (did you mean V-101?)") || imported.stderr.contains("'V-102' (did you mean V-101?)"), imported.stdout + imported.stderr)
        let status = try Fleetkit.run(["status", "--db", db])
        XCTAssertEqual(status.status, 0, status.stderr)
        XCTAssertTrue(status.stdout.contains("auto-created: V-102 (add them to assets.csv"), status.stdout)
        let json = try JSONSerialization.jsonObject(with: Data(try Fleetkit.run(["status", "--db", db, "--json"]).stdout.utf8)) as? [String: Any]
        XCTAssertEqual(json?["auto_created"] as? [String], ["V-102"])
    }
}
