import GRDB

extension WarehouseMigrator {
    /// How a derived trip's distance was measured and how much of it crossed GPS gaps that other
    /// signals bridged (docs/METRICS.md, "Bridged gaps"): a trip that runs through a gap in the
    /// positions because the engine ran or the meters kept rising is one trip, and whoever signs
    /// its distance must be able to see which part came from the odometer rather than the path.
    /// - `distance_method`: `gps` (the path), `odometer` (the odometer at both ends), `mixed` (the
    ///   path, plus the odometer across bridged gaps), `gps_partial` (the path, with a bridged gap
    ///   no odometer measured: a lower bound). NULL for vendor trips.
    /// - `bridged_s`: the seconds of GPS gaps longer than the gap rule inside the trip, 0 when none.
    static let v8TripReasons = """
    ALTER TABLE trip ADD COLUMN distance_method TEXT;
    ALTER TABLE trip ADD COLUMN bridged_s REAL;
    """
}
