/// The bounds of every trip rule and duration setting, decided where a value is accepted
/// (`fleetkit init --trip-rule`, the nightly config, the stored setting), by the unit its key
/// ends in: a distance (`_m`) at most 100 km, a duration (`_seconds`) at most 7 days, a speed
/// (`_mps`) at most 100 m/s; never negative, never infinite or NaN.
///
/// Why: larger values mean nothing for a trip, and the derivation turns rules into integer
/// milliseconds and metres: `gap_seconds=1e300` was accepted and then trapped every track
/// import. Within these bounds every such conversion fits an Int64 with room to spare.
public enum RuleBounds {
    public static let maxSeconds: Double = 7 * 86_400
    public static let maxMetres: Double = 100_000
    public static let maxMetresPerSecond: Double = 100

    /// The largest value the rule `key` may take.
    public static func limit(of key: String) -> Double {
        if key.hasSuffix("_seconds") { return maxSeconds }
        if key.hasSuffix("_mps") { return maxMetresPerSecond }
        return maxMetres
    }

    /// Why `value` is no usable value of `key`; nil when it is.
    public static func problem(key: String, value: Double) -> String? {
        guard value >= 0 else { return "\(key) is \(value), and no rule can be negative" }
        let limit = limit(of: key)
        guard value <= limit else {
            return "\(key) is \(value), beyond its limit of \(Int(limit)) (distances up to 100 km, durations up to 7 days, speeds up to 100 m/s)"
        }
        return nil
    }
}
