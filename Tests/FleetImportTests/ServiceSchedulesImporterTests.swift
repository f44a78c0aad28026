import XCTest
import GRDB
import FleetKit
import FleetTestSupport

final class ServiceSchedulesImporterTests: XCTestCase {
    static let schedules = "SELECT s.source_key, a.unit_number, s.asset_group, s.service_type, s.every_days, s.every_months, s.every_m, s.every_engine_s, s.soon_days, s.soon_m, s.soon_engine_s FROM service_schedule s LEFT JOIN asset a ON a.id = s.asset_id ORDER BY s.source_key"

    func testGoodFileLoadsFleetGroupAndAssetSchedulesInSI() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("service-schedules/good.csv"))
        XCTAssertEqual(outcome.status, .imported)
        XCTAssertEqual(outcome.format, "service-schedules")
        XCTAssertEqual([outcome.loaded, outcome.updated, outcome.unchanged, outcome.rejected], [7, 0, 0, 0])
        let mi = Units.metresPerMile
        XCTAssertEqual(try lines(t, Self.schedules), [
            "fleet|annual_dot_inspection|NULL|NULL|annual_dot_inspection|NULL|12|NULL|NULL|30|NULL|NULL",
            "fleet|fire_extinguisher_check|NULL|NULL|fire_extinguisher_check|90|NULL|NULL|NULL|7|NULL|NULL",
            "group:Loaders|hydraulic_filter|NULL|Loaders|hydraulic_filter|NULL|NULL|NULL|1800000.0|NULL|NULL|180000.0",
            "group:Pickups|oil_change|NULL|Pickups|oil_change|NULL|6|\(5_000 * mi)|NULL|14|\(500 * mi)|NULL",
            "unit:L-01|engine_oil|L-01|NULL|engine_oil|NULL|NULL|NULL|900000.0|NULL|NULL|90000.0",
            "unit:T-01|oil_change|T-01|NULL|oil_change|NULL|6|\(7_500 * mi)|NULL|14|\(500 * mi)|NULL",
            "unit:T-09|tire_rotation|T-09|NULL|tire_rotation|NULL|NULL|10000000.0|NULL|NULL|1000000.0|NULL",
        ])
        XCTAssertEqual(try lines(t, "SELECT unit_number, auto_created FROM asset ORDER BY unit_number"), ["L-01|1", "T-01|1", "T-09|1"])
    }

    func testDistanceWithAUnitColumn() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("service-schedules/distance-unit.csv"))
        XCTAssertEqual(outcome.format, "service-schedules")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [2, 0])
        XCTAssertEqual(try lines(t, "SELECT source_key, every_m, soon_m FROM service_schedule ORDER BY source_key"), [
            "group:Trucks|oil_change|\(10_000 * Units.metresPerMile)|\(1_000 * Units.metresPerMile)",
            "group:Vans|oil_change|15000000.0|1500000.0",
        ])
    }

    func testImportingTwiceChangesNothing() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("service-schedules/good.csv"))
        let before = try t.factDump()
        let again = try t.importFile(fixture("service-schedules/good.csv"))
        XCTAssertEqual(again.status, .unchanged)
        XCTAssertEqual(try t.factDump(), before)
        XCTAssertEqual(try t.count("source_file"), 1)
    }

    func testOverlappingReExportUpdatesTheChangedIntervalInPlace() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("service-schedules/good.csv"))
        let outcome = try t.importFile(fixture("service-schedules/reexport.csv"))
        XCTAssertEqual([outcome.loaded, outcome.updated, outcome.unchanged, outcome.rejected], [0, 1, 2, 0])
        XCTAssertEqual(try t.count("service_schedule"), 7)
        XCTAssertEqual(try lines(t, "SELECT every_m FROM service_schedule WHERE source_key = 'unit:T-01|oil_change'"), ["\(8_000 * Units.metresPerMile)"])
    }

    func testAssetListAdoptsTheAutoCreatedAsset() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("service-schedules/good.csv"))
        let id = try lines(t, "SELECT asset_id FROM service_schedule WHERE source_key = 'unit:T-01|oil_change'")
        try t.importFile(fixture("assets/good.csv"))
        XCTAssertEqual(try lines(t, "SELECT id, auto_created FROM asset WHERE unit_number = 'T-01'"), [id[0] + "|0"])
        let assetsFirst = try TestWarehouse()
        try assetsFirst.importFile(fixture("assets/good.csv"))
        try assetsFirst.importFile(fixture("service-schedules/good.csv"))
        XCTAssertEqual(try assetsFirst.factDump(), try t.factDump())
    }

    func testRowNamingAnAssetAndAGroupIsRejected() throws {
        let t = try TestWarehouse()
        let outcome = try importForced(t, "both-unit-and-group.csv")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 1])
        XCTAssertEqual(try rejects(t), ["line 2|bad_value|the row names both unit T-01 and asset_group 'Pickups'; a schedule applies to one asset, one group, or (both empty) the whole fleet: split it into two rows|T-01,Pickups,Oil Change,6"])
    }

    func testScheduleWithoutAnIntervalIsRejected() throws {
        let t = try TestWarehouse()
        let outcome = try importForced(t, "no-interval.csv")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 1])
        XCTAssertEqual(try rejects(t), ["line 2|missing_field|the oil_change schedule has no interval: fill at least one of every_days, every_months, every_km (or every_mi) and every_engine_hours|T-01,Oil Change,,14"])
        XCTAssertEqual(try t.count("asset"), 0, "a rejected row leaves no auto-created asset behind")
    }

    func testDueSoonNotShorterThanTheIntervalIsRejected() throws {
        let t = try TestWarehouse()
        let outcome = try importForced(t, "soon-not-shorter.csv")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 1])
        XCTAssertEqual(try rejects(t), ["line 2|out_of_range|the due-soon distance (9656.1 km = 6000 mi) is not shorter than the distance interval (8046.7 km = 5000 mi); make the warning shorter than the interval|Pickups,Oil Change,5000,6000"])
    }

    func testDueSoonWithoutAnIntervalOnTheSameMeterIsRejected() throws {
        let t = try TestWarehouse()
        let outcome = try importForced(t, "soon-without-interval.csv")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 1])
        XCTAssertEqual(try rejects(t), ["line 2|bad_value|'soon_engine_hours' is given but the schedule has no every_engine_hours interval for it to warn before|Loaders,Engine Oil,6,50"])
    }

    func testBadNumberIsRejected() throws {
        let t = try TestWarehouse()
        let outcome = try importForced(t, "bad-number.csv")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 1])
        XCTAssertEqual(try rejects(t), ["line 2|bad_number|'every_months': 'six' is not a number|Pickups,Oil Change,six"])
    }

    func testDuplicateScheduleKeepsTheFirstRowEvenWhenSpelledDifferently() throws {
        let t = try TestWarehouse()
        let outcome = try importForced(t, "duplicate-key.csv")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        XCTAssertEqual(try rejects(t), ["line 3|duplicate_key|the oil_change schedule for group Pickups already appears on line 2 of this file; the first row was kept|Pickups,oil change,3"])
        XCTAssertEqual(try lines(t, "SELECT every_months FROM service_schedule"), ["6"])
    }

    func testDistanceWithoutAUnitIsNotGuessed() throws {
        let t = try TestWarehouse()
        let outcome = try importForced(t, "distance-without-unit.csv")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 1])
        XCTAssertEqual(try rejects(t), ["line 2|missing_field|'every_distance' is 5000 but no unit is given, and km and miles are not guessed: add a column 'distance_unit' (km or mi), or give the distance in column 'every_km' or 'every_mi' instead|Pickups,Oil Change,5000"])
    }

    func testMissingRequiredColumnFailsTheWholeFileAndLeavesNothing() throws {
        let t = try TestWarehouse()
        let outcome = try importForced(t, "missing-column.csv")
        XCTAssertEqual(outcome.status, .failed)
        let error = try XCTUnwrap(outcome.error)
        XCTAssertTrue(error.contains("the service-schedules header lacks required column(s): service_type / service / service_task"), error)
        XCTAssertEqual(try t.count("source_file"), 0)
    }

    func testUnknownColumnIsANoteNotAReject() throws {
        let t = try TestWarehouse()
        let outcome = try importForced(t, "unknown-column.csv")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 0])
        XCTAssertEqual(outcome.notes, ["columns not part of the service-schedules format, ignored: 'priority'"])
    }

    func testDetectionClaimsSchedulesOnly() throws {
        for name in ["good.csv", "reexport.csv", "distance-unit.csv"] {
            let head = try Data(contentsOf: fixture("service-schedules/" + name))
            XCTAssertEqual(ImporterRegistry.detect(head, filename: "export.csv")?.format, "service-schedules", name)
            XCTAssertEqual(ImporterRegistry.detect(head, filename: "service-schedules.csv")?.format, "service-schedules", name)
        }
        for other in ["assets/good.csv", "drivers/good.csv", "assignments/good.csv", "maintenance/good.csv"] {
            XCTAssertEqual(ServiceSchedulesImporter.sniff(try Data(contentsOf: fixture(other)), filename: "export.csv"), .no, other)
        }
    }

    private func importForced(_ t: TestWarehouse, _ name: String) throws -> FileOutcome {
        try t.importFile(fixture("service-schedules/" + name), options: ImportOptions(format: "service-schedules"))
    }
}

/// Each row as `a|b|c` (NULL for null), so that a table's contents compare in one assertion.
private func lines(_ t: TestWarehouse, _ sql: String) throws -> [String] {
    try t.rows(sql).map { row in row.databaseValues.map { $0.storage.value.map { "\($0)" } ?? "NULL" }.joined(separator: "|") }
}

private func rejects(_ t: TestWarehouse) throws -> [String] {
    try lines(t, "SELECT location, reason, message, raw FROM reject ORDER BY id")
}
