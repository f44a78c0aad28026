import XCTest
import GRDB
import FleetKit
@testable import FleetReports
import FleetTestSupport

/// Each per-transaction fuel rule of docs/METRICS.md ("Fuel exceptions") with a purchase that
/// fires it and one that does not, the "cannot judge" state, and a receipt linked to its card
/// transaction counted as one fill. Expected outcomes are worked out by hand in the comments.
final class FuelExceptionsReportTests: XCTestCase {
    static let chicago = FleetZone(identifier: "America/Chicago")!

    private func warehouse() throws -> TestWarehouse {
        let t = try TestWarehouse()
        try t.warehouse.apply(setting: [.timezone]) { $0.zone = Self.chicago }
        try t.importFiles([try t.write("""
            unit_number,make,fuel_type,tank_capacity_gal
            T-01,Ford,petrol,25
            T-02,Isuzu,diesel,35
            T-03,Toyota,hybrid,
            T-04,Ford,,20
            T-05,Ford,flex,30

            """, to: "assets.csv").path,
            try t.write("""
            transaction_id,transaction_date,transaction_time,card_number,unit_number,merchant,merchant_state,product,gallons,price_per_gallon,total,currency
            C1,2026-10-03,08:00,7071000000001234,T-02,Pilot,IL,Diesel #2,20.000,3.800,76.00,USD
            C2,2026-10-03,08:05,7071000000001234,T-02,Pilot,IL,DEF,2.500,4.000,10.00,USD
            C3,2026-10-05,12:00,7071000000005678,T-01,Shell,IL,Diesel #2,10.000,3.800,38.00,USD
            C4,2026-10-06,10:00,7071000000005678,T-01,Shell,IL,Unleaded Regular,27.000,3.200,86.40,USD
            C5,2026-10-06,13:00,7071000000005678,T-01,BP,IN,Unleaded Regular,5.000,3.250,16.25,USD
            C6,2026-10-08,10:00,7071000000005678,T-01,BP,IN,Unleaded Regular,20.000,3.300,66.00,USD
            C7,2026-10-09,10:00,7071000000009012,T-03,Shell,IL,Unleaded Regular,8.000,3.100,24.80,USD
            C8,2026-10-10,10:00,7071000000003456,T-04,Shell,IL,Diesel #2,15.000,3.800,57.00,USD
            C9,2026-10-12,10:00,7071000000007890,T-05,Casey's,IA,Unleaded Regular,10.000,4.600,46.00,USD
            C10,2026-10-20,10:00,7071000000007890,T-05,Casey's,IA,E85,12.000,2.500,30.00,USD

            """, to: "fuel-card.csv").path], options: ImportOptions(zone: Self.chicago))
        return t
    }

    private func request() -> ReportRequest {
        ReportRequest(period: .month(2026, 10), zone: Self.chicago, units: .us, currency: "USD", generatedAt: 0)
    }

    private func run(_ t: TestWarehouse) throws -> ReportOutput {
        try t.warehouse.pool.read { db in try FuelExceptionsReport().run(db, request()) }
    }

    /// (purchase, rule) of a table's rows.
    private func pairs(_ out: ReportOutput, _ table: String) -> [String] {
        let tbl = out.tables.first { $0.name == table }!
        let key = tbl.columns.firstIndex { $0.name == "key" }!, rule = tbl.columns.firstIndex { $0.name == "rule" }!
        return tbl.rows.map { "\($0[key].textValue ?? "") \($0[rule].textValue ?? "")" }
    }

    func testEachRuleFiresAndStaysClear() throws {
        let t = try warehouse()
        XCTAssertEqual(try t.count("reject"), 0)
        let out = try run(t)
        // misfuel: C3 diesel into petrol T-01 fires; C1 diesel into diesel T-02, C2 DEF into diesel
        // T-02 (not fuel for the tank), C7 gasoline into hybrid T-03, C10 E85 into flex T-05 do not.
        // over_capacity: C4 27 gal > 25 × 1.05 = 26.25 fires; C6 20 gal and C1 20 gal into 35 do not.
        // refill_window: C5 3 h after C4 fires; C6 48 h after C5 and C2 (DEF, not a fill) do not.
        // price_outlier: regular gasoline C4 3.20, C5 3.25, C6 3.30, C7 3.10, C9 4.60 → median 3.25;
        // C9 is +41.5 % (> 25 %) and fires, the others are within 5 %.
        XCTAssertEqual(pairs(out, "exceptions"), ["card:C3 misfuel", "card:C4 over_capacity", "card:C5 refill_window", "card:C9 price_outlier"])
        let evidence = out.tables.first { $0.name == "exceptions" }!
        let column = evidence.columns.firstIndex { $0.name == "evidence" }!
        XCTAssertEqual(evidence.rows[0][column].textValue, "Diesel #2 (diesel) bought for T-01, whose fuel type is petrol (takes gasoline, midgrade gasoline, premium gasoline, regular gasoline)")
        XCTAssertEqual(evidence.rows[1][column].textValue, "27.0 gal into a 25.0 gal tank (8 % over)")
        XCTAssertEqual(evidence.rows[2][column].textValue, "3.0 h after card:C4 (card, Unleaded Regular, 27.0 gal); together 32.0 gal against a 25.0 gal tank")
        XCTAssertEqual(evidence.rows[3][column].textValue, "4.600 USD/gal against the period's median 3.250 USD/gal for regular gasoline over 5 lines (+42 %)")
        // 4 purchases, 38.00 + 86.40 + 16.25 + 46.00 = 186.65 at stake.
        XCTAssertEqual(out.metadata.totals.map(\.0), ["exceptions", "purchases_with_exceptions", "amount_at_stake", "cannot_judge", "assets_outside_band", "idle_cost"])
        XCTAssertEqual(out.metadata.totals[1].1, 4)
        XCTAssertEqual(out.metadata.totals[2].1, 186.65, accuracy: 1e-9)
    }

