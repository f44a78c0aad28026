import GRDB

extension WarehouseMigrator {
    /// On-site and bulk fuel (docs/FORMATS.md "fuel-dispense", "fuel-delivery"; docs/METRICS.md
    /// "Bulk fuel"):
    ///
    /// - `tank_delivery`: fuel delivered into a bulk tank, with what it cost. The tank is named
    ///   by its id as the site writes it (folded to upper case); there is no tank master file.
    /// - `tank_dip`: a tank level reading (a dip or gauge reading), for the tank reconciliation.
    /// - `fuel_dispense`: fuel pumped from a bulk tank into an asset, with the meter read at the
    ///   pump. Its `cost_minor`, `cost_currency` and `cost_state` are derived (`TankCosting`):
    ///   the tank's moving weighted-average cost at the dispense, recomputed over the tank's
    ///   whole history whenever a file adds, changes or forgets one of the tank's rows, so they
    ///   are the same whatever order the files arrive in.
    static let v15BulkFuel = """
    CREATE TABLE tank_delivery (
        id INTEGER PRIMARY KEY,
        source_key TEXT NOT NULL UNIQUE,
        tank TEXT NOT NULL,
        at INTEGER NOT NULL,
        volume_ml REAL NOT NULL CHECK (volume_ml > 0),
        cost_minor INTEGER NOT NULL CHECK (cost_minor >= 0),
        currency TEXT NOT NULL,
        currency_assumed INTEGER NOT NULL DEFAULT 0,
        supplier TEXT,
        invoice TEXT,
        source_file_id INTEGER NOT NULL REFERENCES source_file(id)
    ) STRICT;
    CREATE INDEX tank_delivery_tank ON tank_delivery(tank, at);
    CREATE INDEX tank_delivery_at ON tank_delivery(at);
    CREATE INDEX tank_delivery_source_file ON tank_delivery(source_file_id);

    CREATE TABLE tank_dip (
        id INTEGER PRIMARY KEY,
        source_key TEXT NOT NULL UNIQUE,
        tank TEXT NOT NULL,
        at INTEGER NOT NULL,
        level_ml REAL NOT NULL CHECK (level_ml >= 0),
        source_file_id INTEGER NOT NULL REFERENCES source_file(id)
    ) STRICT;
    CREATE INDEX tank_dip_tank ON tank_dip(tank, at);
    CREATE INDEX tank_dip_source_file ON tank_dip(source_file_id);

    CREATE TABLE fuel_dispense (
        id INTEGER PRIMARY KEY,
        source_key TEXT NOT NULL UNIQUE,
        tank TEXT NOT NULL,
        asset_id INTEGER REFERENCES asset(id),
        unit_hint TEXT,
        at INTEGER NOT NULL,
        volume_ml REAL NOT NULL CHECK (volume_ml > 0),
        odometer_m REAL,
        engine_s REAL,
        product TEXT,
        cost_minor INTEGER,
        cost_currency TEXT,
        cost_state TEXT NOT NULL DEFAULT 'pending' CHECK (cost_state = 'pending' OR cost_state = 'priced' OR cost_state = 'before_delivery' OR cost_state = 'no_rate' OR cost_state = 'unknown_tank'),
        source_file_id INTEGER NOT NULL REFERENCES source_file(id)
    ) STRICT;
    CREATE INDEX fuel_dispense_tank ON fuel_dispense(tank, at);
    CREATE INDEX fuel_dispense_at ON fuel_dispense(at);
    CREATE INDEX fuel_dispense_asset ON fuel_dispense(asset_id, at);
    CREATE INDEX fuel_dispense_source_file ON fuel_dispense(source_file_id);
    """
}
