import GRDB

extension WarehouseMigrator {
    /// The CHECK constraints of the tables facts are written to one row per statement
    /// (`meter_reading.meter`, `engine_event.state`, `dtc_event.system`, `fuel_purchase.origin`,
    /// `expense.category`, `dvir.type` and `.safety_status`, and `asset.kind` and `.cdl_class`,
    /// one insert per new machine) checked by `=` comparisons joined by `OR` instead of an
    /// `IN (…)` list.
    ///
    /// Why: SQLite evaluates an `IN` list of more than two values through a temporary b-tree that
    /// it builds on every run of the statement (a temporary database opened, a page zeroed, the
    /// values inserted, all closed again), and facts are often written one row per statement.
    /// 60,000 one-row inserts into `meter_reading` with SQLite 3.40.1: 41 k instructions per
    /// insert with the list, 7.1 k with the `OR` chain; in an ISO 15143-3 snapshot import it was
    /// about 18 % of all instructions (BENCHMARKS.md, round 4); 100,000 one-row inserts into a table
    /// checked against the ten expense categories: 0.36 s CPU with the list, 0.12 s with the chain.
    /// The two forms accept and refuse exactly the same values: `=` compares as `IN` does, with the
    /// column's BINARY collation, and a NULL (`cdl_class`, the one nullable column) passes both, as
    /// a CHECK that is NULL passes.
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
        ("asset", "CHECK (kind IN ('vehicle', 'equipment', 'trailer'))",
         "CHECK (kind = 'vehicle' OR kind = 'equipment' OR kind = 'trailer')"),
        ("asset", "CHECK (cdl_class IN ('A', 'B', 'C', 'none'))",
         "CHECK (cdl_class = 'A' OR cdl_class = 'B' OR cdl_class = 'C' OR cdl_class = 'none')"),
        ("dtc_event", "CHECK (system IN ('obd2', 'j1939', 'oem'))",
         "CHECK (system = 'obd2' OR system = 'j1939' OR system = 'oem')"),
        ("fuel_purchase", "CHECK (origin IN ('card', 'receipt', 'manual'))",
         "CHECK (origin = 'card' OR origin = 'receipt' OR origin = 'manual')"),
        ("expense", "CHECK (category IN ('fuel', 'maintenance', 'repair', 'tires', 'parts', 'tolls', 'insurance', 'lease', 'registration', 'other'))",
         "CHECK (category = 'fuel' OR category = 'maintenance' OR category = 'repair' OR category = 'tires' OR category = 'parts' OR category = 'tolls' OR category = 'insurance' OR category = 'lease' OR category = 'registration' OR category = 'other')"),
        ("dvir", "CHECK (type IN ('pre_trip', 'post_trip', 'mechanic'))",
         "CHECK (type = 'pre_trip' OR type = 'post_trip' OR type = 'mechanic')"),
        ("dvir", "CHECK (safety_status IN ('safe', 'unsafe', 'resolved'))",
         "CHECK (safety_status = 'safe' OR safety_status = 'unsafe' OR safety_status = 'resolved')"),
    ]
}
