import XCTest
import GRDB
import FleetKit
import FleetTestSupport

final class AssetsImporterTests: XCTestCase {
    func testGoodFileLoadsEveryField() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("assets/good.csv"))
        XCTAssertEqual(outcome.status, .imported)
        XCTAssertEqual(outcome.format, "assets")
        XCTAssertEqual(outcome.loaded, 2)
        XCTAssertEqual(outcome.rejected, 0)
        let truck = try t.rows("SELECT unit_number, kind, vin, make, model, year, fuel_type, asset_group, cost_center, department, in_service_date, acquisition_cost_minor, currency, target_hours_per_week, auto_created FROM asset WHERE unit_number = 'T-01'")[0]
        XCTAssertEqual(truck[1] as String, "vehicle")
        XCTAssertEqual(truck[2] as String, "1FTFW1E50PFA00001")
        XCTAssertEqual(truck[5] as Int, 2023)
        XCTAssertEqual(truck[6] as String, "petrol")
        XCTAssertEqual(truck[10] as String, "2023-02-01")
        XCTAssertEqual(truck[11] as Int64, 4_850_000)
        XCTAssertEqual(truck[12] as String, "USD")
        XCTAssertEqual(truck[13] as Double, 40)
        XCTAssertEqual(truck[14] as Int, 0)
        let loader = try t.rows("SELECT kind, pin, vin FROM asset WHERE unit_number = 'L-01'")[0]
        XCTAssertEqual(loader[0] as String, "equipment")
        XCTAssertEqual(loader[1] as String, "1DW644KXCKE123456")
        XCTAssertNil(loader[2] as String?)
        XCTAssertEqual(try t.rows("SELECT source, id_type, id_value FROM asset_identifier").map { "\($0[0] as String)/\($0[1] as String)/\($0[2] as String)" },
                       ["samsara/vehicle_id/281474977075801"])
    }

    /// The serial and machine id an ISO 15143-3 feed sends for a machine without a PIN, under
    /// their aliases, kept as written (surrounding spaces trimmed). One serial on two units is
    /// a contradiction, refused on the second row.
    func testISOFeedSerialsAndMachineIDsAreVendorIdentifiers() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("assets/vendor-serials.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [2, 1])
        XCTAssertEqual(try t.rows("SELECT a.unit_number, i.source, i.id_type, i.id_value FROM asset_identifier i JOIN asset a ON a.id = i.asset_id ORDER BY 1")
            .map { "\($0[0] as String) \($0[1] as String)/\($0[2] as String)/\($0[3] as String)" },
                       ["CMP-02 iso15143/serial_number/353114411", "SW-510 iso15143/machine_id/510TS_15075"])
        XCTAssertEqual(try t.rows("SELECT location, reason, message FROM reject").map { "\($0[0] as String) | \($0[1] as String) | \($0[2] as String)" },
                       ["line 4 | identity_conflict | this row names unit GEN-07, but its other identifiers belong to unit CMP-02"])
    }

    /// Tank capacity in litres or US gallons, stored in millilitres; the flex-fuel and two-tank
    /// spellings name the `flex` and `bifuel` fuel types.
    func testTankCapacityAndFuelTypes() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("assets/tank-capacity.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [3, 0])
        let rows = try t.rows("SELECT unit_number, fuel_type, tank_capacity_ml FROM asset ORDER BY unit_number")
        XCTAssertEqual(rows.map { "\($0[0] as String) \($0[1] as String)" }, ["T-01 flex", "T-02 diesel", "T-03 bifuel"])
        XCTAssertEqual(rows[0][2] as Double, 25 * 3785.411784, accuracy: 1e-6)
        XCTAssertEqual(rows[1][2] as Double, 132_000, accuracy: 1e-6)
        XCTAssertNil(rows[2][2] as Double?)
    }

    /// Litres and gallons that disagree (95 L is 25.1 gal, not 30), and a zero capacity, are
    /// rejected row by row; 113.6 L and 30 gal agree within 0.5 % (30 gal = 113.56 L).
    func testTankCapacityThatDisagreesIsRejected() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("assets/tank-capacity-disagree.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 2])
        XCTAssertEqual(try t.rows("SELECT reason FROM reject ORDER BY id").map { $0[0] as String }, ["bad_value", "out_of_range"])
        XCTAssertEqual(try t.rows("SELECT unit_number FROM asset").map { $0[0] as String }, ["T-03"])
    }

    func testImportingTwiceChangesNothing() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("assets/good.csv"))
        let before = try t.factDump()
        let again = try t.importFile(fixture("assets/good.csv"))
        XCTAssertEqual(again.status, .unchanged)
        XCTAssertEqual(try t.factDump(), before)
        XCTAssertEqual(try t.count("source_file"), 1)
        // The same rows in a new file (another export of the same master data) are unchanged rows.
        let copy = try t.write(try String(contentsOf: fixture("assets/good.csv"), encoding: .utf8) + "\n", to: "assets-copy.csv")
        let outcome = try t.importFile(copy)
        XCTAssertEqual(outcome.status, .imported)
        XCTAssertEqual([outcome.loaded, outcome.updated, outcome.unchanged], [0, 0, 2])
        XCTAssertEqual(try t.factDump(), before)
    }

    func testVINWithForbiddenLetterIsRejectedAndTheRestLoads() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("assets/vin-with-i.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        let reject = try t.rows("SELECT location, reason, message, raw FROM reject")[0]
        XCTAssertEqual(reject[0] as String, "line 2")
        XCTAssertEqual(reject[1] as String, "bad_vin")
        XCTAssertTrue((reject[2] as String).contains("never contains the letter I"))
        XCTAssertEqual(reject[3] as String, "T-02,1FTFW1E5IPFA00002,Ford")
        XCTAssertEqual(try t.rows("SELECT unit_number FROM asset").map { $0[0] as String }, ["T-03"])
    }

    func testDuplicateUnitInOneFileKeepsTheFirstRow() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("assets/duplicate-unit.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        let reject = try t.rows("SELECT location, reason, message FROM reject")[0]
        XCTAssertEqual(reject[0] as String, "line 3")
        XCTAssertEqual(reject[1] as String, "duplicate_key")
        XCTAssertEqual(reject[2] as String, "unit T-04 already appears on line 2 of this file; the first row was kept")
        XCTAssertEqual(try t.rows("SELECT vin FROM asset").map { $0[0] as String }, ["1FTFW1E50PFA00004"])
    }

    func testBadNumberAndBadDateRejectOnlyTheirRows() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("assets/bad-number-and-date.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 2])
        let rejects = try t.rows("SELECT location, reason FROM reject ORDER BY id").map { "\($0[0] as String) \($0[1] as String)" }
        XCTAssertEqual(rejects, ["line 2 bad_number", "line 3 bad_date"])
        XCTAssertEqual(try t.rows("SELECT unit_number FROM asset").map { $0[0] as String }, ["T-07"])
    }

    func testUnknownColumnIsANoteNotAReject() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("assets/unknown-column.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 0])
        XCTAssertEqual(outcome.notes, ["columns not part of the assets format, ignored: 'colour'"])
    }

    func testTruncatedFileFailsWholeAndLeavesNothing() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("assets/truncated.csv"))
        XCTAssertEqual(outcome.status, .failed)
        XCTAssertTrue(outcome.error!.contains("unterminated quoted field in record 2"), outcome.error!)
        XCTAssertEqual(try t.count("asset"), 0)
        XCTAssertEqual(try t.count("source_file"), 0)
    }

    func testEmptyFileFails() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("assets/empty.csv"))
        XCTAssertEqual(outcome.status, .failed)
        XCTAssertEqual(outcome.error, FleetError.emptyFile(file: fixture("assets/empty.csv").path).description)
    }

    func testCommaDecimalsInSemicolonFile() throws {
        let t = try TestWarehouse()
        let url = try t.write("unit_number;vin;make;acquisition_cost;currency\nT-20;WVWZZZ1KZAW000001;VW;\"48.500,00\";EUR\nT-21;WVWZZZ1KZAW000002;VW;1.250;EUR\n", to: "assets-eu.csv")
        XCTAssertEqual(try t.importFile(url).loaded, 2)
        XCTAssertEqual(try t.rows("SELECT acquisition_cost_minor FROM asset ORDER BY unit_number").map { $0[0] as Int64 }, [4_850_000, 125_000])
    }
}
