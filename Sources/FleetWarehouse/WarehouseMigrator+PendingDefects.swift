import GRDB

extension WarehouseMigrator {
    /// Defects read before their DVIR (`PendingDVIRDefect`): they wait here and move into
    /// `dvir_defect` when the DVIR is loaded, so that the warehouse does not depend on which
    /// export came first. Deleted with their source file.
    static let v10PendingDefects = """
    CREATE TABLE dvir_defect_pending (
        id INTEGER PRIMARY KEY,
        source_key TEXT NOT NULL UNIQUE,
        dvir_key TEXT,
        trailer_key TEXT,
        location TEXT NOT NULL,
        component TEXT NOT NULL,
        defect_type TEXT,
        comment TEXT,
        safety_critical INTEGER NOT NULL DEFAULT 0 CHECK (safety_critical IN (0, 1)),
        created_at INTEGER,
        resolved_at INTEGER,
        resolved_by TEXT,
        certification TEXT CHECK (certification IN ('repaired', 'not_needed')),
        state_at INTEGER NOT NULL,
        source_file_id INTEGER NOT NULL REFERENCES source_file(id) ON DELETE CASCADE
    ) STRICT;
    CREATE INDEX dvir_defect_pending_dvir ON dvir_defect_pending(dvir_key);
    """
}
