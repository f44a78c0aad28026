import FleetCore
import FleetWarehouse

/// The trips report's totals set against the daily totals of the same assets and days
/// (`asset_day`: odometer or GPS distance, engine hours), per asset, with the reason when trips
/// fall short (docs/METRICS.md, "Trips").
///
/// Why: trips are derived from positions, and an asset that saves a few fixes a day, or none,
/// yields trips that cover a fraction of what its odometer says it drove. A trips total that
/// adds up to a fifth of the fleet's distance with no word about it is a wrong figure in
/// silence; this says how much of the daily distance the trips cover, and for each asset
/// below `target` why trips could not be derived reliably.
struct TripCoverage {
    /// Trips should cover at least this share of the daily distance.
    static let target = 0.95

    struct Asset {
        var unit: String
        var dailyM = 0.0, dailyS = 0.0, daysWithDistance = 0
        var tripM = 0.0, tripS = 0.0, trips = 0
        var positions = 0, gapEnds = 0, partial = 0, bridged = 0
        var daysWithoutTrip = 0
        /// Days whose trips cover less than `target` of the day's distance, and of those, days
        /// on which a trip ended at an engine-off event while the engine-hours meter rose with the
        /// clock across it (the sources disagree, and the "off" ends the trip).
        var shortDays: [CivilDate] = [], offDays = 0

        var share: Double? { dailyM > 0 ? tripM / dailyM : nil }

        /// Why trips fall short of the daily distance, most basic reason first.
        var reasons: [String] {
            var out: [String] = []
            if positions == 0 { out.append("no positions in the period: trips cannot be derived (the daily distance comes from its meters)") }
            else if trips == 0 { out.append("\(positions) positions on \(daysWithDistance) days with distance: too few fixes to derive a trip") }
            if gapEnds > 0 { out.append("\(gapEnds) trips ended at a GPS gap over the gap rule that no engine state or meter bridged") }
            if partial > 0 { out.append("\(partial) trips crossed a bridged GPS gap no odometer measured (their distance is a lower bound)") }
            if daysWithoutTrip > 0, trips > 0 { out.append("\(daysWithoutTrip) of \(daysWithDistance) days with distance have no trip (too few fixes those days)") }
            if offDays > 0 {
                out.append("on \(offDays) days an engine-off event ended a trip while the engine-hours meter says the engine ran on (the sources disagree; the drive after it is in no trip)")
            }
            let listed = shortDays.prefix(5).map(\.description).joined(separator: ", ") + (shortDays.count > 5 ? ", …" : "")
            if !shortDays.isEmpty { out.append("the trips fall short on \(shortDays.count) days (\(listed))") }
            if out.isEmpty { out.append("the trips' paths are shorter than the daily distance (fixes too sparse to follow the road)") }
            return out
        }
    }

    var assets: [Asset] = []

    /// Every asset of `request` with daily distance or engine hours, or trips, in the period.
    static func fetch(_ reader: any WarehouseReader, _ request: ReportRequest) throws -> TripCoverage {
        let filter = request.assetFilter()
        let days: [WarehouseArgument] = [.text(request.period.from.description), .text(request.period.to.description)]
        let instants: [WarehouseArgument] = [.instant(request.start), .instant(request.end)]
        let names = filter.arguments.map(WarehouseArgument.text)
        var byID: [Int64: Asset] = [:]
        let name = "COALESCE(a.unit_number, a.vin, a.pin, 'asset #' || a.id)"
        try reader.forEach("""
            SELECT a.id, \(name), SUM(COALESCE(d.distance_m, 0)), SUM(COALESCE(d.engine_s, 0)), SUM(CASE WHEN d.distance_m > 0 THEN 1 ELSE 0 END),
                   SUM(CASE WHEN d.distance_m > 0 AND d.trips = 0 THEN 1 ELSE 0 END)
            FROM asset_day d JOIN asset a ON a.id = d.asset_id WHERE d.day >= ? AND d.day <= ? AND \(filter.sql) GROUP BY a.id
            """, days + names) { r in
            byID[try r[0]] = Asset(unit: try r[1], dailyM: try r[2], dailyS: try r[3], daysWithDistance: try r[4], daysWithoutTrip: try r[5])
        }
        // Grouped by `a.id` (the asset's key), so PostgreSQL takes the name as determined by it.
        // Counts of trips with a property are sums of CASE, not of the comparison: PostgreSQL
        // does not sum truth values (docs/ARCHITECTURE.md "Engine boundary").
        try reader.forEach("""
            SELECT a.id, \(name), SUM(COALESCE(t.distance_m, 0)), SUM(COALESCE(t.duration_s, 0)), COUNT(*),
                   SUM(CASE WHEN t.end_reason = 'gap' THEN 1 ELSE 0 END), SUM(CASE WHEN t.distance_method = 'gps_partial' THEN 1 ELSE 0 END),
                   SUM(CASE WHEN COALESCE(t.bridged_s, 0) > 0 THEN 1 ELSE 0 END)
            FROM trip t JOIN asset a ON a.id = t.asset_id WHERE t.start_at >= ? AND t.start_at < ? AND \(filter.sql) GROUP BY a.id
            """, instants + names) { r in
            let id: Int64 = try r[0]
            var a = try byID[id] ?? Asset(unit: r[1])
            (a.tripM, a.tripS, a.trips) = (try r[2], try r[3], try r[4])
            (a.gapEnds, a.partial, a.bridged) = ((try r[5] as Int?) ?? 0, (try r[6] as Int?) ?? 0, (try r[7] as Int?) ?? 0)
            byID[id] = a
        }
        for (id, a) in byID where a.share.map({ $0 < target }) == true {
            byID[id]!.positions = try reader.value("SELECT COUNT(*) FROM position WHERE asset_id = ? AND at >= ? AND at < ?",
                                                   [.integer(id)] + instants, as: Int.self) ?? 0
            try explain(reader, request, asset: id, into: &byID[id]!)
        }
        return TripCoverage(assets: byID.values.sorted { $0.unit < $1.unit })
    }

