import XCTest
import GRDB
import FleetKit
import FleetTestSupport
@testable import FleetImport

/// The dispensed cost of bulk fuel (docs/METRICS.md, "Bulk fuel"): each rule of the moving
/// weighted average on a case that fires it and one that does not, and the money rules (closed
/// months, restatements, forget, any import order). Expected costs are worked by hand from the
/// formula in US gallons and dollars (the worked example of docs/METRICS.md), never read back.
final class TankCostingTests: XCTestCase {
    static let deliveries = """
        date,tank,gallons,cost,supplier,invoice
        2026-10-01T05:30:00,YARD,1000,3400.00,Heartland,H-1
        2026-10-08T05:30:00,YARD,500,1800.00,Heartland,H-2
        2026-10-10T05:30:00,YARD,200,700.00,Heartland,H-3

        """
    static let dispenses = """
        transaction_id,date,tank,unit_number,gallons
        1,2026-10-01T18:00:00,YARD,L-01,100
        2,2026-10-08T18:00:00,YARD,L-01,50
        3,2026-10-09T18:00:00,YARD,L-02,1400
        4,2026-10-10T18:00:00,YARD,L-02,10

        """

    func costs(_ t: TestWarehouse) throws -> [String] {
        try t.rows("SELECT source_key, cost_minor, cost_currency, cost_state FROM fuel_dispense ORDER BY at, source_key").map {
            "\($0[0] as String) \(($0[1] as Int64?).map(String.init) ?? "-") \($0[2] as String? ?? "-") \($0[3] as String)"
        }
    }

    /// The worked example: an average restarted by the first delivery, mixed by the second,
    /// a dispense that runs the tank negative at the last average, and a delivery at negative
    /// stock that restarts the average at its own unit cost (3.50, not mixed with 3.4714).
    func testTheWorkedExample() throws {
        let t = try TestWarehouse()
        try t.importFile(try t.write(Self.deliveries, to: "deliveries.csv"))
        try t.importFile(try t.write(Self.dispenses, to: "dispenses.csv"))
        XCTAssertEqual(try costs(t), [
            "id:YARD|1 34000 USD priced",    // 100 × 3.40
            "id:YARD|2 17357 USD priced",    // 50 × (900 × 3.40 + 1800) / 1400 = 173.571…
            "id:YARD|3 486000 USD priced",   // 1400 × 3.4714286 = 4860.00; the tank is at −50 gal
            "id:YARD|4 3500 USD priced",     // 10 × 700 / 200: restarted, not (−50 × 3.4714 + 700) / 150
        ])
    }

    /// Without the run below zero the third delivery is mixed into the average (does not restart).
    func testADeliveryAtPositiveStockIsMixedIn() throws {
        let t = try TestWarehouse()
        try t.importFile(try t.write(Self.deliveries, to: "deliveries.csv"))
        try t.importFile(try t.write("""
            transaction_id,date,tank,unit_number,gallons
            3,2026-10-09T18:00:00,YARD,L-02,1300
            4,2026-10-10T18:00:00,YARD,L-02,10

            """, to: "dispenses.csv"))
        // After H-1 and H-2: 1500 gal at 5200/1500 = 3.4666…; 1300 gal out → 200 left;
        // H-3 mixes: (200 × 3.4666… + 700) / 400 = 3.4833…; 10 gal → 34.83.
        XCTAssertEqual(try costs(t), ["id:YARD|3 450667 USD priced", "id:YARD|4 3483 USD priced"])
    }

    func testADispenseBeforeAnyDeliveryIsNotCostedUntilOneArrivesBeforeIt() throws {
        let t = try TestWarehouse()
        let early = try t.write("date,tank,unit_number,gallons\n2026-10-01T04:00:00,YARD,L-01,10\n", to: "early.csv")
        try t.importFile(early)
        XCTAssertEqual(try costs(t), ["row:2026-10-01T04:00:00Z|YARD|L-01 - - unknown_tank"])
        try t.importFile(try t.write(Self.deliveries, to: "deliveries.csv"))
        XCTAssertEqual(try costs(t), ["row:2026-10-01T04:00:00Z|YARD|L-01 - - before_delivery"])
        // A delivery dated before it (a late invoice) prices it: 10 gal at 3.30.
        try t.importFile(try t.write("date,tank,gallons,cost\n2026-09-30T12:00:00,YARD,100,330.00\n", to: "late.csv"))
        XCTAssertEqual(try costs(t), ["row:2026-10-01T04:00:00Z|YARD|L-01 3300 USD priced"])
        // An unpriced dispense is in no total; a priced one is a fuel cost of the month.
        let counted = try t.warehouse.pool.read { db in
            try CountedCosts.read(db, from: 1_790_812_800_000, to: 1_793_491_200_000,  // 2026-10-01, 2026-11-01 UTC
                                  zone: .utc, converter: CurrencyConverter(db, base: "USD", target: "USD"))
        }
        XCTAssertEqual(counted.byCategory["fuel"], 3300)
    }

