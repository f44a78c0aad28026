import GRDB

extension WarehouseMigrator {
    /// `import_run.status` may also be `interrupted`: a run whose process died (SIGKILL, a crash,
    /// a power cut) before it closed its row. Before this, such rows stayed `running` forever in
    /// `fleetkit status`, indistinguishable from a run in progress (`RunLock` tells them apart).
    ///
    /// How: widening a CHECK constraint changes no stored row, so the table's stored definition
    /// is rewritten in place, as v4 does for `position` (the SQLite documentation's procedure for
    /// such changes): instant whatever the size of the ledger.
    static func allowInterruptedRuns(_ db: Database) throws {
        let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
        try db.execute(sql: "PRAGMA writable_schema = ON")
        try db.execute(sql: "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'import_run'", arguments: [importRunV5])
        try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
        try db.execute(sql: "PRAGMA writable_schema = OFF")
    }

    /// v1's `import_run` with `interrupted` added to the statuses: same columns, types and options.
    static let importRunV5 = """
        CREATE TABLE import_run (
            id INTEGER PRIMARY KEY,
            started_at INTEGER NOT NULL,
            finished_at INTEGER,
            command TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('running', 'ok', 'partial', 'failed', 'interrupted')),
            summary_json TEXT
        ) STRICT
        """
}
