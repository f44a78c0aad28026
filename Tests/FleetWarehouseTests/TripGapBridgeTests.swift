import XCTest
import GRDB
import FleetCore
import FleetTestSupport
@testable import FleetWarehouse

/// A GPS gap longer than the gap rule ends a trip only when no other signal says the asset kept
/// operating (docs/METRICS.md, "Bridged gaps"): the engine known on from before the gap to its
/// end, an engine-hours meter that ran through it, or an odometer that never stood still. Across
/// a bridged gap the distance is the odometer's rise, never the straight line between the fixes.
/// One fixture per case: a drive, a 3 h gap in the fixes, a drive back, and what else is known.
final class TripGapBridgeTests: XCTestCase {
    typealias Fix = (at: Int64, lat: Double, lon: Double)
    let t0 = Timestamp.parse("2026-10-01T07:00:00Z")!
    var gapStart: Int64 { t0 + 600_000 }
    var gapEnd: Int64 { t0 + 600_000 + 3 * 3_600_000 }

    /// 3 min parked, 10 min north at 15 m/s (9 km), no fix for 3 h, then from 10 km further
    /// north 10 min back south, and 5 min parked: a fix every 10 s.
    var fixes: [Fix] {
        let lat0 = 41.5, lon = -88.1
        var out: [Fix] = stride(from: -180, to: 0, by: 10).map { (t0 + Int64($0) * 1000, lat0, lon) }
        for s in stride(from: 0, through: 600, by: 10) { out.append((t0 + Int64(s) * 1000, lat0 + 15 * Double(s) / 111_195, lon)) }
        let far = lat0 + 19_000 / 111_195.0
        for s in stride(from: 0, through: 600, by: 10) { out.append((gapEnd + Int64(s) * 1000, far - 15 * Double(s) / 111_195, lon)) }
        let park = out.last!
        for s in stride(from: 10, through: 300, by: 10) { out.append((park.at + Int64(s) * 1000, park.lat, park.lon)) }
        return out
    }

    struct Facts {
        var fixes: [Fix] = []
        var engine: [(Int64, String)] = []
        var meters: [(String, Int64, Double)] = []
    }

    /// Loads each element as one file, in the order given, deriving after each like an import.
    func load(_ t: TestWarehouse, _ files: [Facts]) throws {
        for facts in files {
            try t.warehouse.pool.write { db in
                let f = try SourceFile.insertedForTest(db)
                var sink = WarehouseSink(db: db, sourceFileID: f.id!)
                let a = try sink.asset(AssetRef(unitNumber: "T-1"))
                for x in facts.fixes { try sink.load(Position(assetID: a, at: x.at, lat: x.lat, lon: x.lon, sourceFileID: f.id!)) }
                for (at, state) in facts.engine { try sink.load(EngineEvent(assetID: a, at: at, state: state, sourceFileID: f.id!)) }
                for (meter, at, value) in facts.meters { try sink.load(MeterReading(assetID: a, meter: meter, at: at, value: value, sourceFileID: f.id!)) }
                try Derivations.refresh(db, touched: sink.touched, settings: DeriveSettings())
            }
        }
    }

    func trips(_ t: TestWarehouse) throws -> [Row] {
        try t.rows("""
            SELECT start_at, end_at, start_reason, end_reason, distance_m, distance_method, bridged_s, moving_s, idle_s, max_speed_mps, repair
            FROM trip WHERE source = 'gps' ORDER BY start_at
            """)
    }

    /// The odometer every 30 min from engine on to off, rising 50 km in all (more than the fixes show).
    var odometer: [(String, Int64, Double)] {
        let on = t0 - 60_000, off = gapEnd + 660_000
        return stride(from: on, through: off, by: 1_800_000).map { ("odometer", $0, 100_000 + 50_000 * Double($0 - on) / Double(off - on)) }
            + [("odometer", off, 150_000)]
    }

    func testAnEngineKnownOnBridgesTheGapAndTheOdometerMeasuresIt() throws {
        let t = try TestWarehouse()
        try load(t, [Facts(fixes: fixes, engine: [(t0 - 60_000, "on"), (gapEnd + 660_000, "off")], meters: odometer)])
        let r = try trips(t)
        XCTAssertEqual(r.count, 1, "one trip through the gap: \(r)")
        XCTAssertEqual(r[0]["start_reason"] as String, "ignition")
        XCTAssertEqual(r[0]["end_reason"] as String, "ignition")
        XCTAssertEqual(r[0]["bridged_s"] as Double, 3 * 3600 - 0, accuracy: 0.001)
        // Both ends have an odometer reading: the trip is the odometer's 50 km.
        XCTAssertEqual(r[0]["distance_method"] as String, "odometer")
        XCTAssertEqual(r[0]["distance_m"] as Double, 50_000, accuracy: 0.01)
    }

