import GRDB

extension WarehouseMigrator {
    /// `hos_log`: a driver's hours-of-service duty-status intervals (49 CFR 395.8; an ELD's
    /// record of duty status), as Samsara's `/fleet/hos/logs` lists them: each status from its
    /// start until its end (open while it is the current status), with the vehicle when the log
    /// names one. A `driving` interval is evidence the driver drove on its local days
    /// (docs/METRICS.md, "Driver qualification"). Keyed on (driver, start): one driver is in one
    /// status at a time, so an overlapping export of the same log updates the row. The status is
    /// checked by an `OR` chain, not an `IN` list, which SQLite evaluates through a temporary
    /// b-tree on every insert (`v14-check-lists`).
    static let v14HOSLogs = """
    CREATE TABLE hos_log (
        id INTEGER PRIMARY KEY,
        driver_id INTEGER NOT NULL REFERENCES driver(id),
        start_at INTEGER NOT NULL,
        end_at INTEGER,
        status TEXT NOT NULL CHECK (status = 'off_duty' OR status = 'sleeper_berth' OR status = 'driving' OR status = 'on_duty' OR status = 'yard_move' OR status = 'personal_conveyance'),
        asset_id INTEGER REFERENCES asset(id),
        source_file_id INTEGER NOT NULL REFERENCES source_file(id),
        UNIQUE (driver_id, start_at)
    ) STRICT;
    CREATE INDEX hos_log_start ON hos_log(start_at);
    CREATE INDEX hos_log_asset ON hos_log(asset_id);
    CREATE INDEX hos_log_source_file ON hos_log(source_file_id);
    """
}
