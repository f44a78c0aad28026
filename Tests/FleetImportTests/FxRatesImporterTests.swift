import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// An exchange rate is read only in the direction its column names, and a rate that is the
/// inverse of its neighbours is refused (docs/FORMATS.md, "fx-rates").
final class FxRatesImporterTests: XCTestCase {
    private let zone = FleetZone(identifier: "America/Chicago")!

    private func warehouse() throws -> TestWarehouse {
        let t = try TestWarehouse()
        try t.warehouse.apply(setting: [.timezone]) { $0.zone = FleetZone(identifier: "America/Chicago")! }
        return t
    }

    private func cardFile(_ t: TestWarehouse) throws -> URL {
        try t.write("""
            transaction_id,transaction_date,card_number,unit_number,litres,total,currency
            C1,2026-10-05,7071000000001234,T-01,500.000,793.65,CAD

            """, to: "fuel-card.csv")
    }

    private func costTotal(_ t: TestWarehouse) throws -> ReportOutput {
        try t.warehouse.pool.read { db in
            try CostReport().run(db, ReportRequest(period: .month(2026, 10), zone: zone, currency: "USD", generatedAt: 0))
        }
    }

    /// The file: a bare `Rate` of 0.7281 (USD per CAD, as treasuries quote it) was read as
    /// CAD per USD and CAD 793.65 became $1,090.03. Now the file is refused, naming both fixes.
    func testABareRateColumnIsRefusedWithTheFix() throws {
        let t = try warehouse()
        let outcome = try t.importFile(try t.write("Date,Currency,Rate\n2026-10-01,CAD,0.7281\n", to: "fx-rates.csv"))
        XCTAssertEqual(outcome.format, "fx-rates")
        XCTAssertEqual(outcome.status, .failed)
        let error = outcome.error ?? ""
        XCTAssertTrue(error.contains("'Rate' does not say which way"), error)
        XCTAssertTrue(error.contains("units_per_USD") && error.contains("USD_per_unit"), error)
        XCTAssertEqual(try t.count("fx_rate"), 0)
    }

    /// The same rate under `USD_per_unit`: 793.65 × 0.7281 = 577.856… → $577.86
    /// (python3 -c "print(round(793.65*0.7281, 2))" → 577.86), not 793.65 / 0.7281 = 1,090.03.
    func testTheDirectionInTheColumnNameGivesTheRightAmount() throws {
        for (header, rate) in [("Date,Currency,USD_per_unit", "0.7281"), ("date,currency,units_per_usd", "1.373438")] {
            let t = try warehouse()
            XCTAssertEqual(try t.importFile(try t.write("\(header)\n2026-10-01,CAD,\(rate)\n", to: "fx-rates.csv")).loaded, 1, header)
            try t.importFile(try cardFile(t))
            let out = try costTotal(t)
            XCTAssertEqual(out.metadata.totals.first?.1 ?? 0, 577.86, accuracy: 0.001, header)
        }
    }

    func testADirectionAgainstAnotherCurrencyThanTheBaseIsRefused() throws {
        let t = try warehouse()
        let outcome = try t.importFile(try t.write("date,currency,units_per_EUR\n2026-10-01,CAD,1.49\n", to: "fx-rates.csv"))
        XCTAssertEqual(outcome.status, .failed)
        XCTAssertTrue(outcome.error?.contains("against EUR, but the warehouse's base currency is USD") == true, outcome.error ?? "")
    }

    /// CAD per USD near 1.37 all month, one row at 0.7281 = 1 / 1.3734: that row is rejected,
    /// the others load. python3: 1/1.3734 = 0.72812 (the inverse, to four places).
    func testARateThatIsTheInverseOfItsNeighboursIsRejected() throws {
        let t = try warehouse()
        let outcome = try t.importFile(try t.write("""
            date,currency,units_per_USD
            2026-10-01,CAD,1.3734
            2026-10-02,CAD,1.3741
            2026-10-05,CAD,0.7281
            2026-10-06,CAD,1.3750
            2026-10-05,EUR,0.9210
            2026-10-01,JPY,149.80

            """, to: "fx-rates.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [5, 1])
        let reject = try t.rows("SELECT location, reason, message FROM reject")
        XCTAssertEqual(reject.map { $0[0] as String }, ["line 4"])
        XCTAssertEqual(reject.map { $0[1] as String }, ["bad_value"])
        let message = reject.first?[2] as String? ?? ""
        XCTAssertTrue(message.contains("0.7281 CAD per USD is about the inverse") && message.contains("USD_per_unit"), message)
        XCTAssertEqual(try t.count("fx_rate", where: "currency = 'CAD'"), 3)
    }

    /// A month of inverted rates among right ones on either side, and rates near parity (where
    /// an inversion cannot be told) are left alone.
    func testRatesNearParityAndAConsistentFileAreNotJudged() throws {
        let t = try warehouse()
        let outcome = try t.importFile(try t.write("""
            date,currency,per_base
            2026-10-01,EUR,0.99
            2026-10-02,EUR,1.01
            2026-10-03,EUR,1.02
            2026-10-01,GBP,0.79
            2026-10-02,GBP,0.80

            """, to: "fx-rates.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [5, 0])
    }

    /// 0, a negative rate and absurd magnitudes (a date or an id in the rate column) are refused.
    func testRatesOutsideAnyRateInUseAreRejected() throws {
        let t = try warehouse()
        let outcome = try t.importFile(try t.write("""
            date,currency,USD_per_unit
            2026-10-01,CAD,0
            2026-10-02,CAD,-0.73
            2026-10-03,CAD,20261003
            2026-10-04,CAD,0.00000000001
            2026-10-05,CAD,0.7300

            """, to: "fx-rates.csv"))
        XCTAssertEqual([outcome.loaded, outcome.rejected], [1, 4])
        XCTAssertEqual(try t.rows("SELECT reason FROM reject ORDER BY id").map { $0[0] as String }, Array(repeating: "out_of_range", count: 4))
    }
}
