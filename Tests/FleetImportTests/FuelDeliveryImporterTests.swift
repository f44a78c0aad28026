import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// `fuel-delivery`: deliveries and dips load, every reject rule fires on `bad-rows.csv`, and keys
/// make a corrected re-export restate instead of doubling.
final class FuelDeliveryImporterTests: XCTestCase {
    func testGoodFileLoadsDeliveriesAndDips() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("fuel-delivery/good.csv"))
        XCTAssertEqual(outcome.format, "fuel-delivery")
        XCTAssertEqual([outcome.loaded, outcome.rejected], [4, 0])
        XCTAssertEqual(try t.rows("SELECT source_key, tank, volume_ml, cost_minor, currency, supplier, invoice FROM tank_delivery ORDER BY at").map {
            "\($0[0] as String) \($0[1] as String) \(String(format: "%.3f", $0[2] as Double)) \($0[3] as Int64) \($0[4] as String) \($0[5] as String) \($0[6] as String)"
        }, ["id:heartland fuel supply|HFS-1 YARD-D1 3785411.784 340000 USD Heartland Fuel Supply HFS-1",
            "id:heartland fuel supply|HFS-2 YARD-D1 1892705.892 180000 USD Heartland Fuel Supply HFS-2"])
        XCTAssertEqual(try t.rows("SELECT source_key, level_ml FROM tank_dip ORDER BY at").map { "\($0[0] as String) \(String(format: "%.2f", $0[1] as Double))" },
                       ["dip:2026-10-01T00:00:00Z|YARD-D1 15141647.14", "dip:2026-10-31T23:30:00Z|YARD-D1 15522081.02"])
    }

    func testEveryRejectRuleFires() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("fuel-delivery/bad-rows.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 8])
        XCTAssertEqual(try t.rows("SELECT location, reason FROM reject ORDER BY id").map { "\($0[0] as String) \($0[1] as String)" }, [
            "line 2 out_of_range",     // zero volume
            "line 3 missing_field",    // no cost
            "line 4 out_of_range",     // a negative cost
            "line 5 bad_value",        // unknown kind
            "line 6 bad_number",       // more decimals than USD has
            "line 7 bad_value",        // not a currency code
            "line 8 out_of_range",     // a negative dip
            "line 10 duplicate_key",   // supplier + invoice again (supplier case-folded)
        ])
        // The rejected deliveries keep what could be read for the money listing (line 7's amount
        // read in the base currency, its own being no code; line 10's under its key).
        XCTAssertEqual(try t.count("reject", where: "row_table = 'tank_delivery' AND amount_minor = 34000"), 2)
        XCTAssertEqual(try t.count("reject", where: "row_table = 'tank_delivery' AND row_key = 'id:heartland|A-7'"), 1)
    }

    /// `unreadable-kind.csv`: line 2's kind is `refill`, neither a delivery nor a dip. Before, its
    /// reject was labelled a delivery (with its 10.00 as a missing delivery cost); now it claims
    /// no table, key or amount, and its reason names the kind as read. Line 3 loads.
    func testAnUnreadableKindIsRejectedAsNeitherDeliveryNorDip() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(fixture("fuel-delivery/unreadable-kind.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 1])
        let reject = try XCTUnwrap(t.rows("SELECT location, reason, message, raw, row_table, row_key, amount_minor FROM reject").first)
        XCTAssertTrue((reject["location"] as String).hasPrefix("line 2"), reject["location"] as String)
        XCTAssertEqual(reject["reason"] as String, "bad_value")
        let message: String = reject["message"]
        XCTAssertTrue(message.contains("'kind' is 'refill', which is unreadable as a row kind"), message)
        XCTAssertTrue(message.contains("neither a delivery nor a dip"), message)
        XCTAssertEqual(reject["raw"] as String, "refill,2026-10-01,YARD-D1,100,10.00,USD,Heartland,K-1")
        XCTAssertNil(reject["row_table"] as String?)
        XCTAssertNil(reject["row_key"] as String?)
        XCTAssertNil(reject["amount_minor"] as Int64?)
        XCTAssertEqual(try t.rows("SELECT source_key FROM tank_delivery").map { $0[0] as String }, ["id:heartland|K-2"])
    }

    func testWithoutAnInvoiceACorrectedCostRestatesTheDelivery() throws {
        let t = try TestWarehouse()
        try t.importFile(fixture("fuel-delivery/no-invoice.csv"))
        XCTAssertEqual(try t.importFile(fixture("fuel-delivery/no-invoice.csv")).status, .unchanged)
        let fixed = try t.write("date,tank,litres,cost\n2026-10-01T05:30:00,YARD-D1,3785.412,3500.00\n", to: "fixed.csv")
        let outcome = try t.importFile(fixed)
        XCTAssertEqual([outcome.loaded, outcome.updated], [0, 1])
        XCTAssertEqual(try t.rows("SELECT cost_minor FROM tank_delivery ORDER BY at").map { $0[0] as Int64 }, [350_000, 180_000])
    }
}
