import FleetCore

/// The last word on a derived trip's figures before it is stored: the invariants every trip
/// must meet, and what is done when one does not (docs/METRICS.md, "Trip invariants").
///
/// Why a check after a derivation built to meet them: the derivation meets them where it can
/// (the maximum speed includes every counted move's average speed, a gap never adds distance),
/// but the figures come from several sources (an odometer difference instead of the GPS path,
/// reported speeds, an engine-on instant between two fixes), and a stored trip that contradicts
/// itself is a figure nobody can sign. So each figure is repaired to the nearest value that
/// meets the invariants, and a repair beyond rounding is named in `trip.repair`, so the
/// warehouse can say which trips were repaired and why.
///
/// The invariants hold on the figures as stored: distances and speeds to the millimetre,
/// times to the millisecond. A figure is rounded to that first, and a repair rounds up.
struct TripCheck: Equatable {
    private(set) var distance: Double
    let duration: Double
    private(set) var moving: Double
    private(set) var idle: Double
    private(set) var maxSpeed: Double
    /// The repairs beyond rounding, in the order of `enforce`; empty when none was needed.
    private(set) var repairs: [String] = []

    /// Shortfalls and excesses up to these are rounding, not contradictions: repaired without a
    /// name. A GPS path counts a move only past the 15 m jitter radius, so at each end it may
    /// stop short of the straight line by that much, or, measured from a parked fix, add that
    /// much without moving time: an average up to `speedSlack` + 30 m ÷ moving time above the
    /// maximum is that jitter (26 of the 387 trips of the 1 M-point benchmark file, by 0.01 to
    /// 0.02 m/s), not a contradiction.
    static let straightLineSlack = 30.0, timeSlack = 1.0, speedSlack = 0.01

    /// `duration`, `moving`, `idle` in seconds; `distance` in metres; `maxSpeed` in m/s.
    init(distance: Double, duration: Double, moving: Double, idle: Double, maxSpeed: Double) {
        (self.distance, self.duration, self.moving, self.idle, self.maxSpeed) = (distance, duration, moving, idle, maxSpeed)
    }

    static func nearest(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
    /// The smallest thousandth not below `v`.
    static func up(_ v: Double) -> Double {
        let u = (v * 1000).rounded(.up) / 1000
        return u < v ? u + 0.001 : u
    }

    /// Repairs the figures so that, as stored, with `straightLine` the great-circle distance
    /// between the trip's ends:
    /// 1. `negative`: no figure is below zero or NaN; such a figure becomes 0.
    /// 2. `distance_below_straight_line`: distance ≥ the straight line; raised to it.
    /// 3. `moving_idle_over_duration`: moving + idle ≤ duration; idle is cut first, then moving.
    /// 4. `average_above_max_speed`: distance ÷ moving ≤ the maximum speed; the maximum is raised
    ///    to the average (the asset reached at least its average speed while moving).
    mutating func enforce(straightLine: Double) {
        var negative = false
        func clean(_ v: Double) -> Double {
            guard !(v >= 0) else { return Self.nearest(v) }
            negative = true
            return 0
        }
        (distance, moving, idle, maxSpeed) = (clean(distance), clean(moving), clean(idle), clean(maxSpeed))
        let duration = max(0, self.duration)
        if negative { repairs.append("negative") }
        if straightLine.isFinite, distance < straightLine {
            if straightLine - distance > Self.straightLineSlack { repairs.append("distance_below_straight_line") }
            distance = Self.up(straightLine)
        }
        if moving + idle > duration {
            if moving + idle - duration > Self.timeSlack { repairs.append("moving_idle_over_duration") }
            moving = min(moving, duration)
            idle = Self.nearest(max(0, duration - moving))
            if moving + idle > duration { idle = max(0, idle - 0.001) }
        }
        if moving > 0, distance / moving > maxSpeed {
            if distance / moving - maxSpeed > Self.speedSlack + Self.straightLineSlack / moving { repairs.append("average_above_max_speed") }
            maxSpeed = Self.up(distance / moving)
        }
    }
}
