import GRDB

extension WarehouseMigrator {
    /// `position` without declared foreign keys.
    ///
    /// Why: a GPX file loads a million positions that all carry the same two parent ids, the
    /// file's own `source_file` row and the asset resolved once for the file, and SQLite looked
    /// both up again for every row: 0.25 s of the 0.92 s that inserting a million positions takes
    /// (a C program on this table, 64-row INSERTs), the largest cost of a GPX import after the
    /// inserts themselves. What the keys guarded still holds by construction: positions are
    /// written only through `WarehouseSink` (its `sourceFileID` and an asset it resolved or
    /// created in the same transaction), the asset merger moves them with the other asset
    /// tables (`assetTables`, checked by a test against the schema plus `uncheckedAssetTables`),
    /// and nothing deletes a source file. A test checks that no position is left without its
    /// asset or file after merges.
    ///
    /// How: removing a foreign-key constraint does not change how rows are stored, so the
    /// table's stored definition is rewritten in place, the procedure the SQLite documentation
    /// gives for such changes ("ALTER TABLE", section "Making Other Kinds Of Table Schema
    /// Changes"): no row is copied, so a warehouse of 100 M positions migrates as fast as an
    /// empty one (rebuilding the table took 14 s of CPU per 10 M positions and doubled the file).
    /// Foreign keys are checked immediately: the deferred check would scan every table.
    static func dropPositionForeignKeys(_ db: Database) throws {
        let version = try Int.fetchOne(db, sql: "PRAGMA schema_version") ?? 0
        try db.execute(sql: "PRAGMA writable_schema = ON")
        try db.execute(sql: "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'position'", arguments: [positionV4])
        try db.execute(sql: "PRAGMA schema_version = \(version + 1)")
        try db.execute(sql: "PRAGMA writable_schema = OFF")
    }

    /// v1's `position` without its two `REFERENCES` clauses: same columns, types, key and options.
    static let positionV4 = """
        CREATE TABLE position (
            asset_id INTEGER NOT NULL,
            at INTEGER NOT NULL,
            lat REAL NOT NULL,
            lon REAL NOT NULL,
            speed_mps REAL,
            heading_deg REAL,
            alt_m REAL,
            source_file_id INTEGER NOT NULL,
            PRIMARY KEY (asset_id, at)
        ) STRICT, WITHOUT ROWID
        """

    /// Tables with an `asset_id` but no declared foreign key to `asset` (see `positionV4`).
    public static let uncheckedAssetTables = ["position"]
}
