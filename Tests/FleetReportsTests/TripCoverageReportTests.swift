import XCTest
import GRDB
import FleetKit
import FleetTestSupport

/// The trips report sets its trips against the daily totals and says, per asset, why trips fall
/// short (docs/METRICS.md, "Trips"): an asset without positions, one whose trips end at GPS
/// gaps nothing bridged, and one whose gap the engine bridged (covered, so not listed).
final class TripCoverageReportTests: XCTestCase {
    let day = Timestamp.parse("2026-10-01T00:00:00Z")!

    private func warehouse() throws -> TestWarehouse {
        let t = try TestWarehouse()
        try t.warehouse.pool.write { db in
            let f = try SourceFile.insertedForTest(db)
            var sink = WarehouseSink(db: db, sourceFileID: f.id!)
            let h = Int64(3_600_000)
            // V-1: the odometer says 100 km on Oct 1, and no position at all.
            let v1 = try sink.asset(AssetRef(unitNumber: "V-1"))
            try sink.load(MeterReading(assetID: v1, meter: "odometer", at: day + 7 * h, value: 1_000_000, sourceFileID: f.id!))
            try sink.load(MeterReading(assetID: v1, meter: "odometer", at: day + 17 * h, value: 1_100_000, sourceFileID: f.id!))
            // V-2 and V-3: 10 min north at 15 m/s, 3 h without a fix, 10 min back; the odometer
            // says 60 km between engine on and off. V-3 also has the engine events.
            for (unit, engine) in [("V-2", false), ("V-3", true)] {
                let a = try sink.asset(AssetRef(unitNumber: unit))
                let start = day + 8 * h, back = start + 600_000 + 3 * h
                for s in stride(from: -180, through: 600, by: 10) {
                    try sink.load(Position(assetID: a, at: start + Int64(s) * 1000, lat: 41.5 + 15 * Double(max(s, 0)) / 111_195, lon: -88.1, sourceFileID: f.id!))
                    try sink.load(Position(assetID: a, at: back + Int64(s + 180) * 1000, lat: 41.5 + 15 * Double(600 - min(max(s + 180, 0), 600)) / 111_195,
                                           lon: -88.1, sourceFileID: f.id!))
                }
                let on = start - 60_000, off = back + 780_000
                try sink.load(MeterReading(assetID: a, meter: "odometer", at: on, value: 2_000_000, sourceFileID: f.id!))
                try sink.load(MeterReading(assetID: a, meter: "odometer", at: off, value: 2_060_000, sourceFileID: f.id!))
                if engine {
                    try sink.load(EngineEvent(assetID: a, at: on, state: "on", sourceFileID: f.id!))
                    try sink.load(EngineEvent(assetID: a, at: off, state: "off", sourceFileID: f.id!))
                }
            }
            try Derivations.refresh(db, touched: sink.touched, settings: DeriveSettings())
        }
        return t
    }

    private func quality(_ t: TestWarehouse) throws -> [String: (count: ReportValue, detail: String)] {
        let out = try t.warehouse.pool.read { db in try TripsReport().run(db, ReportRequest(period: .month(2026, 10), generatedAt: 0)) }
        var rows: [String: (count: ReportValue, detail: String)] = [:]
        for r in out.dataQuality.rows { if case .text(let check) = r[0], case .text(let detail) = r[2] { rows[check] = (r[1], detail) } }
        return rows
    }

    func testEachAssetShortOfItsDailyDistanceIsNamedWithItsReason() throws {
        let t = try warehouse()
        let q = try quality(t)
        let fleet = try XCTUnwrap(q["Assets whose trips cover less than 95 % of their daily distance (asset_day)"])
        XCTAssertEqual(fleet.count, .integer(2), "V-1 and V-2, not V-3")
        // 60 km (V-3, the odometer between engine on and off) + 18 km (V-2's two trips) of 220 km.
        XCTAssertTrue(fleet.detail.hasPrefix("trips 78.0 km of 220.0 km daily (35.5 %)"), fleet.detail)
        let v1 = try XCTUnwrap(q["Trips not derived reliably: V-1"])
        XCTAssertEqual(v1.count, .integer(0))
        XCTAssertTrue(v1.detail.contains("no positions in the period"), v1.detail)
        let v2 = try XCTUnwrap(q["Trips not derived reliably: V-2"])
        XCTAssertEqual(v2.count, .integer(2))
        XCTAssertTrue(v2.detail.contains("1 trips ended at a GPS gap over the gap rule"), v2.detail)
        XCTAssertNil(q["Trips not derived reliably: V-3"])
        XCTAssertEqual(try t.rows("SELECT distance_method, bridged_s FROM trip t JOIN asset a ON a.id = t.asset_id WHERE a.unit_number = 'V-3'")
            .map { [$0[0] as String, String($0[1] as Double)] }, [["odometer", "10800.0"]])
        XCTAssertEqual(q["Trips repaired to meet their invariants (trip.repair)"]?.count, .integer(0))
    }

    func testRepairedTripsAreCountedByRepair() throws {
        let t = try warehouse()
        try t.warehouse.pool.write { db in try db.execute(sql: "UPDATE trip SET repair = 'average_above_max_speed' WHERE id = (SELECT MIN(id) FROM trip)") }
        let repaired = try XCTUnwrap(try quality(t)["Trips repaired to meet their invariants (trip.repair)"])
        XCTAssertEqual(repaired.count, .integer(1))
        XCTAssertTrue(repaired.detail.hasPrefix("average_above_max_speed 1"), repaired.detail)
    }
}
