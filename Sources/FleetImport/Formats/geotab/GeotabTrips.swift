import Foundation
import FleetCore
import FleetWarehouse

/// `Trip`: one drive, from ignition on to the stop, as a `trip` row with source `geotab` (keyed
/// by asset, start and source, so a re-export updates it in place).
///
/// `start` and `stop` are the trip's ends (`stop` before `start` is a reject); `distance` is in
/// kilometres (stored in metres), `maximumSpeed` in km/h (stored in m/s); `drivingDuration` and
/// `idlingDuration` are .NET TimeSpans (`hh:mm:ss`, `hh:mm:ss.fffffff`, `d.hh:mm:ss`), stored as
/// moving and idle seconds; `stopPoint` (`x` the longitude, `y` the latitude) is where it ended.
/// The driver is not read (MyGeotab's driver ids need its `User` list).
extension GeotabReader {
    func trip(_ f: JSONFields, _ sink: inout S) throws {
        let start = try f.requiredTime("start"), end = try f.requiredTime("stop")
        guard end >= start else { throw JSONRowError(.badValue, "the trip stops before it starts", at: f.at("stop")) }
        let distance = try f.number("distance", in: 0...5000, unit: "km")
        let maxSpeed = try f.number("maximumSpeed", in: 0...500, unit: "km/h")
        let moving = try timeSpan(f, "drivingDuration"), idle = try timeSpan(f, "idlingDuration")
        var endLat: Double? = nil, endLon: Double? = nil
        if let p = try f.object("stopPoint"), let x = try p.number("x", in: -180...180, unit: "°"), let y = try p.number("y", in: -90...90, unit: "°"),
           !(x.value == 0 && y.value == 0) {
            (endLat, endLon) = (y.value, x.value)
        }
        let asset = try deviceAsset(f, &sink)
        span.saw(start)
        try sink.load(Trip(assetID: asset, startAt: start, endAt: end, endLat: endLat, endLon: endLon, distanceM: distance.map { $0.value * 1000 },
                           durationS: Double(end - start) / 1000, movingS: moving, idleS: idle, maxSpeedMps: maxSpeed.map { $0.value / 3.6 },
                           source: "geotab", sourceFileID: sink.sourceFileID))
    }

    /// A .NET TimeSpan as seconds: `[d.]hh:mm:ss[.fffffff]`; nil when absent.
    func timeSpan(_ f: JSONFields, _ key: String) throws(JSONRowError) -> Double? {
        guard let text = try f.string(key) else { return nil }
        guard let s = Self.seconds(ofTimeSpan: text), s <= 31 * 86_400 else {
            throw JSONRowError(.badValue, "'\(key)' is '\(text)', not a duration (hh:mm:ss or d.hh:mm:ss) of at most 31 days", at: f.at(key))
        }
        return s
    }

    static func seconds(ofTimeSpan text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, text.utf8.count <= 32 else { return nil }
        var days = 0, hours = 0
        let h = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        switch h.count {
        case 1: guard let v = Int(h[0]), v >= 0 else { return nil }; hours = v
        case 2: guard let d = Int(h[0]), let v = Int(h[1]), d >= 0, v >= 0 else { return nil }; days = d; hours = v
        default: return nil
        }
        guard hours < 24 || days == 0, let minutes = Int(parts[1]), (0..<60).contains(minutes),
              parts[2].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), let secs = Double(parts[2]), secs >= 0, secs < 60, days <= 366, hours <= 9000 else { return nil }
        return Double(days * 86_400 + hours * 3600 + minutes * 60) + secs
    }
}
