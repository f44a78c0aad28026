import Foundation
import GRDB
import FleetCore

/// Whether a FleetKit warehouse's schema is exactly what FleetKit's migrations make, checked on
/// a read-only connection before anything reads or writes it.
///
/// Why: FleetKit's code relies on its own schema: NOT NULL columns are read as values, CHECK
/// constraints bound what a report sums, and nothing else runs on a write. A warehouse edited
/// by other means broke that: NULLs in NOT NULL columns (after the constraint was dropped)
/// trapped `report` and `verify`; a trigger made every import run for ever holding the write
/// lock; a warehouse migrated by a newer FleetKit was written by an older one without a word.
///
/// The rule: the applied migrations are a prefix of this FleetKit's (`WarehouseMigrator`), and
/// every table, index, view and trigger, with its SQL, is what those migrations make on an empty
/// database. SQLite's own objects (`sqlite_%`, e.g. `sqlite_stat1` from ANALYZE) are left out.
enum WarehouseSchemaCheck {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var expected: [String: [String: String]] = [:]

    /// Why the warehouse is not as FleetKit makes it, with what to do; nil when it is.
    static func problem(_ db: Database) throws -> (reason: String, hint: String)? {
        guard try db.tableExists("grdb_migrations") else { return nil }
        let known = WarehouseMigrator.migrator.migrations
        let applied = Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
        if let unknown = applied.sorted().first(where: { !known.contains($0) }) {
            return ("it was migrated by a newer FleetKit (migration '\(QuotedText.cut(unknown))' is unknown to this version)",
                    "Run the FleetKit version that migrated it; this one never writes a schema it does not know.")
        }
        guard let last = known.lastIndex(where: applied.contains) else { return nil }
        if let missing = known[...last].first(where: { !applied.contains($0) }) {
            return ("its migrations skip '\(missing)', which FleetKit always applies in order",
                    "Restore the warehouse from a backup (docs/OPERATIONS.md).")
        }
        let want = try schema(upTo: known[last])
        let have = try objects(db)
        for (key, sql) in have.sorted(by: { $0.key < $1.key }) where want[key] == nil {
            return ("it holds the \(key), which FleetKit never makes (\(QuotedText.cut(sql, limit: 120)))",
                    "Remove it, or restore the warehouse from a backup (docs/OPERATIONS.md); FleetKit never reads or writes a warehouse changed by other means.")
        }
        for (key, sql) in want.sorted(by: { $0.key < $1.key }) where have[key] != sql {
            return (have[key] == nil ? "its \(key) is missing" : "its \(key) was changed from FleetKit's definition",
                    "Restore the warehouse from a backup (docs/OPERATIONS.md); FleetKit never reads or writes a warehouse changed by other means.")
        }
        return nil
    }

    /// Schema objects by "type name" (`table expense`, `trigger t1`), with their SQL.
    static func objects(_ db: Database) throws -> [String: String] {
        var out: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'") {
            out["\(row[0] as String) \(row[1] as String)"] = (row[2] as String?) ?? ""
        }
        return out
    }

    /// What the migrations up to `identifier` make on an empty in-memory database, once per process.
    static func schema(upTo identifier: String) throws -> [String: String] {
        if let cached = lock.withLock({ expected[identifier] }) { return cached }
        let queue = try DatabaseQueue()
        try WarehouseMigrator.migrator.migrate(queue, upTo: identifier)
        let made = try queue.read { try objects($0) }
        lock.withLock { expected[identifier] = made }
        return made
    }
}
