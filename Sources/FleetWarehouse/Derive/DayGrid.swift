import Foundation
import GRDB
import FleetCore

/// Per-day accumulators for one asset over a run of local days.
struct DayGrid {
    /// The `asset_day` columns filled from cumulative meters.
    enum Column: Int { case distance = 0, engine, idle, fuel }
    static let columns = 4
    /// `asset_day`'s INSERT, in `AssetDay.columnTable`'s binding order.
    static let insertSQL = AssetDay.columnTable.insertSQL()

    let days: [CivilDate]
    /// `bounds[i]` is the UTC start of `days[i]`; `bounds[days.count]` the end of the last day.
    let bounds: [Int64]
    /// Meter sums and coverage, `columns` per day, indexed by `Column`: flat arrays, not a
    /// dictionary per day, because `spread` runs once per pair of readings and hashing the
    /// column name there was a visible share of a Samsara import.
    private var sums: [Double]
    private var covered: [Bool]
    private var gps: [Double]
    private var hasPositions: [Bool]
    private var tripDistance: [Double]
    private var tripIdle: [Double]
    private var trips: [Int]
    private var engineEvents: [Double]
    private var first: [Int64?]
    private var last: [Int64?]

    init(days range: ClosedRange<CivilDate>, zone: FleetZone) {
        var list: [CivilDate] = []
        var d = range.lowerBound
        while d <= range.upperBound { list.append(d); d = d.adding(days: 1) }
        days = list
        bounds = list.map { zone.start(of: $0) } + [zone.start(of: range.upperBound.adding(days: 1))]
        let n = list.count
        sums = Array(repeating: 0, count: n * Self.columns)
        covered = Array(repeating: false, count: n * Self.columns)
        gps = Array(repeating: 0, count: n)
        hasPositions = Array(repeating: false, count: n)
        tripDistance = Array(repeating: 0, count: n)
        tripIdle = Array(repeating: 0, count: n)
        trips = Array(repeating: 0, count: n)
        engineEvents = Array(repeating: 0, count: n)
        first = Array(repeating: nil, count: n)
        last = Array(repeating: nil, count: n)
    }

    var windowStart: Int64 { bounds[0] }
    var windowEnd: Int64 { bounds[days.count] }

