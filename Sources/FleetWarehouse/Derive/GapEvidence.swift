import GRDB
import FleetCore

/// What the meters say about a gap in an asset's positions longer than the gap rule, inside a
/// trip (docs/METRICS.md, "Bridged gaps").
///
/// Why: telematics units that save a few fixes a day (Samsara stats, machine snapshots) leave
/// hours between fixes while the engine runs and the odometer climbs. Ending a trip at every
/// such gap cut the sample fleet's trips to a fifth of the odometer distance. A gap ends a trip
/// only when no other signal says the asset kept operating; this is the meters' part of that
/// (the engine events' part is `EngineState.onSince`).
///
/// Only readings within `gap_seconds` of the gap's ends are read, so a reading can change the
/// decision only for gaps that end within `gap_seconds` after it or start within `gap_seconds`
/// before it: the recomputation window (TripDetection) covers those, and the same facts give
/// the same trips in any import order.
struct GapEvidence: Equatable {
    /// The engine was known to run from before the gap to its end (engine events or RPM).
    var engineRan = false
    /// The engine-hours meter rose by at least the span it was read over less `gap_seconds`:
    /// the engine was off for no longer than the gap rule in all.
    var engineHoursRan = false
    /// The odometer readings from before the gap to after it are never more than `gap_seconds`
    /// apart and each rose: the asset never stood for a gap rule's length.
    var odometerAdvancing = false
    /// The odometer's rise across the gap (each end interpolated between the readings around
    /// it), when readings bracket both ends and the rise is plausible (0 to 70 m/s + 1 km).
    var odometerM: Double?

    /// Whether the gap is bridged: any signal says the asset kept operating.
    var bridges: Bool { engineRan || engineHoursRan || odometerAdvancing }

    /// The meters' evidence for a gap from `a` to `b` (ms), readings within `gapSeconds` of it.
    static func read(_ db: Database, asset: Int64, from a: Int64, to b: Int64, gapSeconds: Double) throws -> GapEvidence {
        let g = Int64(gapSeconds * 1000)
        var e = GapEvidence()
        let odometer = try readings(db, asset: asset, meter: "odometer", from: a - g, to: b + g)
        if let va = value(odometer, at: a), let vb = value(odometer, at: b), vb >= va, vb - va <= 70 * Double(b - a) / 1000 + 1000 {
            e.odometerM = vb - va
        }
        if let i = odometer.lastIndex(where: { $0.at <= a }), let j = odometer.firstIndex(where: { $0.at >= b }), i < j {
            e.odometerAdvancing = (i..<j).allSatisfy { k in
                odometer[k + 1].at - odometer[k].at <= g && odometer[k + 1].value > odometer[k].value
            }
        }
        let hours = try readings(db, asset: asset, meter: "engine_hours", from: a - g, to: b + g)
        if let h0 = hours.last(where: { $0.at <= a }), let h1 = hours.first(where: { $0.at >= b }) {
            let span = Double(h1.at - h0.at) / 1000, ran = h1.value - h0.value
            // Plausible (at most 1.05 × the clock plus a 1 h meter step) and off no longer than the gap rule.
            e.engineHoursRan = ran >= span - gapSeconds && ran <= 1.05 * span + 3600
        }
        return e
    }

    private static func readings(_ db: Database, asset: Int64, meter: String, from: Int64, to: Int64) throws -> [(at: Int64, value: Double)] {
        let q = try CachedQuery(db, "SELECT at, value FROM meter_reading WHERE asset_id = ? AND meter = ? AND at BETWEEN ? AND ? ORDER BY at") {
            $0.bind(asset); $0.bind(meter); $0.bind(from); $0.bind(to)
        }
        defer { q.reset() }
        var out: [(at: Int64, value: Double)] = []
        while try q.step() { out.append((q.int64(0), q.double(1))) }
        return out
    }

    /// The meter at `t`, interpolated linearly between the readings around it; nil unless
    /// readings bracket it.
    static func value(_ r: [(at: Int64, value: Double)], at t: Int64) -> Double? {
        guard let i = r.lastIndex(where: { $0.at <= t }) else { return nil }
        if r[i].at == t { return r[i].value }
        guard i + 1 < r.count else { return nil }
        let (p, n) = (r[i], r[i + 1])
        return p.value + (n.value - p.value) * Double(t - p.at) / Double(n.at - p.at)
    }
}
