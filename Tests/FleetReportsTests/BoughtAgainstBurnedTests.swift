import XCTest
import GRDB
import FleetKit
@testable import FleetReports
import FleetTestSupport

/// Bought against burned (docs/METRICS.md "Bought against burned") with an asset that fires
/// each side of the band and one that stays inside it, level-corrected and not. Expected
/// figures worked out by hand below; every vehicle burns 378,541 mL (99.99995 US gal) between
/// its Samsara fuel-used readings of 10-02 and 10-30, and has a 25 gal tank.
///
///     unit  bought  level        change  variance            band                        status
///     T-01  90      80 → 40 (a)  −10     90−100+10 = 0       10 + 2×5 %×25 = 12.5        within
///     T-02  125     50 → 50      0       +25 (+25.0 %)       12.5                        over
///     T-03  88      50 → 50      0       −12                 12.5                        within (inside by 0.5)
///     T-04  80      50 → 50      0       −20 (−20.0 %)       12.5                        under
///     T-05  20      —            —       no fuel-used meter  —                           cannot_judge
///     T-06  120     none         —       +20                 10 + one tank 25 = 35       within
///     T-07  0       50 → 50      0       −100 (−100.0 %)     12.5                        under (nothing bought)
///
/// (a) T-01's level at the start is its reading of 09-30 (before the period), not the first of
/// the period; the others have none before, so their first reading of the period stands for it.
final class BoughtAgainstBurnedTests: XCTestCase {
    static let chicago = FleetZone(identifier: "America/Chicago")!
    static let vins = ["T-01": "1FTFW1E53PP100000", "T-02": "1FTBR1Y86NP100131", "T-03": "3AKJHHDR1MP100262",
                       "T-04": "JALC4W160NP100393", "T-05": "JTDKAMFU1RP100524", "T-06": "1FTFW1E58PP100655",
                       "T-07": "1FTBR1Y80NP100786"]

    private func stats(_ unit: String, levels: [(String, Int)]) -> String {
        let used = [("2026-10-02T12:00:00Z", 1_000_000), ("2026-10-16T12:00:00Z", 1_189_270), ("2026-10-30T12:00:00Z", 1_378_541)]
        var fields = ["\"fuelConsumedMilliliters\": [" + used.map { "{\"time\": \"\($0.0)\", \"value\": \($0.1)}" }.joined(separator: ", ") + "]"]
        if !levels.isEmpty { fields.append("\"fuelPercents\": [" + levels.map { "{\"time\": \"\($0.0)\", \"value\": \($0.1)}" }.joined(separator: ", ") + "]") }
        return "{\"id\": \"9\(unit.suffix(2))\", \"name\": \"\(unit)\", \"externalIds\": {\"samsara.vin\": \"\(Self.vins[unit]!)\"}, " + fields.joined(separator: ", ") + "}"
    }

    private func warehouse() throws -> TestWarehouse {
        let t = try TestWarehouse()
        try t.warehouse.apply(setting: [.timezone]) { $0.zone = Self.chicago }
        let assets = "unit_number,vin,make,fuel_type,tank_capacity_gal\n"
            + Self.vins.keys.sorted().map { "\($0),\(Self.vins[$0]!),Ford,petrol,25\n" }.joined()
        var card = "transaction_id,transaction_date,transaction_time,card_number,unit_number,merchant,fuel_grade,gallons,price_per_gallon,total,currency\n"
        var n = 0
        for (unit, fills) in [("T-01", [22.5, 22.5, 22.5, 22.5]), ("T-02", [25, 25, 25, 25, 25]), ("T-03", [22, 22, 22, 22]),
                              ("T-04", [20, 20, 20, 20]), ("T-05", [20]), ("T-06", [20, 20, 20, 20, 20, 20])] {
            for (i, g) in fills.enumerated() {
                n += 1
                card += String(format: "C%d,2026-10-%02d,10:00,70710000000%05d,%@,Shell,Unleaded Regular,%.3f,3.000,%.2f,USD\n", n, 3 + 4 * i, n, unit, g, g * 3)
            }
        }
        let level50 = [("2026-10-02T12:00:00Z", 50), ("2026-10-30T12:00:00Z", 50)]
        let samsara = "{\"data\": [" + [stats("T-01", levels: [("2026-09-30T12:00:00Z", 80), ("2026-10-30T12:00:00Z", 40)]),
                                         stats("T-02", levels: level50), stats("T-03", levels: level50), stats("T-04", levels: level50),
                                         stats("T-06", levels: []), stats("T-07", levels: level50)].joined(separator: ", ") + "], \"pagination\": {\"endCursor\": \"\", \"hasNextPage\": false}}"
        try t.importFiles([try t.write(assets, to: "assets.csv").path, try t.write(card, to: "fuel-card.csv").path,
                           try t.write(samsara, to: "stats.json").path], options: ImportOptions(zone: Self.chicago))
        XCTAssertEqual(try t.count("reject"), 0)
        return t
    }

