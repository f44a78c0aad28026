import XCTest
import GRDB
import FleetKit
@testable import FleetReports
import FleetTestSupport

/// The fuel-exceptions report on the committed sample fleet (SampleData: master data, the
/// October card file and the fuel receipts, read by Tesseract). Expected outcomes from an
/// independent reading of the CSVs and the receipts' truth (scripts/receipts/sample-truth.json):
///
///     python3 -c "import csv; a={r['unit_number']:r for r in csv.DictReader(open('SampleData/master/assets.csv'))};
///       rows=list(csv.DictReader(open('SampleData/fuel-card/fuel-card-2026-10.csv')));
///       print([(r['unit_number'],r['transaction_date'],r['gallons']) for r in rows
///              if float(r['gallons']) > 1.05*float(a[r['unit_number']]['tank_capacity_gal'])])"
///     → []   (largest: T-12 10-15 26.074 gal, Transit 25 gal × 1.05 = 26.25)
///
/// - T-12 (petrol Transit) has the Shell receipt `DIESEL #2`, 22.104 gal, 10-14 12:10, photographed
///   twice (the JPEG links to the PNG): one misfuel, not two. Its next card fill is 10-15 14:41
///   (26.5 h later), outside the 6 h refill window, and 22.104 gal is within its 25 gal tank.
/// - T-07's Pilot receipt records card transaction T2026100100037 (truth `links_to`; the card
///   row: 10-01 06:41, 17.650 gal, 3.361, 59.32 USD, card …7514): it links to the row and is one
///   fill with it, not a refill 0 min later.
/// - Card prices: petrol 3.049–3.459, diesel 3.659–3.949 USD/gal: nothing 25 % from a median.
/// - Bought against burned (`python3 scripts/verify/bought-burned.py`, which reads the card CSV,
///   the receipts' truth, the Samsara stats and the assets master without FleetKit): T-12 bought
///   158.6 gal (six card fills and the Shell receipt) against 137.6 gal burned, level 84 → 80 %
///   of 25 gal: +22.0 gal, +16.0 % (band 10 % × 137.6 + 2 × 5 % × 25 = 16.3 gal): over. T-05
///   bought 18.0 gal (two card fills; its second fill of the month was paid off the card)
///   against 26.4 gal, level 96 → 100 % of 11.3 gal: −8.9 gal, −33.6 % (band 3.8): under. Every
///   other vehicle is within 0.5 %.
final class FuelExceptionsSampleTests: XCTestCase {
    static let sampleData = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("SampleData")

    func testSampleFleetFlagsT12MisfuelOnceAndT07ReceiptIsItsCardFill() throws {
        setenv("OMP_THREAD_LIMIT", "1", 1)
        let zone = FleetZone(identifier: "America/Chicago")!
        let t = try TestWarehouse()
        try t.warehouse.apply(setting: [.timezone]) { $0.zone = zone }
        let paths = ["master/assets.csv", "fuel-card", "receipts/T-12", "receipts/T-07", "samsara"].map { Self.sampleData.appendingPathComponent($0).path }
        try t.importFiles(paths, options: ImportOptions(zone: zone))
        XCTAssertEqual(try t.count("fuel_purchase", where: "origin = 'receipt'"), 3)
        XCTAssertEqual(try t.count("fuel_purchase", where: "origin = 'receipt' AND linked_to IS NOT NULL"), 2, "the second photo of the Shell receipt, and T-07's receipt to its card row")
        let request = ReportRequest(period: .month(2026, 10), zone: zone, units: .us, currency: "USD", generatedAt: 0)
        let out = try t.warehouse.pool.read { db in try FuelExceptionsReport().run(db, request) }
        let table = out.tables.first { $0.name == "exceptions" }!
        func column(_ name: String) -> Int { table.columns.firstIndex { $0.name == name }! }
        let rows = table.rows.map { r in ["unit", "source", "rule"].map { r[column($0)].textValue ?? "" }.joined(separator: " ") }
        XCTAssertEqual(rows, ["T-12 receipt misfuel"])
        XCTAssertEqual(table.rows[0][column("evidence")].textValue, "DIESEL #2 (diesel) bought for T-12, whose fuel type is petrol (takes gasoline, midgrade gasoline, premium gasoline, regular gasoline)")
        // 147 card rows and 1 unlinked receipt judged; every vehicle has a fuel type and a tank.
        let rules = out.tables.first { $0.name == "rules" }!
        let clear = rules.columns.firstIndex { $0.name == "clear" }!, notJudged = rules.columns.firstIndex { $0.name == "cannot_judge" }!
        XCTAssertEqual(rules.rows.map { $0[notJudged] }, [.integer(0), .integer(0), .integer(0), .integer(0)])
        XCTAssertEqual(rules.rows[0][clear], .integer(147))   // misfuel: 148 purchases, one exception

        let balance = out.tables.first { $0.name == "bought_burned" }!
        func cell(_ unit: String, _ name: String) -> ReportValue {
            balance.rows.first { $0[0].textValue == unit }![balance.columns.firstIndex { $0.name == name }!]
        }
        func number(_ v: ReportValue) -> Double { if case .number(let x) = v { return x }; if case .percent(let x) = v { return x }; return .nan }
        let status = balance.columns.firstIndex { $0.name == "status" }!
        XCTAssertEqual(balance.rows.filter { $0[status].textValue != "within" }.map { "\($0[0].textValue ?? "") \($0[status].textValue ?? "")" },
                       ["T-05 under", "T-12 over"])
        XCTAssertEqual(balance.rows.count, 25, "the 25 vehicles (the machines are not imported here)")
        XCTAssertEqual(number(cell("T-12", "bought")), 158.582, accuracy: 0.001)
        XCTAssertEqual(number(cell("T-12", "burned")), 137.6, accuracy: 0.05)
        XCTAssertEqual(number(cell("T-12", "variance")), 22.0, accuracy: 0.05)
        XCTAssertEqual(number(cell("T-12", "variance_share")), 16.0, accuracy: 0.05)
        XCTAssertEqual(number(cell("T-05", "bought")), 17.961, accuracy: 0.001)
        XCTAssertEqual(number(cell("T-05", "variance")), -8.9, accuracy: 0.05)
        XCTAssertEqual(number(cell("T-05", "variance_share")), -33.6, accuracy: 0.05)
    }
}
