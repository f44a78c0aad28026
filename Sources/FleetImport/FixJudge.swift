import FleetCore

/// Judges each GPS fix of a file against its neighbours and drops the one that cannot be where
/// it says it is: a receiver's stale power-on position (an eTrex's first fix 38.8 km from the
/// second, one second later, became a 1-second trip at 38,807 m/s), or a lone spike.
///
/// The rule (docs/FORMATS.md, "Fixes judged on both sides"): two fixes are *impossible* together
/// when the distance between them, less the 15 m jitter radius, is more than 70 m/s × the time
/// between them (the trip rule's fastest plausible move, `GPSPath`; two places more than 15 m
/// apart at one instant are impossible). A fix is dropped when it is impossible against two
/// fixes that are possible together: its two neighbours, or, for the file's first (last) fix,
/// the next (previous) fix and the one after (before) it. One disagreeing fix against two that
/// agree is the wrong one. Anything less certain is kept: a jump between two runs of good fixes
/// says nothing about which side is wrong (trip detection skips its distance), and a far-off
/// neighbour corroborates nothing (two fixes hours apart are possible together, and so a fix
/// impossible against the next one but possible against a fix hours later stays).
///
/// Neighbours are the file's fixes in file order (untimed or unusable points are not fixes),
/// the previous one being the last fix kept. The judge streams: a fix is held only while it is
/// in doubt (the first fix until the second arrives, the first two when they are impossible
/// together until the third, a fix impossible against the previous until the next), so a file
/// without such fixes reaches the sink in the order and batches it would without the judge.
struct FixJudge<Fix> {
    /// The trip rule's fastest plausible move, m/s (GPSPath.maxSpeed, docs/METRICS.md).
    static var maxSpeed: Double { 70 }
    /// GPS jitter radius, m (GPSPath.jitter): a parked receiver wanders this far.
    static var jitter: Double { 15 }

    /// A fix's time (ms since the epoch, UTC) and place, read from the caller's `Fix`.
    let time: (Fix) -> Int64
    let place: (Fix) -> (lat: Double, lon: Double)

    /// The last two fixes kept (`kept1` the last).
    private var kept1: Fix?, kept2: Fix?
    /// Fixes in doubt, in file order: at most two (the first two fixes, impossible together).
    private var pending: [Fix] = []

    init(time: @escaping (Fix) -> Int64, place: @escaping (Fix) -> (lat: Double, lon: Double)) {
        self.time = time
        self.place = place
    }

    /// Why a fix was dropped: its speed against the neighbours that condemned it (m/s).
    struct Verdict {
        var fix: Fix
        var speeds: [Double]
    }

    /// The implied speed between two fixes with the jitter radius taken off the distance, m/s;
    /// infinite for two places more than the jitter radius apart at one instant.
    func speed(_ a: Fix, _ b: Fix) -> Double {
        let p = place(a), q = place(b)
        let metres = max(0, Geo.haversine(p.lat, p.lon, q.lat, q.lon) - Self.jitter)
        let (ta, tb) = (time(a), time(b))
        let seconds = Double(ta > tb ? ta.subtractingReportingOverflow(tb).partialValue : tb.subtractingReportingOverflow(ta).partialValue) / 1000
        if metres == 0 { return 0 }
        return seconds > 0 ? metres / seconds : .infinity
    }

    func impossible(_ a: Fix, _ b: Fix) -> Bool {
        // Most pairs are a second and a few metres apart: the metres along a meridian and a
        // parallel (never less than the great circle) settle them without a haversine.
        let p = place(a), q = place(b)
        let (ta, tb) = (time(a), time(b))
        let seconds = Double(ta > tb ? ta.subtractingReportingOverflow(tb).partialValue : tb.subtractingReportingOverflow(ta).partialValue) / 1000
        let bound = Geo.earthRadius * (abs(p.lat - q.lat) + abs(p.lon - q.lon)) * (Double.pi / 180)
        if bound - Self.jitter <= Self.maxSpeed * seconds { return false }
        return !(speed(a, b) <= Self.maxSpeed)
    }

    /// Takes the next fix; calls `keep` for each fix now known good and `drop` for each now
    /// known impossible, in file order.
    mutating func add(_ fix: Fix, keep: (Fix) throws -> Void, drop: (Verdict) throws -> Void) rethrows {
        guard let last = kept1 else {
            switch pending.count {
            case 0:
                pending = [fix]
            case 1:
                let first = pending[0]
                if impossible(first, fix) { pending.append(fix); return }
                pending = []
                try release(first, keep)
                try add(fix, keep: keep, drop: drop)
            default:
                let (first, second) = (pending[0], pending[1])
                let firstOff = impossible(first, fix), secondOff = impossible(second, fix)
                pending = []
                if firstOff, !secondOff {
                    // The first fix against the next two, which agree.
                    try drop(Verdict(fix: first, speeds: [speed(first, second), speed(first, fix)]))
                    try release(second, keep)
                } else if secondOff, !firstOff {
                    // The second against both its neighbours, which agree.
                    try drop(Verdict(fix: second, speeds: [speed(first, second), speed(second, fix)]))
                    try release(first, keep)
                } else {
                    // Nothing tells which is wrong: both stay, and this one is judged against the second.
                    try release(first, keep)
                    try release(second, keep)
                }
                try add(fix, keep: keep, drop: drop)
            }
            return
        }
        guard let doubt = pending.first else {
            if impossible(last, fix) { pending = [fix] } else { try release(fix, keep) }
            return
        }
        pending = []
        if impossible(doubt, fix), !impossible(last, fix) {
            try drop(Verdict(fix: doubt, speeds: [speed(last, doubt), speed(doubt, fix)]))
        } else {
            try release(doubt, keep)
        }
        try add(fix, keep: keep, drop: drop)
    }

    /// The file has no more fixes: decides the ones still in doubt.
    mutating func finish(keep: (Fix) throws -> Void, drop: (Verdict) throws -> Void) rethrows {
        let doubt = pending
        pending = []
        if let last = kept1, let fix = doubt.first {
            // The last fix, impossible against the one before: dropped when it is also impossible
            // against the fix before that one, and those two agree.
            if let before = kept2, !impossible(before, last), impossible(before, fix) {
                try drop(Verdict(fix: fix, speeds: [speed(last, fix), speed(before, fix)]))
            } else {
                try release(fix, keep)
            }
            return
        }
        // One fix, or two impossible together with nothing to tell which is wrong: both kept.
        for fix in doubt { try release(fix, keep) }
    }

    private mutating func release(_ fix: Fix, _ keep: (Fix) throws -> Void) rethrows {
        try keep(fix)
        (kept2, kept1) = (kept1, fix)
    }
}
