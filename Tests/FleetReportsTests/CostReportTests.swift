import XCTest
import GRDB
import FleetKit
import FleetTestSupport

/// The cost report reconciles to the source rows to the cent, in several currencies, with
/// unassigned costs and a cost without an exchange rate.
final class CostReportTests: XCTestCase {
    private func warehouse() throws -> TestWarehouse {
        let t = try TestWarehouse()
        try t.warehouse.apply(setting: [.timezone]) { $0.zone = FleetZone(identifier: "America/Chicago")! }
        let options = ImportOptions(zone: FleetZone(identifier: "America/Chicago")!)
        try t.importFiles([try t.write("""
            unit_number,vin,make,asset_group,cost_center
            T-01,1FTFW1E50PFA00001,Ford,Pickups,CC-100
            T-02,1FTFW1E50PFA00002,Ford,Vans,CC-300

            """, to: "assets.csv").path,
            try t.write("""
            expense_id,date,category,amount,currency,vendor,description,unit_number
            E1,2026-10-01,insurance,210.00,USD,Insurer,Premium,T-01
            E2,2026-10-05,tolls,12.35,USD,I-PASS,Toll,T-02
            E3,2026-10-09,parts,100.00,EUR,Deere Parts,Filters,T-01
            E4,2026-10-12,other,49.99,USD,Software,Subscription,
            E5,2026-10-20,repair,1000.00,GBP,UK shop,No rate for GBP,T-02
            E6,2026-11-01,insurance,210.00,USD,Insurer,Next month,T-01
            E7,2026-09-30,insurance,210.00,USD,Insurer,Previous month,T-01

            """, to: "expenses.csv").path,
            try t.write("""
            date,currency,per_base
            2026-10-01,EUR,0.9000
            2026-10-08,EUR,0.8000

            """, to: "fx-rates.csv").path,
            try t.write("""
            transaction_id,transaction_date,transaction_time,card_number,unit_number,merchant,gallons,price_per_gallon,total,currency
            T1,2026-10-03,07:15,7071000000001234,T-01,Shell,20.000,3.250,65.00,USD
            T2,2026-10-31,23:30,7071000000001234,T-02,BP,10.000,3.100,31.00,USD

            """, to: "fuel-card.csv").path,
            try t.write("""
            unit_number,service_type,performed_at,odometer_km,cost,currency,vendor,work_order
            T-02,oil_change,2026-10-15T10:00:00,12000,89.95,USD,Quick Lube,WO-1

            """, to: "maintenance.csv").path], options: options)
        return t
    }

    private func run(_ t: TestWarehouse, currency: String = "USD") throws -> ReportOutput {
        try t.warehouse.pool.read { db in
            try CostReport().run(db, ReportRequest(period: .month(2026, 10), zone: FleetZone(identifier: "America/Chicago")!, currency: currency, generatedAt: 0))
        }
    }

    func testTotalsReconcileToTheSourceRows() throws {
        let t = try warehouse()
        XCTAssertEqual(try t.count("reject"), 0)
        let out = try run(t)
        // 210.00 + 12.35 + 100 EUR / 0.8 (rate from Oct 8) = 125.00 + 49.99 + 65.00 + 31.00 (Oct 31, 23:30 local) + 89.95
        let expected: Int64 = 21_000 + 1_235 + 12_500 + 4_999 + 6_500 + 3_100 + 8_995
        XCTAssertEqual(out.metadata.totals.first?.0, "total")
        XCTAssertEqual(out.metadata.totals.first?.1 ?? 0, Double(expected) / 100, accuracy: 1e-9)
        let detail = out.tables.first { $0.name == "detail" }!
        let amountColumn = detail.columns.firstIndex { $0.name == "amount_report" }!
        let detailSum = detail.rows.compactMap { row -> Int64? in
            if case let .money(minor, _) = row[amountColumn] { return minor }
            return nil
        }.reduce(0, +)
        XCTAssertEqual(detailSum, expected)
        XCTAssertEqual(detail.rows.count, 8)   // the GBP row is listed, without a converted amount
        let byAsset = out.tables.first { $0.name == "by_asset" }!
        XCTAssertEqual(byAsset.totals?[byAsset.columns.firstIndex { $0.name == "total" }!], .money(minor: expected, currency: "USD"))
        XCTAssertEqual(byAsset.rows.last?.first, .text("Unassigned"))
        for name in ["by_group", "by_cost_center", "by_month"] {
            let table = out.tables.first { $0.name == name }!
            XCTAssertEqual(table.totals?.last, .money(minor: expected, currency: "USD"), name)
        }
    }

    func testMissingRatesAndUnassignedCostsAreInDataQuality() throws {
        let out = try run(try warehouse())
        let rows = out.dataQuality.rows
        XCTAssertTrue(rows.contains { $0[0] == .text("Costs without an exchange rate (excluded from totals)") && $0[1] == .integer(1)
                && $0[2] == .text("GBP: 1 rows, 1000.00 GBP; import an fx-rates file") }, "\(rows)")
        XCTAssertTrue(rows.contains { $0[0] == .text("Costs with no asset (on the Unassigned row)") && $0[1] == .integer(1) })
        XCTAssertEqual(out.metadata.sources.count, 4)
    }

    func testAnotherReportCurrency() throws {
        let out = try run(try warehouse(), currency: "EUR")
        // USD converts at 0.9 before Oct 8 and 0.8 from Oct 8; EUR stays as is.
        let detail = out.tables.first { $0.name == "detail" }!
        let amount = detail.columns.firstIndex { $0.name == "amount_report" }!
        XCTAssertEqual(detail.rows.first?[amount], .money(minor: 18_900, currency: "EUR"))   // 210.00 USD on Oct 1 × 0.9
        XCTAssertTrue(detail.rows.contains { $0[amount] == .money(minor: 10_000, currency: "EUR") })
    }
}
