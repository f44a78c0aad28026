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
        XCTAssertEqual(referencing.union(WarehouseMigrator.uncheckedAssetTables), Set(WarehouseMigrator.assetTables))
        XCTAssertTrue(referencing.isDisjoint(with: WarehouseMigrator.uncheckedAssetTables))
        for table in WarehouseMigrator.uncheckedAssetTables {
            let columns = try t.warehouse.pool.read { db in try db.columns(in: table).map(\.name) }
            XCTAssertTrue(columns.contains("asset_id") && columns.contains("source_file_id"), table)
        }
    }

    /// v4 dropped `position`'s foreign keys by rewriting its stored definition: a warehouse
    /// created before it keeps its positions, the table its key, columns and options, and the
    /// file passes SQLite's integrity check.
    func testV4KeepsThePositionsOfAnOlderWarehouse() throws {
        let t = try TestWarehouse()
        let path = t.directory.appendingPathComponent("v3.sqlite").path
        let old = try DatabaseQueue(path: path)
        try WarehouseMigrator.migrator.migrate(old, upTo: "v3-report-indexes")
        try old.write { db in
            try db.execute(sql: "INSERT INTO asset (id, unit_number, kind, auto_created) VALUES (1, 'T-01', 'vehicle', 0)")
            try db.execute(sql: """
                INSERT INTO source_file (id, path, sha256, format, bytes, imported_at, status) VALUES (1, 'a.gpx', 'x', 'gpx', 1, 0, 'imported')
                """)
            try db.execute(sql: "INSERT INTO position VALUES (1, 1000, 45.5, -122.5, 3.25, 90, 12.5, 1), (1, 2000, 45.6, -122.6, NULL, NULL, NULL, 1)")
        }
        try old.close()
        let migrated = try Warehouse(path: path)
        let rows = try migrated.pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM position ORDER BY at").map { $0.description }
        }
        XCTAssertEqual(rows, [
            "[asset_id:1 at:1000 lat:45.5 lon:-122.5 speed_mps:3.25 heading_deg:90.0 alt_m:12.5 source_file_id:1]",
            "[asset_id:1 at:2000 lat:45.6 lon:-122.6 speed_mps:NULL heading_deg:NULL alt_m:NULL source_file_id:1]",
        ])
        try migrated.pool.read { db in
            XCTAssertEqual(try db.foreignKeys(on: "position").count, 0)
            XCTAssertEqual(try db.primaryKey("position").columns, ["asset_id", "at"])
            let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'position'") ?? ""
            XCTAssertTrue(sql.contains("STRICT") && sql.contains("WITHOUT ROWID"), sql)
            XCTAssertEqual(try String.fetchAll(db, sql: "PRAGMA integrity_check"), ["ok"])
            XCTAssertEqual(try Int.fetchOne(db, sql: "PRAGMA writable_schema"), 0)
        }
        // Still STRICT: a text where a number belongs is refused.
        XCTAssertThrowsError(try migrated.pool.write { db in
            try db.execute(sql: "INSERT INTO position VALUES (1, 3000, 'north', -122.6, NULL, NULL, NULL, 1)")
        })
    }

    /// v12 renamed the DVIR policy `defects_only` to `law` (the same rule, 49 CFR 396.11(a)(1) as
    /// amended 2014) and gave DVIRs their towed unit: a warehouse from before keeps its rule.
    func testV12KeepsTheStoredDVIRPolicyUnderItsNewName() throws {
        let t = try TestWarehouse()
        let path = t.directory.appendingPathComponent("v11.sqlite").path
        let old = try DatabaseQueue(path: path)
        try WarehouseMigrator.migrator.migrate(old, upTo: "v11-asset-name-source")
        try old.write { db in try db.execute(sql: "INSERT INTO setting (key, value) VALUES ('dvir_policy', 'defects_only')") }
        try old.close()
        let migrated = try Warehouse(path: path)
        XCTAssertEqual(try migrated.pool.read { db in try String.fetchOne(db, sql: "SELECT value FROM setting WHERE key = 'dvir_policy'") }, "law")
        XCTAssertEqual(try migrated.settings().dvirPolicy, .law)
        XCTAssertTrue(try migrated.pool.read { db in try db.columns(in: "dvir").map(\.name) }.contains("trailer"))
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

    /// v14-check-lists: the constraints are `OR` chains (no `IN` list, which SQLite evaluated
    /// through a temporary b-tree per statement) and still allow exactly the v1 values.
    func testCheckListsAreORChainsThatAllowTheSameValues() throws {
        let t = try TestWarehouse()
        try t.warehouse.pool.write { db in
            for table in ["meter_reading", "engine_event", "dtc_event", "fuel_purchase", "expense", "dvir", "asset", "hos_log"] {
                let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [table])!
                // A list of two values SQLite compares one by one (the booleans' `IN (0, 1)`); a
                // longer one costs the temporary b-tree.
                let lists = sql.components(separatedBy: " IN (").dropFirst().map { $0.prefix { $0 != ")" } }
                XCTAssertEqual(lists.filter { $0.split(separator: ",").count > 2 }, [], table)
            }
            let f = try SourceFile.insertedForTest(db)
            try db.execute(sql: "INSERT INTO asset (id, kind, auto_created) VALUES (1, 'vehicle', 1)")
            // The six meters and three states of schema v1 (docs/METRICS.md), each accepted once.
            for (i, meter) in ["odometer", "engine_hours", "idle_hours", "fuel_used", "fuel_level", "def_level"].enumerated() {
                try db.execute(sql: "INSERT INTO meter_reading (asset_id, meter, at, value, source_file_id) VALUES (1, ?, ?, 1, ?)", arguments: [meter, i, f.id])
            }
            for (i, state) in ["on", "off", "idle"].enumerated() {
                try db.execute(sql: "INSERT INTO engine_event (asset_id, at, state, source_file_id) VALUES (1, ?, ?, ?)", arguments: [i, state, f.id])
            }
            // Anything else is refused, case included (BINARY comparison, as the IN list compared).
            for meter in ["speed", "Odometer", ""] {
                XCTAssertThrowsError(try db.execute(sql: "INSERT INTO meter_reading (asset_id, meter, at, value, source_file_id) VALUES (1, ?, 99, 1, ?)", arguments: [meter, f.id]), meter)
            }
            for state in ["ON", "running"] {
                XCTAssertThrowsError(try db.execute(sql: "INSERT INTO engine_event (asset_id, at, state, source_file_id) VALUES (1, 99, ?, ?)", arguments: [state, f.id]), state)
            }
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM meter_reading"), 6)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM engine_event"), 3)
            // The expense categories of schema v1, each accepted; a near miss refused.
            for (i, category) in ["fuel", "maintenance", "repair", "tires", "parts", "tolls", "insurance", "lease", "registration", "other"].enumerated() {
                try db.execute(sql: "INSERT INTO expense (source_key, at, category, amount_minor, currency, source_file_id) VALUES (?, 1, ?, 100, 'USD', ?)",
                               arguments: ["e\(i)", category, f.id])
            }
            for category in ["Fuel", "toll", ""] {
                XCTAssertThrowsError(try db.execute(sql: "INSERT INTO expense (source_key, at, category, amount_minor, currency, source_file_id) VALUES ('x', 1, ?, 100, 'USD', ?)",
                                                    arguments: [category, f.id]), category)
            }
            // A nullable list (cdl_class): NULL passes, as it did with the IN list; a class outside it does not.
            try db.execute(sql: "INSERT INTO asset (id, kind, auto_created, cdl_class) VALUES (2, 'equipment', 1, NULL), (3, 'trailer', 1, 'B')")
            XCTAssertThrowsError(try db.execute(sql: "INSERT INTO asset (id, kind, auto_created, cdl_class) VALUES (4, 'vehicle', 1, 'D')"))
            XCTAssertThrowsError(try db.execute(sql: "INSERT INTO asset (id, kind, auto_created) VALUES (5, 'bus', 1)"))
        }
    }

    func testReopeningIsIdempotent() throws {
        let t = try TestWarehouse()
        let again = try Warehouse(path: t.warehouse.path)
        let applied = try again.pool.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        XCTAssertEqual(applied, ["v1-schema", "v2-meter-anomaly", "v3-report-indexes", "v4-position-unchecked-keys", "v5-import-run-interrupted", "v6-trip-repair",
                                 "v7-trailer-defect-keys", "v7-idle-period", "v8-trip-reasons", "v9-receipt-review",
                                 "v10-dvir-defect-pending", "v11-asset-name-source", "v12-dvir-audit", "v12-assumed-currency", "v12-reject-rows", "v12-month-end",
                                 "v13-verify-keys", "v13-fuel", "v13-dvir-findings", "v13-driver-medical", "v13-run-exit-code", "v13-twin-keys", "v14-file-keys",
                                 "v14-driver-licence", "v14-hos-logs", "v14-check-lists", "v15-bulk-fuel",
                                 "v16-vendor-totals", "v17-fuel-exception-decisions"])
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
