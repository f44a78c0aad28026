import XCTest
import GRDB
import FleetKit
@testable import FleetReports
import FleetTestSupport

/// A row whose currency came from the warehouse default is counted and named on the import line
/// and in the cost report (issue 29: a Canadian card file without a currency column was counted
/// as USD with no note anywhere).
final class AssumedCurrencyReportTests: XCTestCase {
    private let zone = FleetZone(identifier: "America/Chicago")!

    private func warehouse(rates: Bool) throws -> (TestWarehouse, FileOutcome) {
        let t = try TestWarehouse()
        try t.warehouse.apply(setting: [.timezone]) { $0.zone = FleetZone(identifier: "America/Chicago")! }
        if rates {
            try t.importFile(try t.write("date,currency,units_per_USD\n2026-10-01,CAD,1.3734\n", to: "fx-rates.csv"))
        }
        // A CAD card export without its currency column: three fills.
        let outcome = try t.importFile(try t.write("""
            transaction_id,transaction_date,card_number,unit_number,litres,total
            C1,2026-10-05,7071000000001234,T-01,120.000,210.40
            C2,2026-10-12,7071000000001234,T-01,118.500,207.77
            C3,2026-10-28,7071000000001234,T-01,121.250,212.60

            """, to: "fuel-card-canada.csv"))
        return (t, outcome)
    }

    private func cost(_ t: TestWarehouse) throws -> ReportOutput {
        let request = ReportRequest(period: .month(2026, 10), zone: zone, currency: "USD", generatedAt: 0, asOf: CivilDate(year: 2026, month: 11, day: 5)!)
        return try t.warehouse.pool.read { db in try ReportWriter.checked(CostReport().run(db, request), db, request) }
    }

    func testTheImportLineNamesTheRowsThatTookTheWarehouseCurrency() throws {
        let (t, outcome) = try warehouse(rates: false)
        XCTAssertEqual(outcome.loaded, 3)
        XCTAssertTrue(outcome.notes?.contains { $0.hasPrefix("3 rows took the warehouse currency USD: no currency column (lines 2, 3, 4)") } == true, "\(outcome.notes ?? [])")
        XCTAssertEqual(try t.count("fuel_purchase", where: "currency_assumed = 1"), 3)
        // A file that gives its currency assumes nothing.
        let given = try t.importFile(try t.write("transaction_id,transaction_date,card_number,unit_number,litres,total,currency\nC9,2026-10-20,7071000000001234,T-01,10.000,17.50,USD\n", to: "fuel-card-us.csv"))
        XCTAssertNil(given.notes?.first { $0.contains("took the warehouse currency") })
        XCTAssertEqual(try t.count("fuel_purchase", where: "currency_assumed = 0"), 1)
    }

    /// In a warehouse that holds another currency, assumed rows make the cost report partial.
    func testTheCostReportCountsThemAndIsPartialWhenOtherCurrenciesExist() throws {
        let (t, _) = try warehouse(rates: true)
        let out = try cost(t)
        let quality = out.dataQuality.rows.first { $0[0] == .text("Costs whose file gave no currency (counted in the warehouse currency USD)") }
        XCTAssertEqual(quality?[1], .integer(3))
        XCTAssertEqual(quality?[2], .text("fuel-card-canada.csv: 3 rows; if they are in another currency, import the files again with a currency column"))
        XCTAssertTrue(out.metadata.partial.contains { $0.hasPrefix("3 cost rows took the warehouse currency USD because their file gave none (fuel-card-canada.csv: 3 rows), and the warehouse holds other currencies") },
                      "\(out.metadata.partial)")
    }

    /// A fleet that only ever pays in its base currency: counted and said in the methods, not partial.
    func testASingleCurrencyFleetIsToldButNotPartial() throws {
        let (t, _) = try warehouse(rates: false)
        let out = try cost(t)
        XCTAssertEqual(out.dataQuality.rows.first { $0[0] == .text("Costs whose file gave no currency (counted in the warehouse currency USD)") }?[1], .integer(3))
        XCTAssertEqual(out.metadata.partial, [])
        XCTAssertTrue(out.metadata.methods.contains { $0.hasPrefix("3 cost rows took the warehouse currency USD") }, "\(out.metadata.methods)")
    }
}
