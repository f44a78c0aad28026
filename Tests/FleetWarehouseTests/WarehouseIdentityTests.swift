import XCTest
import GRDB
import FleetTestSupport
@testable import FleetWarehouse

/// FleetKit recognises its warehouses by its `application_id`, or, for warehouses made before
/// the stamp, by its own migration identifiers and core tables; anything else is refused.
final class WarehouseIdentityTests: XCTestCase {
    private var known: [String] { WarehouseMigrator.migrator.migrations }
    private let core = ["asset", "driver", "grdb_migrations", "import_run", "reject", "setting", "source_file"]

    func testEveryBranchOfTheDecision() {
        func classify(_ id: Int32 = 0, objects: Int = 1, tables: [String] = [], migrations: [String]? = nil) -> WarehouseIdentity {
            WarehouseIdentity.classify(applicationID: id, objectCount: objects, tables: tables, migrations: migrations, known: known)
        }
        XCTAssertEqual(classify(objects: 0), .empty)
        XCTAssertEqual(classify(Warehouse.applicationID, tables: ["anything"]), .fleetKit)
        XCTAssertEqual(classify(tables: core, migrations: ["v1-schema", "v2-meter-anomaly"]), .unstampedFleetKit)
        XCTAssertEqual(classify(tables: core, migrations: known), .unstampedFleetKit)
        let foreign: [WarehouseIdentity] = [
            classify(0x4750_4B47, objects: 0),                                         // another application's id, no table yet
            classify(tables: ["notes"]),                                             // plain SQLite, no GRDB
            classify(tables: ["grdb_migrations", "player"], migrations: ["v1", "createPlayers"]),
            classify(tables: ["grdb_migrations", "player"], migrations: ["v1-schema"]),     // our first name, not our tables
            classify(tables: core + ["player"], migrations: ["v1-schema", "createPlayers"]), // our tables, a migration of its own
            classify(tables: core, migrations: ["v2-meter-anomaly"]),                 // never without v1
            classify(tables: core, migrations: []),
            classify(objects: 1, tables: [], migrations: nil),                        // a view or index only
        ]
        for (i, f) in foreign.enumerated() {
            guard case let .foreign(reason) = f else { return XCTFail("case \(i) was accepted: \(f)") }
            XCTAssertTrue(reason.contains("another application"), reason)
        }
    }

    func testANewWarehouseIsStampedAndAnOlderOneOpensMigratesAndIsStamped() throws {
        let t = try TestWarehouse()
        XCTAssertEqual(try t.warehouse.pool.read { db in try Int32.fetchOne(db, sql: "PRAGMA application_id") }, Warehouse.applicationID)

        // A warehouse made before the stamp: FleetKit's migrations up to v3, application id 0.
        let path = t.directory.appendingPathComponent("before-stamp.sqlite").path
        let old = try DatabaseQueue(path: path)
        try WarehouseMigrator.migrator.migrate(old, upTo: "v3-report-indexes")
        try old.write { db in try db.execute(sql: "INSERT INTO asset (id, unit_number, kind, auto_created) VALUES (1, 'T-01', 'vehicle', 0)") }
        XCTAssertEqual(try old.read { db in try Int32.fetchOne(db, sql: "PRAGMA application_id") }, 0)
        try old.close()
        let opened = try Warehouse(path: path)
        try opened.pool.read { db in
            XCTAssertEqual(try Int32.fetchOne(db, sql: "PRAGMA application_id"), Warehouse.applicationID)
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier"), known.sorted())
            XCTAssertEqual(try String.fetchOne(db, sql: "SELECT unit_number FROM asset WHERE id = 1"), "T-01")
        }
        XCTAssertEqual(try opened.pool.read { db in try WarehouseIdentity.of(db) }, .fleetKit)
    }

    /// A kill part-way through creating a warehouse leaves a stamped file with FleetKit's
    /// bookkeeping table and no migration yet; the next open must finish it, not refuse it as
    /// another application's database (it did, 2 runs in 7 of the nightly kill test).
    func testAWarehouseKilledWhileBeingCreatedIsCompletedOnTheNextOpen() throws {
        let t = try TestWarehouse()
        let path = t.directory.appendingPathComponent("half-created.sqlite").path
        let half = try DatabaseQueue(path: path)
        try half.write { db in
            try db.execute(sql: "PRAGMA application_id = \(Warehouse.applicationID)")
            try db.execute(sql: "CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
        }
        try half.close()
        let opened = try Warehouse(path: path)
        try opened.pool.read { db in
            XCTAssertEqual(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY identifier"), known.sorted())
        }
        // The stamp comes first: a new warehouse carries it before any table exists.
        let fresh = t.directory.appendingPathComponent("fresh.sqlite").path
        _ = try Warehouse(path: fresh)
        let q = try DatabaseQueue(path: fresh)
        XCTAssertEqual(try q.read { db in try WarehouseIdentity.of(db) }, .fleetKit)
        try q.close()
    }
}
