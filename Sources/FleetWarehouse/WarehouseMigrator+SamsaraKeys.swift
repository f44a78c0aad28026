import GRDB

extension WarehouseMigrator {
    /// Trailer defects stored before they had their own key (`samsara-defect:<id>`) take the
    /// key the importer now gives them (`samsara-defect:trailer:<id>`), so that importing a new
    /// export of their DVIR updates them instead of adding them a second time.
    ///
    /// Which rows: Samsara defect rows under the plain key whose comment begins with the trailer
    /// label the importer writes (`Trailer <name>: …`, or `trailer` when the trailer has no
    /// name). A row whose new key is already taken (the new FleetKit already stored that trailer
    /// defect) keeps its key: `UPDATE OR IGNORE` never merges or deletes a row. The importer
    /// writes a `/defects/stream` defect (plain key by design) onto a row re-keyed here when it
    /// is the same defect of the same DVIR, so the stream shape never doubles either.
    static let v7TrailerDefectKeys = """
    UPDATE OR IGNORE dvir_defect SET source_key = 'samsara-defect:trailer:' || substr(source_key, 16)
    WHERE source_key GLOB 'samsara-defect:*' AND source_key NOT GLOB 'samsara-defect:trailer:*' AND lower(comment) GLOB 'trailer*';
    """

    /// One row per idle period that a telematics source reports (Samsara's idling events and
    /// vehicle idling report): when, how long, fuel burned, PTO, where. Keyed on (asset, start),
    /// so an idling event and the report row of the same period are one row.
    ///
    /// Why a table of periods and not idle-hour meter readings: the periods are a thresholded
    /// subset (Samsara drops idling shorter than its minimum duration) with no running total, so
    /// a counter made from them would depend on which files were imported and would clash with
    /// the idle counter (`idlingDurationMilliseconds`) of the same vehicle. Idle time per asset
    /// and day is the sum of the periods' parts that fall in the day.
    static let v7IdlePeriod = """
    CREATE TABLE idle_period (
        id INTEGER PRIMARY KEY,
        asset_id INTEGER NOT NULL REFERENCES asset(id),
        start_at INTEGER NOT NULL,
        end_at INTEGER NOT NULL,
        duration_s REAL NOT NULL CHECK (duration_s >= 0),
        fuel_ml REAL CHECK (fuel_ml >= 0),
        pto INTEGER CHECK (pto IN (0, 1)),
        lat REAL,
        lon REAL,
        source TEXT NOT NULL,
        source_file_id INTEGER NOT NULL REFERENCES source_file(id),
        UNIQUE (asset_id, start_at),
        CHECK (end_at >= start_at)
    ) STRICT;
    """
}
