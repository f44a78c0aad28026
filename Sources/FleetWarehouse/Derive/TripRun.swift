import GRDB
import GRDBSQLite
import FleetCore

/// Engine state from `engine_event` rows (a state lasts until the next event) and OBD RPM
/// samples (PID 0x0C; valid for a minute, since dongles fall silent when the ignition is off).
struct EngineState {
    var on: Bool?
    var at: Int64 = 0
    var fromRPM = false
    var speed: (at: Int64, mps: Double)?
    /// Since when the engine has been known to run without a break (nil when it is not known
    /// to run): a GPS gap inside a trip is bridged when the engine ran from before it to its
    /// end (GapEvidence). A seeded state counts from its event, which is never earlier than
    /// the truth, and the restart point it is seeded at is before any gap the run judges.
    var onSince: Int64?

    func state(at t: Int64) -> Bool? { fromRPM && t - at > 60_000 ? nil : on }
    func obdSpeed(at t: Int64) -> Double? { speed.flatMap { t - $0.at <= 10_000 ? $0.mps : nil } }

    mutating func seed(_ db: Database, asset: Int64, at t: Int64) throws {
        let e = try CachedQuery(db, "SELECT at, state != 'off' FROM engine_event WHERE asset_id = ? AND at <= ? ORDER BY at DESC LIMIT 1") {
            $0.bind(asset); $0.bind(t)
        }
        if try e.step() { (on, at, fromRPM) = (e.int64(1) != 0, e.int64(0), false) }
        onSince = on == true ? at : nil
        e.reset()
        let r = try CachedQuery(db, "SELECT at, value FROM obd_sample WHERE asset_id = ? AND pid = 12 AND at <= ? ORDER BY at DESC LIMIT 1") {
            $0.bind(asset); $0.bind(t)
        }
        if try r.step(), r.int64(0) > at {
            (on, at, fromRPM) = (r.double(1) > 0, r.int64(0), true)
            onSince = on == true ? at : nil
        }
        r.reset()
    }
}

/// The trip state machine over one asset's time-ordered facts.
struct TripRun {
    /// Cumulative sums at an instant: a trip's figures are the differences between its ends.
    /// `bridged`: seconds of GPS gaps bridged by other signals; `odometerGap`: metres the
    /// odometer measured across them; `blind`: bridged gaps no odometer measured.
    struct Snap {
        var at: Int64; var lat, lon: Double; var distance = 0.0, moving = 0.0, idle = 0.0
        var bridged = 0.0, odometerGap = 0.0, blind = 0

