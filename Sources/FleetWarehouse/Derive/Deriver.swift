import GRDB
import FleetCore

/// A step that recomputes derived tables (trips, daily rollups) from facts, for the parts of
/// assets' timelines a file touched. Derivation reads only the warehouse, never the file, so the
/// derived tables are the same whatever order files arrive in.
public protocol Deriver: Sendable {
    var name: String { get }
    /// Recomputes what `touched` covers, and widens `touched` by whatever it rewrote outside it,
    /// so later steps (the daily rollup counting trips) see those days too.
    func refresh(_ db: Database, touched: inout TouchedTimeline, settings: DeriveSettings) throws
}

/// What derivation depends on besides the facts: the fleet time zone (daily buckets) and the
/// trip rules (docs/METRICS.md; the nightly config's `trips:` block).
public struct DeriveSettings: Sendable, Equatable {
    public var zone: FleetZone
    public var trips: TripRules

    public init(zone: FleetZone = .utc, trips: TripRules = TripRules()) {
        self.zone = zone
        self.trips = trips
    }

    public static func == (a: DeriveSettings, b: DeriveSettings) -> Bool { a.zone.identifier == b.zone.identifier && a.trips == b.trips }
}

/// Trip and stop detection parameters.
public struct TripRules: Sendable, Equatable, Codable {
    /// A trip starts once the asset is this far from where it stopped.
    public var startDistanceM: Double = 200
    /// It ends after `stopSeconds` within this radius…
    public var stopRadiusM: Double = 200
    public var stopSeconds: Double = 180
    /// …or after a gap in the data longer than this.
    public var gapSeconds: Double = 3600
    /// Idle: engine on and slower than this (1 km/h).
    public var idleSpeedMps: Double = 1.0 / 3.6

    public init() {}

    /// Every key is optional in a config: a missing one keeps its default.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        startDistanceM = try c.decodeIfPresent(Double.self, forKey: .startDistanceM) ?? startDistanceM
        stopRadiusM = try c.decodeIfPresent(Double.self, forKey: .stopRadiusM) ?? stopRadiusM
        stopSeconds = try c.decodeIfPresent(Double.self, forKey: .stopSeconds) ?? stopSeconds
        gapSeconds = try c.decodeIfPresent(Double.self, forKey: .gapSeconds) ?? gapSeconds
        idleSpeedMps = try c.decodeIfPresent(Double.self, forKey: .idleSpeedMps) ?? idleSpeedMps
    }

    enum CodingKeys: String, CodingKey {
        case startDistanceM = "start_distance_m", stopRadiusM = "stop_radius_m", stopSeconds = "stop_seconds", gapSeconds = "gap_seconds"
        case idleSpeedMps = "idle_speed_mps"
    }
}

/// The derivation steps in the order they run: trips before the daily rollup that counts them.
public enum Derivations {
    public static let all: [any Deriver] = [TripDetection(), DailyRollup(), FuelLinking(), TankCosting()]

    /// `streams`: trip runs fed with a file's positions as they loaded (TripStream), used where
    /// they are exactly what reading the positions back would give. Returns what was rewritten:
    /// `touched`, widened by the steps.
    @discardableResult
    public static func refresh(_ db: Database, touched: TouchedTimeline, settings: DeriveSettings, steps: [any Deriver] = all,
                               streams: [Int64: TripStream] = [:]) throws -> TouchedTimeline {
        guard !touched.isEmpty else { return touched }
        var touched = touched
        // One scratch per refresh: the rollup takes the day GPS figures trip detection gathered
        // reading the positions, instead of reading them all again (DayPaths).
        let scratch = DeriveScratch()
        scratch.streams = streams
        for step in steps {
            if let shared = step as? any ScratchDeriver {
                try shared.refresh(db, touched: &touched, settings: settings, scratch: scratch)
            } else {
                try step.refresh(db, touched: &touched, settings: settings)
            }
        }
        return touched
    }

    /// Recomputes everything for every asset, e.g. after the fleet time zone changed.
    public static func rebuildAll(_ db: Database, settings: DeriveSettings, steps: [any Deriver] = all) throws {
        var touched = TouchedTimeline()
        for id in try Int64.fetchAll(db, sql: "SELECT id FROM asset") { touched.touchAll(id) }
        for tank in try TankCosting.allTanks(db) { touched.touchTank(tank) }
        try refresh(db, touched: touched, settings: settings, steps: steps)
    }
}
