import GRDB

extension WarehouseMigrator {
    /// `trip.repair`: the invariants a derived trip's figures were repaired to meet (TripCheck),
    /// comma-separated, NULL when none was needed. A trip that contradicted itself (an average
    /// speed above its maximum, moving plus idle longer than the trip, a distance shorter than
    /// the straight line between its ends) is stored repaired and says so, rather than silently.
    static let v6 = """
    ALTER TABLE trip ADD COLUMN repair TEXT;
    """
}
