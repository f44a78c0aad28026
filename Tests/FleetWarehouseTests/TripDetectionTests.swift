import XCTest
import GRDB
import FleetCore
import FleetTestSupport
@testable import FleetWarehouse

final class TripDetectionTests: XCTestCase {
    typealias Fix = (at: Int64, lat: Double, lon: Double, speed: Double?)
    let t0 = Timestamp.parse("2026-10-01T08:00:00Z")!

    /// A seeded generator, so jitter is the same on every run.
    struct LCG { var state: UInt64; mutating func next() -> Double { state = state &* 6364136223846793005 &+ 1442695040888963407; return Double(state >> 11) / Double(1 << 53) } }

    /// `seconds` of driving at `speed` m/s on `heading` degrees, one fix per second.
    func drive(from p: Fix, heading: Double, speed: Double, seconds: Int, reportSpeed: Bool = true) -> [Fix] {
        var out: [Fix] = []
        var (lat, lon) = (p.lat, p.lon)
        for s in 1...seconds {
            lat += speed * cos(heading * .pi / 180) / 111_195
            lon += speed * sin(heading * .pi / 180) / (111_195 * cos(lat * .pi / 180))
            out.append((p.at + Int64(s) * 1000, lat, lon, reportSpeed ? speed : nil))
        }
        return out
    }

    /// `seconds` parked at `p` with a few metres of jitter (the device keeps logging).
    func park(at p: Fix, seconds: Int, jitter: Double = 4, rng: inout LCG, reportSpeed: Bool = true) -> [Fix] {
        (1...seconds).map { s in
            (p.at + Int64(s) * 1000, p.lat + (rng.next() - 0.5) * 2 * jitter / 111_195,
             p.lon + (rng.next() - 0.5) * 2 * jitter / (111_195 * cos(p.lat * .pi / 180)), reportSpeed ? 0 : nil)
        }
    }

    func length(_ fixes: [Fix]) -> Double {
        zip(fixes, fixes.dropFirst()).reduce(0) { $0 + GPSPath.haversine($1.0.lat, $1.0.lon, $1.1.lat, $1.1.lon) }
    }

    /// Loads facts as one file would, then derives, as ImportSession does.
    func load(_ t: TestWarehouse, _ fixes: [Fix], engine: [(Int64, String)] = [], odometer: [(Int64, Double)] = []) throws {
        try t.warehouse.pool.write { db in
            let f = try SourceFile.insertedForTest(db)
            var sink = WarehouseSink(db: db, sourceFileID: f.id!)
            let a = try sink.asset(AssetRef(unitNumber: "T-1"))
            for x in fixes { try sink.load(Position(assetID: a, at: x.at, lat: x.lat, lon: x.lon, speedMps: x.speed, sourceFileID: f.id!)) }
            for (at, state) in engine { try sink.load(EngineEvent(assetID: a, at: at, state: state, sourceFileID: f.id!)) }
            for (at, m) in odometer { try sink.load(MeterReading(assetID: a, meter: "odometer", at: at, value: m, sourceFileID: f.id!)) }
            try Derivations.refresh(db, touched: sink.touched, settings: DeriveSettings())
        }
    }

