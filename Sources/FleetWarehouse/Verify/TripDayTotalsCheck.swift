import GRDB
import FleetCore

/// Trips agree with the daily totals (`asset_day`) of the days they fall on:
/// - `asset_day.trips` is the number of trips (any source) starting that local day, and a day
///   with a trip has a row;
/// - a day whose distance comes from its trips (`distance_method = 'trips'`) has their sum;
/// - the trips that start and end within a day cover no more distance than the day itself, within
///   `relativeTolerance` × the day's distance + `absoluteTolerance`: trips are a part of the day's
///   movement. A day of unknown distance (NULL) has no trip distance at all.
///
/// Why those tolerances: the day's odometer figure spreads each delta over the hours between two
/// readings, while a trip's odometer distance is taken at readings up to 60 s from its ends; a
/// trip that starts or ends within minutes of local midnight can therefore carry up to a few
/// minutes of driving (at most 70 m/s × 60 s = 4.2 km at each end, in practice far less) that the
/// day's figure puts on the neighbouring day; and a vendor's trip distance (Samsara's from GPS)
/// can differ from the odometer by its own rounding, about 1 %. Trips covering less than the day
/// is not a contradiction (a day's odometer also counts moves between trips); the trips report
/// states its coverage.
public struct TripDayTotalsCheck: WarehouseCheck {
    public let name = "trips_vs_days"
    public static let relativeTolerance = 0.02
    public static let absoluteTolerance = 2000.0
    public let rule = "per asset and local day: asset_day.trips = trips starting that day; a day whose distance is from trips has their sum (±1 mm per trip); trips lying within the day total ≤ the day's distance × 1.02 + 2 km"
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
        let zone = context.settings.zone
        var examined = 0
        for asset in try Int64.fetchAll(db, sql: "SELECT id FROM asset ORDER BY id") {
            var days: [String: DayTrips] = [:]
            do {
                let q = try CachedQuery(db, "SELECT id, start_at, end_at, distance_m FROM trip WHERE asset_id = ? ORDER BY start_at") { $0.bind(asset) }
                defer { q.reset() }
                while try q.step() {
                    let start = q.int64(1), end = q.int64(2), distance = q.optionalDouble(3) ?? 0
                    let day = zone.day(of: start)
                    let key = day.description
                    var d = days[key] ?? DayTrips(firstTrip: q.int64(0))
                    d.count += 1
                    d.starting += distance
                    if zone.day(of: max(start, end - 1)) == day { d.within += distance }
                    days[key] = d
                }
            }
            let q = try CachedQuery(db, "SELECT day, trips, distance_m, distance_method FROM asset_day WHERE asset_id = ? ORDER BY day") { $0.bind(asset) }
            defer { q.reset() }
            while try q.step() {
                examined += 1
                let day = q.text(0), stored = q.int64(1), distance = q.optionalDouble(2), method = q.optionalText(3)
                let trips = days.removeValue(forKey: day) ?? DayTrips()
                if stored != Int64(trips.count) {
                    findings.add(asset: labels[asset], day: day, trip: trips.count > 0 ? trips.firstTrip : nil,
                                 "asset_day.trips says \(stored), but \(trips.count) trips start that day", fix: VerifyFix.rebuild)
                }
                if method == "trips", let distance, abs(distance - trips.starting) > 0.001 * Double(max(trips.count, 1)) + 1e-6 {
                    findings.add(asset: labels[asset], day: day, "the day's distance (\(distance) m, from trips) is not the sum of its trips (\(Self.round(trips.starting)) m)",
                                 fix: VerifyFix.rebuild)
                }
                if trips.within > 0 {
                    if let distance {
                        let limit = distance * (1 + Self.relativeTolerance) + Self.absoluteTolerance
                        if trips.within > limit {
                            findings.add(asset: labels[asset], day: day, trip: trips.firstTrip,
                                         "trips within the day cover \(Self.round(trips.within)) m, more than the day's \(Self.round(distance)) m (\(method ?? "?")) allows (\(Self.round(limit)) m)",
                                         fix: "compare the trips' and the day's sources (`fleetkit report trips` and `utilization` for that day): a trip longer than the odometer or GPS path says the asset moved is a bad trip or a missed odometer reading; \(VerifyFix.rebuild)")
                        }
                    } else {
                        findings.add(asset: labels[asset], day: day, trip: trips.firstTrip,
                                     "the day's distance is unknown (NULL), but its trips cover \(Self.round(trips.within)) m", fix: VerifyFix.rebuild)
                    }
                }
            }
            for (day, trips) in days.sorted(by: { $0.key < $1.key }) {
                examined += 1
                findings.add(asset: labels[asset], day: day, trip: trips.firstTrip, "\(trips.count) trips start on a day that has no asset_day row",
                             fix: VerifyFix.rebuild)
            }
        }
        return examined
    }

    static func round(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
}
