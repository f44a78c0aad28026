import XCTest
import GRDB
import FleetCore
import FleetKit
import FleetTestSupport
@testable import FleetWarehouse
@testable import FleetImport

/// The trips-within-days invariant (docs/METRICS.md, "Verify", `trips_vs_days`, "At import,
/// too") inside a file's load: a derived trip longer than its day's GPS path fails the file,
/// while a vendor's trip that disagrees with a partly loaded day stays `verify`'s (failing the
/// file for it would make the warehouse depend on the import order).
final class TripDayImportCheckTests: XCTestCase {
    /// A drive of 60 moves of 100 m due north (6,000 m, the day's GPS path), derived as one trip
    /// inside the load; the same trip then claiming 20,000 m (what a derivation fault such as
    /// the straight line over a jump made of a trip) is more than the path × 1.02 + 2 km =
    /// 8,120 m allows: the check throws with the asset, the day, the figures and the fix, so
    /// the file's transaction is rolled back. Untouched, the same load passes.
    func testADerivedTripLongerThanItsDayFailsTheLoad() throws {
        let t = try TestWarehouse()
        let t0 = Timestamp.parse("2026-10-01T08:00:00Z")!
        let rolledBack = try t.warehouse.pool.write { db -> Bool in
            let f = try SourceFile.insertedForTest(db)
            var sink = WarehouseSink(db: db, sourceFileID: f.id!)
            let a = try sink.asset(AssetRef(unitNumber: "T-1"))
            var fixes: [(at: Int64, lat: Double)] = []
            for k in 0...30 { fixes.append((at: t0 + Int64(k) * 10_000, lat: 45.0)) }
            for k in 1...60 {
                let north: Double = 100 * Double(k) / 111_195
                fixes.append((at: t0 + 300_000 + Int64(k) * 10_000, lat: 45.0 + north))
            }
            let end = fixes[fixes.count - 1]
            for k in 1...60 { fixes.append((at: end.at + Int64(k) * 10_000, lat: end.lat)) }
            for x in fixes { try sink.load(Position(assetID: a, at: x.at, lat: x.lat, lon: 7, sourceFileID: f.id!)) }
            try sink.deriveAfterLoad()
            XCTAssertEqual(try Double.fetchOne(db, sql: "SELECT distance_m FROM trip WHERE source = 'gps'") ?? 0, 6000, accuracy: 1)
            try db.execute(sql: "UPDATE trip SET distance_m = 20000 WHERE source = 'gps'")
            do {
                try TripDayTotalsCheck.enforce(db, touched: sink.touched, zone: .utc)
                return false
            } catch let v as TripDayTotalsCheck.Violation {
                for says in ["trips_vs_days", "T-1 2026-10-01", "20000.0 m", "GPS path of 6000", "nothing of the file was kept", "What to do"] {
                    XCTAssertTrue(v.description.contains(says), "\(says): \(v.description)")
                }
                return true
            }
        }
        XCTAssertTrue(rolledBack, "a derived trip longer than its day must fail the load")
    }

    /// Fixtures/geotab/trip-longer-than-day.json: device b1's LogRecords move 300 m a minute due
    /// north from 12:00 to 12:10 (Python haversine over the 11 fixes, R = 6,371,008.8 m: 3,000.0 m,
    /// the day's GPS path), and its Geotab Trip of that day says 20.0 km. The vendor's trip is
    /// not judged at import (its day may be partly loaded: the rest of the LogRecords in a later
    /// file); `verify` names it.
    func testAVendorTripIsLeftToVerify() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("geotab/trip-longer-than-day.json"))
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        let result = try Verifier(checks: [TripDayTotalsCheck()]).run(t.warehouse, context: VerifyContext())
        XCTAssertEqual(result.failures, 1)
        XCTAssertTrue(result.checks.first?.listed.first?.what.contains("more than the day's GPS path of 3000") ?? false, "\(result.checks)")
    }
}
