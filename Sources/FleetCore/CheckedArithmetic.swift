/// Float-to-integer conversions and integer sums that report failure instead of trapping.
///
/// Swift traps (the process dies with SIGILL) when `Int64(someDouble)` is out of range or not
/// finite, and when `+=` overflows. Input chooses those values, so no input-derived number is
/// converted or summed unchecked: conversions go through `Checked.int64`, sums through
/// `Checked.add`, and a sum that does not fit is an error naming what was being summed.
public enum Checked {
    /// `value` rounded by `rule`, or nil when it is not finite or does not fit an Int64.
    public static func int64(_ value: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int64? {
        guard value.isFinite else { return nil }
        return Int64(exactly: value.rounded(rule))
    }

    /// `value` rounded by `rule`, or nil when it is not finite or does not fit an Int.
    public static func int(_ value: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int? {
        guard value.isFinite else { return nil }
        return Int(exactly: value.rounded(rule))
    }

    /// `a + b`, or `Overflow` naming `what` when the sum does not fit an Int64.
    public static func add(_ a: Int64, _ b: Int64, _ what: @autoclosure () -> String) throws(Overflow) -> Int64 {
        let (sum, overflow) = a.addingReportingOverflow(b)
        if overflow { throw Overflow(what: what()) }
        return sum
    }

    /// A sum or conversion whose result does not fit a 64-bit integer: reports and checks stop
    /// with this instead of printing a wrapped figure or trapping.
    public struct Overflow: Error, Sendable, Equatable, CustomStringConvertible {
        public var what: String
        public init(what: String) { self.what = what }
        public var description: String {
            "\(what) is beyond what FleetKit can add up exactly (a 64-bit integer); an amount in the data is implausibly large: find it with `fleetkit rejects` or the report's detail and correct the source"
        }
    }
}

extension Int64 {
    /// Adds `other` in place, throwing `Checked.Overflow` (naming `what`) instead of trapping.
    public mutating func add(_ other: Int64, _ what: @autoclosure () -> String) throws(Checked.Overflow) {
        self = try Checked.add(self, other, what())
    }
}
