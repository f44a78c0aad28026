import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// Shapes Deere's own published examples use that the first importer refused (issue 16), one
/// fixture each, written from the published formats.
final class DeereRealShapesTests: XCTestCase {
    /// Deere's breadcrumbs example sends `machineState.rawState` as a number: the breadcrumb's
    /// fix and fuel level load, the code is counted, nothing is rejected.
    func testNumericRawStateDoesNotRejectTheBreadcrumb() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("deere/breadcrumbs-numeric-state.json"))
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(o.rejected, 0)
        XCTAssertEqual(try t.count("position"), 2)
        XCTAssertEqual(try t.count("meter_reading", where: "meter = 'fuel_level'"), 2)
        XCTAssertEqual(try DeereImporterTests.events(t).map { $0.split(separator: " ").dropFirst().joined(separator: " ") },
                       ["2026-10-02T09:05:00Z idle"])
        XCTAssertTrue(o.notes?.contains { $0.contains("numeric code (rawState)") } == true, "\(o.notes ?? [])")
    }

    /// A single-record response puts the equipment in `values` as an object, not a list.
    func testEquipmentWithValuesAsAnObject() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("deere/equipment-values-object.json"))
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(o.rejected, 0)
        XCTAssertEqual(try t.rows("SELECT pin, make, model, year FROM asset").map { "\($0[0] as String) \($0[1] as String) \($0[2] as String) \($0[3] as Int)" },
                       ["1H0S680SCE0766303 JOHN DEERE S680 2014"])
        XCTAssertEqual(try t.rows("SELECT id_type, id_value FROM asset_identifier ORDER BY id_type").map { "\($0[0] as String)=\($0[1] as String)" },
                       ["equipment_id=8812345", "erid=5f0c2a9e-1b7d-4c1e-9a51-2b3c4d5e6f70", "principal_id=7654322", "serial_number=1H0S680SCE0766303"])
    }

    /// A machine whose every record is rejected leaves its rejects and nothing else: no empty
    /// auto-created asset. One good record later creates it.
    func testFullyRejectedMachineLeavesNoAsset() throws {
        let t = try TestWarehouse()
        let o = try t.importFile(fixture("deere/breadcrumbs-all-rejected.json"))
        XCTAssertEqual(o.status, .imported, o.error ?? "")
        XCTAssertEqual(o.rejected, 2)
        XCTAssertEqual(try DeereImporterTests.rejects(t).map { $0.components(separatedBy: " | ").prefix(2).joined(separator: " | ") },
                       ["values[0].eventTimestamp | bad_date", "values[1].point.lat | out_of_range"])
        XCTAssertEqual(try t.count("asset"), 0)
        XCTAssertEqual(try t.count("asset_identifier"), 0)
        // The numeric-state file names another machine and loads: it gets its asset.
        try t.importFile(fixture("deere/breadcrumbs-numeric-state.json"))
        XCTAssertEqual(try t.rows("SELECT id_value FROM asset_identifier WHERE id_type = 'principal_id'").map { $0[0] as String }, ["7654321"])
    }
}
