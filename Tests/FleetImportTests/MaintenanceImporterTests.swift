import XCTest
import GRDB
@testable import FleetImport
import FleetKit
import FleetTestSupport

final class MaintenanceImporterTests: XCTestCase {
    static let records = "SELECT m.source_key, a.unit_number, m.service_type, m.performed_at, m.odometer_m, m.engine_s, m.cost_minor, m.currency, m.vendor, m.work_order, m.notes FROM maintenance_record m JOIN asset a ON a.id = m.asset_id ORDER BY m.source_key"

    func testGoodFileLoadsRecordsInSIAndMinorUnits() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("maintenance/good.csv"))
        XCTAssertEqual(outcome.status, .imported)
        XCTAssertEqual(outcome.format, "maintenance")
        XCTAssertEqual([outcome.loaded, outcome.updated, outcome.unchanged, outcome.rejected], [4, 0, 0, 0])
        let odometer = 48_210 * Units.metresPerMile
        XCTAssertEqual(try lines(t, Self.records), [
            // No work order: keyed by unit, service and local day.
            "unit:T-07|brake_inspection|2026-10-08|T-07|brake_inspection|1791417600000|77250000.0|NULL|31050|EUR|Garage Müller|NULL|NULL",
            // One work order, two services: two records.
            "wo:WO-1001|oil_change|T-01|oil_change|1790985600000|\(odometer)|NULL|8995|USD|Quick Lube Austin|WO-1001|5W-30 synthetic",
            "wo:WO-1001|tire_rotation|T-01|tire_rotation|1790985600000|\(odometer)|NULL|2500|USD|Quick Lube Austin|WO-1001|NULL",
            // 2150.5 engine hours; 14:30-05:00 is 19:30Z.
            "wo:WO-1002|hydraulic_filter|L-01|hydraulic_filter|1791228600000|NULL|7741800.0|124000|USD|River Valley Deere|WO-1002|Replaced return filter",
        ])
    }

    func testRowsWithoutCurrencyUseTheBaseCurrency() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("maintenance/good.csv"), options: ImportOptions(currency: "CAD"))
        XCTAssertEqual(try lines(t, "SELECT currency, SUM(cost_minor) FROM maintenance_record GROUP BY currency ORDER BY currency"),
                       ["CAD|135495", "EUR|31050"])
    }

    func testUnitAndMileColumnsAreBothReadAsMetres() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("maintenance/odometer-columns.csv"), options: ImportOptions(format: "maintenance"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [2, 0])
        XCTAssertEqual(try lines(t, "SELECT source_key, odometer_m FROM maintenance_record ORDER BY source_key"), [
            "unit:T-01|air_filter|2026-09-28|\(48_000 * Units.metresPerMile)",
            "unit:T-07|cabin_filter|2026-09-28|77000000.0",
        ])
    }

    func testImportingTwiceChangesNothing() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("maintenance/good.csv"))
        let before = try t.factDump()
        let again = try t.importFile(fixture("maintenance/good.csv"))
        XCTAssertEqual(again.status, .unchanged)
        XCTAssertEqual(try t.factDump(), before)
        XCTAssertEqual(try t.count("source_file"), 1)
    }

    func testOverlappingReExportUpdatesTheChangedRecordInPlace() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("maintenance/good.csv"))
        let outcome = try t.importFile(fixture("maintenance/reexport.csv"))
        XCTAssertEqual([outcome.loaded, outcome.updated, outcome.unchanged, outcome.rejected], [0, 1, 2, 0])
        XCTAssertEqual(try t.count("maintenance_record"), 4)
        XCTAssertEqual(try lines(t, "SELECT cost_minor FROM maintenance_record WHERE source_key = 'wo:WO-1001|tire_rotation'"), ["3000"])
    }

    func testUnknownUnitIsAutoCreatedAndTheAssetListLaterAdoptsIt() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("maintenance/good.csv"))
        XCTAssertEqual(try lines(t, "SELECT unit_number, auto_created FROM asset ORDER BY unit_number"), ["L-01|1", "T-01|1", "T-07|1"])
        let ids = try lines(t, "SELECT unit_number, id FROM asset ORDER BY unit_number")
        try t.importFile(fixture("assets/good.csv"))
        XCTAssertEqual(try lines(t, "SELECT unit_number, id FROM asset ORDER BY unit_number"), ids, "the same assets, not new ones")
        XCTAssertEqual(try lines(t, "SELECT unit_number, vin, auto_created FROM asset ORDER BY unit_number"),
                       ["L-01|NULL|0", "T-01|1FTFW1E50PFA00001|0", "T-07|NULL|1"])
        XCTAssertEqual(try lines(t, "SELECT DISTINCT a.unit_number FROM maintenance_record m JOIN asset a ON a.id = m.asset_id ORDER BY 1"),
                       ["L-01", "T-01", "T-07"])

        let assetsFirst = try TestWarehouse()
        try assetsFirst.importFile(fixture("assets/good.csv"))
        try assetsFirst.importFile(fixture("maintenance/good.csv"))
        XCTAssertEqual(try assetsFirst.factDump(), try t.factDump(), "import order does not change the warehouse")
    }

    func testOpenAndCancelledWorkOrdersAreRejectedNotCounted() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("maintenance/not-completed.csv"), options: ImportOptions(format: "maintenance"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 2])
        XCTAssertEqual(try rejects(t), [
            "line 2|bad_value|'status' is 'Scheduled': only completed services are maintenance records; import the row again once the work is completed|T-01,Oil Change,2026-11-03,Scheduled",
            "line 3|bad_value|'status' is 'Cancelled': only completed services are maintenance records; a cancelled work order was not performed; leave it out of the export|T-01,Brake Pads,2026-10-20,Cancelled",
        ])
        XCTAssertEqual(try t.count("asset"), 0)
    }

    func testBadDateIsRejected() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("maintenance/bad-date.csv"), options: ImportOptions(format: "maintenance"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 1])
        XCTAssertEqual(try rejects(t), ["line 2|bad_date|'performed_at' is '10/03/2026'; write times as ISO 8601, e.g. 2026-10-01T14:30:00-05:00 (no offset means the fleet time zone, \(FleetZone.utc.identifier))|T-01,Oil Change,10/03/2026,89.95"])
    }

    func testBadNumbersAreRejected() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("maintenance/bad-number.csv"), options: ImportOptions(format: "maintenance"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 2])
        XCTAssertEqual(try rejects(t), [
            "line 2|bad_number|'odometer_km': '48k' is not a number|T-01,Oil Change,2026-10-03,48k,89.95",
            "line 3|bad_number|'cost': '19.999' has more decimals than USD allows (2)|T-01,Air Filter,2026-10-03,77000,19.999",
        ])
    }

    func testDuplicateWorkOrderLineKeepsTheFirstRow() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("maintenance/duplicate-work-order.csv"), options: ImportOptions(format: "maintenance"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        XCTAssertEqual(try rejects(t), ["line 3|duplicate_key|oil_change on work order WO-2001 already appears on line 2 of this file; the first row was kept|T-01,oil change,2026-10-04,WO-2001,91.00"])
        XCTAssertEqual(try lines(t, "SELECT cost_minor FROM maintenance_record"), ["8995"])
    }

    func testOdometerWithoutAUnitIsNotGuessed() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("maintenance/no-odometer-unit.csv"), options: ImportOptions(format: "maintenance"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 1])
        XCTAssertEqual(try rejects(t), ["line 2|missing_field|'odometer' is 48210 but no unit is given, and km and miles are not guessed: add a column 'odometer_unit' (km or mi), or give the distance in column 'odometer_km' or 'odometer_mi' instead|T-01,Oil Change,2026-10-03,48210"])
    }

    func testTwoOdometerColumnsOnOneRowAreRejected() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("maintenance/two-odometers.csv"), options: ImportOptions(format: "maintenance"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 1])
        XCTAssertEqual(try rejects(t), ["line 2|bad_value|'odometer_km' and 'odometer_mi' both hold a distance; keep one so it is clear which is meant|T-01,Oil Change,2026-10-03,77586,48210"])
    }

    func testOdometerInHoursIsRejected() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("maintenance/bad-odometer-unit.csv"), options: ImportOptions(format: "maintenance"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 1])
        XCTAssertEqual(try rejects(t), ["line 2|bad_value|'odometer_unit' is 'hr'; expected km, mi or m (engine hours have their own column)|L-01,Engine Oil,2026-10-03,2150,hr"])
    }

    func testRowNamingNoAssetIsRejected() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("maintenance/no-asset.csv"), options: ImportOptions(format: "maintenance"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 1])
        XCTAssertEqual(try rejects(t), ["line 2|missing_field|the row names no asset: fill 'unit_number' (or 'vin')|,,Oil Change,2026-10-03"])
    }

    func testMissingRequiredColumnFailsTheWholeFileAndLeavesNothing() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("maintenance/missing-column.csv"), options: ImportOptions(format: "maintenance"))
        XCTAssertEqual(outcome.status, .failed)
        let error = try XCTUnwrap(outcome.error)
        XCTAssertTrue(error.contains("the maintenance header lacks required column(s): service_type / service / service_task"), error)
        XCTAssertEqual(try t.count("source_file"), 0)
    }

    func testUnknownColumnIsANoteNotAReject() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("maintenance/unknown-column.csv"), options: ImportOptions(format: "maintenance"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 0])
        XCTAssertEqual(outcome.notes, ["columns not part of the maintenance format, ignored: 'technician'"])
    }

    func testServiceTypesBecomeSnakeCaseKeys() {
        XCTAssertEqual(MaintenanceImporter.normaliseServiceType("Oil Change"), "oil_change")
        XCTAssertEqual(MaintenanceImporter.normaliseServiceType("  OIL-CHANGE "), "oil_change")
        XCTAssertEqual(MaintenanceImporter.normaliseServiceType("A/C Service"), "a_c_service")
        XCTAssertEqual(MaintenanceImporter.normaliseServiceType("PM-A (250 h)"), "pm_a_250_h")
        XCTAssertEqual(MaintenanceImporter.normaliseServiceType("Ölwechsel"), "ölwechsel")
        XCTAssertEqual(MaintenanceImporter.normaliseServiceType("--"), "")
    }

    func testDetectionClaimsServiceHistoryOnly() throws {
        for name in ["good.csv", "reexport.csv"] {
            let head = try Data(contentsOf: fixture("maintenance/" + name))
            XCTAssertEqual(ImporterRegistry.detect(head, filename: "export.csv")?.format, "maintenance", name)
            XCTAssertEqual(ImporterRegistry.detect(head, filename: "maintenance-2026-10.csv")?.format, "maintenance", name)
        }
        for other in ["assets/good.csv", "drivers/good.csv", "assignments/good.csv", "service-schedules/good.csv"] {
            XCTAssertEqual(MaintenanceImporter.sniff(try Data(contentsOf: fixture(other)), filename: "export.csv"), .no, other)
        }
    }
}

/// Each row as `a|b|c` (NULL for null), so that a table's contents compare in one assertion.
private func lines(_ t: TestWarehouse, _ sql: String) throws -> [String] {
    try t.rows(sql).map { row in row.databaseValues.map { $0.storage.value.map { "\($0)" } ?? "NULL" }.joined(separator: "|") }
}

private func rejects(_ t: TestWarehouse) throws -> [String] {
    try lines(t, "SELECT location, reason, message, raw FROM reject ORDER BY id")
}