    func testADeliveryInAnotherCurrencyIsConvertedOnItsDayOrStopsTheAverage() throws {
        let t = try TestWarehouse()
        try t.importFile(try t.write("date,tank,gallons,cost,currency\n2026-10-01T05:00:00,YARD,100,340.00,USD\n2026-10-02T05:00:00,YARD,100,500.00,CAD\n", to: "d.csv"))
        try t.importFile(try t.write("date,tank,unit_number,gallons\n2026-10-02T18:00:00,YARD,L-01,10\n", to: "p.csv"))
        // No CAD rate: the average is unknown after the CAD delivery.
        XCTAssertEqual(try costs(t), ["row:2026-10-02T18:00:00Z|YARD|L-01 - - no_rate"])
        // 1.25 CAD per USD: 500 CAD = 400 USD; (100 × 3.40 + 400) / 200 = 3.70; 10 gal = 37.00.
        try t.importFile(try t.write("date,currency,per_base\n2026-09-28,CAD,1.25\n", to: "fx.csv"))
        XCTAssertEqual(try costs(t), ["row:2026-10-02T18:00:00Z|YARD|L-01 3700 USD priced"])
    }

    func testAnyImportOrderGivesTheSameCosts() throws {
        let a = try TestWarehouse(), b = try TestWarehouse()
        try a.importFile(try a.write(Self.deliveries, to: "deliveries.csv"))
        try a.importFile(try a.write(Self.dispenses, to: "dispenses.csv"))
        try b.importFile(try b.write(Self.dispenses, to: "dispenses.csv"))
        try b.importFile(try b.write(Self.deliveries, to: "deliveries.csv"))
        XCTAssertEqual(try a.factDump(tables: ["fuel_dispense", "tank_delivery"]), try b.factDump(tables: ["fuel_dispense", "tank_delivery"]))
        XCTAssertEqual(try costs(a), try costs(b))
    }

    /// A late delivery that reprices a closed month is a restatement: refused without leave,
    /// recorded with it. One that only changes later months' costs is not.
    func testALateDeliveryRepricingAClosedMonthIsARecordedRestatement() throws {
        let t = try TestWarehouse()
        try t.importFile(try t.write(Self.deliveries, to: "deliveries.csv"))
        try t.importFile(try t.write(Self.dispenses, to: "dispenses.csv"))
        _ = try t.warehouse.pool.write { db in try MonthEnd.close(db, period: "2026-10", zone: .utc, by: "test") }
        // A November delivery reprices nothing of October.
        let november = try t.importFile(try t.write("date,tank,gallons,cost,invoice\n2026-11-02T05:00:00,YARD,100,360.00,H-9\n", to: "nov.csv"))
        XCTAssertEqual(november.status, .imported)
        XCTAssertEqual(november.restatements ?? [], [])
        // A delivery dated in October, before dispense 2, changes October's cost.
        let late = try t.write("date,tank,gallons,cost,invoice\n2026-10-05T05:00:00,YARD,100,400.00,H-L\n", to: "late.csv")
        let refused = try t.importFile(late)
        XCTAssertEqual(refused.status, .failed)
        XCTAssertEqual(try t.count("tank_delivery", where: "invoice = 'H-L'"), 0)
        XCTAssertEqual(try costs(t)[1], "id:YARD|2 17357 USD priced")
        var allow = ImportOptions()
        allow.allowRestatement = true
        let applied = try t.importFile(late, options: allow)
        XCTAssertEqual(applied.status, .imported)
        // H-L: (900 × 3.40 + 400) / 1000 = 3.46; H-2: (1000 × 3.46 + 1800) / 1500 = 3.50667; 50 gal = 175.33.
        XCTAssertEqual(try costs(t)[1], "id:YARD|2 17533 USD priced")
        let recorded = try t.rows("SELECT figure, old_value, new_value FROM restatement WHERE period = '2026-10' AND figure = 'fuel dispensed USD'")
            .map { "\($0[0] as String): \($0[1] as String) → \($0[2] as String)" }
        XCTAssertEqual(recorded.count, 1)
        XCTAssertTrue(recorded[0].hasPrefix("fuel dispensed USD: 5408.57 USD (4 rows) → "), recorded[0])
    }

    func testForgettingTheDeliveriesUnpricesTheDispensesAndIsHeldToTheClose() throws {
        let t = try TestWarehouse()
        let deliveries = try t.write(Self.deliveries, to: "deliveries.csv")
        try t.importFile(deliveries)
        try t.importFile(try t.write(Self.dispenses, to: "dispenses.csv"))
        _ = try t.warehouse.pool.write { db in try MonthEnd.close(db, period: "2026-10", zone: .utc, by: "test") }
        let refused = try Corrections.forget(in: t.warehouse, deliveries.path, allowRestatement: false, dryRun: false, by: "test")
        XCTAssertTrue(refused.refused)
        XCTAssertEqual(try t.count("fuel_dispense", where: "cost_state = 'priced'"), 4)
        let applied = try Corrections.forget(in: t.warehouse, deliveries.path, allowRestatement: true, dryRun: false, by: "test")
        XCTAssertTrue(applied.applied)
        XCTAssertEqual(try t.count("fuel_dispense", where: "cost_state = 'unknown_tank' AND cost_minor IS NULL"), 4)
        XCTAssertGreaterThan(try t.count("restatement", where: "file_path LIKE 'forget %'"), 0)
    }
}