    func trips(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT start_at, end_at, distance_m, moving_s, idle_s, max_speed_mps, start_reason, end_reason FROM trip WHERE source = 'gps' ORDER BY start_at").map { r in
            "\(Timestamp.iso(r[0])) \(Timestamp.iso(r[1])) \(Int((r[2] as Double).rounded()))m moving=\(Int(r[3] as Double)) idle=\(Int(r[4] as Double)) max=\(r[5] as Double) \(r[6] as String)-\(r[7] as String)"
        }
    }

    /// 10 min parked, 10 min at 12 m/s, 10 min parked, 5 min at 15 m/s the other way, 10 min parked.
    func twoDrives(reportSpeed: Bool = true) -> (fixes: [Fix], legs: [[Fix]]) {
        var rng = LCG(state: 7)
        let start: Fix = (t0, 41.8781, -87.6298, 0)
        var fixes = park(at: start, seconds: 600, rng: &rng, reportSpeed: reportSpeed)
        let leg1 = drive(from: (t0 + 600_000, start.lat, start.lon, nil), heading: 30, speed: 12, seconds: 600, reportSpeed: reportSpeed)
        fixes += leg1
        fixes += park(at: leg1.last!, seconds: 600, rng: &rng, reportSpeed: reportSpeed)
        let leg2 = drive(from: (fixes.last!.at, leg1.last!.lat, leg1.last!.lon, nil), heading: 200, speed: 15, seconds: 300, reportSpeed: reportSpeed)
        fixes += leg2
        fixes += park(at: leg2.last!, seconds: 600, rng: &rng, reportSpeed: reportSpeed)
        return (fixes, [[(t0 + 600_000, start.lat, start.lon, nil)] + leg1, [leg1.last!] + leg2])
    }

    func testASyntheticDriveHasTheRightTripsAndDistanceWithinOnePercent() throws {
        for reportSpeed in [true, false] {
            let t = try TestWarehouse()
            let (fixes, legs) = twoDrives(reportSpeed: reportSpeed)
            try load(t, fixes)
            let rows = try t.rows("SELECT distance_m, start_at, end_at, start_reason, end_reason, moving_s FROM trip ORDER BY start_at")
            XCTAssertEqual(rows.count, 2, "speed reported: \(reportSpeed)")
            for (row, leg) in zip(rows, legs) {
                let truth = length(leg)
                XCTAssertEqual(row[0] as Double, truth, accuracy: truth / 100, "speed reported: \(reportSpeed)")
                XCTAssertEqual([row[3] as String, row[4] as String], ["movement", "movement"])
                // The trip runs from the last still fix to the arrival, within a few seconds.
                XCTAssertEqual(Double((row[2] as Int64) - (row[1] as Int64)) / 1000, Double(leg.count - 1), accuracy: 5)
                XCTAssertEqual(row[5] as Double, Double(leg.count - 1), accuracy: 5)
            }
        }
    }

    func testExactTripsWithReportedSpeed() throws {
        let t = try TestWarehouse()
        try load(t, twoDrives().fixes)
        XCTAssertEqual(try trips(t), [
            // The departure is the last fix within the 15 m jitter radius of where the truck stood:
            // the first fix of the drive (12 m on), one second after it started. The maximum is at
            // least every counted move's average: the 12 m/s steps, laid out on the test's metres
            // per degree, are 12.018 m/s on the haversine (the average, 7,198 m / 599 s, is 12.017).
            "2026-10-01T08:10:01Z 2026-10-01T08:20:00Z 7198m moving=599 idle=0 max=12.018 movement-movement",
            // 4,500.2 m in 300 s: the average is a hair above 15 m/s, so the maximum is too.
            "2026-10-01T08:30:00Z 2026-10-01T08:35:00Z 4500m moving=300 idle=0 max=15.001 movement-movement",
        ])
    }

    func testAParkedDevicesJitterMakesNoTrip() throws {
        let t = try TestWarehouse()
        var rng = LCG(state: 42)
        try load(t, park(at: (t0, 47.6, -122.3, nil), seconds: 4 * 3600, jitter: 12, rng: &rng, reportSpeed: false))
        XCTAssertEqual(try t.count("trip"), 0)
        XCTAssertEqual(try t.count("position"), 4 * 3600)
    }

    func testGapsAndEndOfDataEndTrips() throws {
        let t = try TestWarehouse()
        let a = drive(from: (t0, 10, 10, nil), heading: 90, speed: 10, seconds: 300)
        // Two hours without data (a tunnel, a dead phone), then the drive goes on and the data ends.
        let b = drive(from: (a.last!.at + 7_200_000, a.last!.lat, a.last!.lon, nil), heading: 90, speed: 10, seconds: 300)
        try load(t, a + b)
        XCTAssertEqual(try trips(t).map { $0.components(separatedBy: " ").last! }, ["movement-gap", "movement-end_of_data"])
    }

    func testIgnitionBoundsTripsAndIdleCountsWithTheEngineOn() throws {
        let t = try TestWarehouse()
        var rng = LCG(state: 3)
        let p0: Fix = (t0, 45, 7, 0)
        var fixes = park(at: p0, seconds: 600, rng: &rng)                            // engine off
        fixes += park(at: fixes.last!, seconds: 120, rng: &rng)                      // engine on at 08:10, warming up
        let leg = drive(from: fixes.last!, heading: 0, speed: 10, seconds: 300)
        fixes += leg
        fixes += park(at: leg.last!, seconds: 240, rng: &rng)                        // a delivery with the engine running
        fixes += drive(from: fixes.last!, heading: 90, speed: 10, seconds: 120)
        let off = fixes.last!.at + 60_000
        fixes += park(at: fixes.last!, seconds: 600, rng: &rng)                      // engine off at +60 s
        try load(t, fixes, engine: [(t0 + 600_000, "on"), (off, "off")])
        // Idle: 120 s warming up, 240 s at the delivery, 60 s before the engine went off (less the
        // seconds around each start and stop, whose average speed is above 1 km/h).
        // The second from the last fix (08:09:59) to the engine-on instant is not the trip's.
        XCTAssertEqual(try trips(t), ["2026-10-01T08:10:00Z 2026-10-01T08:24:00Z 4196m moving=422 idle=417 max=10.0 ignition-ignition"])
    }

    func testACrawlBelowOneKmhIsIdleAndAboveIsMovingWhenTheEngineIsUnknown() throws {
        let t = try TestWarehouse()
        var fixes = drive(from: (t0, 0, 0, nil), heading: 0, speed: 10, seconds: 60)
        fixes += drive(from: fixes.last!, heading: 0, speed: 0.2, seconds: 100)       // 0.72 km/h: idle
        fixes += drive(from: fixes.last!, heading: 0, speed: 0.5, seconds: 100)       // 1.8 km/h: moving
        fixes += drive(from: fixes.last!, heading: 0, speed: 10, seconds: 60)
        try load(t, fixes)
        // 1,260 m from the first fix. The path alone gives 1,250 m (the 20 m crawl at 0.2 m/s is
        // partly inside the 15 m jitter radius); a trip is never shorter than the straight line
        // between its ends (TripCheck), and this one is straight.
        XCTAssertEqual(try trips(t), ["2026-10-01T08:00:01Z 2026-10-01T08:05:20Z 1260m moving=220 idle=99 max=10.0 movement-end_of_data"])
    }

    func testOdometerDistanceWinsWhenBothEndsHaveAReading() throws {
        let t = try TestWarehouse()
        let (fixes, _) = twoDrives()
        try load(t, fixes, odometer: [(t0 + 600_000, 100_000), (t0 + 1_200_000, 107_350)])
        XCTAssertEqual(try t.rows("SELECT distance_m FROM trip ORDER BY start_at").map { ($0[0] as Double).rounded() }, [7350, 4500], "the second trip has no odometer: GPS")
    }

    /// Same facts, any file order and any split: the same trips. A trip crossing the boundary
    /// between two files is recomputed whole.
    func testTripsAreTheSameWhateverTheFileOrderAndSplit() throws {
        let (fixes, _) = twoDrives()
        let whole = try TestWarehouse()
        try load(whole, fixes)
        let expected = try trips(whole)
        for cut in [300, 900, 1500, 1820, 2500] {
            for order in [[0, 1], [1, 0]] {
                let t = try TestWarehouse()
                let parts = [Array(fixes[..<cut]), Array(fixes[cut...])]
                for i in order { try load(t, parts[i]) }
                XCTAssertEqual(try trips(t), expected, "cut at \(cut), order \(order)")
            }
        }
        // Day after day: many files, each the next hour, the last trip recomputed as data arrives.
        let t = try TestWarehouse()
        for chunk in stride(from: 0, to: fixes.count, by: 700) { try load(t, Array(fixes[chunk..<min(chunk + 700, fixes.count)])) }
        XCTAssertEqual(try trips(t), expected)
    }

    /// Ten hours of drives (half with ignition events) imported hour by hour in any order:
    /// recomputation restarts after earlier stops and stops where the old trips resume.
    func testLongHistoriesImportedInPiecesInAnyOrderGiveTheSameTrips() throws {
        var rng = LCG(state: 11)
        var fixes = park(at: (t0, 51.5, -0.12, 0), seconds: 900, rng: &rng)
        var engine: [(Int64, String)] = []
        for k in 0..<8 {
            if k % 2 == 0 { engine.append((fixes.last!.at + 500, "on")) }
            let leg = drive(from: fixes.last!, heading: Double(k * 45), speed: 8 + Double(k), seconds: 900 + 60 * k)
            fixes += leg
            fixes += park(at: leg.last!, seconds: 2400, rng: &rng)
            if k % 2 == 0 { engine.append((leg.last!.at + 120_500, "off")) }
        }
        let whole = try TestWarehouse()
        try load(whole, fixes, engine: engine)
        let expected = try trips(whole)
        XCTAssertEqual(expected.count, 8)
        XCTAssertEqual(expected.map { $0.components(separatedBy: " ").last! }, Array(repeating: ["ignition-ignition", "movement-movement"], count: 4).flatMap { $0 })
        let hours = stride(from: 0, to: fixes.count, by: 3600).map { Array(fixes[$0..<min($0 + 3600, fixes.count)]) }
        var shuffled = Array(hours.indices)
        for i in shuffled.indices.reversed() { shuffled.swapAt(i, Int(rng.next() * Double(i + 1))) }
        for order in [Array(hours.indices), hours.indices.reversed(), shuffled] {
            let t = try TestWarehouse()
            try load(t, [], engine: engine)
            for i in order { try load(t, hours[i]) }
            XCTAssertEqual(try trips(t), expected, "order \(order)")
        }
    }

    func testRefreshingAgainChangesNothingAndVendorTripsStay() throws {
        let t = try TestWarehouse()
        let (fixes, _) = twoDrives()
        try load(t, fixes)
        try t.warehouse.pool.write { db in
            var vendor = Trip(assetID: 1, startAt: t0, endAt: t0 + 60_000, distanceM: 1, source: "samsara")
            try vendor.insert(db)
        }
        let before = try trips(t)
        try t.warehouse.pool.write { db in try Derivations.rebuildAll(db, settings: DeriveSettings()) }
        XCTAssertEqual(try trips(t), before)
        try load(t, Array(fixes[100..<200]))
        XCTAssertEqual(try trips(t), before)
        XCTAssertEqual(try t.count("trip", where: "source = 'samsara'"), 1)
        XCTAssertEqual(try t.rows("SELECT trips FROM asset_day").map { $0[0] as Int }, [3], "two GPS trips and the vendor's")
    }
}
