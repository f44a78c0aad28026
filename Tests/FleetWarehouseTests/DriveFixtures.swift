import Foundation
import FleetCore

/// Generated drives for derivation tests.
enum DriveFixtures {
    /// A fixed pseudo-random sequence in 0..<1.
    struct LCG {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    /// V-1 for six local days of `zone`: parked wobble, drives out and back each morning, a
    /// drive across midnight into Oct 4, a lone fix 445 m on two hours later on Oct 5, and on
    /// Oct 6 only twenty minutes parked there.
    static func sixDays(_ zone: FleetZone) -> [(at: Int64, lat: Double, lon: Double)] {
        var rng = LCG(state: 5)
        var out: [(at: Int64, lat: Double, lon: Double)] = []
        var (lat, lon) = (41.5, -88.1)
        func local(_ d: Int, _ h: Int, _ m: Int) -> Int64 {
            zone.start(of: CivilDate(year: 2026, month: 10, day: d)!) + Int64(h * 3600 + m * 60) * 1000
        }
        func parked(_ from: Int64, minutes: Int) {
            for k in 0..<(minutes * 6) {
                out.append((from + Int64(k) * 10_000, lat + (rng.next() - 0.5) * 0.00006, lon + (rng.next() - 0.5) * 0.00008))
            }
        }
        func drive(_ from: Int64, seconds: Int, north: Double, east: Double) {
            for k in 1...(seconds / 5) {
                lat += north * 5 / 111_195
                lon += east * 5 / (111_195 * cos(lat * .pi / 180))
                out.append((from + Int64(k) * 5000, lat, lon))
            }
        }
        for d in 1...6 where d != 6 {
            parked(local(d, 5, 50), minutes: 10)
            drive(local(d, 6, 0), seconds: 1200, north: 12, east: 3)
            parked(local(d, 6, 20) + 5000, minutes: 10)
            drive(local(d, 6, 30) + 5000, seconds: 1200, north: -12, east: -3)
            parked(local(d, 6, 50) + 10_000, minutes: 10)
        }
        parked(local(3, 23, 40), minutes: 10)
        drive(local(3, 23, 50), seconds: 1200, north: 0, east: 14)
        parked(local(4, 0, 10) + 5000, minutes: 10)
        lat += 0.004
        out.append((local(5, 9, 0), lat, lon))
        parked(local(6, 12, 0), minutes: 20)
        return out.sorted { $0.at < $1.at }
    }
}
