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

    /// The per-file cache is bounded (`IdentityResolver.cacheLimit`) and emptied when full: refs
    /// resolved before that still find their asset (by lookup), none is created twice.
    func testRefsPastTheCacheLimitStillResolveToTheirAsset() throws {
        let t = try TestWarehouse()
        let n = IdentityResolver.cacheLimit + 50
        try withFile(t) { sink in
            var ids: [Int64] = []
            for i in 0..<n {
                ids.append(try sink.asset(AssetRef(identifiers: [.init(source: "samsara", type: "vehicle_id", value: "v\(i)")])))
            }
            for i in [0, 1, n / 2, n - 1] {
                XCTAssertEqual(try sink.asset(AssetRef(identifiers: [.init(source: "samsara", type: "vehicle_id", value: "v\(i)")])), ids[i])
            }
        }
        XCTAssertEqual(try t.count("asset"), n)
        XCTAssertEqual(try t.count("asset_identifier"), n)
    }

    /// Master data writes every column of the asset (a cached UPDATE, not GRDB's record update):
    /// what is read back is what was defined, and a second identical definition is unchanged.
    func testDefineAssetStoresEveryField() throws {
        let t = try TestWarehouse()
        let fields = Asset(unitNumber: "T-01", kind: "trailer", name: "Reefer 1", vin: vin, pin: nil, make: "Utility", model: "3000R",
                           year: 2021, fuelType: "diesel", licensePlate: "ABC 123", costCenter: "CC-1", department: "Cold chain",
                           assetGroup: "Reefers", inServiceDate: "2021-03-01", retiredDate: "2026-01-31", acquisitionCostMinor: 4_500_000,
                           currency: "USD", targetHoursPerWeek: 37.5, autoCreated: false)
        var outcomes: [LoadOutcome] = []
        var fileID: Int64 = 0
        try withFile(t) { sink in
            _ = try sink.asset(AssetRef(identifiers: [samsara], name: "Truck 1"))
            outcomes.append(try sink.defineAsset(AssetRef(identifiers: [samsara], vin: vin, unitNumber: "T-01"), fields: fields))
            outcomes.append(try sink.defineAsset(AssetRef(identifiers: [samsara], vin: vin, unitNumber: "T-01"), fields: fields))
            fileID = sink.sourceFileID
        }
        XCTAssertEqual(outcomes, [.updated, .unchanged])
        let stored = try t.warehouse.pool.read { try Asset.fetchOne($0, sql: "SELECT * FROM asset") }
        var expected = fields
        expected.id = stored?.id
        expected.sourceFileID = fileID
        XCTAssertEqual(stored, expected)
    }
}