    func testAcrossTheGapTheOdometerNotTheStraightLineIsTheDistance() throws {
        let t = try TestWarehouse()
        // The odometer only around the gap (none within a minute of the trip's ends): the
        // path before and after, plus the odometer's rise across the gap.
        let on = t0 - 60_000, off = gapEnd + 660_000
        func odo(_ at: Int64) -> Double { 100_000 + 50_000 * Double(at - on) / Double(off - on) }
        let times = [gapStart - 120_000] + Array(stride(from: gapStart + 1_800_000, to: gapEnd, by: 1_800_000)) + [gapEnd + 120_000]
        try load(t, [Facts(fixes: fixes, engine: [(on, "on"), (off, "off")], meters: times.map { ("odometer", $0, odo($0)) })])
        let r = try trips(t)
        XCTAssertEqual(r.count, 1)
        XCTAssertEqual(r[0]["distance_method"] as String, "mixed")
        let across = odo(gapEnd) - odo(gapStart)
        // 9 km out, 9 km back (within the 15 m jitter rule at each end), and the odometer across.
        XCTAssertEqual(r[0]["distance_m"] as Double, 18_000 + across, accuracy: 60)
        XCTAssertGreaterThan(across, 30_000, "the fixture's gap is long: not the 10 km straight line")
        // The gap's time is moving: the odometer rose faster than 1 km/h across it.
        XCTAssertGreaterThanOrEqual(r[0]["moving_s"] as Double, 3 * 3600)
        XCTAssertNil(r[0]["repair"] as String?)
    }

    func testEngineHoursThatRanBridgeWithoutEngineEventsAndWithoutAnOdometerTheDistanceIsALowerBound() throws {
        let t = try TestWarehouse()
        let on = t0 - 60_000
        let hours = stride(from: on, through: gapEnd + 3_600_000, by: 3_600_000).map { ("engine_hours", $0, 36_000 + Double($0 - on) / 1000) }
        try load(t, [Facts(fixes: fixes, meters: hours)])
        let r = try trips(t)
        XCTAssertEqual(r.count, 1, "\(r)")
        XCTAssertEqual(r[0]["distance_method"] as String, "gps_partial")
        XCTAssertEqual(r[0]["end_reason"] as String, "movement")
        // No distance across the gap: the path before and after only.
        XCTAssertEqual(r[0]["distance_m"] as Double, 18_000, accuracy: 60)
    }

    func testAnEngineOffInTheGapEndsTheTrip() throws {
        let t = try TestWarehouse()
        try load(t, [Facts(fixes: fixes, engine: [(t0 - 60_000, "on"), (gapStart + 600_000, "off"), (gapEnd - 600_000, "on"),
                                                  (gapEnd + 660_000, "off")], meters: odometer)])
        let r = try trips(t)
        XCTAssertEqual(r.count, 2, "\(r)")
        XCTAssertEqual(r.map { $0["end_reason"] as String }, ["ignition", "ignition"])
        XCTAssertEqual(r.map { $0["bridged_s"] as Double }, [0, 0])
    }

    func testEngineHoursThatStoodEndTheTrip() throws {
        let t = try TestWarehouse()
        // The hour meter rose only 1 h over the 3 h gap: the engine was off 2 h, longer than the gap rule.
        try load(t, [Facts(fixes: fixes, meters: [("engine_hours", gapStart - 60_000, 36_000), ("engine_hours", gapEnd + 60_000, 39_600)])])
        let r = try trips(t)
        XCTAssertEqual(r.count, 2, "\(r)")
        XCTAssertEqual(r[0]["end_reason"] as String, "gap")
    }

    func testAnOdometerThatStoodStillEndsTheTrip() throws {
        let t = try TestWarehouse()
        // Readings every 30 min, but flat for the middle hour: the asset stood for the gap rule's length.
        let on = gapStart - 600_000
        let flat = stride(from: on, through: gapEnd + 1_800_000, by: 1_800_000).map { at -> (String, Int64, Double) in
            let k = Double((at - on) / 1_800_000)
            return ("odometer", at, 100_000 + 5_000 * (k < 3 ? k : k < 5 ? 3 : k - 2))
        }
        try load(t, [Facts(fixes: fixes, meters: flat)])
        XCTAssertEqual(try trips(t).count, 2)
        // The same readings, rising each half hour: one trip through the gap.
        let t2 = try TestWarehouse()
        let rising = stride(from: on, through: gapEnd + 1_800_000, by: 1_800_000).map { ("odometer", $0, 100_000 + 5_000 * Double(($0 - on) / 1_800_000)) }
        try load(t2, [Facts(fixes: fixes, meters: rising)])
        let r = try trips(t2)
        XCTAssertEqual(r.count, 1, "\(r)")
        XCTAssertEqual(r[0]["distance_method"] as String, "mixed")
    }

    func testNothingElseKnownTheGapEndsTheTrip() throws {
        let t = try TestWarehouse()
        try load(t, [Facts(fixes: fixes)])
        let r = try trips(t)
        XCTAssertEqual(r.map { $0["end_reason"] as String }, ["gap", "movement"])
        XCTAssertEqual(r.map { $0["distance_method"] as String }, ["gps", "gps"])
    }

    /// The meters arriving in a later file (or an earlier one) give the same trips.
    func testTheSameTripsWhicheverFileCameFirst() throws {
        let positions = Facts(fixes: fixes)
        let signals = Facts(engine: [(t0 - 60_000, "on"), (gapEnd + 660_000, "off")], meters: odometer)
        let rising = try TestWarehouse(), falling = try TestWarehouse()
        try load(rising, [positions, signals])
        try load(falling, [signals, positions])
        let dump = { (t: TestWarehouse) in try t.rows("SELECT * FROM trip ORDER BY start_at").map { Array($0.databaseValues.dropFirst()).map(\.description) } }
        XCTAssertEqual(try dump(rising), try dump(falling))
        XCTAssertEqual(try trips(rising).count, 1)
    }
}
