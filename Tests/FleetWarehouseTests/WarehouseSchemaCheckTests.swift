import XCTest
import GRDB
import FleetTestSupport
import FleetCore
@testable import FleetWarehouse

/// Issue 35 item 12: a warehouse changed by other means (a trigger that made every import run for
/// ever, a dropped constraint that let NULLs trap `report`, a migration of a newer FleetKit) is
/// refused when it is opened, before anything reads or writes it.
final class WarehouseSchemaCheckTests: XCTestCase {
    private func tampered(_ sql: String) throws -> String {
        let t = try TestWarehouse()
        let path = t.warehouse.path
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: sql) }
        try queue.close()
        return path
    }

    private func refused(_ sql: String, _ says: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let path = try tampered(sql)
        for readOnly in [false, true] {
            XCTAssertThrowsError(try Warehouse(path: path, readOnly: readOnly), file: file, line: line) { error in
                guard case let FleetError.warehouse(_, reason, _) = error else { return XCTFail("\(error)", file: file, line: line) }
                XCTAssertTrue(reason.contains(says), reason, file: file, line: line)
            }
        }
    }

    func testObjectsFleetKitNeverMakesAreRefused() throws {
        try refused("CREATE TRIGGER spin AFTER INSERT ON source_file BEGIN SELECT 1; END", "holds the trigger spin, which FleetKit never makes")
        try refused("CREATE VIEW v AS SELECT 1", "holds the view v")
        try refused("CREATE TABLE extra(x)", "holds the table extra")
    }

    func testChangedOrMissingDefinitionsAreRefused() throws {
        try refused("DROP INDEX reject_source_file", "its index reject_source_file is missing")
        // The same table without its NOT NULL constraints, as a crafted warehouse had it.
        let path = try tampered("SELECT 1")
        let queue = try DatabaseQueue(path: path)
        let sql = try queue.read { try String.fetchOne($0, sql: "SELECT sql FROM sqlite_master WHERE name = 'setting'")! }
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(sql: "UPDATE sqlite_master SET sql = ? WHERE name = 'setting'", arguments: [sql.replacingOccurrences(of: "NOT NULL", with: "")])
            try db.execute(sql: "PRAGMA writable_schema = OFF")
        }
        try queue.close()
        XCTAssertThrowsError(try Warehouse(path: path)) { XCTAssertTrue("\($0)".contains("its table setting was changed"), "\($0)") }
    }

    func testAWarehouseOfANewerFleetKitIsRefused() throws {
        try refused("INSERT INTO grdb_migrations VALUES ('v99-future')", "migrated by a newer FleetKit (migration 'v99-future'")
    }

    func testFleetKitsOwnWarehousesOpenAtEveryMigration() throws {
        let t = try TestWarehouse()
        XCTAssertNoThrow(try Warehouse(path: t.warehouse.path))
        XCTAssertNoThrow(try Warehouse(path: t.warehouse.path, readOnly: true))
        for id in WarehouseMigrator.migrator.migrations {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID())")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let old = try DatabaseQueue(path: dir.appendingPathComponent("w.sqlite").path)
            try WarehouseMigrator.migrator.migrate(old, upTo: id)
            try old.close()
            XCTAssertNoThrow(try Warehouse(path: dir.appendingPathComponent("w.sqlite").path, readOnly: true), id)
            XCTAssertNoThrow(try Warehouse(path: dir.appendingPathComponent("w.sqlite").path), id)
        }
    }
}
