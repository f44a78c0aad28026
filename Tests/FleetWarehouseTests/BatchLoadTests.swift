import XCTest
import GRDB
import FleetCore
import FleetTestSupport
@testable import FleetWarehouse

/// `WarehouseSink.load(contentsOf:)` (multi-row INSERTs) must store and count exactly what
/// row-by-row `load` does, conflicts included: each scenario runs both ways and compares.
final class BatchLoadTests: XCTestCase {
    private struct Result: Equatable {
        var counts: [LoadCounts] = []
        var touched: [TouchedTimeline] = []
        var rows: [String] = []
    }

    /// Loads each list of positions as one file, batched or row by row; returns what the
    /// sinks counted and touched, and the stored rows.
    private func run(_ files: [[Position]], batched: Bool) throws -> Result {
        let t = try TestWarehouse()
        var result = Result()
        for positions in files {
            try t.warehouse.pool.write { db in
                let file = try SourceFile.insertedForTest(db)
                var sink = WarehouseSink(db: db, sourceFileID: file.id!)
                let asset = try sink.asset(AssetRef(unitNumber: "T-1"))
                XCTAssertEqual(asset, 1)
                let rows = positions.map { p -> Position in var p = p; p.sourceFileID = file.id!; return p }
                if batched { try sink.load(contentsOf: rows) } else { for r in rows { try sink.load(r) } }
                result.counts.append(sink.counts)
                result.touched.append(sink.touched)
            }
        }
        result.rows = try t.rows("SELECT asset_id, at, lat, lon, speed_mps, heading_deg, alt_m, source_file_id FROM position ORDER BY asset_id, at")
            .map { "\($0)" }
        return result
    }

    private func point(_ at: Int64, lat: Double = 41.5, speed: Double? = 3.25) -> Position {
        Position(assetID: 1, at: at, lat: lat, lon: -87.25, speedMps: speed, headingDeg: 90, altM: nil, sourceFileID: 0)
    }

    func testNewPointsInsertInBatchesWithATail() throws {
        let file = (0..<200).map { point(Int64(1_000 + $0 * 1_000), lat: 41 + Double($0) / 1_000) }
        let batched = try run([file], batched: true)
        XCTAssertEqual(batched, try run([file], batched: false))
        XCTAssertEqual(batched.counts, [LoadCounts(loaded: 200)])
        XCTAssertEqual(batched.touched[0].ranges, [1: 1_000...200_000])
        XCTAssertEqual(batched.rows.count, 200)
        XCTAssertEqual(batched.rows[199], "[asset_id:1 at:200000 lat:41.199 lon:-87.25 speed_mps:3.25 heading_deg:90.0 alt_m:NULL source_file_id:1]")
    }

    /// A second file overlapping the first: identical rows are unchanged, changed ones updated,
    /// duplicates inside one batch count as an insert then an update, and batches after the
    /// overlap insert again; every count matches the row-by-row path.
    func testConflictingBatchesFallBackToExactCounts() throws {
        let first = (0..<100).map { point(Int64($0)) }
        var second = (50..<150).map { point(Int64($0)) }                 // 50 unchanged, 50 new
        second[10].lat = 42                                                // at 60: updated
        second += [point(160), point(160, lat: 43), point(161, speed: nil)]  // duplicate inside the file
        second += (1_000..<1_700).map { point(Int64($0)) }                  // 700 new after the overlap
        let batched = try run([first, second], batched: true)
        let rowByRow = try run([first, second], batched: false)
        XCTAssertEqual(batched, rowByRow)
        XCTAssertEqual(batched.counts, [LoadCounts(loaded: 100), LoadCounts(loaded: 752, updated: 2, unchanged: 49)])
        XCTAssertEqual(batched.touched[1].ranges, [1: 60...1_699])
        XCTAssertEqual(batched.rows.count, 852)
    }

    /// A row that breaks a foreign key fails as it does row by row: the undone batch leaves
    /// exactly the rows before it (loaded one by one) and the same error. OBD samples, since
    /// `position` declares no foreign keys (migration v4).
    func testForeignKeyFailureThrowsLikeRowByRow() throws {
        var file = (0..<64).map { ObdSample(assetID: 1, at: Int64($0) * 1000, pid: 13, value: Double($0), sourceFileID: 0) }
        file[40].assetID = 99
        for batched in [true, false] {
            let t = try TestWarehouse()
            try t.warehouse.pool.write { db in
                let source = try SourceFile.insertedForTest(db)
                var sink = WarehouseSink(db: db, sourceFileID: source.id!)
                _ = try sink.asset(AssetRef(unitNumber: "T-1"))
                let rows = file.map { p -> ObdSample in var p = p; p.sourceFileID = source.id!; return p }
                XCTAssertThrowsError(try { if batched { try sink.load(contentsOf: rows) } else { for r in rows { try sink.load(r) } } }()) { error in
                    XCTAssertEqual((error as? DatabaseError)?.extendedResultCode, .SQLITE_CONSTRAINT_FOREIGNKEY)
                }
                XCTAssertEqual(sink.counts, LoadCounts(loaded: 40))
                XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM obd_sample"), 40)
            }
        }
    }
}
