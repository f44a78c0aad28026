import Foundation
import FleetCore

/// GPS tracks recorded by drivers' phones (`gpx/<UNIT>/<day>.gpx`, the unit folder attributes
/// them) for three road vehicles over the first week: the same drives as their Samsara data,
/// point by point, so the two sources agree.
///
/// Each operated day long enough for it (engine on for two hours or more) follows the Samsara
/// route: yard → site in the 20 minutes after the engine starts, four minutes standing at the
/// site, then the day's work — out to a far point and back to the return point, reached when
/// Samsara has its fix there — and the return point → yard, ending a minute before the engine
/// stops. The far point is placed so that the day's GPS path is as long as its odometer delta:
/// GPS distance and odometer agree. A point every 10 s (offset 5 s from Samsara's fixes, as a
/// phone's clock would be) and, after arriving, four minutes of parked jitter of a few metres.
///
/// Three GPX dialects, one per vehicle, as phone apps write them: GPX 1.1 with Garmin
/// TrackPointExtension v2 speed and course; GPX 1.0 with `<speed>` and `<course>`; GPX 1.1
/// with elevation and fractional-second times only.
extension SampleWriter {
    mutating func writeGPX() throws {
        let vehicles = fleet.assets.indices.filter { fleet.assets[$0].model.telematics == "samsara" && fleet.assets[$0].samsaraID != nil }
        for (variant, index) in [2, 3, 6].compactMap({ $0 < vehicles.count ? vehicles[$0] : nil }).enumerated() {
            let a = fleet.assets[index]
            for route in samsaraSeries(of: index).routes where route.day < 7 && route.end - route.start >= 7200 {
                let points = track(route, seed: UInt64(8000 + index * 100 + route.day))
                try write(gpx(a, route, points, variant: variant), to: "gpx/\(a.unit)/\(fleet.start.adding(days: route.day)).gpx")
            }
        }
    }

    struct TrackPoint {
        var second: Int64          // into the local day
        var lat: Double
        var lon: Double
        var mps: Double
        var course: Double
        var ele: Double
    }

    func track(_ r: Route, seed: UInt64) -> [TrackPoint] {
        var rng = SeededRandom(seed: fleet.seed).fork(seed)
        let yard = Self.yard
        // The work leg runs out → far → back, `far` placed so that the day's GPS path is as
        // long as its odometer delta (found by bisection on its distance from the midpoint).
        let first = Geo.haversine(yard.lat, yard.lon, r.out.lat, r.out.lon), last = Geo.haversine(r.back.lat, r.back.lon, yard.lat, yard.lon)
        let work = max(r.metres - first - last, Geo.haversine(r.out.lat, r.out.lon, r.back.lat, r.back.lon))
        let mid = (lat: (r.out.lat + r.back.lat) / 2, lon: (r.out.lon + r.back.lon) / 2)
        let bearing = atan2((r.back.lon - r.out.lon) * cos(mid.lat * Double.pi / 180), r.back.lat - r.out.lat) + Double.pi / 2
        func far(_ km: Double) -> (lat: Double, lon: Double) { offset(mid, km: km, bearing: bearing) }
        func length(_ p: (lat: Double, lon: Double)) -> Double {
            Geo.haversine(r.out.lat, r.out.lon, p.lat, p.lon) + Geo.haversine(p.lat, p.lon, r.back.lat, r.back.lon)
        }
        var lo = 0.0, hi = 2000.0
        for _ in 0..<60 { let m = (lo + hi) / 2; if length(far(m)) < work { lo = m } else { hi = m } }
        let apex = far(lo)
        let workStart = r.start + 1505, workEnd = r.end - 1315
        let split = workStart + Int64(Double(workEnd - workStart) * Geo.haversine(r.out.lat, r.out.lon, apex.lat, apex.lon) / length(apex) / 10) * 10
        let legs = [(r.start + 65, r.start + 1265, yard, r.out), (workStart, split, r.out, apex), (split, workEnd, apex, r.back),
                    (workEnd, r.end - 55, r.back, yard)]
        var points: [TrackPoint] = []
        for (from, to, a, b) in legs {
            let metres = Geo.haversine(a.lat, a.lon, b.lat, b.lon)
            let mps = metres / Double(to - from)
            let course = atan2((b.lon - a.lon) * cos(a.lat * Double.pi / 180), b.lat - a.lat) * 180 / Double.pi
            var t = from
            while t <= to {
                let f = Double(t - from) / Double(to - from)
                points.append(TrackPoint(second: t, lat: a.lat + (b.lat - a.lat) * f, lon: a.lon + (b.lon - a.lon) * f,
                                         mps: mps, course: (course + 360).truncatingRemainder(dividingBy: 360),
                                         ele: 205 + 12 * sin(f * Double.pi) + rng.double(-0.5...0.5)))
                t += 10
            }
            // Standing still: jitter of a few metres, speed 0.
            var s = to + 30
            while s <= to + 240 {
                if legs.contains(where: { s >= $0.0 && s <= $0.1 }) { break }
                let j = offset(b, km: rng.double(0...0.004), bearing: rng.double(0...(2 * Double.pi)))
                points.append(TrackPoint(second: s, lat: j.lat, lon: j.lon, mps: 0, course: 0, ele: 205 + rng.double(-1...1)))
                s += 30
            }
        }
        // A leg that starts where the last ended shares that instant: keep one point.
        var seen = Set<Int64>()
        return points.sorted { $0.second < $1.second }.filter { seen.insert($0.second).inserted }
    }

