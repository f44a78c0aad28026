import GRDB
import FleetCore

/// Cumulative meters are monotone after anomaly handling: walking each asset's odometer, engine
/// hours, idle hours and fuel used in time order, every step that goes backwards or rises faster
/// than the meter can (the rollup's rule, `MeterRule`, with the meter's resolution) is recorded
/// in `meter_anomaly` with that kind and that previous reading, and nothing else is. So the steps
/// the daily totals summed never go backwards, and every step they left out is listed in the
/// reports' data quality. Also: no daily figure is negative, and no day has more engine or idle
/// time than its length (23–25 h across DST) × 1.05 + 1 h: a real hour meter, however coarse,
/// never shows more than the clock plus one step.
///
/// One pass over `meter_reading` and one over `meter_anomaly`, both in primary-key order
/// (asset, meter, time): no sort and nothing held but the previous reading.
public struct MeterMonotonyCheck: WarehouseCheck {
    public let name = "meters"
    public let rule = "per asset and cumulative meter: every backwards step is a 'rollback' and every step faster than the meter can rise (plus one resolution step; a catch-up after a held value is judged over the time since the value last changed, at most 1 h) an 'implausible_rate' in meter_anomaly, with the previous reading, and no other anomaly is recorded; asset_day figures are ≥ 0, engine and idle time ≤ the day's length × 1.05 + 1 h"
    public init() {}

    struct Anomaly { var asset: Int64; var meter: String; var at: Int64; var previousAt: Int64; var previousValue: Double; var kind: String }

    public func run(_ db: Database, _ context: VerifyContext, _ findings: inout FindingList) throws -> Int {
        let labels = try AssetLabels(db)
        let zone = context.settings.zone
        let rules = Dictionary(uniqueKeysWithValues: MeterRule.all.map { ($0.meter, $0) })
        let meters = MeterRule.all.map { "'\($0.meter)'" }.joined(separator: ", ")
        let anomalies = try CachedQuery(db, """
            SELECT asset_id, meter, at, previous_at, previous_value, kind FROM meter_anomaly ORDER BY asset_id, meter, at
            """)
        defer { anomalies.reset() }
        func next() throws -> Anomaly? {
            try anomalies.step() ? Anomaly(asset: anomalies.int64(0), meter: anomalies.text(1), at: anomalies.int64(2), previousAt: anomalies.int64(3),
                                          previousValue: anomalies.double(4), kind: anomalies.text(5)) : nil
        }
        var pending = try next()
        func day(_ at: Int64) -> String { zone.day(of: at).description }
        func before(_ a: Anomaly, _ asset: Int64, _ meter: String, _ at: Int64) -> Bool {
            (a.asset, a.meter, a.at) < (asset, meter, at)
        }
        let stale = "this anomaly names no step between two consecutive readings: the daily totals are out of date; " + VerifyFix.rebuild
        let readings = try CachedQuery(db, "SELECT asset_id, meter, at, value FROM meter_reading WHERE meter IN (\(meters)) ORDER BY asset_id, meter, at")
        defer { readings.reset() }
        var previous: (asset: Int64, meter: String, at: Int64, value: Double)? = nil
        // The first reading of the run of equal values ending with `previous`: a catch-up after a
        // held value is judged over the hold, as the rollup does (`MeterRule.judge`).
        var heldSince: Int64 = 0
        var examined = 0
        while try readings.step() {
            examined += 1
            let asset = readings.int64(0), meter = readings.text(1), at = readings.int64(2), value = readings.double(3)
            // Recorded anomalies before this reading name no reading: stale.
            while let a = pending, before(a, asset, meter, at) {
                findings.add(asset: labels[a.asset], day: day(a.at), "\(a.meter) \(a.kind) recorded at \(Timestamp.iso(a.at)), where there is no reading", fix: stale)
                pending = try next()
            }
            var recorded: Anomaly? = nil
            if let a = pending, a.asset == asset, a.meter == meter, a.at == at {
                recorded = a
                pending = try next()
            }
            defer {
                if let p = previous, p.asset == asset, p.meter == meter, p.value == value {} else { heldSince = at }
                previous = (asset, meter, at, value)
            }
            guard let p = previous, p.asset == asset, p.meter == meter, let rule = rules[meter] else {
                if let r = recorded {
                    findings.add(asset: labels[asset], day: day(at), "\(meter) \(r.kind) recorded at the meter's first reading (\(Timestamp.iso(at)))", fix: stale)
                }
                continue
            }
            let expected = rule.judge(from: (p.at, p.value), to: (at, value), heldSince: heldSince).anomaly
            switch (expected, recorded) {
            case (nil, nil):
                break
            case let (kind?, nil):
                findings.add(asset: labels[asset], day: day(at),
                             "\(meter) went from \(p.value) at \(Timestamp.iso(p.at)) to \(value) at \(Timestamp.iso(at)) (\(kind)), and the step is not in meter_anomaly: the daily totals summed it",
                             fix: VerifyFix.rebuild)
            case let (nil, r?):
                findings.add(asset: labels[asset], day: day(at),
                             "\(meter) step from \(p.value) to \(value) at \(Timestamp.iso(at)) is plausible, but meter_anomaly calls it \(r.kind): the daily totals left it out",
                             fix: VerifyFix.rebuild)
            case let (kind?, r?):
                if r.kind != kind || r.previousAt != p.at || r.previousValue != p.value {
                    findings.add(asset: labels[asset], day: day(at),
                                 "\(meter) anomaly at \(Timestamp.iso(at)) is recorded as \(r.kind) from \(r.previousValue) at \(Timestamp.iso(r.previousAt)), but the readings give \(kind) from \(p.value) at \(Timestamp.iso(p.at))",
                                 fix: VerifyFix.rebuild)
                }
            }
        }
        while let a = pending {
            findings.add(asset: labels[a.asset], day: day(a.at), "\(a.meter) \(a.kind) recorded at \(Timestamp.iso(a.at)), where there is no reading", fix: stale)
            pending = try next()
        }
        examined += try dailyFigures(db, zone: zone, labels: labels, &findings)
        return examined
    }