        /// These sums at another instant and place.
        func at(_ t: Int64, _ lat: Double, _ lon: Double) -> Snap {
            var s = self
            (s.at, s.lat, s.lon) = (t, lat, lon)
            return s
        }
    }
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
    /// The meters' evidence about a GPS gap (GapEvidence.read), set while `step` reads the
    /// warehouse; nil while a file's positions stream in (TripStream), which is used only when
    /// the asset has no meter reading it could need.
    var meters: ((Int64, Int64) throws -> GapEvidence)?

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
        var days = dayTracker(from: from)
        if let stoppedAt = try step(db, asset: asset, from: from, days: &days) { return days?.finish(stoppedAt: stoppedAt) }
        return try end(days: &days)
    }

    /// The day tracker for the positions `step` reads after `from` (nil without a zone).
    func dayTracker(from: Int64) -> DayPathTracker? {
        zone.map { DayPathTracker(zone: $0, after: max(from, positionsAfter), before: before) }
    }

    /// Steps through the stored facts after `from`, positions and signals in time order.
    /// Returns the time of the position where the run stopped (`onTrip`), nil when they ran out.
    mutating func step(_ db: Database, asset: Int64, from: Int64, days: inout DayPathTracker?) throws -> Int64? {
        // Cached statements, reset on every exit: `feed` runs once per touched asset.
        let after = max(from, positionsAfter)
        let positions = try CachedQuery(db, "SELECT at, lat, lon, speed_mps FROM position WHERE asset_id = ? AND at > ? ORDER BY at") {
            $0.bind(asset); $0.bind(after)
        }
        defer { positions.reset() }
        let signals = try CachedQuery(db, Self.signalsSQL) { $0.bind(asset); $0.bind(from) }
        defer { signals.reset() }
        let ps = positions.statement, ss = signals.statement
        let gap = rules.gapSeconds
        meters = { a, b in try GapEvidence.read(db, asset: asset, from: a, to: b, gapSeconds: gap) }
        defer { meters = nil }
        var signal = sqlite3_step(ss) == SQLITE_ROW
        var signalAt = signal ? sqlite3_column_int64(ss, 0) : Int64.max
        while sqlite3_step(ps) == SQLITE_ROW {
            let at = sqlite3_column_int64(ps, 0)
            while signal, signalAt <= at {
                if try apply(at: signalAt, kind: sqlite3_column_int(ss, 1), value: sqlite3_column_double(ss, 2)) { return at }
                signal = sqlite3_step(ss) == SQLITE_ROW
                if signal { signalAt = sqlite3_column_int64(ss, 0) }
            }
            let lat = sqlite3_column_double(ps, 1), lon = sqlite3_column_double(ps, 2)
            // NULL reads as 0.0: the type is asked only then (one API call less per position).
            var speed: Double? = sqlite3_column_double(ps, 3)
            if speed == 0, sqlite3_column_type(ps, 3) == SQLITE_NULL { speed = nil }
            if try stream(at: at, lat: lat, lon: lon, speed: speed, days: &days) { return at }
        }
        return nil
    }

    /// One position in time order, as `step` takes each stored one; also how `TripStream`
    /// feeds a file's positions as they load. Returns true when the run should stop.
    mutating func stream(at: Int64, lat: Double, lon: Double, speed: Double?, days: inout DayPathTracker?) throws -> Bool {
        var c = Double.nan  // Geo.cosLat(lat), computed only if a distance needs it
        if try position(at: at, lat: lat, lon: lon, cos: &c, speed: speed) { return true }
        days?.add(at: at, lat: lat, lon: lon, cos: &c, probe: probe)
        return false
    }

    /// The facts ran out: a trip still under way ends with them.
    mutating func end(days: inout DayPathTracker?) throws -> DayPaths? {
        if inTrip, let p = prev { _ = try close(now.at(p.at, p.lat, p.lon), "end_of_data", max: tripMax) }
        return days?.finish(stoppedAt: nil)
    }

    /// Engine events, RPM and OBD speed of asset ?1 after ?2, in the order `step` applies them.
    static let signalsSQL = """
        SELECT at, 0, CASE state WHEN 'off' THEN 0.0 ELSE 1.0 END FROM engine_event WHERE asset_id = ?1 AND at > ?2
        UNION ALL SELECT at, 1, value FROM obd_sample WHERE asset_id = ?1 AND pid = 12 AND at > ?2
        UNION ALL SELECT at, 2, value / 3.6 FROM obd_sample WHERE asset_id = ?1 AND pid = 13 AND at > ?2
        ORDER BY 1, 2
        """

    /// Engine (kind 0), RPM (1) or OBD speed (2). Returns true when the run should stop.
    private mutating func apply(at: Int64, kind: Int32, value: Double) throws -> Bool {
        if kind == 2 { engine.speed = (at, value); return false }
        let was = engine.state(at: at)
        (engine.on, engine.at, engine.fromRPM) = (value > 0, at, kind == 1)
        if value == 0 { engine.onSince = nil } else if was != true { engine.onSince = at }
        guard prev != nil, was != engine.on else { return false }
        let here = now.at(at, now.lat, now.lon)
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
            candidate = now.at(at, now.lat, now.lon)
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
            if inTrip, let evidence = try bridge(from: p.at, to: at) {
                bridge(evidence, seconds: dt, at: at, lat: lat, lon: lon, speed: speed, cos: &c)
                return false
            }
            return try restartAfter(p, "gap", at: at, lat: lat, lon: lon, speed: speed, cos: &c)
        }
        // Most fixes only need the comparison with the jitter radius (Geo.exceeds).
        let advanced = Geo.exceeds(jitterBound, anchor.lat, anchor.lon, anchorCos, lat, lon, &c)
        probe = AnchorProbe(valid: true, lat: anchor.lat, lon: anchor.lon, radius: jitter, advanced: advanced)
        var d = 0.0
        if advanced {
            if c.isNaN { c = Geo.cosLat(lat) }
            d = Geo.haversine(anchor.lat, anchor.lon, anchorCos, lat, lon, c)
            probe.distance = d
            // A move faster than any road vehicle, judged from the previous fix as GPSPath does
            // (see there): the fixes on either side of it cannot both be right, so nothing
            // between them is a distance anyone drove. It ends the trip as a gap does, and the
            // run starts again stopped at this fix; the jump is in no trip, and no trip's
            // straight line spans it (a Google Takeout trip of two fixes 30.5 km and 402 s
            // apart was stored at 76 m/s).
            if GPSPath.isJump(metres: anchor.at == p.at ? d : d - jitter, seconds: dt, limit: maxJump) {
                return try restartAfter(p, "jump", at: at, lat: lat, lon: lon, speed: speed, cos: &c)
            }
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
        // How this interval was counted: 1 moving, 2 idle, 0 neither or not yet (pending).
        var counted: Int8 = 0
        if let v {
            if v >= rules.idleSpeedMps { now.moving += dt; counted = 1 } else if engineOn != false { now.idle += dt; counted = 2 }
        } else {
            pending += dt
        }
        var top = v ?? 0
        if advanced {
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
            // A counted move's average speed is a speed the asset reached: the maximum is at
            // least that, so the trip's average (distance ÷ moving time over such moves) cannot
            // exceed it.
            now.distance += d
            top = max(top, d / span)
            // The fixes moved at 1 km/h or more over this very interval while the reported
            // speed says standing (a lagging `<speed>`): the interval is moving, so the
            // distance it adds has moving time to go with it.
            if counted != 1, v != nil, anchor.at == p.at, d >= rules.idleSpeedMps * dt {
                if counted == 2 { now.idle -= dt }
                now.moving += dt
                counted = 1
            }
        }
        // The engine went on between the previous fix and this one: the trip it may start begins
        // at that instant, so the part of this interval before it is not the trip's.
        if frozen, !inTrip, candidate.at > p.at, counted != 0 {
            let before = Double(candidate.at - p.at) / 1000
            if counted == 1 { candidate.moving += before } else { candidate.idle += before }
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

    /// A gap no signal bridges, or a jump: the trip under way ends at the previous fix `p` with
    /// `reason`, the interval up to this fix is in no trip and counts nothing, and the run goes
    /// on stopped here. Returns true when the run should stop.
    private mutating func restartAfter(_ p: (at: Int64, lat: Double, lon: Double, speed: Double?), _ reason: String,
                                       at: Int64, lat: Double, lon: Double, speed: Double?, cos c: inout Double) throws -> Bool {
        if inTrip, try close(now.at(p.at, p.lat, p.lon), reason, max: tripMax) { return true }
        pending = 0
        if c.isNaN { c = Geo.cosLat(lat) }
        now = now.at(at, lat, lon)
        (anchor, candidate, candidateMax, stop, prev, frozen) = (now, now, 0, (lat, lon), (at, lat, lon, speed), engine.state(at: at) == true)
        (nowCos, anchorCos, stopCos) = (c, c, c)
        return false
    }

    /// What says the asset kept operating through a GPS gap from `a` to `b` inside a trip, or
    /// nil when nothing does and the gap ends the trip (docs/METRICS.md, "Bridged gaps").
    private mutating func bridge(from a: Int64, to b: Int64) throws -> GapEvidence? {
        var e = try meters?(a, b) ?? GapEvidence()
        if engine.state(at: b) == true, let since = engine.onSince, since <= a { e.engineRan = true }
        return e.bridges ? e : nil
    }

    /// The trip goes on across a bridged gap: the odometer's rise is its distance (never the
    /// straight line between the fixes), and its time is moving when that rise averages
    /// `idle_speed_mps` or more, else idle; without an odometer the gap adds no distance and its
    /// time is neither (unknown), and the trip's distance is a lower bound (`gps_partial`).
    private mutating func bridge(_ e: GapEvidence, seconds dt: Double, at: Int64, lat: Double, lon: Double, speed: Double?, cos c: inout Double) {
        flushPending()
        c = Geo.cosLat(lat)
        var next = now.at(at, lat, lon)
        next.bridged += dt
        if let m = e.odometerM {
            next.distance += m
            next.odometerGap += m
            if m / dt >= rules.idleSpeedMps { next.moving += dt } else { next.idle += dt }
            tripMax = max(tripMax, m / dt)
        } else {
            next.blind += 1
        }
        now = next
        (anchor, prev) = (now, (at, lat, lon, speed))
        (nowCos, anchorCos) = (c, c)
        (dwell, dwellCos, arrival, arrivalMax) = (now, c, now, tripMax)
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
