import GRDB
import FleetCore

/// Trips agree with the odometer and the daily totals (`asset_day`) of the days they fall on:
/// - `asset_day.trips` is the number of trips (any source) starting that local day, and a day
///   with a trip has a row;
/// - a day whose distance comes from its trips (`distance_method = 'trips'`) has their sum;
/// - the trips between two consecutive odometer readings (the last at or before a trip's start,
///   the first at or after its end, or that end value's catch-up within an hour when the value
///   was held, with no anomaly between) cover no more than the odometer rose between them, and on a day whose distance is its GPS path the trips lying within the day
///   cover no more than that path: in both cases within `relativeTolerance` × the reference +
///   `absoluteTolerance`. A day of unknown distance (NULL) has no trip distance at all.
///
/// Why the odometer between readings and not the day's odometer figure: the day's figure spreads
/// each delta over the hours between two readings in proportion to time, so with readings hours
/// apart (a Samsara stats page) a day can hold less than a 20 km trip that day really drove while
/// its neighbour holds more (on the 1,000-vehicle benchmark year, 104 such days); the readings
/// around the trip bound it without that estimate. Tolerances: a coarse odometer shows its value
/// truncated to its step (up to 1 mi = 1.6 km), and a vendor's GPS trip distance differs from the
/// odometer by its own rounding, about 1 %. Trips covering less than the odometer or the day is
/// not a contradiction (moves between trips count too); the trips report states its coverage.
public struct TripDayTotalsCheck: WarehouseCheck {
    public let name = "trips_vs_days"
    public static let relativeTolerance = 0.02
    public static let absoluteTolerance = 2000.0
    public let rule = "per asset and local day: asset_day.trips = trips starting that day; a day whose distance is from trips has their sum (±1 mm per trip); trips between two consecutive odometer readings total ≤ the odometer's rise × 1.02 + 2 km (a held end reading: up to its catch-up within 1 h); on a GPS-distance day, trips within the day total ≤ its path × 1.02 + 2 km"
    public init() {}

    struct DayTrips {
        var count = 0
        /// Distance of the trips starting that day.
        var starting = 0.0
        /// Distance of the trips starting and ending that day.
        var within = 0.0
        var firstTrip: Int64 = 0
    }

    public func run(_ db: Database, _ context: VerifyContext, _ findings: inout FindingList) throws -> Int {
        let labels = try AssetLabels(db)
        var examined = 0
        for asset in try Int64.fetchAll(db, sql: "SELECT id FROM asset ORDER BY id") {
            examined += try Self.check(db, asset: asset, days: nil, labels: labels, zone: context.settings.zone, &findings)
        }
        return examined
    }

