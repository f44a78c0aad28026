import XCTest
import GRDB
import FleetCore
import FleetTestSupport
@testable import FleetWarehouse

final class LoaderTests: XCTestCase {
    private func withFile(_ t: TestWarehouse, _ body: (inout WarehouseSink) throws -> Void) throws {
        try t.warehouse.pool.write { db in
            let file = try SourceFile.insertedForTest(db)
            var sink = WarehouseSink(db: db, sourceFileID: file.id!)
            try body(&sink)
        }
    }

    func testInsertUpdateUnchanged() throws {
        let t = try TestWarehouse()
        try withFile(t) { sink in
            let asset = try sink.asset(AssetRef(unitNumber: "T-1"))
            let r = MeterReading(assetID: asset, meter: "odometer", at: 1000, value: 5, sourceFileID: sink.sourceFileID)
            XCTAssertEqual(try sink.load(r), .inserted)
            XCTAssertEqual(try sink.load(r), .unchanged)
            var changed = r
            changed.value = 6
            XCTAssertEqual(try sink.load(changed), .updated)
            XCTAssertEqual(sink.counts, LoadCounts(loaded: 1, updated: 1, unchanged: 1))
        }
        XCTAssertEqual(try t.rows("SELECT value FROM meter_reading").map { $0[0] as Double }, [6])
    }

    /// The same row from another file is unchanged: provenance alone is not a change.
    func testSameValuesFromAnotherFileAreUnchanged() throws {
        let t = try TestWarehouse()
        var asset: Int64 = 0
        try withFile(t) { sink in
            asset = try sink.asset(AssetRef(unitNumber: "T-1"))
            try sink.load(Position(assetID: asset, at: 1, lat: 1, lon: 2, sourceFileID: sink.sourceFileID))
        }
        try withFile(t) { sink in
            XCTAssertEqual(try sink.load(Position(assetID: asset, at: 1, lat: 1, lon: 2, sourceFileID: sink.sourceFileID)), .unchanged)
        }
    }

    /// Later state wins whatever the import order: an older export cannot undo a resolution.
    func testPrecedenceKeepsTheLaterState() throws {
        let t = try TestWarehouse()
        try withFile(t) { sink in
            let asset = try sink.asset(AssetRef(unitNumber: "T-1"))
            let resolved = DVIR(sourceKey: "dvir:1", assetID: asset, type: "pre_trip", signedAt: 100, safetyStatus: "resolved", stateAt: 500, sourceFileID: sink.sourceFileID)
            XCTAssertEqual(try sink.load(resolved), .inserted)
            var older = resolved
            older.safetyStatus = "unsafe"
            older.stateAt = 200
            XCTAssertEqual(try sink.load(older), .unchanged)
            var newer = resolved
            newer.mechanicNotes = "replaced bulb"
            newer.stateAt = 600
            XCTAssertEqual(try sink.load(newer), .updated)
            XCTAssertNotNil(try sink.id(of: newer))
        }
        let row = try t.rows("SELECT safety_status, mechanic_notes FROM dvir")[0]
        XCTAssertEqual(row[0] as String, "resolved")
        XCTAssertEqual(row[1] as String, "replaced bulb")
    }

    func testRowSavepointUndoesAFailedRow() throws {
        let t = try TestWarehouse()
        try withFile(t) { sink in
            XCTAssertThrowsError(try sink.atomically { sink in
                _ = try sink.asset(AssetRef(unitNumber: "GHOST"))
                throw RowError(.badValue, "fails after creating an asset")
            })
            XCTAssertEqual(sink.counts, LoadCounts())
            _ = try sink.asset(AssetRef(unitNumber: "T-2"))
        }
        XCTAssertEqual(try t.rows("SELECT unit_number FROM asset").map { $0[0] as String }, ["T-2"])
    }
}
