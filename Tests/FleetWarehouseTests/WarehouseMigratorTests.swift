import XCTest
import GRDB
import FleetTestSupport
@testable import FleetWarehouse

final class WarehouseMigratorTests: XCTestCase {
    func testEveryTableIsStrict() throws {
        let t = try TestWarehouse()
        let tables = try t.rows("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%'")
        XCTAssertGreaterThanOrEqual(tables.count, 23)
        for row in tables {
            let name: String = row[0], sql: String = row[1]
            XCTAssertTrue(sql.contains("STRICT"), "\(name) is not STRICT")
        }
    }

    /// Merging assets moves rows in `assetTables`: a table with an asset foreign key that is not
    /// in the list would keep rows pointing at a deleted asset.
    func testAssetTablesListsEveryTableReferencingAsset() throws {
        let t = try TestWarehouse()
        let referencing = try t.warehouse.pool.read { db -> Set<String> in
            var out = Set<String>()
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
                for fk in try db.foreignKeys(on: table) where fk.destinationTable == "asset" { out.insert(table) }
            }
            return out
        }
        XCTAssertEqual(referencing, Set(WarehouseMigrator.assetTables))
    }

    func testPragmas() throws {
        let t = try TestWarehouse()
        try t.warehouse.pool.write { db in
            XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA journal_mode"), "wal")
            XCTAssertEqual(try Int.fetchOne(db, sql: "PRAGMA foreign_keys"), 1)
            XCTAssertEqual(try Int.fetchOne(db, sql: "PRAGMA synchronous"), 1)  // NORMAL
        }
        let mode = try FileManager.default.attributesOfItem(atPath: t.warehouse.path)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600)
    }

    func testReopeningIsIdempotent() throws {
        let t = try TestWarehouse()
        let again = try Warehouse(path: t.warehouse.path)
        let applied = try again.pool.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        XCTAssertEqual(applied, ["v1-schema", "v2-meter-anomaly", "v3-report-indexes"])
    }

    func testNotADatabaseIsRefusedUntouched() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("fk-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("notes.sqlite").path
        let text = String(repeating: "these are my notes, not a database\n", count: 200)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try Warehouse(path: path)) { error in
            XCTAssertTrue("\(error)".contains("not a FleetKit warehouse"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), text)
    }
}
