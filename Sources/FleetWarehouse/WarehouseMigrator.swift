import GRDB

/// The warehouse schema, as named migrations.
///
/// A migration is never edited once it has shipped: a change is a new migration appended here.
/// Migrations use table and column names as strings, not record types, so that a later change
/// to a record cannot rewrite history. All tables are STRICT; times are UTC epoch milliseconds,
/// quantities SI, money integer minor units with an ISO 4217 code.
public enum WarehouseMigrator {
    public static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1-schema") { db in try db.execute(sql: v1) }
        m.registerMigration("v2-meter-anomaly") { db in try db.execute(sql: v2) }
        m.registerMigration("v3-report-indexes") { db in try db.execute(sql: v3) }
        m.registerMigration("v4-position-unchecked-keys", foreignKeyChecks: .immediate) { db in try dropPositionForeignKeys(db) }
        m.registerMigration("v5-import-run-interrupted", foreignKeyChecks: .immediate) { db in try allowInterruptedRuns(db) }
        m.registerMigration("v6-trip-repair") { db in try db.execute(sql: v6) }
        m.registerMigration("v7-trailer-defect-keys") { db in try db.execute(sql: v7TrailerDefectKeys) }
        m.registerMigration("v7-idle-period") { db in try db.execute(sql: v7IdlePeriod) }
        m.registerMigration("v8-trip-reasons") { db in try db.execute(sql: v8TripReasons) }
        m.registerMigration("v9-receipt-review") { db in try db.execute(sql: v9ReceiptReview) }
        m.registerMigration("v10-dvir-defect-pending") { db in try db.execute(sql: v10PendingDefects) }
        m.registerMigration("v11-asset-name-source") { db in try db.execute(sql: v11AssetNameSource) }
        m.registerMigration("v12-dvir-audit") { db in try db.execute(sql: v12DVIRAudit) }
        m.registerMigration("v12-assumed-currency") { db in try db.execute(sql: v12AssumedCurrency) }
        m.registerMigration("v12-reject-rows") { db in try db.execute(sql: v12RejectRows) }
        m.registerMigration("v12-month-end") { db in try db.execute(sql: v12MonthEnd) }
        m.registerMigration("v13-verify-keys") { db in try db.execute(sql: v13VerifyKeys) }
        m.registerMigration("v13-fuel") { db in try db.execute(sql: v13Fuel) }
        m.registerMigration("v13-dvir-findings") { db in try db.execute(sql: v13DVIRFindings) }
        m.registerMigration("v13-driver-medical") { db in try db.execute(sql: v13DriverMedical) }
        m.registerMigration("v13-run-exit-code") { db in try db.execute(sql: v13RunExitCode) }
        m.registerMigration("v13-twin-keys") { db in try db.execute(sql: v13TwinKeys) }
        m.registerMigration("v14-file-keys") { db in try db.execute(sql: v14FileKeys) }
        m.registerMigration("v14-driver-licence") { db in try db.execute(sql: v14DriverLicence) }
        m.registerMigration("v14-hos-logs") { db in try db.execute(sql: v14HOSLogs) }
        m.registerMigration("v14-check-lists", foreignKeyChecks: .immediate) { db in try rewriteCheckLists(db) }
        m.registerMigration("v15-bulk-fuel") { db in try db.execute(sql: v15BulkFuel) }
        m.registerMigration("v16-vendor-totals") { db in try db.execute(sql: v16VendorTotals) }
        m.registerMigration("v17-fuel-exception-decisions") { db in try db.execute(sql: v17FuelExceptionDecisions) }
        return m
    }

    /// Tables holding an `asset_id`: merging two assets moves rows in every one of them. A test
    /// checks this list against the schema's foreign keys (plus `uncheckedAssetTables`), so a
    /// new table cannot be forgotten.
    public static let assetTables = [
        "asset_identifier", "assignment", "meter_reading", "position", "engine_event", "obd_sample",
        "dtc_event", "trip", "asset_day", "fuel_purchase", "expense", "maintenance_record",
        "service_schedule", "dvir", "meter_anomaly", "idle_period", "hos_log", "fuel_dispense",
        "vendor_total",
    ]

    static let v1 = """
    CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

    CREATE TABLE import_run (
        id INTEGER PRIMARY KEY,
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        command TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'ok', 'partial', 'failed')),
        summary_json TEXT
    ) STRICT;

    CREATE TABLE source_file (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL,
        sha256 TEXT NOT NULL UNIQUE,
        format TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        imported_at INTEGER NOT NULL,
        exported_at INTEGER,
        import_run_id INTEGER REFERENCES import_run(id),
        status TEXT NOT NULL CHECK (status IN ('importing', 'imported', 'partial')),
        loaded INTEGER NOT NULL DEFAULT 0,
        updated INTEGER NOT NULL DEFAULT 0,
        unchanged INTEGER NOT NULL DEFAULT 0,
        rejected INTEGER NOT NULL DEFAULT 0
    ) STRICT;

    CREATE TABLE reject (
        id INTEGER PRIMARY KEY,
        source_file_id INTEGER NOT NULL REFERENCES source_file(id) ON DELETE CASCADE,
        location TEXT NOT NULL,
        reason TEXT NOT NULL,
        message TEXT NOT NULL,
        raw TEXT NOT NULL
    ) STRICT;
    CREATE INDEX reject_source_file ON reject(source_file_id);

    CREATE TABLE asset (
        id INTEGER PRIMARY KEY,
        unit_number TEXT UNIQUE,
        kind TEXT NOT NULL DEFAULT 'vehicle' CHECK (kind IN ('vehicle', 'equipment', 'trailer')),
        name TEXT,
        vin TEXT,
        pin TEXT,
        make TEXT,
        model TEXT,
        year INTEGER,
        fuel_type TEXT,
        license_plate TEXT,
        cost_center TEXT,
        department TEXT,
        asset_group TEXT,
        in_service_date TEXT,
        retired_date TEXT,
        acquisition_cost_minor INTEGER,
        currency TEXT,
        target_hours_per_week REAL,
        auto_created INTEGER NOT NULL DEFAULT 0 CHECK (auto_created IN (0, 1)),
        source_file_id INTEGER REFERENCES source_file(id)
    ) STRICT;
    CREATE UNIQUE INDEX asset_vin ON asset(vin) WHERE vin IS NOT NULL;
    CREATE UNIQUE INDEX asset_pin ON asset(pin) WHERE pin IS NOT NULL;

    CREATE TABLE asset_identifier (
        asset_id INTEGER NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
        source TEXT NOT NULL,
        id_type TEXT NOT NULL,
        id_value TEXT NOT NULL,
        UNIQUE (source, id_type, id_value)
    ) STRICT;
    CREATE INDEX asset_identifier_asset ON asset_identifier(asset_id);

    CREATE TABLE driver (
        id INTEGER PRIMARY KEY,
        employee_id TEXT UNIQUE,
        name TEXT,
        license_number TEXT,
        license_state TEXT,
        license_expiry TEXT,
        status TEXT,
        phone TEXT,
        email TEXT,
        auto_created INTEGER NOT NULL DEFAULT 0 CHECK (auto_created IN (0, 1)),
        source_file_id INTEGER REFERENCES source_file(id)
    ) STRICT;

    CREATE TABLE driver_identifier (
        driver_id INTEGER NOT NULL REFERENCES driver(id) ON DELETE CASCADE,
        source TEXT NOT NULL,
        id_type TEXT NOT NULL,
        id_value TEXT NOT NULL,
        UNIQUE (source, id_type, id_value)
    ) STRICT;

    CREATE TABLE assignment (
        id INTEGER PRIMARY KEY,
        driver_id INTEGER NOT NULL REFERENCES driver(id),
        asset_id INTEGER NOT NULL REFERENCES asset(id),
        start_at INTEGER NOT NULL,
        end_at INTEGER,
        status TEXT,
        source_file_id INTEGER NOT NULL REFERENCES source_file(id),
        UNIQUE (driver_id, asset_id, start_at)
    ) STRICT;

    CREATE TABLE meter_reading (
        asset_id INTEGER NOT NULL REFERENCES asset(id),
        meter TEXT NOT NULL CHECK (meter IN ('odometer', 'engine_hours', 'idle_hours', 'fuel_used', 'fuel_level', 'def_level')),
        at INTEGER NOT NULL,
        value REAL NOT NULL,
        raw_value TEXT,
        raw_unit TEXT,
        source_file_id INTEGER NOT NULL REFERENCES source_file(id),
        PRIMARY KEY (asset_id, meter, at)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE position (
        asset_id INTEGER NOT NULL REFERENCES asset(id),
        at INTEGER NOT NULL,
        lat REAL NOT NULL,
        lon REAL NOT NULL,
        speed_mps REAL,
        heading_deg REAL,
        alt_m REAL,
        source_file_id INTEGER NOT NULL REFERENCES source_file(id),
        PRIMARY KEY (asset_id, at)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE engine_event (
        asset_id INTEGER NOT NULL REFERENCES asset(id),
        at INTEGER NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('on', 'off', 'idle')),
        source_file_id INTEGER NOT NULL REFERENCES source_file(id),
        PRIMARY KEY (asset_id, at)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE obd_sample (
        asset_id INTEGER NOT NULL REFERENCES asset(id),
        at INTEGER NOT NULL,
        pid INTEGER NOT NULL,
        value REAL NOT NULL,
        source_file_id INTEGER NOT NULL REFERENCES source_file(id),
        PRIMARY KEY (asset_id, pid, at)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE dtc_event (
        id INTEGER PRIMARY KEY,
        asset_id INTEGER NOT NULL REFERENCES asset(id),
        at INTEGER NOT NULL,
        code TEXT NOT NULL,
        system TEXT NOT NULL CHECK (system IN ('obd2', 'j1939', 'oem')),
        spn INTEGER,
        fmi INTEGER,
        description TEXT,
        status TEXT,
        mil_on INTEGER,
        cleared_at INTEGER,
        source_file_id INTEGER NOT NULL REFERENCES source_file(id),
        UNIQUE (asset_id, code, at)
    ) STRICT;

    CREATE TABLE trip (
        id INTEGER PRIMARY KEY,
        asset_id INTEGER NOT NULL REFERENCES asset(id),
        driver_id INTEGER REFERENCES driver(id),
        start_at INTEGER NOT NULL,
        end_at INTEGER NOT NULL,
        start_lat REAL, start_lon REAL, end_lat REAL, end_lon REAL,
        distance_m REAL,
        duration_s REAL,
        moving_s REAL,
        idle_s REAL,
        max_speed_mps REAL,
        start_reason TEXT,
        end_reason TEXT,
        source TEXT NOT NULL,
        source_file_id INTEGER REFERENCES source_file(id),
        UNIQUE (asset_id, start_at, source)
    ) STRICT;

    CREATE TABLE asset_day (
        asset_id INTEGER NOT NULL REFERENCES asset(id),
        day TEXT NOT NULL,
        distance_m REAL,
        distance_method TEXT,
        engine_s REAL,
        idle_s REAL,
        fuel_ml REAL,
        first_at INTEGER,
        last_at INTEGER,
        trips INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (asset_id, day)
    ) STRICT, WITHOUT ROWID;

    CREATE TABLE fuel_purchase (
        id INTEGER PRIMARY KEY,
        source_key TEXT NOT NULL UNIQUE,
        origin TEXT NOT NULL CHECK (origin IN ('card', 'receipt', 'manual')),
        asset_id INTEGER REFERENCES asset(id),
        unit_hint TEXT,
        at INTEGER NOT NULL,
        merchant TEXT,
        volume_ml REAL,
        unit_price_minor_per_l REAL,
        total_minor INTEGER,
        currency TEXT NOT NULL,
        fuel_grade TEXT,
        odometer_m REAL,
        card_last4 TEXT,
        ocr_confidence REAL,
        needs_review INTEGER NOT NULL DEFAULT 0 CHECK (needs_review IN (0, 1)),
        linked_to INTEGER REFERENCES fuel_purchase(id),
        source_file_id INTEGER NOT NULL REFERENCES source_file(id)
    ) STRICT;
    CREATE INDEX fuel_purchase_at ON fuel_purchase(at);

    CREATE TABLE expense (
        id INTEGER PRIMARY KEY,
        source_key TEXT NOT NULL UNIQUE,
        asset_id INTEGER REFERENCES asset(id),
        unit_hint TEXT,
        at INTEGER NOT NULL,
        category TEXT NOT NULL CHECK (category IN ('fuel', 'maintenance', 'repair', 'tires', 'parts', 'tolls', 'insurance', 'lease', 'registration', 'other')),
        amount_minor INTEGER NOT NULL,
        currency TEXT NOT NULL,
        vendor TEXT,
        description TEXT,
        source_file_id INTEGER NOT NULL REFERENCES source_file(id)
    ) STRICT;
    CREATE INDEX expense_at ON expense(at);

    CREATE TABLE maintenance_record (
        id INTEGER PRIMARY KEY,
        source_key TEXT NOT NULL UNIQUE,
        asset_id INTEGER NOT NULL REFERENCES asset(id),
        service_type TEXT NOT NULL,
        performed_at INTEGER NOT NULL,
        odometer_m REAL,
        engine_s REAL,
        cost_minor INTEGER,
        currency TEXT,
        vendor TEXT,
        work_order TEXT,
        notes TEXT,
        source_file_id INTEGER NOT NULL REFERENCES source_file(id)
    ) STRICT;

    CREATE TABLE service_schedule (
        id INTEGER PRIMARY KEY,
        source_key TEXT NOT NULL UNIQUE,
        asset_id INTEGER REFERENCES asset(id),
        asset_group TEXT,
        service_type TEXT NOT NULL,
        every_days INTEGER,
        every_months INTEGER,
        every_m REAL,
        every_engine_s REAL,
        soon_days INTEGER,
        soon_m REAL,
        soon_engine_s REAL,
        source_file_id INTEGER NOT NULL REFERENCES source_file(id),
        CHECK (asset_id IS NULL OR asset_group IS NULL)
    ) STRICT;

    CREATE TABLE dvir (
        id INTEGER PRIMARY KEY,
        source_key TEXT NOT NULL UNIQUE,
        asset_id INTEGER NOT NULL REFERENCES asset(id),
        driver_id INTEGER REFERENCES driver(id),
        type TEXT NOT NULL CHECK (type IN ('pre_trip', 'post_trip', 'mechanic')),
        started_at INTEGER,
        signed_at INTEGER NOT NULL,
        safety_status TEXT NOT NULL CHECK (safety_status IN ('safe', 'unsafe', 'resolved')),
        odometer_m REAL,
        location TEXT,
        inspector_name TEXT,
        mechanic_name TEXT,
        mechanic_signed_at INTEGER,
        mechanic_notes TEXT,
        reviewed_at INTEGER,
        reviewed_by TEXT,
        state_at INTEGER NOT NULL,
        source_file_id INTEGER NOT NULL REFERENCES source_file(id)
    ) STRICT;

    CREATE TABLE dvir_defect (
        id INTEGER PRIMARY KEY,
        dvir_id INTEGER NOT NULL REFERENCES dvir(id) ON DELETE CASCADE,
        source_key TEXT NOT NULL UNIQUE,
        component TEXT NOT NULL,
        defect_type TEXT,
        comment TEXT,
        safety_critical INTEGER NOT NULL DEFAULT 0 CHECK (safety_critical IN (0, 1)),
        created_at INTEGER,
        resolved_at INTEGER,
        resolved_by TEXT,
        certification TEXT CHECK (certification IN ('repaired', 'not_needed')),
        state_at INTEGER NOT NULL,
        source_file_id INTEGER NOT NULL REFERENCES source_file(id)
    ) STRICT;

    CREATE TABLE fx_rate (
        day TEXT NOT NULL,
        currency TEXT NOT NULL,
        per_base REAL NOT NULL CHECK (per_base > 0),
        source_file_id INTEGER REFERENCES source_file(id),
        PRIMARY KEY (day, currency)
    ) STRICT, WITHOUT ROWID;
    """

    /// Readings the daily rollup refused to sum: a counter that went backwards (unit swap, bad
    /// reading) or rose faster than the asset can (a 5,000 km jump in an hour). Reports list them
    /// in their data-quality tables.
    static let v2 = """
    CREATE TABLE meter_anomaly (
        asset_id INTEGER NOT NULL REFERENCES asset(id),
        meter TEXT NOT NULL,
        at INTEGER NOT NULL,
        previous_at INTEGER NOT NULL,
        previous_value REAL NOT NULL,
        value REAL NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('rollback', 'implausible_rate')),
        PRIMARY KEY (asset_id, meter, at)
    ) STRICT, WITHOUT ROWID;
    """
}
