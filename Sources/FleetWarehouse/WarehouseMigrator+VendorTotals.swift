import GRDB

extension WarehouseMigrator {
    /// Figures a source reports per period rather than as readings (docs/FORMATS.md "Mapping
    /// profiles", target `period_totals`; docs/METRICS.md "Vendor period totals"): a portal's
    /// daily vehicle report, an IFTA jurisdiction summary, a card statement's monthly volume.
    ///
    /// - `start_at`/`end_at`: the period as UTC instants, `[start_at, end_at)`: local midnight
    ///   of its first day and of the day after its last, in the profile's zone.
    /// - `measure`: one of `VendorTotal.measures`, `value` in its SI unit (metres, seconds,
    ///   millilitres); `raw_value`/`raw_unit` as the file wrote it.
    /// - `jurisdiction` and `fuel_type` are '' when the source gives none, so that they can be
    ///   part of the natural key (SQLite's UNIQUE treats NULLs as distinct).
    /// - `state_at`: when the source computed the figure (a report's generation time), when the
    ///   profile maps one; the later state wins (`VendorTotal.precedence`).
    ///
    /// Never added to the meter-derived figures of `asset_day`: reports show them beside.
    static let v16VendorTotals = """
    CREATE TABLE vendor_total (
        id INTEGER PRIMARY KEY,
        asset_id INTEGER NOT NULL REFERENCES asset(id),
        source TEXT NOT NULL,
        start_at INTEGER NOT NULL,
        end_at INTEGER NOT NULL CHECK (end_at > start_at),
        measure TEXT NOT NULL CHECK (measure IN ('distance', 'engine_hours', 'idle_hours', 'fuel_used', 'fuel_purchased')),
        jurisdiction TEXT NOT NULL DEFAULT '',
        fuel_type TEXT NOT NULL DEFAULT '',
        value REAL NOT NULL CHECK (value >= 0),
        raw_value TEXT,
        raw_unit TEXT,
        state_at INTEGER,
        source_file_id INTEGER NOT NULL REFERENCES source_file(id),
        UNIQUE (asset_id, source, start_at, end_at, measure, jurisdiction, fuel_type)
    ) STRICT;
    CREATE INDEX vendor_total_period ON vendor_total(start_at, end_at);
    CREATE INDEX vendor_total_source_file ON vendor_total(source_file_id);
    """
}