    private let request = ReportRequest(period: .month(2026, 10), zone: chicago, units: .us, currency: "USD", generatedAt: 0)

    private func table(_ out: ReportOutput, _ name: String) -> (rows: [[ReportValue]], col: (String) -> Int) {
        let t = out.tables.first { $0.name == name }!
        return (t.rows, { c in t.columns.firstIndex { $0.name == c }! })
    }

    func testEachSideOfTheBandFiresAndInsideStaysWithin() throws {
        let t = try warehouse()
        let out = try t.warehouse.pool.read { db in try FuelExceptionsReport().run(db, request) }
        let (rows, col) = table(out, "bought_burned")
        XCTAssertEqual(rows.map { "\($0[col("unit")].textValue ?? "") \($0[col("status")].textValue ?? "")" },
                       ["T-01 within", "T-02 over", "T-03 within", "T-04 under", "T-05 cannot_judge", "T-06 within", "T-07 under"])
        func number(_ v: ReportValue) -> Double? { if case .number(let x) = v { return x }; if case .percent(let x) = v { return x }; return nil }
        let expected: [(bought: Double, change: Double?, variance: Double?, share: Double?, band: Double?)] = [
            (90, -10, 90 - 99.99995 + 10, (90 - 99.99995 + 10) / 99.99995 * 100, 12.499995),
            (125, 0, 25.00005, 25.00005 / 99.99995 * 100, 12.499995),
            (88, 0, -11.99995, -11.99995 / 99.99995 * 100, 12.499995),
            (80, 0, -19.99995, -19.99995 / 99.99995 * 100, 12.499995),
            (20, nil, nil, nil, nil),
            (120, nil, 20.00005, 20.00005 / 99.99995 * 100, 34.999995),
            (0, 0, -99.99995, -100, 12.499995),
        ]
        for (row, e) in zip(rows, expected) {
            let unit = row[col("unit")].textValue ?? ""
            XCTAssertEqual(number(row[col("bought")]) ?? .nan, e.bought, accuracy: 1e-6, unit)
            for (name, value) in [("level_change", e.change), ("variance", e.variance), ("variance_share", e.share), ("band", e.band)] {
                if let value { XCTAssertEqual(number(row[col(name)]) ?? .nan, value, accuracy: 1e-4, "\(unit) \(name)") } else { XCTAssertEqual(row[col(name)], .null, "\(unit) \(name)") }
            }
        }
        XCTAssertEqual(number(rows[0][col("level_start")]), 80, "T-01's reading before the period stands for its start")
        XCTAssertEqual(rows[4][col("note")].textValue, "no fuel-used meter reading in the period")
        XCTAssertEqual(rows[5][col("note")].textValue, "no fuel-level reading: not level-corrected, one tank in the band")
        XCTAssertEqual(rows[6][col("note")].textValue, "nothing bought in the period: fuel from an on-site tank, or paid off the card without a receipt, is not in the warehouse")
        // The purchases behind the two variances: T-02's five fills, then T-04's four.
        let (behind, bcol) = table(out, "variance_purchases")
        XCTAssertEqual(behind.map { $0[bcol("unit")].textValue ?? "" }, Array(repeating: "T-02", count: 5) + Array(repeating: "T-04", count: 4))
        XCTAssertEqual(behind.map { $0[bcol("key")].textValue ?? "" }, ["card:C5", "card:C6", "card:C7", "card:C8", "card:C9", "card:C14", "card:C15", "card:C16", "card:C17"])
        XCTAssertEqual(out.metadata.totals.first { $0.0 == "assets_outside_band" }?.1, 3)
        let quality = out.dataQuality.rows.first { ($0[0].textValue ?? "").hasPrefix("Assets whose bought against burned cannot be judged") }
        XCTAssertEqual(quality?[1], .integer(1))
    }

    func testCostDataQualityCountsTheAssetsOutsideTheBand() throws {
        let t = try warehouse()
        let cost = try t.warehouse.pool.read { db in try CostReport().run(db, request) }
        let row = cost.dataQuality.rows.first { ($0[0].textValue ?? "").hasPrefix("Assets whose fuel bought differs from fuel burned") }
        XCTAssertEqual(row?[1], .integer(3))
        XCTAssertEqual(row?[2].textValue, "T-02 +25.0 % (+25.0 gal), T-04 -20.0 % (-20.0 gal), T-07 -100.0 % (-100.0 gal); listed with their purchases in the fuel-exceptions report")
    }

