import GRDB
import FleetCore

/// What an existing SQLite file is, decided before FleetKit changes anything in it.
///
/// Opening a database through the pool switches it to WAL, migrating adds FleetKit's tables and
/// the warehouse is chmod 0600: done to another application's database, that takes it over. A
/// `grdb_migrations` table proves nothing (every GRDB application has one), so identity rests
/// on what only FleetKit writes: `PRAGMA application_id` = `Warehouse.applicationID`, stamped on
/// every warehouse FleetKit opens for writing; and, for warehouses created before that stamp,
/// FleetKit's own migration identifiers together with its core tables.
public enum WarehouseIdentity: Equatable, Sendable {
    /// No schema object at all and no application id: a new warehouse.
    case empty
    /// Stamped with FleetKit's application id.
    case fleetKit
    /// Made by a FleetKit before the stamp: only FleetKit's migration identifiers, its core tables.
    case unstampedFleetKit
    /// Anything else, with the reason shown to the user.
    case foreign(String)

    /// Tables every FleetKit warehouse has had since migration v1.
    static let coreTables: Set<String> = ["setting", "import_run", "source_file", "reject", "asset", "driver"]

    /// Reads the file's identity on a read-only connection.
    public static func of(_ db: Database) throws -> WarehouseIdentity {
        let applicationID = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let objects = try Row.fetchAll(db, sql: "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        let tables = objects.filter { ($0[0] as String) == "table" }.map { $0[1] as String }.sorted()
        let migrations = tables.contains("grdb_migrations") ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : nil
        return classify(applicationID: applicationID, objectCount: objects.count, tables: tables, migrations: migrations,
                        known: WarehouseMigrator.migrator.migrations)
    }

    /// The decision, apart from SQLite so that every branch is tested directly.
    static func classify(applicationID: Int32, objectCount: Int, tables: [String], migrations: [String]?, known: [String]) -> WarehouseIdentity {
        if applicationID == Warehouse.applicationID { return .fleetKit }
        if applicationID != 0 {
            let hex = String(UInt32(bitPattern: applicationID), radix: 16)
            return .foreign("it is an SQLite database of another application (application id 0x\(hex)), not a FleetKit warehouse")
        }
        if objectCount == 0 { return .empty }
        let listed = tables.prefix(3).joined(separator: ", ") + (tables.count > 3 ? ", …" : "")
        guard let migrations else {
            return .foreign("it is an SQLite database of another application (tables: \(listed)), not a FleetKit warehouse")
        }
        let ours = Set(known)
        guard !migrations.isEmpty, migrations.allSatisfy(ours.contains), migrations.contains(known[0]),
              coreTables.isSubset(of: Set(tables)) else {
            let named = migrations.prefix(3).map { "'\($0)'" }.joined(separator: ", ") + (migrations.count > 3 ? ", …" : "")
            return .foreign("it is an SQLite database of another application (GRDB migrations: \(named.isEmpty ? "none" : named); tables: \(listed)), not a FleetKit warehouse")
        }
        return .unstampedFleetKit
    }
}
