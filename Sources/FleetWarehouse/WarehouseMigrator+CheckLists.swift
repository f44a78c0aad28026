import GRDB

extension WarehouseMigrator {
    /// `meter_reading.meter` and `engine_event.state` checked by `=` comparisons joined by `OR`
    /// instead of an `IN (…)` list.
    ///
    /// Why: SQLite evaluates an `IN` list of more than two values through a temporary b-tree that
    /// it builds on every run of the statement (a temporary database opened, a page zeroed, the
    /// values inserted, all closed again), and facts are often written one row per statement.
    /// 60,000 one-row inserts into `meter_reading` with SQLite 3.40.1: 41 k instructions per
    /// insert with the list, 7.1 k with the `OR` chain; in an ISO 15143-3 snapshot import it was
    /// about 18 % of all instructions (BENCHMARKS.md, round 4). The two forms accept and refuse
    /// exactly the same values (both columns are NOT NULL, and `=` compares as `IN` does, with the
    /// column's BINARY collation).
    ///
    /// How: as `v4-position-unchecked-keys` did, the stored definitions are rewritten in place
    /// (SQLite's documented procedure, "ALTER TABLE", "Making Other Kinds Of Table Schema
    /// Changes"): a CHECK constraint does not change how rows are stored, so no row is copied and
    /// a large warehouse migrates as fast as an empty one. Every stored row already satisfies the
    /// new constraints, which are the old ones.
    static func rewriteCheckLists(_ db: Database) throws {
        let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
        try db.execute(sql: "PRAGMA writable_schema = ON")
        for (table, list, chain) in checkListRewrites {
            try db.execute(sql: "UPDATE sqlite_master SET sql = replace(sql, ?, ?) WHERE type = 'table' AND name = ? AND instr(sql, ?) > 0",
                           arguments: [list, chain, table, list])
            guard db.changesCount == 1 else {
                throw DatabaseError(message: "v14-check-lists: the CHECK constraint of \(table) is not the one FleetKit wrote (\(list))")
            }
        }
        try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
        try db.execute(sql: "PRAGMA writable_schema = OFF")
    }

    /// (table, the constraint as v1 wrote it, the same constraint as an `OR` chain).
    static let checkListRewrites: [(String, String, String)] = [
        ("meter_reading", "CHECK (meter IN ('odometer', 'engine_hours', 'idle_hours', 'fuel_used', 'fuel_level', 'def_level'))",
         "CHECK (meter = 'odometer' OR meter = 'engine_hours' OR meter = 'idle_hours' OR meter = 'fuel_used' OR meter = 'fuel_level' OR meter = 'def_level')"),
        ("engine_event", "CHECK (state IN ('on', 'off', 'idle'))", "CHECK (state = 'on' OR state = 'off' OR state = 'idle')"),
    ]
}