    /// A fill that brings the variance inside the band clears it: T-04 buying 10 gal more is −10 gal, inside 12.5.
    func testAnotherFillBringsAVarianceInsideTheBand() throws {
        let t = try warehouse()
        let extra = try t.write("""
            transaction_id,transaction_date,transaction_time,card_number,unit_number,merchant,fuel_grade,gallons,price_per_gallon,total,currency
            C99,2026-10-28,10:00,7071000000099999,T-04,Shell,Unleaded Regular,10.000,3.000,30.00,USD

            """, to: "fuel-card-2.csv")
        try t.importFiles([extra.path], options: ImportOptions(zone: Self.chicago))
        let out = try t.warehouse.pool.read { db in try FuelExceptionsReport().run(db, request) }
        let (rows, col) = table(out, "bought_burned")
        XCTAssertEqual(rows[3][col("status")].textValue, "within")
    }

    /// On-site fuel is bought: T-07 (burned 100 gal, no fill: −100 %) dispensed 100 gal from a
    /// bulk tank is within. Its cost is the tank's average (one delivery of 200 gal for $700.00:
    /// 3.50/gal, so $350.00), unpriced until the delivery is imported (the data-quality row fires,
    /// then does not). The tank reconciliation: delivered 200 − dispensed 100 − level change
    /// (1,000 → 1,090 gal by dip) = +10 gal, over a band of 1 % of 300 = 3 gal; with the end dip at
    /// 1,099 gal it is +1 gal, within.
    func testAnOnSiteDispenseIsBoughtCostedAndReconciled() throws {
        let t = try warehouse()
        let dispense = try t.write("date,tank,unit_number,gallons\n2026-10-20T18:00:00,YARD,T-07,100\n", to: "dispense.csv")
        try t.importFiles([dispense.path], options: ImportOptions(zone: Self.chicago))
        var cost = try t.warehouse.pool.read { db in try CostReport().run(db, request) }
        func unpriced(_ out: ReportOutput) -> ReportValue? { out.dataQuality.rows.first { ($0[0].textValue ?? "").hasPrefix("Bulk fuel dispensed that no tank average prices") }?[1] }
        XCTAssertEqual(unpriced(cost), .integer(1))
        XCTAssertTrue(cost.metadata.partial.contains { $0.contains("bulk fuel dispenses have no tank cost") })
        let delivery = try t.write("""
            kind,date,tank,gallons,cost,invoice
            dip,2026-10-01T00:00:00,YARD,1000,,
            delivery,2026-10-10T05:00:00,YARD,200,700.00,H-1
            dip,2026-10-31T12:00:00,YARD,1090,,

            """, to: "delivery.csv")
        try t.importFiles([delivery.path], options: ImportOptions(zone: Self.chicago))
        cost = try t.warehouse.pool.read { db in try CostReport().run(db, request) }
        XCTAssertEqual(unpriced(cost), .integer(0))
        let (assets, acol) = table(cost, "by_asset")
        let t07 = assets.first { $0[acol("unit")].textValue == "T-07" }!
        XCTAssertEqual(t07[acol("fuel")], .money(minor: 35_000, currency: "USD"))
        let out = try t.warehouse.pool.read { db in try FuelExceptionsReport().run(db, request) }
        let (rows, col) = table(out, "bought_burned")
        XCTAssertEqual(rows[6][col("unit")].textValue, "T-07")
        XCTAssertEqual(rows[6][col("status")].textValue, "within")
        XCTAssertEqual(rows[6][col("dispenses")], .integer(1))
        let (tanks, tcol) = table(out, "tank_reconciliation")
        XCTAssertEqual(tanks.first?[tcol("status")].textValue, "over")
        if case .number(let v) = tanks.first?[tcol("variance")] ?? .null { XCTAssertEqual(v, 10, accuracy: 1e-6) } else { XCTFail("no variance") }
        let fixed = try t.write("kind,date,tank,gallons\ndip,2026-10-31T12:00:00,YARD,1099\n", to: "dip.csv")
        try t.importFiles([fixed.path], options: ImportOptions(zone: Self.chicago))
        let again = try t.warehouse.pool.read { db in try FuelExceptionsReport().run(db, request) }
        XCTAssertEqual(table(again, "tank_reconciliation").rows.first?[tcol("status")].textValue, "within")
    }
}
