import Foundation

/// Distances on the Earth's surface.
public enum Geo {
    /// The IUGG mean Earth radius, 6,371,008.8 m: the haversine distance with it is within 0.5 %
    /// of the ellipsoidal distance anywhere, far below GPS noise over a trip.
    public static let earthRadius = 6_371_008.8

    /// Great-circle (haversine) distance in metres between two WGS 84 points in degrees.
    public static func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad, dLon = (lon2 - lon1) * rad
        let h = sin(dLat / 2) * sin(dLat / 2) + cos(lat1 * rad) * cos(lat2 * rad) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }

    /// `cos(lat)` for `lat` in degrees, by the very expression `haversine` uses, so a caller that
    /// compares one fix against several others computes it once per fix (cos was 10 % of trip
    /// detection) and `haversine(_:_:_:_:_:_:)` still returns the same bits.
    @inlinable @inline(__always)
    public static func cosLat(_ lat: Double) -> Double { cos(lat * (Double.pi / 180)) }

    /// `haversine(lat1, lon1, lat2, lon2)` with `cosLat` of each latitude given: bit-identical,
    /// the same operations in the same order.
    @inlinable @inline(__always)
    public static func haversine(_ lat1: Double, _ lon1: Double, _ cos1: Double, _ lat2: Double, _ lon2: Double, _ cos2: Double) -> Double {
        let rad = Double.pi / 180
        let dLat = (lat2 - lat1) * rad, dLon = (lon2 - lon1) * rad
        let sLat = sin(dLat / 2), sLon = sin(dLon / 2)
        let h = sLat * sLat + cos1 * cos2 * sLon * sLon
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }

    /// A radius prepared for `exceeds`: the bounds on the haversine's h computed once, not on
    /// every comparison.
    public struct Radius: Sendable {
        public let metres: Double
        /// h below `low` is surely within the radius, above `high` (after the sine correction)
        /// surely beyond it; `fast` is false where those bounds do not hold (see `exceeds`).
        @usableFromInline let low: Double, high: Double, fast: Bool

        public init(_ metres: Double) {
            self.metres = metres
            let t = metres / (2 * Geo.earthRadius), q = t * t
            (low, high, fast) = (q * (1 - 1e-4), q * (1 + 2e-4), metres > 0 && q < 1e-6)
        }
    }

    /// Exactly `haversine(lat1, lon1, lat2, lon2) > radius.metres`, mostly without trigonometry.
    /// `cos1` is `cosLat(lat1)`; `cos2` is `cosLat(lat2)` or NaN if not computed yet, and is
    /// filled in when the full formula is needed.
    ///
    /// Why: trip detection and the GPS path mostly only compare a distance with a radius (15 m
    /// of jitter, 200 m to start or stop); cos, sin and asin were a fifth of their time. For
    /// half-angles x, y under 0.01 rad, sin²x lies in [x²(1 - x²/3), x²] and asin(s) in
    /// [s, s(1 + s²)]; cos2 lies within |2x| of cos1. So h0 = x² + cos1·cos2·y² brackets the
    /// haversine's h within 0.0034 % plus the cosine's spread, and for radii under 12 km asin
    /// stretches √h by under 1e-6. Outside a ±0.01 % band around the radius the answer is
    /// certain — far wider than the formula's 1e-15 rounding — and inside it (or for odd input:
    /// NaN, within 3° of a pole, spans over 0.02 rad) the full formula decides.
    @inlinable @inline(__always)
    public static func exceeds(_ radius: Radius, _ lat1: Double, _ lon1: Double, _ cos1: Double,
                               _ lat2: Double, _ lon2: Double, _ cos2: inout Double) -> Bool {
        let rad = Double.pi / 180
        let x = (lat2 - lat1) * rad / 2, y = (lon2 - lon1) * rad / 2
        let xx = x * x, yy = y * y
        if radius.fast, xx < 1e-4, yy < 1e-4, cos1 >= 0.05 {
            let spread = 2 * abs(x) + 1e-15
            if xx + cos1 * (cos1 + spread) * yy < radius.low { return false }
            if xx + cos1 * (cos1 - spread) * yy > radius.high / (1 - max(xx, yy) / 3) { return true }
        }
        if cos2.isNaN { cos2 = cosLat(lat2) }
        return haversine(lat1, lon1, cos1, lat2, lon2, cos2) > radius.metres
    }
}
