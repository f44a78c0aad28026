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
            let (rewritten, paths) = try recompute(db, asset: asset, span: span, rules: settings.trips, zone: zone)
            scratch?.dayPaths[asset] = paths
            if let rewritten {
                touched.touch(asset, rewritten.lowerBound)
                touched.touch(asset, rewritten.upperBound)
            }
        }
    }

    /// Returns the span of trip starts it deleted or wrote, when it went beyond `span`, and with
    /// a `zone` the day GPS figures of the positions it read.
    private func recompute(_ db: Database, asset: Int64, span: ClosedRange<Int64>?, rules: TripRules,
                           zone: FleetZone?) throws -> (ClosedRange<Int64>?, DayPaths?) {
        var run = TripRun(rules: rules)
        run.zone = zone
        var from = Int64.min
        if let span {
            // A stop is confirmed at most a gap plus `stopSeconds` after it began (and after its
            // dwell anchor, itself at most a gap after the end point): stay clear of new facts.
            let margin = Int64((2 * rules.gapSeconds + rules.stopSeconds) * 1000)
            let before = span.lowerBound - margin
            let q = try CachedQuery(db, """
                SELECT end_at, end_lat, end_lon FROM trip WHERE asset_id = ? AND source = ? AND end_reason IN ('movement', 'ignition')
                  AND end_at < ? AND end_lat IS NOT NULL ORDER BY end_at DESC LIMIT 1
                """) { $0.bind(asset); $0.bind(Self.source); $0.bind(before) }
            let found = try q.step() ? (at: q.int64(0), lat: q.double(1), lon: q.double(2)) : nil
            q.reset()
            if let found {
                from = found.at
                try run.restart(db, asset: asset, at: from, lat: found.lat, lon: found.lon)
            }
        }
        var syncedAt: Int64? = nil
        run.onTrip = { trip in
            guard let span, trip.end.at > span.upperBound, trip.reason != "end_of_data" else { return false }
            let q = try CachedQuery(db, "SELECT 1 FROM trip WHERE asset_id = ? AND source = ? AND end_at = ? AND end_reason = ?") {
                $0.bind(asset); $0.bind(Self.source); $0.bind(trip.end.at); $0.bind(trip.reason)
            }
            defer { q.reset() }
            if try q.step() { syncedAt = trip.end.at; return true }
            return false
        }
        let paths = try run.feed(db, asset: asset, from: from)
        // The trip ending at `from` started before it; every trip of the new run starts at or after it.
        if let syncedAt {
            try CachedQuery.execute(db, "DELETE FROM trip WHERE asset_id = ? AND source = ? AND start_at >= ? AND start_at <= ?") {
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

    private func write(_ db: Database, asset: Int64, _ t: TripRun.Found) throws {
        let r = { (v: Double) in (v * 1000).rounded() / 1000 }
        var distance = r(t.end.distance - t.start.distance)
        // The odometer, when both ends have a reading within a minute, beats GPS.
        let odometer = "SELECT value FROM meter_reading WHERE asset_id = ?1 AND meter = 'odometer' AND at BETWEEN ?2 - 60000 AND ?2 + 60000 ORDER BY ABS(at - ?2), at LIMIT 1"
        if let a = try CachedQuery.double(db, odometer, bind: { $0.bind(asset); $0.bind(t.start.at) }),
           let b = try CachedQuery.double(db, odometer, bind: { $0.bind(asset); $0.bind(t.end.at) }),
           b >= a, b - a <= 70 * Double(t.end.at - t.start.at) / 1000 + 1000 {
            distance = r(b - a)
        }
        let trip = Trip(assetID: asset, startAt: t.start.at, endAt: t.end.at, startLat: t.start.lat, startLon: t.start.lon,
                        endLat: t.end.lat, endLon: t.end.lon, distanceM: distance, durationS: Double(t.end.at - t.start.at) / 1000,
                        movingS: r(t.end.moving - t.start.moving), idleS: r(t.end.idle - t.start.idle), maxSpeedMps: r(t.maxSpeed),
                        startReason: t.startReason, endReason: t.reason, source: Self.source)
        // Bound column by column on a cached statement: GRDB's Codable `insert` was 9 % of a
        // Samsara import. The columns are `Trip.bind`'s order (its keys, then its values).
        try CachedQuery.execute(db, Self.insertSQL) { trip.bind(into: &$0) }
    }

    static let insertSQL: String = {
        let columns = Trip.keyColumns + Trip.valueColumns
        return "INSERT INTO trip (\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
    }()
}

/// Engine state from `engine_event` rows (a state lasts until the next event) and OBD RPM
/// samples (PID 0x0C; valid for a minute, since dongles fall silent when the ignition is off).
struct EngineState {
    var on: Bool?
    var at: Int64 = 0
    var fromRPM = false
    var speed: (at: Int64, mps: Double)?

    func state(at t: Int64) -> Bool? { fromRPM && t - at > 60_000 ? nil : on }
    func obdSpeed(at t: Int64) -> Double? { speed.flatMap { t - $0.at <= 10_000 ? $0.mps : nil } }

    mutating func seed(_ db: Database, asset: Int64, at t: Int64) throws {
        let e = try CachedQuery(db, "SELECT at, state != 'off' FROM engine_event WHERE asset_id = ? AND at <= ? ORDER BY at DESC LIMIT 1") {
            $0.bind(asset); $0.bind(t)
        }
        if try e.step() { (on, at, fromRPM) = (e.int64(1) != 0, e.int64(0), false) }
        e.reset()
        let r = try CachedQuery(db, "SELECT at, value FROM obd_sample WHERE asset_id = ? AND pid = 12 AND at <= ? ORDER BY at DESC LIMIT 1") {
            $0.bind(asset); $0.bind(t)
        }
        if try r.step(), r.int64(0) > at { (on, at, fromRPM) = (r.double(1) > 0, r.int64(0), true) }
        r.reset()
    }
}

/// The trip state machine over one asset's time-ordered facts.
struct TripRun {
    struct Snap { var at: Int64; var lat, lon: Double; var distance = 0.0, moving = 0.0, idle = 0.0 }
    struct Found { var start: Snap; var end: Snap; var startReason: String; var reason: String; var maxSpeed: Double }

    let rules: TripRules
    let jitter = GPSPath().jitter, maxJump = GPSPath().maxSpeed
    /// The radii compared with once or twice per position, prepared once (Geo.Radius).
    private let jitterBound: Geo.Radius, startBound: Geo.Radius, stopBound: Geo.Radius
    var engine = EngineState()
    /// With a zone, `feed` also gathers the day GPS figures of the positions it reads.
    var zone: FleetZone?
    var trips: [Found] = []
    /// Called for each trip found; returning true stops the run (the new trips met the old).
    var onTrip: (Found) throws -> Bool = { _ in false }

    private var now = Snap(at: 0, lat: 0, lon: 0)            // cumulative sums at the last position
    private var prev: (at: Int64, lat: Double, lon: Double, speed: Double?)?
    private var anchor = Snap(at: 0, lat: 0, lon: 0)         // jitter anchor (last real movement)
    private var pending = 0.0                                  // seconds since the anchor not yet classified
    private var inTrip = false
    private var stop = (lat: 0.0, lon: 0.0)
    private var candidate = Snap(at: 0, lat: 0, lon: 0), frozen = false, candidateMax = 0.0
    private var start = Snap(at: 0, lat: 0, lon: 0), startReason = "movement", tripMax = 0.0
    private var dwell = Snap(at: 0, lat: 0, lon: 0), arrival = Snap(at: 0, lat: 0, lon: 0), arrivalMax = 0.0
    private var positionsAfter = Int64.min
    /// The last real position at or before `positionsAfter` (restart), anchoring `DayPaths`.
    private var before: (at: Int64, lat: Double, lon: Double)?
    // Geo.cosLat of now, anchor, stop and dwell: each fix's cosine is computed once, not in
    // each of the three or four haversines a position takes part in, and only when a full
    // distance needs it (nowCos may be NaN: not computed).
    private var nowCos = 0.0, anchorCos = 0.0, stopCos = 0.0, dwellCos = 0.0
    /// This position against the anchor, for the day path (GPSPath.add) to reuse.
    private var probe = AnchorProbe()

    init(rules: TripRules) {
        self.rules = rules
        (jitterBound, startBound, stopBound) = (Geo.Radius(jitter), Geo.Radius(rules.startDistanceM), Geo.Radius(rules.stopRadiusM))
    }

    /// Starts stopped at the end of a stored trip, in the state the full run had there: the
    /// last position at or before the end, the departure candidate at the end.
    mutating func restart(_ db: Database, asset: Int64, at t: Int64, lat: Double, lon: Double) throws {
        try engine.seed(db, asset: asset, at: t)
        let p = try CachedQuery(db, "SELECT at, lat, lon, speed_mps FROM position WHERE asset_id = ? AND at <= ? ORDER BY at DESC LIMIT 1") {
            $0.bind(asset); $0.bind(t)
        }
        defer { p.reset() }
        if try p.step() {
            prev = (p.int64(0), p.double(1), p.double(2), p.optionalDouble(3))
            now = Snap(at: p.int64(0), lat: p.double(1), lon: p.double(2))
            before = (now.at, now.lat, now.lon)
        } else {
            now = Snap(at: t, lat: lat, lon: lon)
            prev = (t, lat, lon, nil)
        }
        nowCos = Geo.cosLat(now.lat)
        anchor = now
        anchorCos = nowCos
        candidate = Snap(at: t, lat: now.lat, lon: now.lon)
        stop = (now.lat, now.lon)
        stopCos = nowCos
        positionsAfter = prev!.at
    }

    /// Runs the state machine over the asset's facts after `from`; with a `zone`, returns the
    /// day GPS figures of the positions it read.
    mutating func feed(_ db: Database, asset: Int64, from: Int64) throws -> DayPaths? {
        // Cached statements, reset on every exit: `feed` runs once per touched asset.
        let after = max(from, positionsAfter)
        var days = zone.map { DayPathTracker(zone: $0, after: after, before: before) }
        let positions = try CachedQuery(db, "SELECT at, lat, lon, speed_mps FROM position WHERE asset_id = ? AND at > ? ORDER BY at") {
            $0.bind(asset); $0.bind(after)
        }
        defer { positions.reset() }
        let signals = try CachedQuery(db, """
            SELECT at, 0, CASE state WHEN 'off' THEN 0.0 ELSE 1.0 END FROM engine_event WHERE asset_id = ?1 AND at > ?2
            UNION ALL SELECT at, 1, value FROM obd_sample WHERE asset_id = ?1 AND pid = 12 AND at > ?2
            UNION ALL SELECT at, 2, value / 3.6 FROM obd_sample WHERE asset_id = ?1 AND pid = 13 AND at > ?2
            ORDER BY 1, 2
            """) { $0.bind(asset); $0.bind(from) }
        defer { signals.reset() }
        let ps = positions.statement, ss = signals.statement
        var signal = sqlite3_step(ss) == SQLITE_ROW
        var signalAt = signal ? sqlite3_column_int64(ss, 0) : Int64.max
        while sqlite3_step(ps) == SQLITE_ROW {
            let at = sqlite3_column_int64(ps, 0)
            while signal, signalAt <= at {
                if try apply(at: signalAt, kind: sqlite3_column_int(ss, 1), value: sqlite3_column_double(ss, 2)) { return days?.finish(stoppedAt: at) }
                signal = sqlite3_step(ss) == SQLITE_ROW
                if signal { signalAt = sqlite3_column_int64(ss, 0) }
            }
            let lat = sqlite3_column_double(ps, 1), lon = sqlite3_column_double(ps, 2)
            // NULL reads as 0.0: the type is asked only then (one API call less per position).
            var speed: Double? = sqlite3_column_double(ps, 3)
            if speed == 0, sqlite3_column_type(ps, 3) == SQLITE_NULL { speed = nil }
            var c = Double.nan  // Geo.cosLat(lat), computed only if a distance needs it
            if try position(at: at, lat: lat, lon: lon, cos: &c, speed: speed) { return days?.finish(stoppedAt: at) }
            days?.add(at: at, lat: lat, lon: lon, cos: &c, probe: probe)
        }
        if inTrip, let p = prev { _ = try close(Snap(at: p.at, lat: p.lat, lon: p.lon, distance: now.distance, moving: now.moving, idle: now.idle), "end_of_data", max: tripMax) }
        return days?.finish(stoppedAt: nil)
    }

    /// Engine (kind 0), RPM (1) or OBD speed (2). Returns true when the run should stop.
    private mutating func apply(at: Int64, kind: Int32, value: Double) throws -> Bool {
        if kind == 2 { engine.speed = (at, value); return false }
        let was = engine.state(at: at)
        (engine.on, engine.at, engine.fromRPM) = (value > 0, at, kind == 1)
        guard prev != nil, was != engine.on else { return false }
        let here = Snap(at: at, lat: now.lat, lon: now.lon, distance: now.distance, moving: now.moving, idle: now.idle)
        if value > 0, !inTrip {
            flushPending()
            (candidate, frozen, candidateMax) = (here, true, 0)
        } else if value == 0 {
            frozen = false
            if inTrip {
                if try close(here, "ignition", max: tripMax) { return true }
                anchor = now
                anchorCos = nowCos.isNaN ? Geo.cosLat(now.lat) : nowCos
            }
            flushPending()
            candidate = Snap(at: at, lat: now.lat, lon: now.lon, distance: now.distance, moving: now.moving, idle: now.idle)
            candidateMax = 0
        }
        return false
    }

    /// One position. Returns true when the run should stop.
    /// `c` is `Geo.cosLat(lat)` or NaN, filled in when needed.
    private mutating func position(at: Int64, lat: Double, lon: Double, cos c: inout Double, speed: Double?) throws -> Bool {
        probe.valid = false
        guard let p = prev else {
            c = Geo.cosLat(lat)
            now = Snap(at: at, lat: lat, lon: lon)
            (anchor, candidate, stop, prev) = (now, now, (lat, lon), (at, lat, lon, speed))
            (nowCos, anchorCos, stopCos) = (c, c, c)
            return false
        }
        let dt = Double(at - p.at) / 1000
        if dt > rules.gapSeconds {
            if inTrip, try close(Snap(at: p.at, lat: p.lat, lon: p.lon, distance: now.distance, moving: now.moving, idle: now.idle), "gap", max: tripMax) { return true }
            pending = 0
            c = Geo.cosLat(lat)
            now = Snap(at: at, lat: lat, lon: lon, distance: now.distance, moving: now.moving, idle: now.idle)
            (anchor, candidate, candidateMax, stop, prev, frozen) = (now, now, 0, (lat, lon), (at, lat, lon, speed), engine.state(at: at) == true)
            (nowCos, anchorCos, stopCos) = (c, c, c)
            return false
        }
        let engineOn = engine.state(at: at)
        // Moving or standing for the interval: reported speed, else OBD speed, else decided at the next real move.
        // The mean of the reported speeds (no array: this runs once per position).
        let v: Double?
        switch (p.speed, speed) {
        case let (a?, b?): v = (a + b) / 2
        case let (a?, nil): v = a
        case let (nil, b?): v = b
        case (nil, nil): v = engine.obdSpeed(at: at)
        }
        if let v {
            if v >= rules.idleSpeedMps { now.moving += dt } else if engineOn != false { now.idle += dt }
        } else {
            pending += dt
        }
        var top = v ?? 0
        // Most fixes only need the comparison with the jitter radius (Geo.exceeds).
        let advanced = Geo.exceeds(jitterBound, anchor.lat, anchor.lon, anchorCos, lat, lon, &c)
        probe = AnchorProbe(valid: true, lat: anchor.lat, lon: anchor.lon, radius: jitter, advanced: advanced)
        if advanced {
            if c.isNaN { c = Geo.cosLat(lat) }
            let d = Geo.haversine(anchor.lat, anchor.lon, anchorCos, lat, lon, c)
            probe.distance = d
            let span = max(Double(at - anchor.at) / 1000, 1)
            if pending > 0 {
                // A real move: the whole span moved if its average speed says so; otherwise it
                // stood still until the last interval.
                if d / span >= rules.idleSpeedMps { now.moving += pending } else {
                    now.moving += min(dt, pending)
                    if engineOn != false { now.idle += pending - min(dt, pending) }
                }
                pending = 0
            }
            if d / span <= maxJump { now.distance += d; if v == nil { top = max(top, d / span) } }
        }
        now.at = at; now.lat = lat; now.lon = lon
        nowCos = c
        prev = (at, lat, lon, speed)
        if advanced { anchor = now; anchorCos = c }
        if inTrip { return try tripStep(advanced: advanced, top: top, engineOn: engineOn, cos: &c) }
        candidateMax = max(candidateMax, top)
        if Geo.exceeds(startBound, stop.lat, stop.lon, stopCos, lat, lon, &c) {
            (inTrip, start, startReason, tripMax) = (true, candidate, frozen ? "ignition" : "movement", candidateMax)
            (dwell, arrival, arrivalMax) = (now, now, tripMax)
            if c.isNaN { c = Geo.cosLat(lat) }
            dwellCos = c
            return false
        }
        // Still for a minute without the engine starting: the departure point moves up.
        if !advanced, !frozen, at - anchor.at >= 60_000 {
            flushPending()
            (candidate, candidateMax) = (now, 0)
        }
        return false
    }

    /// `c` is the current position's (`now`'s) `Geo.cosLat` or NaN.
    private mutating func tripStep(advanced: Bool, top: Double, engineOn: Bool?, cos c: inout Double) throws -> Bool {
        tripMax = max(tripMax, top)
        if advanced { (arrival, arrivalMax) = (now, tripMax) }
        if Geo.exceeds(stopBound, dwell.lat, dwell.lon, dwellCos, now.lat, now.lon, &c) {
            if c.isNaN { c = Geo.cosLat(now.lat) }
            (dwell, dwellCos) = (now, c)
            return false
        }
        guard engineOn != true, Double(now.at - dwell.at) / 1000 >= rules.stopSeconds else { return false }
        // Stopped: the trip ends where the asset last really moved.
        let end = arrival.at >= start.at ? arrival : start
        if try close(end, "movement", max: arrivalMax) { return true }
        flushPending()
        candidate = now
        candidateMax = 0
        return false
    }

    private mutating func flushPending() {
        if pending > 0, engine.state(at: now.at) != false { now.idle += pending }
        pending = 0
    }

    /// Records a trip and switches to stopped at its end. Returns true when the run should stop.
    private mutating func close(_ end: Snap, _ reason: String, max: Double) throws -> Bool {
        inTrip = false
        stop = (end.lat, end.lon)
        stopCos = Geo.cosLat(end.lat)
        guard end.at > start.at else { return false }
        let found = Found(start: start, end: end, startReason: startReason, reason: reason, maxSpeed: max)
        trips.append(found)
        return try onTrip(found)
    }
}
