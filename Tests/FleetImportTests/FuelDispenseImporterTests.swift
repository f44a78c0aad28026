import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// `fuel-dispense`: each rule that rejects a row fires on a fixture, and the good file loads
/// every field (expected values read from the fixtures by hand: 95 gal × 3,785.411784 mL).
final class FuelDispenseImporterTests: XCTestCase {
    func testGoodFileLoadsEveryField() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("fuel-dispense/good.csv"))
        XCTAssertEqual(outcome.format, "fuel-dispense")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [3, 0])
        let rows = try t.rows("""
            SELECT d.source_key, d.tank, a.unit_number, d.volume_ml, d.engine_s, d.odometer_m, d.product, d.cost_state
            FROM fuel_dispense d JOIN asset a ON a.id = d.asset_id ORDER BY d.at
            """).map { r -> String in
            [r[0] as String, r[1] as String, r[2] as String, String(format: "%.4f", r[3] as Double), (r[4] as Double?).map { String(format: "%.0f", $0) } ?? "nil",
             (r[5] as Double?).map { String(format: "%.3f", $0) } ?? "nil", r[6] as String? ?? "nil", r[7] as String].joined(separator: " | ")
        }
        XCTAssertEqual(rows, [
            "id:YARD-D1|D-1 | YARD-D1 | L-01 | 210500.0000 | 16244100 | nil | Diesel #2 | unknown_tank",
            "id:YARD-D1|D-2 | YARD-D1 | L-02 | 359614.1195 | 11881800 | nil | Diesel #2 | unknown_tank",
            "id:YARD-D1|D-3 | YARD-D1 | T-09 | 151416.4714 | nil | 193845484.800 | Diesel #2 | unknown_tank",
        ])
    }

    func testReimportIsANoOpAndACorrectedReExportRestates() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("fuel-dispense/no-id.csv"))
        let before = try t.factDump(tables: ["fuel_dispense"])
        XCTAssertEqual(try t.importFile(fixture("fuel-dispense/no-id.csv")).status, .unchanged)
        // Without an id the key is time, tank and asset: a corrected volume updates the dispense.
        let fixed = try t.write("date,time,tank,unit_number,litres\n2026-10-01,18:05:00,yard-d1,L-01,200.0\n", to: "fixed.csv")
        let outcome = try t.importFile(fixed)
        XCTAssertEqual([outcome.loaded, outcome.updated], [0, 1])
        XCTAssertEqual(try t.count("fuel_dispense"), 2)
        XCTAssertNotEqual(try t.factDump(tables: ["fuel_dispense"]), before)
        XCTAssertEqual(try t.rows("SELECT volume_ml FROM fuel_dispense WHERE source_key = 'row:2026-10-01T18:05:00Z|YARD-D1|L-01'").map { $0[0] as Double }, [200_000])
    }

    func testBadVolumesAreRejectedWithReasonAndRawText() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("fuel-dispense/bad-volume.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 4])
        let rejects = try t.rows("SELECT location, reason, raw FROM reject ORDER BY id").map { "\($0[0] as String) \($0[1] as String) \($0[2] as String)" }
        XCTAssertEqual(rejects, [
            "line 2 out_of_range D-1,2026-10-01,18:05:00,YARD-D1,L-01,0",
            "line 3 out_of_range D-2,2026-10-01,18:06:00,YARD-D1,L-02,-12.5",
            "line 4 bad_number D-3,2026-10-01,18:07:00,YARD-D1,L-03,lots",
            "line 5 out_of_range D-4,2026-10-01,18:08:00,YARD-D1,L-04,250000",
        ])
    }

    func testAQuantityWithoutAUnitIsNotGuessed() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("fuel-dispense/missing-unit.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        XCTAssertEqual(try t.rows("SELECT reason FROM reject").map { $0[0] as String }, ["missing_field"])
    }

    func testARowWithoutTankOrAssetIsRejected() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("fuel-dispense/missing-tank.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 2])
        let messages = try t.rows("SELECT message FROM reject ORDER BY id").map { $0[0] as String }
        XCTAssertTrue(messages[0].contains("'tank' is empty"), messages[0])
        XCTAssertTrue(messages[1].contains("names no asset"), messages[1])
    }

    func testTheSameTankAssetAndTimeTwiceInOneFileIsADuplicate() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("fuel-dispense/duplicate.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        XCTAssertEqual(try t.rows("SELECT reason FROM reject").map { $0[0] as String }, ["duplicate_key"])
    }

    func testALongTankIDIsRejected() throws {
        let t = try TestWarehouse()
        let url = try t.write("date,tank,unit_number,litres\n2026-10-01,\(String(repeating: "T", count: 65)),L-01,10\n2026-10-01,T1,L-01,10\n", to: "long.csv")
        let outcome = try t.importFile(url)
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        XCTAssertEqual(try t.rows("SELECT reason FROM reject").map { $0[0] as String }, ["bad_value"])
    }

    func testDetection() throws {
        let head = Data("date,tank,unit_number,litres\n".utf8)
        XCTAssertEqual(ImporterRegistry.detect(head, filename: "pump.csv").map { $0.format }, "fuel-dispense")
        let delivery = Data("date,tank,litres,cost\n".utf8)
        XCTAssertEqual(ImporterRegistry.detect(delivery, filename: "tank.csv").map { $0.format }, "fuel-delivery")
        let dips = Data("kind,date,tank,gallons\n".utf8)
        XCTAssertEqual(ImporterRegistry.detect(dips, filename: "dips.csv").map { $0.format }, "fuel-delivery")
    }
}