    private func gpx(_ a: SampleFleet.Asset, _ r: Route, _ points: [TrackPoint], variant: Int) -> String {
        /// UTC with a `Z`; the fractional dialect is a quarter second off the whole second.
        func time(_ s: Int64, fractional: Bool) -> String {
            Timestamp.iso(Timestamp.utc(fromLocal: r.localDay + s * 1000 + (fractional ? 250 : 0), in: fleet.zone.timeZone))
        }
        let f6 = { (v: Double) in String(format: "%.6f", v) }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        switch variant {
        case 0:
            out += "<gpx version=\"1.1\" creator=\"GPSLogger for Android\" xmlns=\"http://www.topografix.com/GPX/1/1\" "
                + "xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v2\">\n"
        case 1:
            out += "<gpx version=\"1.0\" creator=\"OsmAnd 4.7\" xmlns=\"http://www.topografix.com/GPX/1/0\">\n"
        default:
            out += "<gpx version=\"1.1\" creator=\"Strava\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
        }
        out += " <trk>\n  <name>\(a.unit) \(fleet.start.adding(days: r.day))</name>\n  <trkseg>\n"
        for p in points {
            out += "   <trkpt lat=\"\(f6(p.lat))\" lon=\"\(f6(p.lon))\">"
            switch variant {
            case 0:
                out += "<ele>\(String(format: "%.1f", p.ele))</ele><time>\(time(p.second, fractional: false))</time><extensions><gpxtpx:TrackPointExtension>"
                    + "<gpxtpx:speed>\(String(format: "%.2f", p.mps))</gpxtpx:speed><gpxtpx:course>\(String(format: "%.1f", p.course))</gpxtpx:course>"
                    + "</gpxtpx:TrackPointExtension></extensions>"
            case 1:
                out += "<ele>\(String(format: "%.1f", p.ele))</ele><time>\(time(p.second, fractional: false))</time>"
                    + "<course>\(String(format: "%.1f", p.course))</course><speed>\(String(format: "%.2f", p.mps))</speed>"
            default:
                out += "<ele>\(String(format: "%.1f", p.ele))</ele><time>\(time(p.second, fractional: true))</time>"
            }
            out += "</trkpt>\n"
        }
        return out + "  </trkseg>\n </trk>\n</gpx>\n"
    }
}
