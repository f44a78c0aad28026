import XCTest
import GRDB
import FleetCore
import FleetTestSupport
@testable import FleetWarehouse

/// The one asset lookup: each kind of identifier finds its asset, in the trust order (VIN, PIN,
/// vendor id, unit number), and the reports' `--assets` filter reads the same unit numbers.
final class AssetLookupTests: XCTestCase {
    private let vin = "1FUJGLDR9CLBP8834"

    /// Four assets, each known by one kind of identifier (ids 1 to 4), and a feed's VIN label.
    private func stored(_ body: (Database) throws -> Void) throws {
        let t = try TestWarehouse()
        try t.warehouse.pool.write { db in
            try db.execute(sql: """
                INSERT INTO asset (id, unit_number, kind, vin, pin) VALUES
                    (1, NULL, 'vehicle', ?, NULL), (2, NULL, 'equipment', NULL, '1T0310SKJLF123456'),
                    (3, NULL, 'vehicle', NULL, NULL), (4, 'T-104', 'vehicle', NULL, NULL), (5, NULL, 'equipment', NULL, NULL)
                """, arguments: [vin])
            try db.execute(sql: """
                INSERT INTO asset_identifier (asset_id, source, id_type, id_value) VALUES
                    (3, 'samsara', 'vehicle_id', '281474976710656'), (5, 'iso15143', 'vin_label', 'JDLABEL0000000001')
                """)
            try body(db)
        }
    }

    func testEachIdentifierFindsItsAsset() throws {
        try stored { db in
            let lookup = AssetLookup(db)
            XCTAssertEqual(try lookup.first(AssetRef(vin: vin)), 1)
            XCTAssertEqual(try lookup.first(AssetRef(pin: "1T0310SKJLF123456")), 2)
            XCTAssertEqual(try lookup.first(AssetRef(identifiers: [.init(source: "samsara", type: "vehicle_id", value: "281474976710656")])), 3)
            XCTAssertEqual(try lookup.first(AssetRef(unitNumber: "T-104")), 4)
            // A VIN a feed used as its label before anyone knew the VIN.
            XCTAssertEqual(try lookup.first(AssetRef(vin: "JDLABEL0000000001")), 5)
            XCTAssertNil(try lookup.first(AssetRef(unitNumber: "T-999")))
            XCTAssertNil(try lookup.first(AssetRef(name: "T-104")), "names are never matched")
            XCTAssertNil(try lookup.first(AssetRef(unitNumber: "T-104\u{7}")), "a ref with a control character finds nothing")
        }
    }

    /// A ref naming several assets: `first` takes the most trusted; `all` lists each, in trust
    /// order, for identity resolution to merge.
    func testTrustOrderAndEveryMatch() throws {
        try stored { db in
            let lookup = AssetLookup(db)
            let ref = AssetRef(identifiers: [.init(source: "samsara", type: "vehicle_id", value: "281474976710656")], vin: vin,
                               pin: "1T0310SKJLF123456", unitNumber: "T-104")
            XCTAssertEqual(try lookup.first(ref), 1)
            XCTAssertEqual(try lookup.all(ref), [1, 2, 3, 4])
            XCTAssertEqual(try lookup.first(AssetRef(identifiers: [.init(source: "samsara", type: "vehicle_id", value: "281474976710656")],
                                                     unitNumber: "T-104")), 3)
            // An ISO feed's VIN-shaped label meets an asset's VIN only when resolving (merge evidence).
            let label = AssetRef(identifiers: [.init(source: "iso15143", type: "vin_label", value: vin)])
            XCTAssertEqual(try lookup.all(label), [1])
            XCTAssertNil(try lookup.first(label))
        }
    }

    func testUnitNumbersAndTheReportFilter() throws {
        try stored { db in
            try db.execute(sql: "INSERT INTO asset (id, unit_number, kind) VALUES (6, 'A-1', 'trailer')")
            XCTAssertEqual(try AssetLookup(db).unitNumbers(), ["A-1", "T-104"])
            let filter = AssetLookup.unitFilter(["T-104", "A-1"], alias: "x")
            XCTAssertEqual(filter.sql, "x.unit_number IN (?,?)")
            XCTAssertEqual(try Int64.fetchAll(db, sql: "SELECT id FROM asset x WHERE \(filter.sql) ORDER BY id", arguments: StatementArguments(filter.arguments)),
                           [4, 6])
            XCTAssertEqual(AssetLookup.unitFilter(nil).sql, "1 = 1")
            XCTAssertEqual(AssetLookup.unitFilter([]).sql, "1 = 1")
        }
    }
}
