import XCTest
import GRDB
import FleetKit
import FleetTestSupport

/// Issue 35 item 9: twelve 18-digit expense amounts overflowed Int64 in the cost sums and
/// `report cost`, `report summary` and `verify` died with SIGILL; rates of 1e-18 and 1e18 made
/// the converter trap. Amounts and rates are bounded where they are imported, and every sum and
/// conversion in the reports is checked, so a warehouse written some other way stops a report
/// with a message, never a signal.
final class MoneyOverflowTests: XCTestCase {
    private func warehouse(rows: Int, amount: String) throws -> TestWarehouse {
        let t = try TestWarehouse()
        let lines = (1...rows).map { "E\($0),2026-10-0\($0 % 9 + 1),other,\(amount),USD,Vendor,Row \($0)," }
        try t.importFiles([try t.write((["expense_id,date,category,amount,currency,vendor,description,unit_number"] + lines).joined(separator: "\n") + "\n",
                                       to: "expenses.csv").path])
        return t
    }

    private func report(_ t: TestWarehouse, currency: String = "USD") throws -> ReportOutput {
        try t.warehouse.pool.read { db in try CostReport().run(db, ReportRequest(period: .month(2026, 10), currency: currency, generatedAt: 0)) }
    }

    /// 18 digits are refused with the bound and the row's text; the largest accepted amount,
    /// 9,999,999,999,999.99 USD (10^15 − 1 cents), loads.
    func testAmountsBeyondTheLimitAreRejectedAtImport() throws {
        let t = try warehouse(rows: 1, amount: "999999999999999999")
        XCTAssertEqual(try t.count("expense"), 0)
        XCTAssertEqual(try t.rows("SELECT reason, message FROM reject").map { "\($0[0] as String) \($0[1] as String)" }, [
            "bad_number 'amount': '999999999999999999' is beyond the largest amount FleetKit accepts (below 10000000000000.00 USD in magnitude); correct the amount in the source; write the amount with at most 2 decimals for USD (e.g. 1234.56), and set the currency column when the amount is in another currency",
        ])
        let ok = try warehouse(rows: 1, amount: "9999999999999.99")
        XCTAssertEqual(try ok.rows("SELECT amount_minor FROM expense").map { $0[0] as Int64 }, [999_999_999_999_999])
        XCTAssertThrowsError(try Money.parse("99999999999999999", currency: "USD")) {
            XCTAssertEqual($0 as? Money.ParseError, .beyondLimit("99999999999999999", currency: "USD"))
        }
    }

    /// Twelve amounts the importers refuse, planted in the warehouse: the report and verify
    /// stop with the overflow named (before the fix: SIGILL in the sum).
    func testASumThatOverflowsStopsTheReportAndIsAVerifyFinding() throws {
        let t = try warehouse(rows: 12, amount: "1.00")
        try t.warehouse.pool.write { db in try db.execute(sql: "UPDATE expense SET amount_minor = 999999999999999999") }
        XCTAssertThrowsError(try report(t)) { error in
            XCTAssertTrue(error is Checked.Overflow, "\(error)")
            XCTAssertTrue("\(error)".contains("beyond what FleetKit can add up exactly"), "\(error)")
        }
        let result = try Verifier(checks: [ReportTotalsCheck()]).run(t.warehouse, context: VerifyContext())
        XCTAssertEqual(result.failures, 1)
        XCTAssertTrue(result.checks[0].listed[0].what.contains("beyond what FleetKit can add up exactly"), "\(result.checks[0].listed)")
    }

    /// Rates outside 1e-7…1e7 units per base are refused at import; one planted in the
    /// warehouse makes the conversion an error, not a trap.
    func testExtremeRatesAreRejectedAndAPlantedOneIsAnError() throws {
        let t = try warehouse(rows: 1, amount: "5000000000000.00")
        let outcome = try t.importFile(try t.write("date,currency,per_base\n2026-10-01,EUR,0.000000000000000001\n2026-10-01,GBP,1000000000000\n2026-10-01,JPY,150\n",
                                                   to: "fx-rates.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 2])
        let messages = try t.rows("SELECT message FROM reject").map { $0[0] as String }
        XCTAssertTrue(messages.allSatisfy { $0.contains("outside any exchange rate in use (1e-07 to 10000000.0)") }, "\(messages)")
        try t.warehouse.pool.write { db in try db.execute(sql: "UPDATE fx_rate SET per_base = 1e18") }
        XCTAssertThrowsError(try report(t, currency: "JPY")) { XCTAssertTrue($0 is Checked.Overflow, "\($0)") }
    }
}
