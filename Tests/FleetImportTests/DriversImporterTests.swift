import XCTest
import GRDB
import FleetKit
import FleetTestSupport

final class DriversImporterTests: XCTestCase {
    func testGoodFileLoadsEveryField() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("drivers/good.csv"))
        XCTAssertEqual(outcome.status, .imported)
        XCTAssertEqual(outcome.format, "drivers")
        XCTAssertEqual([outcome.loaded, outcome.updated, outcome.unchanged, outcome.rejected], [4, 0, 0, 0])
        XCTAssertNil(outcome.notes)
        XCTAssertEqual(try lines(t, "SELECT employee_id, name, license_number, license_state, license_expiry, status, phone, email, auto_created FROM driver ORDER BY employee_id"), [
            "E1001|Maria Gonzalez|G123-4567-8901|TX|2028-03-31|active|+1 512 555 0101|maria.gonzalez@example.com|0",
            "E1002|James O'Neil|N7781234|CA|2027-11-15|active|+1 415 555 0102|james.oneil@example.com|0",
            "E1003|Li Wei|W5512340|TX|2026-12-01|on_leave|NULL|li.wei@example.com|0",
            "E1004|Dana Kowalski|K9001234|OK|2025-06-30|inactive|NULL|NULL|0",
        ])
        XCTAssertEqual(try lines(t, "SELECT d.employee_id, i.source, i.id_type, i.id_value FROM driver_identifier i JOIN driver d ON d.id = i.driver_id ORDER BY 1"), [
            "E1001|samsara|driver_id|52002",
            "E1002|samsara|driver_id|52003",
        ])
    }

    func testHeaderAliasesAsAnotherSystemWritesThem() throws {
        let t = try TestWarehouse()
        let url = try t.write("Driver ID,Driver Name,Licence No,CDL Expiration,Driver Activation Status\nD-77,Sam Okafor,OK1234567,2027-01-31,deactivated\n", to: "driver-list.csv")
        let outcome = try t.importFile(url)
        XCTAssertEqual(outcome.format, "drivers")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 0])
        XCTAssertEqual(try lines(t, "SELECT employee_id, name, license_number, license_expiry, status FROM driver"),
                       ["D-77|Sam Okafor|OK1234567|2027-01-31|inactive"])
    }

    /// The medical examiner's certificate's expiry (49 CFR 391.45) under a vendor's header; a
    /// date in another order rejects only its row; a later file without the column keeps it.
    func testMedicalCardExpiryLoadsRejectsABadDateAndSurvivesAFileWithoutIt() throws {
        let t = try TestWarehouse()
        let url = try t.write("Employee ID,Name,License Expiration,Medical Card Expiration\nE1,Ann Lee,2028-01-01,2027-02-28\nE2,Bo Diaz,2028-01-01,28/02/2027\n",
                              to: "drivers.csv")
        let outcome = try t.importFile(url, options: ImportOptions(format: "drivers"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        XCTAssertEqual(try lines(t, "SELECT employee_id, license_expiry, medical_expiry FROM driver"), ["E1|2028-01-01|2027-02-28"])
        XCTAssertEqual(try rejects(t), ["line 3|bad_date|'medical_expiry' is '28/02/2027'; write dates as YYYY-MM-DD (other orders are ambiguous between US and European habits)|E2,Bo Diaz,2028-01-01,28/02/2027"])

        let later = try t.write("employee_id,name,phone\nE1,Ann Lee,555 0101\n", to: "drivers-phones.csv")
        XCTAssertEqual(try t.importFile(later, options: ImportOptions(format: "drivers")).updated, 1)
        XCTAssertEqual(try lines(t, "SELECT employee_id, phone, medical_expiry FROM driver"), ["E1|555 0101|2027-02-28"])
    }

    func testImportingTwiceChangesNothing() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("drivers/good.csv"))
        let before = try t.factDump()
        let again = try t.importFile(fixture("drivers/good.csv"))
        XCTAssertEqual(again.status, .unchanged)
        XCTAssertEqual(try t.factDump(), before)
        XCTAssertEqual(try t.count("source_file"), 1)
        XCTAssertEqual(try t.count("driver_identifier"), 2)
    }

    func testOverlappingReExportUpdatesTheChangedDriverInPlace() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("drivers/good.csv"))
        let id = try lines(t, "SELECT id FROM driver WHERE employee_id = 'E1002'")
        let outcome = try t.importFile(fixture("drivers/reexport.csv"))
        XCTAssertEqual([outcome.loaded, outcome.updated, outcome.unchanged, outcome.rejected], [0, 1, 2, 0])
        XCTAssertEqual(try t.count("driver"), 4)
        XCTAssertEqual(try lines(t, "SELECT id FROM driver WHERE employee_id = 'E1002'"), id)
        XCTAssertEqual(try lines(t, "SELECT phone FROM driver WHERE employee_id = 'E1002'"), ["+1 415 555 0199"])
    }

    func testBadDateRejectsOnlyItsRow() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("drivers/bad-date.csv"), options: ImportOptions(format: "drivers"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        XCTAssertEqual(try rejects(t), ["line 2|bad_date|'license_expiry' is '31/03/2028'; write dates as YYYY-MM-DD (other orders are ambiguous between US and European habits)|E2001,Ann Lee,31/03/2028"])
        XCTAssertEqual(try lines(t, "SELECT employee_id FROM driver"), ["E2002"])
    }

    func testUnknownStatusIsRejectedWithTheAcceptedValues() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("drivers/bad-status.csv"), options: ImportOptions(format: "drivers"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [0, 1])
        XCTAssertEqual(try rejects(t), ["line 2|bad_value|'status' is 'probation'; expected one of: active, inactive, on_leave, suspended|E2003,Cy Dunn,probation"])
    }

    func testDuplicateEmployeeIDKeepsTheFirstRow() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("drivers/duplicate-employee.csv"), options: ImportOptions(format: "drivers"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        XCTAssertEqual(try rejects(t), ["line 3|duplicate_key|employee id E2004 already appears on line 2 of this file; the first row was kept|E2004,Ed Fox"])
        XCTAssertEqual(try lines(t, "SELECT name FROM driver"), ["Di Evans"])
    }

    func testOneSamsaraIDForTwoEmployeesIsRejectedNotMerged() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("drivers/duplicate-samsara-id.csv"), options: ImportOptions(format: "drivers"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        XCTAssertEqual(try rejects(t), ["line 3|duplicate_key|samsara_id 53001 already appears on line 2 of this file; the first row was kept|E2006,Gus Hart,53001"])
        XCTAssertEqual(try lines(t, "SELECT employee_id, name FROM driver"), ["E2005|Fay Gold"])
    }

    func testEmptyEmployeeIDIsRejected() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("drivers/empty-employee-id.csv"), options: ImportOptions(format: "drivers"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        XCTAssertEqual(try rejects(t), ["line 2|missing_field|'employee_id' is empty; every driver needs the employee id that assignments and other files name them by|,Hal Ince,I4455667"])
    }

    func testMissingRequiredColumnFailsTheWholeFileAndLeavesNothing() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("drivers/missing-column.csv"), options: ImportOptions(format: "drivers"))
        XCTAssertEqual(outcome.status, .failed)
        let error = try XCTUnwrap(outcome.error)
        XCTAssertTrue(error.contains("at line 1: the drivers header lacks required column(s): employee_id / driver_id / employee_number"), error)
        XCTAssertEqual(try t.count("driver"), 0)
        XCTAssertEqual(try t.count("source_file"), 0)
    }

    func testUnknownColumnIsANoteNotAReject() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("drivers/unknown-column.csv"), options: ImportOptions(format: "drivers"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 0])
        XCTAssertEqual(outcome.notes, ["columns not part of the drivers format, ignored: 'shoe_size'"])
    }

    func testDetectionClaimsDriverListsOnly() throws {
        for name in ["good.csv", "reexport.csv"] {
            let head = try Data(contentsOf: fixture("drivers/" + name))
            XCTAssertEqual(ImporterRegistry.detect(head, filename: "export.csv")?.format, "drivers", name)
            XCTAssertEqual(ImporterRegistry.detect(head, filename: "drivers.csv")?.format, "drivers", name)
        }
        for other in ["assets/good.csv", "assignments/good.csv", "maintenance/good.csv", "service-schedules/good.csv"] {
            XCTAssertEqual(DriversImporter.sniff(try Data(contentsOf: fixture(other)), filename: "export.csv"), .no, other)
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
