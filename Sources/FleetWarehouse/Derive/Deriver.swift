import GRDB
import FleetCore

/// A step that recomputes derived tables (trips, daily rollups) from facts, for the parts of
/// assets' timelines a file touched. Derivation reads only the warehouse, never the file, so the
/// derived tables are the same whatever order files arrive in.
public protocol Deriver: Sendable {
    var name: String { get }
    func refresh(_ db: Database, touched: TouchedTimeline, zone: FleetZone) throws
}

/// The derivation steps in the order they run: trips before the daily rollup that counts them.
public enum Derivations {
    public static let all: [any Deriver] = [DailyRollup()]

    public static func refresh(_ db: Database, touched: TouchedTimeline, zone: FleetZone, steps: [any Deriver] = all) throws {
        guard !touched.isEmpty else { return }
        for step in steps { try step.refresh(db, touched: touched, zone: zone) }
    }

    /// Recomputes everything for every asset, e.g. after the fleet time zone changed.
    public static func rebuildAll(_ db: Database, zone: FleetZone, steps: [any Deriver] = all) throws {
        var touched = TouchedTimeline()
        for id in try Int64.fetchAll(db, sql: "SELECT id FROM asset") { touched.touchAll(id) }
        try refresh(db, touched: touched, zone: zone, steps: steps)
    }
}