    func testMissingFactsAreCannotJudgeNotClear() throws {
        let t = try warehouse()
        let out = try run(t)
        // T-03 has no tank capacity (C7); T-04 has no fuel type (C8). Diesel (C1, C3, C8) has
        // 3 priced lines, E85 (C10) 1, DEF (C2) 1: fewer than 5, no median.
        XCTAssertEqual(pairs(out, "not_judged").sorted(), ["card:C1 price_outlier", "card:C10 price_outlier", "card:C2 price_outlier", "card:C3 price_outlier",
                                                         "card:C7 over_capacity", "card:C8 misfuel", "card:C8 price_outlier"])
        let quality = out.dataQuality.rows.map { "\($0[0].textValue ?? "") \($0[1])" }
        XCTAssertTrue(quality.contains("Assets buying fuel with no fuel type in master data (misfuel not judged) \(ReportValue.integer(1))"), "\(quality)")
        XCTAssertTrue(quality.contains("Assets buying fuel with no tank capacity in master data (capacity not judged) \(ReportValue.integer(1))"), "\(quality)")
    }

    /// A receipt the linker ties to its card transaction (same total, 10 min apart) is the same
    /// fill: no refill-window exception on either, and it is not judged on its own.
    func testLinkedReceiptIsOneFillNotARefill() throws {
        let t = try warehouse()
        try t.warehouse.pool.write { db in
            let (asset, file): (Int64, Int64) = try { let r = try Row.fetchOne(db, sql: "SELECT asset_id, source_file_id FROM fuel_purchase WHERE source_key = 'card:C6'")!; return (r[0], r[1]) }()
            let at = try Int64.fetchOne(db, sql: "SELECT at FROM fuel_purchase WHERE source_key = 'card:C6'")! + 10 * 60_000
            var receipt = FuelPurchase(sourceKey: "receipt:c6", origin: "receipt", assetID: asset, at: at, merchant: "BP", volumeMl: 20 * 3785.411784,
                                       totalMinor: 6600, currency: "USD", fuelGrade: "UNLEADED", needsReview: false, sourceFileID: file)
            try receipt.insert(db)
            try FuelPurchaseLinker.refresh(db, around: at...at)
            XCTAssertNotNil(try Int64.fetchOne(db, sql: "SELECT linked_to FROM fuel_purchase WHERE source_key = 'receipt:c6'"))
        }
        let out = try run(t)
        XCTAssertEqual(pairs(out, "exceptions"), ["card:C3 misfuel", "card:C4 over_capacity", "card:C5 refill_window", "card:C9 price_outlier"])
        XCTAssertFalse(pairs(out, "not_judged").contains { $0.hasPrefix("receipt:") })
        // The same receipt at another total is a purchase of its own, 10 min after C6: a refill.
        try t.warehouse.pool.write { db in
            try db.execute(sql: "UPDATE fuel_purchase SET total_minor = 6700, linked_to = NULL WHERE source_key = 'receipt:c6'")
        }
        XCTAssertTrue(pairs(try run(t), "exceptions").contains("receipt:c6 refill_window"))
    }

    /// The cost report's data quality counts the purchases with exceptions and the amount at stake.
    func testCostDataQualityCountsExceptions() throws {
        let t = try warehouse()
        let cost = try t.warehouse.pool.read { db in try CostReport().run(db, request()) }
        let row = cost.dataQuality.rows.first { ($0[0].textValue ?? "").hasPrefix("Fuel purchases with exceptions") }
        XCTAssertEqual(row?[1], ReportValue.integer(4))
        XCTAssertEqual(row?[2].textValue, "186.65 USD at stake (misfuel 1, over_capacity 1, refill_window 1, price_outlier 1); counted in the totals, listed in the fuel-exceptions report")
    }
}
