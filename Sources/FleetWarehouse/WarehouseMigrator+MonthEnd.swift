import GRDB

extension WarehouseMigrator {
    /// Month-end: closed periods, the restatements of their figures, and the corrections made to
    /// the warehouse (`fleetkit close`, `fleetkit forget`, `import --replaces`), each with who and
    /// when; and each stored version of a money or compliance fact, by the file that said it, so
    /// forgetting a file puts back what the previous file said (`RowVersions`).
    ///
    /// `restatement.file_path` and `correction.file_path` are text, not a reference: a forgotten
    /// file's `source_file` row is deleted (its bytes may be imported again), its record stays.
    static let v12MonthEnd = """
    CREATE TABLE period_close (
        period TEXT PRIMARY KEY CHECK (period GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]'),
        closed_at INTEGER NOT NULL,
        closed_by TEXT NOT NULL,
        figures_json TEXT NOT NULL
    ) STRICT;

    CREATE TABLE restatement (
        id INTEGER PRIMARY KEY,
        period TEXT NOT NULL,
        report TEXT NOT NULL,
        figure TEXT NOT NULL,
        old_value TEXT NOT NULL,
        new_value TEXT NOT NULL,
        file_path TEXT NOT NULL,
        file_sha256 TEXT NOT NULL,
        at INTEGER NOT NULL,
        by TEXT NOT NULL
    ) STRICT;
    CREATE INDEX restatement_period ON restatement(period);

    CREATE TABLE correction (
        id INTEGER PRIMARY KEY,
        action TEXT NOT NULL CHECK (action IN ('forget', 'replace')),
        file_path TEXT NOT NULL,
        file_sha256 TEXT NOT NULL,
        replaced_by TEXT,
        removed INTEGER NOT NULL,
        restored INTEGER NOT NULL,
        at INTEGER NOT NULL,
        by TEXT NOT NULL
    ) STRICT;

    CREATE TABLE row_version (
        id INTEGER PRIMARY KEY,
        table_name TEXT NOT NULL,
        row_key TEXT NOT NULL,
        source_file_id INTEGER NOT NULL REFERENCES source_file(id) ON DELETE CASCADE,
        row_json TEXT NOT NULL,
        UNIQUE (table_name, row_key, source_file_id)
    ) STRICT;
    CREATE INDEX row_version_file ON row_version(source_file_id);
    """
}
