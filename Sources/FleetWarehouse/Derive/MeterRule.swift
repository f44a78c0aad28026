import Foundation

/// How the daily rollup judges one step of a cumulative meter: how fast the meter may rise, and
/// how coarse its readings are.
///
/// Why a resolution: real meters count in steps (an hour meter in 0.05, 0.1 or 1 h, an
/// odometer in 1 km or 0.1 mi) and report the value truncated to the step. Between two polls
/// the reading can therefore rise by up to one step more than the clock allows: a 0.1 h meter
/// read every 5 minutes shows +0.1 h (360 s) over 300 s. Judging each step against the clock
/// alone refused those steps, and a machine running all day lost most of its hours. The rule
/// is that a step may rise by at most `maxPerSecond × max(interval, 60 s)` plus one
/// resolution step; a truncating meter never exceeds that, while a jump of many steps (a
/// swapped unit, a reset to a large value, a glitch) still does.
///
/// The resolution is learnt from the two readings themselves, never from the other readings
/// of the window: the coarsest step of the meter's ladder that both values are whole
/// multiples of. That keeps every decision a function of the pair alone, so the same readings
/// give the same anomalies whatever files they came in and in whatever order. A meter whose
/// values are not on any step of the ladder gets no allowance beyond the clock.
struct MeterRule {
    let meter: String
    let column: DayGrid.Column
    /// The fastest plausible rise per second of elapsed time.
    let maxPerSecond: Double
    /// The resolutions meters of this kind are read in, coarsest first, in stored units.
    let ladder: [Double]

    /// The meters the rollup sums. Stored units: seconds (hours), metres, millilitres.
    static let all: [MeterRule] = [
        // 252 km/h. Ladder: 1 mi, 1 km, 0.1 mi, 0.1 km, 0.01 mi, 10 m, 1 m.
        MeterRule(meter: "odometer", column: .distance, maxPerSecond: 70,
                  ladder: [1609.344, 1000, 160.9344, 100, 16.09344, 10, 1]),
        // An hour meter cannot outrun the clock (5 % skew allowed). Ladder: 1, 0.5, 0.25, 0.1,
        // 0.05 h, 1 min, 0.01 h, 1 s.
        MeterRule(meter: "engine_hours", column: .engine, maxPerSecond: 1.05, ladder: [3600, 1800, 900, 360, 180, 60, 36, 1]),
        MeterRule(meter: "idle_hours", column: .idle, maxPerSecond: 1.05, ladder: [3600, 1800, 900, 360, 180, 60, 36, 1]),
        // 540 L/h, above the largest haul trucks' burn. Ladder: 1 US gal, 1 imperial gal, 1 L,
        // 0.5 L, 0.1 US gal, 0.1 L, 1 mL.
        MeterRule(meter: "fuel_used", column: .fuel, maxPerSecond: 150, ladder: [4546.09, 3785.411784, 1000, 500, 378.5411784, 100, 1]),
    ]

    /// The coarsest ladder step both values are whole multiples of (within float noise of the
    /// unit conversion), or 0.
    func resolution(_ a: Double, _ b: Double) -> Double {
        for step in ladder where Self.isMultiple(a, of: step) && Self.isMultiple(b, of: step) { return step }
        return 0
    }

    static func isMultiple(_ v: Double, of step: Double) -> Bool {
        let q = v / step
        return abs(q - q.rounded()) <= 1e-9 * max(1, abs(q))
    }

    /// The longest a meter value is believed to have been held: one hour, the default trip gap
    /// rule (`gap_seconds`). It bounds how far back a catch-up step reaches, so a reading changes
    /// the days of at most an hour around it and derivation windows stay small.
    static let maxHoldMillis: Int64 = 3_600_000

    /// Why the step from `a` to `b` (values at epoch milliseconds) is not summed, or nil.
    func anomaly(from a: (at: Int64, value: Double), to b: (at: Int64, value: Double)) -> String? {
        let delta = b.value - a.value
        if delta < 0 { return "rollback" }
        let seconds = Double(b.at - a.at) / 1000
        return delta > maxPerSecond * max(seconds, 60) + resolution(a.value, b.value) ? "implausible_rate" : nil
    }

    /// Judges the step from `a` to `b` where `a`'s value has stood since `heldSince` (the first
    /// reading of the run of equal values that ends with `a`): the interval the step covers,
    /// which is where its rise is spread, and why it is not summed, or nil.
    ///
    /// Why: gateways re-send the last known value at new times while the asset works (a CAN
    /// value not refreshed, a repeated sample), then catch up with one jump. Judged from the last
    /// repeated sample, the catch-up looked faster than the clock and the hours or distance of
    /// the hold were lost. A step too fast for its own interval is therefore judged again over
    /// the time since the value last changed, at most `maxHoldMillis`, and when that explains it
    /// the rise is spread over that held interval. A step plausible over its own interval keeps
    /// it: a parked asset's meter also stands, and the first rise after parking belongs to the
    /// drive, not to the hour parked. A real spike (a bad value many times what the clock
    /// allows) is still refused, whatever the hold.
    func judge(from a: (at: Int64, value: Double), to b: (at: Int64, value: Double), heldSince: Int64) -> (from: Int64, anomaly: String?) {
        guard let plain = anomaly(from: a, to: b) else { return (a.at, nil) }
        let start = min(a.at, max(heldSince, b.at - Self.maxHoldMillis))
        guard plain == "implausible_rate", start < a.at else { return (a.at, plain) }
        return (start, anomaly(from: (start, a.value), to: b) == nil ? nil : plain)
    }
}
