import GRDB
import FleetCore

/// Each local day's GPS figures for one asset — first and last position, filtered path length
/// (`GPSPath`) — as `DailyRollup.fillFallbacks` would compute them, gathered while trip
/// detection steps through the same positions.
///
/// Why: reading a million positions back was most of derivation's cost, and the rollup read
/// them all a second time. A day's figures depend only on the last fix before the day and the
/// day's own fixes, so a pass that saw both gives the rollup the same sums for every day it
/// covers; the rollup reads positions itself only for days outside `coverStart..<coverEnd`.
struct DayPaths {
    struct Day: Equatable {
        /// The UTC instant the local day starts.
        var start: Int64
        var first: Int64, last: Int64
        /// The day's path in metres and whether any leg counted (`DayGrid.addGPS`).
        var metres: Double
        var counted: Bool
    }

    /// The time zone the days are local to (its identifier).
    let zone: String
    /// Every day starting in `coverStart..<coverEnd` is exact; days there without an entry have
    /// no positions. Both bounds are day starts (or Int64.min / Int64.max).
    let coverStart: Int64, coverEnd: Int64
    /// In time order.
    let days: [Day]
}

/// Builds `DayPaths` from the positions trip detection reads (`at > after`, in order).
struct DayPathTracker {
    let zone: FleetZone
    private let coverStart: Int64
    private var days: [DayPaths.Day] = []
    private var current = DayPaths.Day(start: 0, first: 0, last: 0, metres: 0, counted: false)
    private var began = false
    private var dayEnd = Int64.min
    /// Day boundaries that did not bracket a fix: never expected, but then nothing is offered.
    private var broken = false
    private var path = GPSPath()
    private var hasLast = false
    private var lastAt: Int64 = 0, lastLat = 0.0, lastLon = 0.0, lastCos = 0.0

    /// `after`: positions after it are fed; `before`, the last position at or before it (nil
    /// when there is none), which anchors the first full day's path.
    init(zone: FleetZone, after: Int64, before: (at: Int64, lat: Double, lon: Double)?) {
        self.zone = zone
        // The day containing `after` lacks its positions up to `after`: cover from the next one.
        coverStart = after == Int64.min ? Int64.min : zone.start(of: zone.day(of: after).adding(days: 1))
        if let before {
            (hasLast, lastAt, lastLat, lastLon, lastCos) = (true, before.at, before.lat, before.lon, Geo.cosLat(before.lat))
        }
    }

    /// The next position in time order; `cos` is `Geo.cosLat(lat)` or NaN (GPSPath.add).
    mutating func add(at: Int64, lat: Double, lon: Double, cos: inout Double, probe: AnchorProbe) {
        if at >= dayEnd {
            if began, current.start >= coverStart { days.append(current) }
            let day = zone.day(of: at)
            let start = zone.start(of: day)
            dayEnd = zone.start(of: day.adding(days: 1))
            if !(start <= at && at < dayEnd) { broken = true }
            began = true
            current = DayPaths.Day(start: start, first: at, last: at, metres: 0, counted: false)
            if hasLast, lastCos.isNaN { lastCos = Geo.cosLat(lastLat) }
            path = hasLast ? GPSPath(anchor: lastAt, lat: lastLat, lon: lastLon, cos: lastCos) : GPSPath()
        }
        current.last = at
        if let metres = path.add(at: at, lat: lat, lon: lon, cos: &cos, probe: probe) {
            current.metres += metres
            current.counted = true
        }
        (hasLast, lastAt, lastLat, lastLon, lastCos) = (true, at, lat, lon, cos)
    }

    /// The figures once the positions ran out (`stoppedAt` nil) or the pass stopped before the
    /// position at `stoppedAt`: the day of that position is then incomplete and not offered.
    mutating func finish(stoppedAt: Int64?) -> DayPaths? {
        guard !broken else { return nil }
        var end = Int64.max
        if let stoppedAt {
            guard began else { return nil }
            if stoppedAt < dayEnd {
                end = current.start
            } else {
                end = dayEnd
                if current.start >= coverStart { days.append(current) }
            }
        } else if began, current.start >= coverStart {
            days.append(current)
        }
        guard end > coverStart else { return nil }
        return DayPaths(zone: zone.identifier, coverStart: coverStart, coverEnd: end, days: days)
    }
}

/// What one derivation step computed that a later step of the same `Derivations.refresh` can
/// reuse instead of reading the facts again. Valid only while the facts are unchanged: steps
/// write derived tables only, and one scratch lives for one refresh.
final class DeriveScratch {
    /// Per asset, the day figures trip detection gathered (taken by the daily rollup).
    var dayPaths: [Int64: DayPaths] = [:]
    /// Per asset, the trip run a file's positions were fed to as they loaded (taken by trip detection).
    var streams: [Int64: TripStream] = [:]
}

/// A step that shares a `DeriveScratch` with the other steps of a refresh.
protocol ScratchDeriver: Deriver {
    func refresh(_ db: Database, touched: inout TouchedTimeline, settings: DeriveSettings, scratch: DeriveScratch) throws
}