    /// The index of the day containing `at`, if it is in the window.
    func index(_ at: Int64) -> Int? {
        guard at >= windowStart, at < windowEnd else { return nil }
        var lo = 0, hi = days.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if bounds[mid] <= at { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// Spreads `delta` over [from, to] in proportion to each day's share of the interval.
    /// Only the days the interval overlaps are visited (from the day of `from` on): a year's
    /// window must not cost a pass over every day for each pair of readings.
    mutating func spread(_ delta: Double, from: Int64, to: Int64, into column: Column) {
        let c = column.rawValue
        if to <= from {
            if let i = index(to) { sums[i * Self.columns + c] += delta; covered[i * Self.columns + c] = true }
            return
        }
        let length = Double(to - from)
        var i = index(from) ?? 0
        while i < days.count, bounds[i] < to {
            let lo = max(from, bounds[i]), hi = min(to, bounds[i + 1])
            if hi > lo {
                covered[i * Self.columns + c] = true
                sums[i * Self.columns + c] += delta * Double(hi - lo) / length
            }
            i += 1
        }
    }

    private func covers(_ i: Int, _ column: Column) -> Bool { covered[i * Self.columns + column.rawValue] }
    private func sum(_ i: Int, _ column: Column) -> Double { sums[i * Self.columns + column.rawValue] }

    mutating func spreadEngineEvents(from: Int64, to: Int64) {
        for i in days.indices {
            let lo = max(from, bounds[i]), hi = min(to, bounds[i + 1])
            if hi > lo { engineEvents[i] += Double(hi - lo) / 1000 }
        }
    }

    mutating func seen(_ at: Int64) {
        guard let i = index(at) else { return }
        first[i] = min(first[i] ?? at, at)
        last[i] = max(last[i] ?? at, at)
    }

    mutating func addGPS(_ metres: Double, at: Int64) {
        guard let i = index(at) else { return }
        gps[i] += metres
        hasPositions[i] = true
    }

    /// Whether `at` is the start of one of the grid's days.
    func isDayStart(_ at: Int64) -> Bool { index(at).map { bounds[$0] == at } ?? false }

    /// One day's positions as `DayPaths` summed them: the same as `seen` for each position and
    /// `addGPS` for each counted leg, since the day's figure starts from zero either way.
    mutating func addPathDay(_ day: DayPaths.Day) {
        guard let i = index(day.start), bounds[i] == day.start else { return }  // see isDayStart
        seen(day.first)
        seen(day.last)
        if day.counted {
            gps[i] += day.metres
            hasPositions[i] = true
        }
    }

    mutating func addTrip(at: Int64, distance: Double?, idle: Double?) {
        guard let i = index(at) else { return }
        trips[i] += 1
        tripDistance[i] += distance ?? 0
        tripIdle[i] += idle ?? 0
    }

    /// Replaces the asset's rows for these days, on cached statements bound directly (no
    /// per-call SQL compilation, no Codable).
    func write(_ db: Database, asset: Int64) throws {
        let first = days.first!.description, last = days.last!.description
        try CachedQuery.execute(db, "DELETE FROM asset_day WHERE asset_id = ? AND day >= ? AND day <= ?") {
            $0.bind(asset); $0.bind(first); $0.bind(last)
        }
        for i in days.indices {
            let odometer = covers(i, .distance)
            let distance: Double?, method: String?
            if odometer { (distance, method) = (sum(i, .distance), "odometer") }
            else if hasPositions[i] { (distance, method) = (gps[i], "gps") }
            else if trips[i] > 0 { (distance, method) = (tripDistance[i], "trips") }
            else { (distance, method) = (nil, nil) }
            let engine = covers(i, .engine) ? sum(i, .engine) : engineEvents[i] > 0 ? engineEvents[i] : nil
            let idle = covers(i, .idle) ? sum(i, .idle) : trips[i] > 0 ? tripIdle[i] : nil
            let fuel = covers(i, .fuel) ? sum(i, .fuel) : nil
            guard self.first[i] != nil || distance != nil || engine != nil || idle != nil || fuel != nil else { continue }
            let row = AssetDay(assetID: asset, day: days[i].description, distanceM: distance.map(Self.round), distanceMethod: method,
                               engineS: engine.map(Self.round), idleS: idle.map(Self.round), fuelMl: fuel.map(Self.round),
                               firstAt: self.first[i], lastAt: self.last[i], trips: trips[i])
            try CachedQuery.execute(db, Self.insertSQL) { row.bind(into: &$0) }
        }
    }

    /// Sums of proportional shares carry float noise; a millimetre, a millisecond and a
    /// millilitre are far below what any source measures.
    static func round(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
}

/// GPS path length with parked-device jitter filtered out: distance accumulates from an anchor
/// point and counts only once the device is more than `jitter` metres from it, so a phone
/// wobbling a few metres in a car park adds nothing while slow driving still adds up. A jump
/// faster than `maxSpeed` (a bad fix) is skipped.
///
/// A fix more than `sparseGap` after the previous one (a snapshot feed reporting a machine twice
/// a day, or the first fix after a night without any) is compared against `siteRadius`
/// instead: hours apart, a machine working its site or a receiver that has just reacquired
/// scatters over a few hundred metres without travelling, while a move to another site is
/// kilometres. A fix inside the radius leaves the anchor where it is, so a drive that starts
/// right after a gap still counts in full from the next fix on. A fix more than `maxLegGap`
/// after the previous one and outside the site radius adds nothing and restarts the path
/// there: the straight line from a fix days or years earlier (another file's last fix) is not
/// a distance anyone drove.
///
/// A jump is judged on the speed implied between the previous fix and this one, with the real
/// interval (no one-second floor): the distance from the anchor, less the jitter radius when
/// the previous fix was not the anchor (it was within that radius of it), over the time since
/// the previous fix. Judged from the anchor instead, a bad fix after an hour parked looked
/// like a slow move of an hour and was counted.
struct GPSPath {
    let jitter = 15.0
    let maxSpeed = 70.0
    let sparseGap: Int64 = 3_600_000
    let siteRadius = 1000.0
    let maxLegGap: Int64 = 86_400_000
    private let jitterBound: Geo.Radius, siteBound: Geo.Radius
    // Plain fields and flags, not optional tuples: `add` runs once per position, and the anchor
    // carries its latitude's cosine so each fix's is computed once (Geo.cosLat).
    private var hasAnchor = false
    private var anchorAt: Int64 = 0, anchorLat = 0.0, anchorLon = 0.0, anchorCos = 0.0
    private var hasPrevious = false
    private var previousAt: Int64 = 0

    init() { (jitterBound, siteBound) = (Geo.Radius(jitter), Geo.Radius(siteRadius)) }

    /// A path whose anchor is a fix that is not part of it (the last fix before a day);
    /// `cos` is `Geo.cosLat(lat)`.
    init(anchor at: Int64, lat: Double, lon: Double, cos: Double) {
        (jitterBound, siteBound) = (Geo.Radius(jitter), Geo.Radius(siteRadius))
        (hasAnchor, anchorAt, anchorLat, anchorLon, anchorCos) = (true, at, lat, lon, cos)
        (hasPrevious, previousAt) = (true, at)
    }

    mutating func add(at: Int64, lat: Double, lon: Double) -> Double? {
        var cos = Double.nan
        return add(at: at, lat: lat, lon: lon, cos: &cos, probe: .none)
    }

    /// Adds a fix and returns the metres it adds to the path, if any. `cos` is
    /// `Geo.cosLat(lat)`, or NaN until someone needs it (then it is filled in). `probe` is what
    /// trip detection already found comparing this fix with its own anchor; when that anchor is
    /// this path's anchor (the usual case while driving) the distance is not computed twice.
    mutating func add(at: Int64, lat: Double, lon: Double, cos: inout Double, probe: AnchorProbe) -> Double? {
        defer { (hasPrevious, previousAt) = (true, at) }
        guard hasAnchor else {
            if cos.isNaN { cos = Geo.cosLat(lat) }
            (hasAnchor, anchorAt, anchorLat, anchorLon, anchorCos) = (true, at, lat, lon, cos)
            return nil
        }
        let sparse = hasPrevious ? at - previousAt > sparseGap : true
        let radius = sparse ? siteRadius : jitter
        let d: Double
        if probe.valid, probe.lat.bitPattern == anchorLat.bitPattern, probe.lon.bitPattern == anchorLon.bitPattern,
           probe.advanced || radius == probe.radius {
            // The same two points in the same order: the same haversine, bit for bit.
            guard probe.advanced, probe.distance > radius else { return nil }
            d = probe.distance
        } else {
            guard Geo.exceeds(sparse ? siteBound : jitterBound, anchorLat, anchorLon, anchorCos, lat, lon, &cos) else { return nil }
            if cos.isNaN { cos = Geo.cosLat(lat) }
            d = Geo.haversine(anchorLat, anchorLon, anchorCos, lat, lon, cos)
        }
        if cos.isNaN { cos = Geo.cosLat(lat) }
        let jump = Self.isJump(metres: anchorAt == previousAt ? d : d - jitter, seconds: Double(at - previousAt) / 1000, limit: maxSpeed)
        (anchorAt, anchorLat, anchorLon, anchorCos) = (at, lat, lon, cos)
        return jump || at - previousAt > maxLegGap ? nil : d
    }

    /// Whether a move of at least `metres` in `seconds` is faster than `limit` m/s: a jump of
    /// 70.01 m/s is one, 70 m/s is not; any move in no time is one.
    @inline(__always)
    static func isJump(metres: Double, seconds: Double, limit: Double) -> Bool {
        metres > limit * seconds
    }

    static func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        Geo.haversine(lat1, lon1, lat2, lon2)
    }
}

/// Trip detection's comparison of a fix with its anchor, offered to `GPSPath.add`: from
/// (`lat`, `lon`), whether the distance exceeds `radius`, and the distance when it does.
struct AnchorProbe {
    var valid = false
    var lat = 0.0, lon = 0.0
    var radius = 0.0
    var advanced = false
    var distance = 0.0

    static let none = AnchorProbe()
}