    /// The days of one asset, all of them or the local days `days` covers: their trips (those
    /// starting on them) against their `asset_day` rows and the odometer. Returns the asset-days
    /// examined. `derivedOnly` (an import, `enforce`): only the trips derived from the path
    /// (`source = 'gps'`, distance method `gps` or `gps_partial`) against the GPS path of the
    /// same positions, with the same rule and tolerance.
    static func check(_ db: Database, asset: Int64, days window: ClosedRange<CivilDate>?, labels: AssetLabels, zone: FleetZone,
                      derivedOnly: Bool = false, _ findings: inout FindingList) throws -> Int {
        var examined = 0
        var days: [String: DayTrips] = [:]
        var bracket = Bracket()
        do {
            // A day is at most 25 hours: the instants of the window's days lie within these bounds.
            let from = window.map { zone.start(of: $0.lowerBound) - 3_600_000 } ?? Int64.min
            let to = window.map { zone.start(of: $0.upperBound) + 26 * 3_600_000 } ?? Int64.max
            let q = try CachedQuery(db, """
                SELECT id, start_at, end_at, distance_m FROM trip WHERE asset_id = ? AND start_at >= ? AND start_at <= ? AND (? = 0 OR (source = 'gps' AND distance_method IN ('gps', 'gps_partial')))
                ORDER BY start_at
                """) { $0.bind(asset); $0.bind(from); $0.bind(to); $0.bind(derivedOnly ? 1 : 0) }
            defer { q.reset() }
            while try q.step() {
                let start = q.int64(1), end = q.int64(2), distance = q.optionalDouble(3) ?? 0
                let day = zone.day(of: start)
                if let window, !window.contains(day) { continue }
                if distance > 0, !derivedOnly { try bracket.add(db, asset: asset, trip: q.int64(0), start: start, end: end, distance: distance, labels: labels, zone: zone, &findings) }
                let key = day.description
                var d = days[key] ?? DayTrips(firstTrip: q.int64(0))
                d.count += 1
                d.starting += distance
                if zone.day(of: max(start, end - 1)) == day { d.within += distance }
                days[key] = d
            }
            bracket.flush(asset: asset, labels: labels, zone: zone, &findings)
        }
        let q = try CachedQuery(db, "SELECT day, trips, distance_m, distance_method FROM asset_day WHERE asset_id = ? AND day >= ? AND day <= ? ORDER BY day") {
            $0.bind(asset); $0.bind(window?.lowerBound.description ?? ""); $0.bind(window?.upperBound.description ?? "~")
        }
        defer { q.reset() }
        while try q.step() {
            examined += 1
            let day = q.text(0), stored = q.int64(1), distance = q.optionalDouble(2), method = q.optionalText(3)
            let trips = days.removeValue(forKey: day) ?? DayTrips()
            if derivedOnly {
                if trips.within > 0, let distance, method == "gps" {
                    let limit = distance * (1 + Self.relativeTolerance) + Self.absoluteTolerance
                    if trips.within > limit {
                        findings.add(asset: labels[asset], day: day, trip: trips.firstTrip,
                                     "the trips derived within the day cover \(Self.round(trips.within)) m, more than the day's GPS path of \(Self.round(distance)) m allows (\(Self.round(limit)) m)",
                                     fix: "the derivation contradicts itself on these positions (a jumping fix it did not judge): report it with the file; importing the file without the day's bad fixes loads the rest")
                    }
                }
                continue
            }
            if stored != Int64(trips.count) {
                findings.add(asset: labels[asset], day: day, trip: trips.count > 0 ? trips.firstTrip : nil,
                             "asset_day.trips says \(stored), but \(trips.count) trips start that day", fix: VerifyFix.rebuild)
            }
            if method == "trips", let distance, abs(distance - trips.starting) > 0.001 * Double(max(trips.count, 1)) + 1e-6 {
                findings.add(asset: labels[asset], day: day, "the day's distance (\(distance) m, from trips) is not the sum of its trips (\(Self.round(trips.starting)) m)",
                             fix: VerifyFix.rebuild)
            }
            if trips.within > 0 {
                // Odometer days: each trip is judged against the readings around it (Bracket).
                if let distance, method == "gps" {
                    let limit = distance * (1 + Self.relativeTolerance) + Self.absoluteTolerance
                    if trips.within > limit {
                        findings.add(asset: labels[asset], day: day, trip: trips.firstTrip,
                                     "trips within the day cover \(Self.round(trips.within)) m, more than the day's GPS path of \(Self.round(distance)) m allows (\(Self.round(limit)) m)",
                                     fix: "compare the trips' and the day's sources (`fleetkit report trips` and `utilization` for that day): a trip longer than the day's path is a bad trip (jumping fixes) or positions missing from the day; \(VerifyFix.rebuild)")
                    }
                } else if distance == nil {
                    findings.add(asset: labels[asset], day: day, trip: trips.firstTrip,
                                 "the day's distance is unknown (NULL), but its trips cover \(Self.round(trips.within)) m", fix: VerifyFix.rebuild)
                }
            }
        }
        for (day, trips) in days.sorted(by: { $0.key < $1.key }) where !derivedOnly {
            examined += 1
            findings.add(asset: labels[asset], day: day, trip: trips.firstTrip, "\(trips.count) trips start on a day that has no asset_day row",
                         fix: VerifyFix.rebuild)
        }
        return examined
    }

    /// The check inside a file's load (`WarehouseSink.deriveAfterLoad`), over the local days the
    /// derivations rewrote (`touched`, as widened by them): a derived trip longer than its day's
    /// GPS path is a figure nobody can sign, so the file's load fails whole with the findings
    /// rather than committing them for `verify` to find later.
    ///
    /// Only derived trips against the path of the same positions: the two are computed from the
    /// same stored facts, so they agree for any set of files a correct derivation sees, and a
    /// finding is a fault of the derivation, never of the order files came in. A vendor's trip
    /// against the GPS path, or any trip against the odometer, can disagree while a day is only
    /// partly loaded (its trips file before the rest of its positions, odometer readings that
    /// narrow the bracket as they arrive): failing a file for that would make the warehouse
    /// depend on the import order, so those stay `verify`'s.
    public static func enforce(_ db: Database, touched: TouchedTimeline, zone: FleetZone) throws {
        var findings = FindingList(check: "trips_vs_days", limit: 5)
        for asset in touched.whole.sorted() {
            _ = try check(db, asset: asset, days: nil, labels: AssetLabels(db, asset: asset), zone: zone, derivedOnly: true, &findings)
        }
        for (asset, range) in touched.ranges.sorted(by: { $0.key < $1.key }) where !touched.whole.contains(asset) {
            _ = try check(db, asset: asset, days: zone.day(of: range.lowerBound)...zone.day(of: range.upperBound), labels: AssetLabels(db, asset: asset),
                          zone: zone, derivedOnly: true, &findings)
        }
        if findings.count > 0 { throw Violation(count: findings.count, listed: findings.listed) }
    }

    /// Trips that do not fit their days, found while a file loaded: nothing of the file was kept.
    public struct Violation: Error, CustomStringConvertible {
        public var count: Int
        public var listed: [VerifyFinding]