    /// Daily figures that no meter can produce: negative, or more engine or idle time than the day has.
    private func dailyFigures(_ db: Database, zone: FleetZone, labels: AssetLabels, _ findings: inout FindingList) throws -> Int {
        let q = try CachedQuery(db, "SELECT asset_id, day, distance_m, engine_s, idle_s, fuel_ml FROM asset_day ORDER BY asset_id, day")
        defer { q.reset() }
        var examined = 0
        let names = ["distance_m", "engine_s", "idle_s", "fuel_ml"]
        while try q.step() {
            examined += 1
            let asset = q.int64(0), day = q.text(1)
            for (i, name) in names.enumerated() {
                if let v = q.optionalDouble(Int32(2 + i)), !(v >= 0) {
                    findings.add(asset: labels[asset], day: day, "asset_day.\(name) is \(v): a daily figure is never negative", fix: VerifyFix.rebuild)
                }
            }
            guard let civil = CivilDate(day) else {
                findings.add(asset: labels[asset], day: day, "asset_day.day '\(day)' is not a date", fix: VerifyFix.rebuild)
                continue
            }
            let length = Double(zone.start(of: civil.adding(days: 1)) - zone.start(of: civil)) / 1000
            let limit = length * 1.05 + 3600
            for (i, name) in [(3, "engine_s"), (4, "idle_s")] {
                if let v = q.optionalDouble(Int32(i)), v > limit {
                    findings.add(asset: labels[asset], day: day,
                                 "asset_day.\(name) is \(v / 3600) h, more than the day's \(length / 3600) h allow (\(limit / 3600) h)",
                                 fix: "look at the asset's hour-meter readings that day (a unit or resolution change the rollup did not catch); \(VerifyFix.rebuild)")
                }
            }
        }
        return examined
    }
}
