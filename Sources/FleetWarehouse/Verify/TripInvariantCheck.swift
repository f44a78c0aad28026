import GRDB
import FleetCore

/// Every stored trip meets the trip invariants (docs/METRICS.md, "Trip invariants"): no figure
/// negative, duration = end − start, moving + idle ≤ duration, average speed ≤ maximum speed,
/// distance ≥ the straight line between the ends.
///
/// Why check what `TripCheck` enforces at derivation: the stored row is what reports read, and
/// it can differ from what derivation wrote (a row from an older FleetKit, an edit by hand, a
/// vendor's trip, which is stored as it came). Derived trips (`source = 'gps'`) were repaired to
/// the millimetre and millisecond, so they are held to that; a vendor's figures are held to the
/// rounding `TripCheck` allows before it names a repair (30 m, 1 s, 0.01 m/s + 30 m ÷ moving).
public struct TripInvariantCheck: WarehouseCheck {
    public let name = "trip_invariants"
    public let rule = "every trip: no figure negative; duration = end − start (±1 ms); moving + idle ≤ duration; distance ÷ moving ≤ max speed; distance ≥ the straight line between its ends. Derived trips exactly (1 mm, 1 ms, 0.001 m/s); vendor trips within 30 m, 1 s, 0.01 m/s + 30 m ÷ moving"
    public init() {}

    public func run(_ db: Database, _ context: VerifyContext, _ findings: inout FindingList) throws -> Int {
        let labels = try AssetLabels(db)
        let q = try CachedQuery(db, """
            SELECT id, asset_id, start_at, end_at, start_lat, start_lon, end_lat, end_lon, distance_m, duration_s, moving_s, idle_s,
                   max_speed_mps, source
            FROM trip ORDER BY asset_id, start_at
            """)
        defer { q.reset() }
        let zone = context.settings.zone
        var examined = 0
        while try q.step() {
            examined += 1
            let id = q.int64(0), asset = q.int64(1), start = q.int64(2), end = q.int64(3)
            let derived = q.text(13) == "gps"
            let (metres, seconds, speed) = derived ? (0.001, 0.001, 0.001) : (TripCheck.straightLineSlack, TripCheck.timeSlack, TripCheck.speedSlack)
            var problems: [String] = []
            let names = ["distance_m", "duration_s", "moving_s", "idle_s", "max_speed_mps"]
            for (i, name) in names.enumerated() {
                if let v = q.optionalDouble(Int32(8 + i)), !(v >= 0) { problems.append("\(name) is \(v)") }
            }
            if end < start { problems.append("it ends \(Double(start - end) / 1000) s before it starts") }
            let elapsed = Double(end - start) / 1000
            let duration = q.optionalDouble(9) ?? elapsed
            if abs(duration - elapsed) > 0.001 + (derived ? 0 : seconds) {
                problems.append("duration_s \(duration) s is not end − start (\(elapsed) s)")
            }
            let moving = q.optionalDouble(10), idle = q.optionalDouble(11)
            if (moving ?? 0) + (idle ?? 0) > duration + seconds {
                problems.append("moving \(moving ?? 0) s + idle \(idle ?? 0) s exceed its duration \(duration) s")
            }
            let distance = q.optionalDouble(8)
            if let distance, let moving, moving > 0, let max = q.optionalDouble(12) {
                let average = distance / moving
                let slack = derived ? speed : speed + metres / moving
                if average > max + slack { problems.append("average speed \(Self.fixed(average)) m/s is above its maximum \(Self.fixed(max)) m/s") }
            }
            if let distance, let a = q.optionalDouble(4), let b = q.optionalDouble(5), let c = q.optionalDouble(6), let d = q.optionalDouble(7) {
                let line = Geo.haversine(a, b, c, d)
                if distance + metres < line {
                    problems.append("distance \(Self.fixed(distance)) m is shorter than the straight line between its ends (\(Self.fixed(line)) m)")
                }
            }
            guard !problems.isEmpty else { continue }
            findings.add(asset: labels[asset], day: zone.day(of: start).description, trip: id,
                         "\(derived ? "derived" : q.text(13)) trip contradicts itself: " + problems.joined(separator: "; "),
                         fix: derived ? VerifyFix.rebuild
                                      : "the vendor's trip is stored as it came: check the export, and re-import a corrected file")
        }
        return examined
    }

    static func fixed(_ v: Double) -> String { String((v * 1000).rounded() / 1000) }
}
