import GRDB
import GRDBSQLite
import FleetCore

/// Derives trips (`source = 'gps'`) from positions, engine events and OBD RPM/speed samples,
/// by the rules in docs/METRICS.md: a trip starts once the asset is `startDistanceM` from its
/// last stop, and ends after `stopSeconds` within `stopRadiusM`, at ignition off, or at a data
/// gap over `gapSeconds`. Vendor trips (other sources) are never touched.
///
/// The state after a trip's end depends only on that end point, so a touched span is
/// recomputed from the end of a stored trip safely before it (one whose stop was confirmed
/// before any new fact) up to the first point after it where the new run ends a trip exactly
/// where a stored one ended, or a data gap. Trips crossing file boundaries are thereby
/// recomputed whole, and the same facts give the same trips in any import order.
public struct TripDetection: ScratchDeriver {
    public let name = "trips"
    public static let source = "gps"
    public init() {}

    public func refresh(_ db: Database, touched: inout TouchedTimeline, settings: DeriveSettings) throws {
        try detect(db, touched: &touched, settings: settings, scratch: nil)
    }

    /// Also leaves each asset's day GPS figures in `scratch` for the daily rollup (DayPaths).
    func refresh(_ db: Database, touched: inout TouchedTimeline, settings: DeriveSettings, scratch: DeriveScratch) throws {
        try detect(db, touched: &touched, settings: settings, scratch: scratch)
    }

    private func detect(_ db: Database, touched: inout TouchedTimeline, settings: DeriveSettings, scratch: DeriveScratch?) throws {
        for asset in Set(touched.ranges.keys).union(touched.whole).sorted() {
            let span = touched.whole.contains(asset) ? nil : touched.ranges[asset]
            let zone = scratch == nil ? nil : settings.zone
            let (rewritten, paths) = try recompute(db, asset: asset, span: span, rules: settings.trips, zone: zone,
                                                   streamed: scratch?.streams.removeValue(forKey: asset))
            // An asset without positions (a meter-only feed of many machines) leaves nothing: the
            // rollup's probe for its positions finds none, and the scratch stays as small as the
            // assets that have a path.
            if let paths, !paths.days.isEmpty { scratch?.dayPaths[asset] = paths }
            if let rewritten {
                touched.touch(asset, rewritten.lowerBound)
                touched.touch(asset, rewritten.upperBound)
            }
        }
    }

    /// Returns the span of trip starts it deleted or wrote, when it went beyond `span`, and with
    /// a `zone` the day GPS figures of the positions it read.
    /// `streamed`: the run a file's positions were fed to as they loaded (TripStream), used
    /// instead of reading them back when it is exactly this recompute.
    private func recompute(_ db: Database, asset: Int64, span: ClosedRange<Int64>?, rules: TripRules,
                           zone: FleetZone?, streamed: TripStream?) throws -> (ClosedRange<Int64>?, DayPaths?) {
        var run = TripRun(rules: rules)
        run.zone = zone
        let from = try span.map { try Self.start(db, asset: asset, lower: $0.lowerBound, run: &run) } ?? Int64.min
        if let span, let streamed, let result = try streamed.result(db, span: span, from: from, rules: rules, zone: zone) {
            // No stored trip starts at or after `from` that the stream did not see (it started
            // at `from` with no stored position after the file): replace them all, as below.
            try CachedQuery.execute(db, "DELETE FROM trip WHERE asset_id = ? AND source = ? AND start_at >= ?") {
                $0.bind(asset); $0.bind(Self.source); $0.bind(from)
            }
            for t in result.trips { try write(db, asset: asset, t) }
            guard from != Int64.min else { return (nil, result.paths) }
            return (from...max(from, result.trips.map(\.start.at).max() ?? from), result.paths)
        }
        var syncedAt: Int64? = nil
        run.onTrip = { trip in
            // Past `gap_seconds` after the new facts: a meter reading can change whether a gap
            // that starts up to `gap_seconds` after it is bridged (GapEvidence).
            guard let span, trip.end.at > span.upperBound + Int64(rules.gapSeconds * 1000), trip.reason != "end_of_data" else { return false }
            let q = try CachedQuery(db, "SELECT 1 FROM trip WHERE asset_id = ? AND source = ? AND end_at = ? AND end_reason = ?") {
                $0.bind(asset); $0.bind(Self.source); $0.bind(trip.end.at); $0.bind(trip.reason)
            }
            defer { q.reset() }
            if try q.step() { syncedAt = trip.end.at; return true }
            return false
        }
        let paths = try run.feed(db, asset: asset, from: from)
        // The trip ending at `from` started before it; every trip of the new run starts at or after
        // it, and before `syncedAt`, where the run met a stored trip's end: a stored trip that
        // starts exactly there (touching the one that ended) is after the sync point and stays
        // (`<=` deleted it whenever an older file was imported after a newer one).
        if let syncedAt {
            try CachedQuery.execute(db, "DELETE FROM trip WHERE asset_id = ? AND source = ? AND start_at >= ? AND start_at < ?") {
                $0.bind(asset); $0.bind(Self.source); $0.bind(from); $0.bind(syncedAt)
            }
        } else {
            try CachedQuery.execute(db, "DELETE FROM trip WHERE asset_id = ? AND source = ? AND start_at >= ?") {
                $0.bind(asset); $0.bind(Self.source); $0.bind(from)
            }
        }
        for t in run.trips { try write(db, asset: asset, t) }
        guard span != nil, from != Int64.min else { return (nil, paths) }
        let last = max(syncedAt ?? from, run.trips.map(\.start.at).max() ?? from)
        return (from...max(from, last), paths)
    }