        public var description: String {
            let lines = listed.map { f in
                "  \(f.asset ?? "?") \(f.day ?? "")\(f.trip.map { " trip \($0)" } ?? ""): \(f.what)"
            }
            let more = count > listed.count ? "\n  … and \(count - listed.count) more" : ""
            return """
                the trips derived from this file do not fit their days' totals (trips_vs_days, \(count) finding\(count == 1 ? "" : "s")); nothing of the file was kept:
                \(lines.joined(separator: "\n"))\(more)
                What to do: \(listed.first?.fix ?? VerifyFix.rebuild). If the file is right, report it with the asset's files: the derivation is wrong.
                """
        }
    }

    static func round(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
    static func limit(_ rise: Double) -> Double { rise * (1 + relativeTolerance) + absoluteTolerance }

    /// A trip and the odometer readings around it: the last at or before its start, the first at
    /// or after its end. Judged trip by trip, so that a vendor's trip and the trip derived from
    /// the same drive's positions never add up against one odometer rise.
    struct Bracket {
        var from: (at: Int64, value: Double)?
        var to: (at: Int64, value: Double)?
        var distance = 0.0
        var trips = 0
        var firstTrip: Int64 = 0
        var judged = false

        mutating func add(_ db: Database, asset: Int64, trip: Int64, start: Int64, end: Int64, distance: Double, labels: AssetLabels,
                          zone: FleetZone, _ findings: inout FindingList) throws {
            flush(asset: asset, labels: labels, zone: zone, &findings)
            let before = "SELECT at, value FROM meter_reading WHERE asset_id = ? AND meter = 'odometer' AND at <= ? ORDER BY at DESC LIMIT 1"
            let after = "SELECT at, value FROM meter_reading WHERE asset_id = ? AND meter = 'odometer' AND at >= ? ORDER BY at LIMIT 1"
            func reading(_ sql: String, _ t: Int64) throws -> (at: Int64, value: Double)? {
                let q = try CachedQuery(db, sql) { $0.bind(asset); $0.bind(t) }
                defer { q.reset() }
                return try q.step() ? (q.int64(0), q.double(1)) : nil
            }
            self = Bracket(from: try reading(before, start), to: try reading(after, end), distance: distance, trips: 1, firstTrip: trip)
            if let from = self.from, let to = self.to, distance > TripDayTotalsCheck.limit(to.value - from.value) {
                self.to = try catchUp(db, asset: asset, held: to) ?? to
            }
            if let from = self.from, let to = self.to {
                // A refused step (rollback, reset, glitch) between them: the rise is not a distance.
                let anomaly = try CachedQuery.int64(db, "SELECT 1 FROM meter_anomaly WHERE asset_id = ? AND meter = 'odometer' AND at > ? AND at <= ? LIMIT 1") {
                    $0.bind(asset); $0.bind(from.at); $0.bind(to.at)
                }
                judged = anomaly == nil
            }
        }

        /// The catch-up of a held odometer value: when the value read at or after the trip's end
        /// still stands at that reading (a gateway re-sending its last value while the vehicle
        /// moves), the first different reading within `MeterRule.maxHoldMillis` after it is where
        /// the odometer counted the trip, as the daily rollup spreads such a catch-up over the
        /// hold. Without a change within the hold the meter truly disagrees with the trip, and
        /// the held value stays the reference. One bounded seek, and only for a trip longer than
        /// its held reading allows.
        private func catchUp(_ db: Database, asset: Int64, held: (at: Int64, value: Double)) throws -> (at: Int64, value: Double)? {
            let q = try CachedQuery(db, """
                SELECT at, value FROM meter_reading WHERE asset_id = ? AND meter = 'odometer' AND at > ? AND at <= ? AND value <> ? ORDER BY at LIMIT 1
                """) { $0.bind(asset); $0.bind(held.at); $0.bind(held.at + MeterRule.maxHoldMillis); $0.bind(held.value) }
            defer { q.reset() }
            return try q.step() ? (q.int64(0), q.double(1)) : nil
        }

        mutating func flush(asset: Int64, labels: AssetLabels, zone: FleetZone, _ findings: inout FindingList) {
            defer { self = Bracket() }
            guard judged, let from, let to else { return }
            let rise = to.value - from.value
            let limit = TripDayTotalsCheck.limit(rise)
            guard distance > limit else { return }
            findings.add(asset: labels[asset], day: zone.day(of: from.at).description, trip: firstTrip,
                         "the trip covers \(TripDayTotalsCheck.round(distance)) m between odometer readings at \(Timestamp.iso(from.at)) and \(Timestamp.iso(to.at)), which rose \(TripDayTotalsCheck.round(rise)) m (at most \(TripDayTotalsCheck.round(limit)) m allowed)",
                         fix: "compare the trip with the odometer readings (`fleetkit report trips`): a trip longer than the odometer says is a bad trip (jumping fixes) or a missed or wrong odometer reading; \(VerifyFix.rebuild)")
        }
    }
}
