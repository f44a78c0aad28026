import XCTest
import GRDB
import FleetCore
import FleetTestSupport
@testable import FleetWarehouse

final class IdentityResolverTests: XCTestCase {
    private func withFile(_ t: TestWarehouse, _ body: (inout WarehouseSink) throws -> Void) throws {
        try t.warehouse.pool.write { db in
            let file = try SourceFile.insertedForTest(db)
            var sink = WarehouseSink(db: db, sourceFileID: file.id!)
            try body(&sink)
        }
    }

    let samsara = AssetRef.Identifier(source: "samsara", type: "vehicle_id", value: "281474977075801")
    let vin = "1FTFW1E50PFA00001"

    func testVendorIdThenVINAreOneAssetAfterMasterDataLinksThem() throws {
        let t = try TestWarehouse()
        try withFile(t) { sink in
            let bySamsara = try sink.asset(AssetRef(identifiers: [samsara], name: "Truck 1"))
            let byVIN = try sink.asset(AssetRef(vin: vin))
            XCTAssertNotEqual(bySamsara, byVIN)
            try sink.load(MeterReading(assetID: bySamsara, meter: "odometer", at: 1, value: 10, sourceFileID: sink.sourceFileID))
            try sink.load(MeterReading(assetID: byVIN, meter: "odometer", at: 2, value: 20, sourceFileID: sink.sourceFileID))
            // Master data: unit T-01 is both.
            _ = try sink.defineAsset(AssetRef(identifiers: [samsara], vin: vin, unitNumber: "T-01"),
                                     fields: Asset(unitNumber: "T-01", kind: "vehicle", make: "Ford", autoCreated: false))
        }
        let assets = try t.rows("SELECT unit_number, vin, name, make, auto_created FROM asset")
        XCTAssertEqual(assets.count, 1)
        XCTAssertEqual(assets[0][0] as String, "T-01")
        XCTAssertEqual(assets[0][1] as String, vin)
        XCTAssertEqual(assets[0][2] as String, "Truck 1")
        XCTAssertEqual(assets[0][4] as Int, 0)
        XCTAssertEqual(try t.count("meter_reading"), 2)
        XCTAssertEqual(try t.count("asset_identifier"), 1)
    }

    func testConflictingVINsAreNotMerged() throws {
        let t = try TestWarehouse()
        try withFile(t) { sink in
            _ = try sink.asset(AssetRef(vin: vin, unitNumber: "T-01"))
            _ = try sink.asset(AssetRef(vin: "1FTFW1E50PFA00002", unitNumber: "T-02"))
            XCTAssertThrowsError(try sink.atomically { sink in
                _ = try sink.asset(AssetRef(vin: vin, unitNumber: "T-02"))
            }) { error in
                XCTAssertEqual((error as? RowError)?.reason, .identityConflict)
            }
        }
        XCTAssertEqual(try t.count("asset"), 2)
    }

    func testNamesAreNeverMatched() throws {
        let t = try TestWarehouse()
        try withFile(t) { sink in
            let a = try sink.asset(AssetRef(identifiers: [samsara], name: "Truck 1"))
            let b = try sink.asset(AssetRef(identifiers: [.init(source: "samsara", type: "vehicle_id", value: "2")], name: "Truck 1"))
            XCTAssertNotEqual(a, b)
        }
    }

    func testUnknownUnitIsAutoCreatedAndMasterDataAdoptsIt() throws {
        let t = try TestWarehouse()
        try withFile(t) { sink in
            let id = try sink.asset(AssetRef(unitNumber: "T-99"))
            XCTAssertEqual(try sink.defineAsset(AssetRef(unitNumber: "T-99"), fields: Asset(unitNumber: "T-99", kind: "vehicle", autoCreated: false)), .updated)
            XCTAssertEqual(try sink.asset(AssetRef(unitNumber: "T-99")), id)
        }
        XCTAssertEqual(try t.count("asset", where: "auto_created = 0"), 1)
    }
}