    /// Where a recompute of a span from `lower` starts: the end of the last stored trip whose
    /// stop was confirmed before any new fact, with `run` restarted there; Int64.min (from the
    /// start of the asset's history) when there is none.
    static func start(_ db: Database, asset: Int64, lower: Int64, run: inout TripRun) throws -> Int64 {
        // A stop is confirmed at most a gap plus `stopSeconds` after it began (and after its
        // dwell anchor, itself at most a gap after the end point): stay clear of new facts.
        let margin = Int64((2 * run.rules.gapSeconds + run.rules.stopSeconds) * 1000)
        let q = try CachedQuery(db, """
            SELECT end_at, end_lat, end_lon FROM trip WHERE asset_id = ? AND source = ? AND end_reason IN ('movement', 'ignition')
              AND end_at < ? AND end_lat IS NOT NULL ORDER BY end_at DESC LIMIT 1
            """) { $0.bind(asset); $0.bind(Self.source); $0.bind(lower - margin) }
        let found = try q.step() ? (at: q.int64(0), lat: q.double(1), lon: q.double(2)) : nil
        q.reset()
        guard let found else { return Int64.min }
        try run.restart(db, asset: asset, at: found.at, lat: found.lat, lon: found.lon)
        return found.at
    }

    private func write(_ db: Database, asset: Int64, _ t: TripRun.Found) throws {
        let r = { (v: Double) in (v * 1000).rounded() / 1000 }
        var distance = r(t.end.distance - t.start.distance)
        let bridged = t.end.bridged - t.start.bridged
        var method = t.end.blind > t.start.blind ? "gps_partial" : t.end.odometerGap > t.start.odometerGap ? "mixed" : "gps"
        // The odometer, when both ends have a reading within a minute, beats GPS.
        let odometer = "SELECT value FROM meter_reading WHERE asset_id = ?1 AND meter = 'odometer' AND at BETWEEN ?2 - 60000 AND ?2 + 60000 ORDER BY ABS(at - ?2), at LIMIT 1"
        if let a = try CachedQuery.double(db, odometer, bind: { $0.bind(asset); $0.bind(t.start.at) }),
           let b = try CachedQuery.double(db, odometer, bind: { $0.bind(asset); $0.bind(t.end.at) }),
           b >= a, b - a <= 70 * Double(t.end.at - t.start.at) / 1000 + 1000 {
            distance = r(b - a)
            method = "odometer"
        }
        // The invariants, checked and repaired on the figures as they will be stored (TripCheck).
        var check = TripCheck(distance: distance, duration: Double(t.end.at - t.start.at) / 1000, moving: t.end.moving - t.start.moving,
                              idle: t.end.idle - t.start.idle, maxSpeed: t.maxSpeed)
        check.enforce(straightLine: Geo.haversine(t.start.lat, t.start.lon, t.end.lat, t.end.lon))
        let trip = Trip(assetID: asset, startAt: t.start.at, endAt: t.end.at, startLat: t.start.lat, startLon: t.start.lon,
                        endLat: t.end.lat, endLon: t.end.lon, distanceM: check.distance, durationS: check.duration,
                        movingS: check.moving, idleS: check.idle, maxSpeedMps: check.maxSpeed,
                        startReason: t.startReason, endReason: t.reason, source: Self.source)
        // Bound column by column on a cached statement: GRDB's Codable `insert` was 9 % of a
        // Samsara import. The columns are `Trip.columnTable`'s binding order, then the two derived-only ones.
        try CachedQuery.execute(db, Self.insertSQL) { trip.bind(into: &$0); $0.bind(method); $0.bind(r(bridged)) }
        if !check.repairs.isEmpty {
            let id = db.lastInsertedRowID
            try CachedQuery.execute(db, "UPDATE trip SET repair = ? WHERE id = ?") { $0.bind(check.repairs.joined(separator: ",")); $0.bind(id) }
        }
    }

    static let insertSQL = Trip.columnTable.insertSQL(extra: ["distance_method", "bridged_s"])
}
