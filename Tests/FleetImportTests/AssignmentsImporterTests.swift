import XCTest
import GRDB
import FleetKit
import FleetTestSupport

final class AssignmentsImporterTests: XCTestCase {
    static let periods = "SELECT d.employee_id, a.unit_number, s.start_at, s.end_at, s.status FROM assignment s JOIN driver d ON d.id = s.driver_id JOIN asset a ON a.id = s.asset_id ORDER BY 1, 3, 2"

    func testGoodFileLoadsPeriodsInUTCMilliseconds() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("assignments/good.csv"))
        XCTAssertEqual(outcome.status, .imported)
        XCTAssertEqual(outcome.format, "assignments")
        XCTAssertEqual([outcome.loaded, outcome.updated, outcome.unchanged, outcome.rejected], [4, 0, 0, 0])
        XCTAssertEqual(try lines(t, Self.periods), [
            // 2026-09-01 to 2026-09-30 inclusive: it ends at midnight starting 2026-10-01.
            "E1001|T-01|1788220800000|1790812800000|completed",
            "E1001|T-02|1790812800000|NULL|active",
            // Times with an offset are taken as written: 06:00-05:00 is 11:00Z.
            "E1002|T-01|1790852400000|1792105200000|completed",
            // 9999-12-31 is HR's "no end".
            "E1003|L-01|1790812800000|NULL|active",
        ])
        // Drivers and assets that master data has not defined yet are created and flagged.
        XCTAssertEqual(try lines(t, "SELECT employee_id, name, auto_created FROM driver ORDER BY employee_id"),
                       ["E1001|Maria Gonzalez|1", "E1002|James O'Neil|1", "E1003|Li Wei|1"])
        XCTAssertEqual(try lines(t, "SELECT unit_number, auto_created FROM asset ORDER BY unit_number"), ["L-01|1", "T-01|1", "T-02|1"])
    }

    func testBareDatesAreLocalDaysInTheFleetTimeZone() throws {
        let t = try TestWarehouse()
        var options = ImportOptions()
        options.zone = try XCTUnwrap(FleetZone(identifier: "America/Chicago"))
        try t.importFile(fixture("assignments/good.csv"), options: options)
        // CDT is UTC-5: local midnight is 05:00Z.
        XCTAssertEqual(try lines(t, Self.periods)[0], "E1001|T-01|1788238800000|1790830800000|completed")
    }

    func testImportingTwiceChangesNothing() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("assignments/good.csv"))
        let before = try t.factDump()
        let again = try t.importFile(fixture("assignments/good.csv"))
        XCTAssertEqual(again.status, .unchanged)
        XCTAssertEqual(try t.factDump(), before)
        XCTAssertEqual(try t.count("source_file"), 1)
    }

    func testReExportThatClosesAnAssignmentUpdatesItInPlace() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("assignments/good.csv"))
        let outcome = try t.importFile(fixture("assignments/reexport.csv"))
        XCTAssertEqual([outcome.loaded, outcome.updated, outcome.unchanged, outcome.rejected], [0, 1, 2, 0])
        XCTAssertEqual(try t.count("assignment"), 4)
        XCTAssertEqual(try lines(t, Self.periods)[1], "E1001|T-02|1790812800000|1793491200000|completed")
    }

    func testMasterDataInAnyOrderGivesTheSameWarehouse() throws {
        let first = try TestWarehouse()
        for path in ["drivers/good.csv", "assets/good.csv", "assignments/good.csv"] { try first.importFile(fixture(path)) }
        let last = try TestWarehouse()
        for path in ["assignments/good.csv", "assets/good.csv", "drivers/good.csv"] { try last.importFile(fixture(path)) }
        XCTAssertEqual(try last.factDump(), try first.factDump())
        XCTAssertEqual(try lines(last, "SELECT employee_id, auto_created FROM driver ORDER BY employee_id"),
                       ["E1001|0", "E1002|0", "E1003|0", "E1004|0"])
        // T-02 is in no asset list, so it stays flagged for the data-quality table.
        XCTAssertEqual(try lines(last, "SELECT unit_number, auto_created FROM asset ORDER BY unit_number"), ["L-01|0", "T-01|0", "T-02|1"])
        XCTAssertEqual(try last.count("driver"), 4)
    }

    func testEndBeforeStartIsRejectedAndASingleDayIsKept() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("assignments/end-before-start.csv"), options: ImportOptions(format: "assignments"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        XCTAssertEqual(try rejects(t), ["line 2|bad_value|end_at '2026-10-01' is not after start_at '2026-10-10'; correct the dates, or leave end_at empty for an assignment that is still open|E3001,T-01,2026-10-10,2026-10-01"])
        XCTAssertEqual(try lines(t, Self.periods), ["E3001|T-01|1791763200000|1791849600000|NULL"])
    }

    func testBadDateIsRejected() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("assignments/bad-date.csv"), options: ImportOptions(format: "assignments"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 1])
        XCTAssertEqual(try rejects(t), ["line 2|bad_date|'start_at' is '10/01/2026'; write times as ISO 8601, e.g. 2026-10-01T14:30:00-05:00 (no offset means the fleet time zone, \(FleetZone.utc.identifier))|E3002,T-01,10/01/2026,"])
        XCTAssertEqual(try t.count("driver"), 0, "a rejected row leaves no auto-created driver behind")
    }

    func testDuplicateKeyKeepsTheFirstRow() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("assignments/duplicate-key.csv"), options: ImportOptions(format: "assignments"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        XCTAssertEqual(try rejects(t), ["line 3|duplicate_key|driver E3003 on unit T-01 from 2026-10-01 already appears on line 2 of this file; the first row was kept|E3003,T-01,2026-10-01,2026-10-09"])
        XCTAssertEqual(try lines(t, "SELECT end_at FROM assignment"), ["1791244800000"])
    }

    func testRowNamingNoAssetIsRejected() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("assignments/no-asset.csv"), options: ImportOptions(format: "assignments"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 1])
        XCTAssertEqual(try rejects(t), ["line 2|missing_field|the row names no asset: fill 'unit_number' (or 'vin')|E3005,,,2026-10-01"])
    }

    func testMissingRequiredColumnFailsTheWholeFileAndLeavesNothing() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("assignments/missing-column.csv"), options: ImportOptions(format: "assignments"))
        XCTAssertEqual(outcome.status, .failed)
        let error = try XCTUnwrap(outcome.error)
        XCTAssertTrue(error.contains("the assignments header lacks required column(s): start_at / start / starts_at"), error)
        XCTAssertEqual(try t.count("source_file"), 0)
        XCTAssertEqual(try t.count("asset"), 0)
    }

    func testUnknownColumnIsANoteNotAReject() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("assignments/unknown-column.csv"), options: ImportOptions(format: "assignments"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 0])
        XCTAssertEqual(outcome.notes, ["columns not part of the assignments format, ignored: 'shift'"])
    }

    func testDetectionClaimsAssignmentListsOnly() throws {
        for name in ["good.csv", "reexport.csv"] {
            let head = try Data(contentsOf: fixture("assignments/" + name))
            XCTAssertEqual(ImporterRegistry.detect(head, filename: "export.csv")?.format, "assignments", name)
            XCTAssertEqual(ImporterRegistry.detect(head, filename: "assignments.csv")?.format, "assignments", name)
        }
        for other in ["assets/good.csv", "drivers/good.csv", "maintenance/good.csv", "service-schedules/good.csv"] {
            XCTAssertEqual(AssignmentsImporter.sniff(try Data(contentsOf: fixture(other)), filename: "export.csv"), .no, other)
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
