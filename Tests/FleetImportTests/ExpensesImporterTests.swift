import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

final class ExpensesImporterTests: XCTestCase {
    func testGoodFileLoadsEveryField() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("expenses/good.csv"))
        XCTAssertEqual(outcome.status, .imported)
        XCTAssertEqual(outcome.format, "expenses")
        XCTAssertEqual([outcome.loaded, outcome.updated, outcome.unchanged, outcome.rejected], [7, 0, 0, 0])
        // EXP-1001 leaves its currency cell empty: it took the base currency, and says so.
        XCTAssertEqual(outcome.notes, ["1 row took the warehouse currency USD: its currency cell is empty (line 2); if they are in another currency, add a currency column and import the file again"])
        XCTAssertEqual(try t.count("expense", where: "currency_assumed = 1 AND source_key = 'id:EXP-1001'"), 1)
        let rows = try t.rows("""
            SELECT e.source_key, COALESCE(a.unit_number, a.vin, '-'), e.unit_hint, e.at, e.category, e.amount_minor, e.currency, e.vendor, e.description
            FROM expense e LEFT JOIN asset a ON a.id = e.asset_id ORDER BY e.at
            """).map { r -> String in
            [r[0] as String, r[1] as String, r[2] as String? ?? "nil", String(r[3] as Int64), r[4] as String, String(r[5] as Int64),
             r[6] as String, r[7] as String? ?? "nil", r[8] as String? ?? "nil"].joined(separator: " | ")
        }
        XCTAssertEqual(rows, [
            "id:EXP-1001 | T-12 | nil | 1790985600000 | tolls | 1250 | USD | E-ZPass | I-90 Chicago Skyway",
            "id:EXP-1002 | 1FTFW1E50PFA00001 | nil | 1791228600000 | tires | 128400 | USD | Goodyear Fleet | 4 drive tyres",
            "id:EXP-1003 | - | Fleet-wide | 1791331200000 | insurance | 240000 | USD | Progressive Commercial | October premium (fleet policy)",
            "row:2026-10-09T00:00:00Z|T-14|registration|18500 USD|illinois sos | T-14 | nil | 1791504000000 | registration | 18500 | USD | Illinois SOS | Annual registration",
            "id:EXP-1005 | T-14 | nil | 1791763200000 | lease | 95000 | EUR | Leaseplan | October lease",
            "id:EXP-1006 | T-14 | nil | 1791849600000 | tolls | 1200 | JPY | NEXCO | Tomei expressway",
            "id:EXP-1007 | T-12 | nil | 1791936000000 | repair | -4500 | USD | Midwest Truck | Refund of diagnostic fee",
        ])
        // The unassigned expense keeps a NULL asset; units and the VIN became auto-created assets.
        XCTAssertEqual(try t.count("expense", where: "asset_id IS NULL"), 1)
        XCTAssertEqual(try t.count("asset", where: "auto_created = 1"), 3)
        XCTAssertEqual(try t.count("expense", where: "source_file_id = \(outcome.sourceFileID!)"), 7)
    }

    func testImportingTwiceChangesNothing() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("expenses/good.csv"))
        let before = try t.factDump()
        XCTAssertEqual(try t.importFile(fixture("expenses/good.csv")).status, .unchanged)
        // The same rows in another file (an overlapping re-export): every row unchanged, by id or content key.
        let copy = try t.write(try String(contentsOf: fixture("expenses/good.csv"), encoding: .utf8) + "\n", to: "expenses-again.csv")
        let outcome = try t.importFile(copy)
        XCTAssertEqual(outcome.status, .imported)
        XCTAssertEqual([outcome.loaded, outcome.updated, outcome.unchanged, outcome.rejected], [0, 0, 7, 0])
        XCTAssertEqual(try t.factDump(), before)
    }

    func testACorrectedReExportUpdatesAnExpenseWithAnIdInPlace() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("expenses/good.csv"))
        let corrected = try t.write("expense_id,date,unit_number,category,amount,vendor\nEXP-1001,2026-10-03,T-12,Tolls,15.50,E-ZPass\n", to: "corrected.csv")
        let outcome = try t.importFile(corrected)
        XCTAssertEqual([outcome.loaded, outcome.updated, outcome.unchanged], [0, 1, 0])
        XCTAssertEqual(try t.rows("SELECT amount_minor, description FROM expense WHERE source_key = 'id:EXP-1001'").map { "\($0[0] as Int64) \($0[1] as String? ?? "nil")" },
                       ["1550 nil"])
        XCTAssertEqual(try t.count("expense"), 7)
    }

    func testInvoiceNumbersAreKeyedPerVendor() throws {
        let t = try TestWarehouse()
        let url = try t.write("""
            invoice_number,date,unit_number,category,amount,vendor
            1001,2026-10-03,T-12,Parts,10.00,NAPA
            1001,2026-10-03,T-12,Parts,20.00,O'Reilly
            1001,2026-10-04,T-12,Parts,30.00,napa

            """, to: "invoices.csv")
        let outcome = try t.importFile(url)
        XCTAssertEqual([outcome.loaded, outcome.rejected], [2, 1])
        XCTAssertEqual(try t.rows("SELECT source_key FROM expense ORDER BY source_key").map { $0[0] as String }, ["id:napa|1001", "id:o'reilly|1001"])
        XCTAssertEqual(try t.rows("SELECT location, reason, message FROM reject").map { "\($0[0] as String) \($0[1] as String) \($0[2] as String)" },
                       ["line 4 duplicate_key invoice 1001 of napa already appears on line 2 of this file; the first row was kept"])
    }

    func testSeparateTimeColumnAndFleetZoneAndBaseCurrency() throws {
        let t = try TestWarehouse()
        let url = try t.write("""
            expense_id,date,time,unit_number,category,amount
            X-1,2026-10-03,2:30 PM,T-12,Tolls,4.00
            X-2,2026-10-03,,T-12,Parking,4.00
            X-3,2026-10-03,,T-12,Other,4.00

            """, to: "expenses-local.csv")
        let outcome = try t.importFile(url, options: ImportOptions(zone: FleetZone(identifier: "America/Chicago")!, currency: "CAD"))
        // "Parking" is not a category: the row is rejected with the list, not guessed into 'other'.
        XCTAssertEqual([outcome.loaded, outcome.rejected], [2, 1])
        XCTAssertEqual(try t.rows("SELECT location, reason FROM reject").map { "\($0[0] as String) \($0[1] as String)" }, ["line 3 bad_value"])
        // 14:30 CDT is 19:30Z; a bare date is local midnight (05:00Z); no currency column means the base currency.
        XCTAssertEqual(try t.rows("SELECT source_key, at, currency, amount_minor FROM expense ORDER BY source_key").map { "\($0[0] as String) \($0[1] as Int64) \($0[2] as String) \($0[3] as Int64)" },
                       ["id:X-1 1791055800000 CAD 400", "id:X-3 1791003600000 CAD 400"])
    }

    func testCommaDecimalsInASemicolonFile() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("expenses/semicolon-comma-decimals.csv"))
        XCTAssertEqual(outcome.format, "expenses")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [4, 0])
        XCTAssertEqual(try t.rows("SELECT source_key, amount_minor, category, vendor FROM expense ORDER BY source_key").map { "\($0[0] as String) \($0[1] as Int64) \($0[2] as String) \($0[3] as String)" }, [
            "id:EU-1 123456 repair Werkstatt Müller",   // 1.234,56
            "id:EU-2 1250 tolls Toll Collect",          // 12,50
            "id:EU-3 125000 tires Reifen Schmidt",      // 1.250: a ';' file groups thousands with '.'
            "id:EU-4 123450 tires Reifen Schmidt",      // € 1 234,50
        ])
    }

    func testBadDateIsRejectedWithItsLineAndTheRestLoads() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("expenses/bad-date.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        let r = try t.rows("SELECT location, reason, message, raw FROM reject")[0]
        XCTAssertEqual(r[0] as String, "line 2")
        XCTAssertEqual(r[1] as String, "bad_date")
        XCTAssertEqual(r[2] as String, "'date' is '10/03/2026'; write times as ISO 8601, e.g. 2026-10-01T14:30:00-05:00 (no offset means the fleet time zone, \(FleetZone.utc.identifier))")
        XCTAssertEqual(r[3] as String, "EXP-3001,10/03/2026,T-12,Tolls,12.50,E-ZPass")
        XCTAssertEqual(try t.rows("SELECT source_key FROM expense").map { $0[0] as String }, ["id:EXP-3002"])
    }

    func testBadAmountIsRejectedWithWhatToDo() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("expenses/bad-amount.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        let r = try t.rows("SELECT location, reason, message FROM reject")[0]
        XCTAssertEqual(r[0] as String, "line 2")
        XCTAssertEqual(r[1] as String, "bad_number")
        XCTAssertEqual(r[2] as String, "'amount': 'ten dollars' is not a number; write the amount with at most 2 decimals for USD (e.g. 1234.56), and set the currency column when the amount is in another currency")
    }

    func testAmountsWithMoreDecimalsThanTheCurrencyAllowsAreRejected() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("expenses/too-many-decimals.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 2])
        XCTAssertEqual(try t.rows("SELECT location, reason, message FROM reject ORDER BY id").map { "\($0[0] as String) \($0[1] as String) \($0[2] as String)" }, [
            "line 2 bad_number 'amount': '12.345' has more decimals than USD allows (2); write the amount with at most 2 decimals for USD (e.g. 1234.56), and set the currency column when the amount is in another currency",
            "line 3 bad_number 'amount': '1200.5' has more decimals than JPY allows (0); write the amount with at most 0 decimals for JPY (e.g. 123456), and set the currency column when the amount is in another currency",
        ])
        // Three decimals are right for the Kuwaiti dinar.
        XCTAssertEqual(try t.rows("SELECT amount_minor, currency FROM expense").map { "\($0[0] as Int64) \($0[1] as String)" }, ["12345 KWD"])
    }

    func testUnknownCategoryIsRejectedWithTheList() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("expenses/unknown-category.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        let r = try t.rows("SELECT location, reason, message FROM reject")[0]
        XCTAssertEqual(r[0] as String, "line 2")
        XCTAssertEqual(r[1] as String, "bad_value")
        XCTAssertEqual(r[2] as String, "'category' is 'Snacks'; expected one of: fuel, insurance, lease, maintenance, other, parts, registration, repair, tires, tolls; use 'other' for a cost outside these categories")
        XCTAssertEqual(try t.rows("SELECT category FROM expense").map { $0[0] as String }, ["other"])   // "Misc"
    }

    func testDuplicateIdInOneFileKeepsTheFirstRow() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("expenses/duplicate-id.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        let r = try t.rows("SELECT location, reason, message FROM reject")[0]
        XCTAssertEqual(r[0] as String, "line 3")
        XCTAssertEqual(r[1] as String, "duplicate_key")
        XCTAssertEqual(r[2] as String, "expense id EXP-3401 already appears on line 2 of this file; the first row was kept")
        XCTAssertEqual(try t.rows("SELECT amount_minor FROM expense").map { $0[0] as Int64 }, [1250])
    }

    func testIdenticalRowsWithoutAnIdAreADuplicateNotTwoExpenses() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("expenses/duplicate-content.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [2, 1])
        let r = try t.rows("SELECT location, reason, message FROM reject")[0]
        XCTAssertEqual(r[0] as String, "line 3")
        XCTAssertEqual(r[1] as String, "duplicate_key")
        XCTAssertEqual(r[2] as String, "an expense with the same date, vehicle, category, amount and vendor already appears on line 2 of this file; the first row was kept; if they really are two expenses, add an expense_id or invoice_number column so that they can be told apart")
        XCTAssertEqual(try t.rows("SELECT source_key FROM expense ORDER BY source_key").map { $0[0] as String }, [
            "row:2026-10-03T00:00:00Z|T-12|tolls|500 USD|e-zpass",
            "row:2026-10-03T00:00:00Z|T-12|tolls|500 USD|illinois tollway",
        ])
    }

    func testMissingRequiredColumnFailsTheWholeFile() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("expenses/missing-category-column.csv"), options: ImportOptions(format: "expenses"))
        XCTAssertEqual(outcome.status, .failed)
        XCTAssertTrue(outcome.error!.contains("the expenses header lacks required column(s): category / expense_category / expense_type / cost_category / cost_type / category_name"), outcome.error!)
        XCTAssertEqual(try t.count("expense"), 0)
        XCTAssertEqual(try t.count("source_file"), 0)
    }

    func testDetection() throws {
        for name in ["good.csv", "semicolon-comma-decimals.csv", "duplicate-content.csv"] {
            let url = fixture("expenses/\(name)")
            let head = try Data(contentsOf: url)
            XCTAssertEqual(ImporterRegistry.detect(head, filename: "export.csv").map { $0.format }, "expenses", name)
        }
        XCTAssertEqual(ExpensesImporter.sniff(try Data(contentsOf: fixture("expenses/good.csv")), filename: "expenses-2026-10.csv"), .certain)
    }
}