    /// The days an asset's trips fall short of its daily distance, and the disagreements on them.
    private static func explain(_ reader: any WarehouseReader, _ request: ReportRequest, asset id: Int64, into a: inout Asset) throws {
        var tripM: [CivilDate: Double] = [:]
        try reader.forEach("SELECT start_at, COALESCE(distance_m, 0) FROM trip WHERE asset_id = ? AND start_at >= ? AND start_at < ?",
                           [.integer(id), .instant(request.start), .instant(request.end)]) { r in
            tripM[request.zone.day(of: try r[0]), default: 0] += try r[1]
        }
        try reader.forEach("SELECT day, distance_m FROM asset_day WHERE asset_id = ? AND day >= ? AND day <= ? AND distance_m > 0 ORDER BY day",
                           [.integer(id), .text(request.period.from.description), .text(request.period.to.description)]) { r in
            guard let day = CivilDate(try r[0] as String), let m = tripM[day], m < target * (try r[1] as Double) else { return }
            a.shortDays.append(day)
        }
        let short = Set(a.shortDays)
        // The hour meter's readings around each ignition end: it rose by the time between them,
        // less at most the gap rule (GapEvidence's rule), so the engine did not stop there.
        let ms = reader.dialect.epochMilliseconds
        let off = try reader.column("""
            SELECT end_at FROM (
              SELECT t.end_at,
                (SELECT at FROM meter_reading WHERE asset_id = ?1 AND meter = 'engine_hours' AND at < t.end_at ORDER BY at DESC LIMIT 1) AS a0,
                (SELECT value FROM meter_reading WHERE asset_id = ?1 AND meter = 'engine_hours' AND at < t.end_at ORDER BY at DESC LIMIT 1) AS v0,
                (SELECT at FROM meter_reading WHERE asset_id = ?1 AND meter = 'engine_hours' AND at > t.end_at ORDER BY at LIMIT 1) AS a1,
                (SELECT value FROM meter_reading WHERE asset_id = ?1 AND meter = 'engine_hours' AND at > t.end_at ORDER BY at LIMIT 1) AS v1
              FROM trip t WHERE t.asset_id = ?1 AND t.end_reason = 'ignition' AND t.start_at >= ?2 AND t.start_at < ?3) AS ends
            WHERE v1 - v0 >= (\(ms("a1")) - \(ms("a0"))) / 1000.0 - 3600
            """, [.integer(id), .instant(request.start), .instant(request.end)], as: Int64.self)
        a.offDays = Set(off.map { request.zone.day(of: $0) }).intersection(short).count
    }

    /// The data-quality lines: the fleet's reconciliation, one line per asset below the target
    /// (at most `listed`, then a count of the rest), and the trips TripCheck repaired.
    func add(to quality: inout DataQuality, _ request: ReportRequest, listed: Int = 50) {
        let dailyM = assets.reduce(0) { $0 + $1.dailyM }, tripM = assets.reduce(0) { $0 + $1.tripM }
        let dailyS = assets.reduce(0) { $0 + $1.dailyS }, tripS = assets.reduce(0) { $0 + $1.tripS }
        let unit = request.distanceUnit
        func d(_ m: Double) -> String { String(format: "%.1f %@", request.distance(m), unit) }
        func share(_ a: Double, _ b: Double) -> String { b > 0 ? String(format: "%.1f %%", a / b * 100) : "no daily figure" }
        let short = assets.filter { $0.share.map { $0 < Self.target } == true }
        let noDaily = assets.filter { $0.dailyM == 0 && $0.trips > 0 }.count
        // Engine hours of assets that went nowhere (machines working in place) have no trips by nature.
        let inPlaceS = assets.filter { $0.dailyM == 0 && $0.trips == 0 }.reduce(0) { $0 + $1.dailyS }
        quality.add("Assets whose trips cover less than \(Int(Self.target * 100)) % of their daily distance (asset_day)", short.count,
                    "trips \(d(tripM)) of \(d(dailyM)) daily (\(share(tripM, dailyM))); trip time \(String(format: "%.1f", tripS / 3600)) h "
                    + "against \(String(format: "%.1f", dailyS / 3600)) engine h (\(share(tripS, dailyS)))"
                    + (inPlaceS > 0 ? ", of which \(String(format: "%.1f", inPlaceS / 3600)) h on assets with no distance (working in place, no trips)" : "")
                    + (noDaily > 0 ? "; \(noDaily) assets with trips have no daily distance" : ""))
        for a in short.prefix(listed) {
            quality.add("Trips not derived reliably: \(a.unit)", a.trips,
                        "trips \(d(a.tripM)) of \(d(a.dailyM)) daily (\(share(a.tripM, a.dailyM))): " + a.reasons.joined(separator: "; "))
        }
        if short.count > listed { quality.add("Further assets whose trips fall short", short.count - listed, "not listed one by one") }
    }
}
