import XCTest
import GRDB
import FleetCore
import FleetTestSupport
@testable import FleetWarehouse

/// The cached-statement and flat-array paths of derivation and identity resolution.
final class DeriveFastPathTests: XCTestCase {
    private func ms(_ s: String) -> Int64 { Timestamp.parse(s)! }

    func testSpreadVisitsOnlyTheDaysAnIntervalCovers() {
        let d1 = CivilDate(year: 2026, month: 10, day: 1)!, d5 = CivilDate(year: 2026, month: 10, day: 5)!
        var grid = DayGrid(days: d1...d5, zone: FleetZone.utc)
        // 36 h from Oct 2 12:00 to Oct 4 00:00: 12 h on Oct 2, 24 h on Oct 3, nothing elsewhere.
        grid.spread(360, from: ms("2026-10-02T12:00:00Z"), to: ms("2026-10-04T00:00:00Z"), into: .distance)
        grid.spread(5, from: ms("2026-10-05T10:00:00Z"), to: ms("2026-10-05T10:00:00Z"), into: .fuel)
        let t = try! TestWarehouse()
        try! t.warehouse.pool.write { db in
            try db.execute(sql: "INSERT INTO asset (id, kind, auto_created) VALUES (1, 'vehicle', 1)")
            try grid.write(db, asset: 1)
        }
        let rows = try! t.rows("SELECT day, distance_m, distance_method, fuel_ml FROM asset_day ORDER BY day").map {
            "\($0[0] as String) \($0[1] as Double? ?? -1) \($0[2] as String? ?? "-") \($0[3] as Double? ?? -1)"
        }
        XCTAssertEqual(rows, ["2026-10-02 120.0 odometer -1.0", "2026-10-03 240.0 odometer -1.0", "2026-10-05 -1.0 - 5.0"])
    }

    func testCachedQueryReadsNullsAndCountsChanges() throws {
        let t = try TestWarehouse()
        try t.warehouse.pool.write { db in
            XCTAssertNil(try CachedQuery.int64(db, "SELECT MAX(id) FROM asset") { _ in })
            XCTAssertNil(try CachedQuery.int64(db, "SELECT id FROM asset WHERE id = ?") { $0.bind(Int64(7)) })
            XCTAssertEqual(try CachedQuery.execute(db, "INSERT INTO asset (kind, name, auto_created) VALUES (?, ?, 1)") { $0.bind("vehicle"); $0.bind("A") }, 1)
            XCTAssertEqual(try CachedQuery.execute(db, "INSERT INTO asset (kind, name, auto_created) VALUES (?, ?, 1)") { $0.bind("vehicle"); $0.bind("B") }, 1)
            XCTAssertEqual(try CachedQuery.int64(db, "SELECT MAX(id) FROM asset") { _ in }, 2)
            XCTAssertEqual(try CachedQuery.execute(db, "UPDATE asset SET year = ? WHERE kind = ?") { $0.bind(2020); $0.bind("vehicle") }, 2)
            let q = try CachedQuery(db, "SELECT name, year, pin FROM asset ORDER BY id")
            defer { q.reset() }
            var seen: [String] = []
            while try q.step() { seen.append("\(q.text(0)) \(q.int64(1)) \(q.optionalText(2) ?? "nil")") }
            XCTAssertEqual(seen, ["A 2020 nil", "B 2020 nil"])
        }
    }

    /// A known machine met again fills only what it lacks and never overwrites; meeting it
    /// with nothing new leaves the row as it was.
    func testAttachFillsGapsOnly() throws {
        let t = try TestWarehouse()
        try t.warehouse.pool.write { db in
            let file = try SourceFile.insertedForTest(db)
            var sink = WarehouseSink(db: db, sourceFileID: file.id!)
            let a = try sink.asset(AssetRef(pin: "PIN1234", make: "Deere", kind: .equipment))
            var again = WarehouseSink(db: db, sourceFileID: file.id!)
            XCTAssertEqual(try again.asset(AssetRef(pin: "PIN1234", name: "Loader 7", make: "Komatsu", model: "PC210", kind: .equipment)), a)
            var third = WarehouseSink(db: db, sourceFileID: file.id!)
            XCTAssertEqual(try third.asset(AssetRef(pin: "PIN1234", kind: .equipment)), a)
        }
        let rows = try t.rows("SELECT pin, name, make, model, kind, auto_created FROM asset")
        XCTAssertEqual(rows.count, 1)
        XCTAssertEqual(rows[0][0] as String, "PIN1234")
        XCTAssertEqual(rows[0][1] as String, "Loader 7")
        XCTAssertEqual(rows[0][2] as String, "Deere")
        XCTAssertEqual(rows[0][3] as String, "PC210")
        XCTAssertEqual(rows[0][4] as String, "equipment")
        XCTAssertEqual(rows[0][5] as Int, 1)
    }
}
