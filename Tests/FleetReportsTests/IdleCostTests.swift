import XCTest
import GRDB
import FleetKit
@testable import FleetReports
import FleetTestSupport

/// Idle cost (docs/METRICS.md "Idle cost"): measured idle fuel where the telematics report it,
/// else idle hours × the class's no-load rate, priced at the period's median pump price; and
/// the assets it cannot cost. Each vehicle idles 10 h (Samsara's idling counter, 10-02 to 10-12).
/// Regular gasoline lines at 3.000, 3.200 and 3.400 USD/gal: median 3.200 USD/gal, no diesel line.
///
///     T-01 petrol   rate      10 h × 0.39 gal/h = 3.9 gal × 3.20        = 12.48 USD
///     T-02 diesel   rate      10 h × 0.64 gal/h = 6.4 gal, no diesel price: not costed
///     T-03 petrol   measured  an idling period of 5 L = 1.32086 gal × 3.20 = 4.2268 → 4.23 USD
///     T-04 electric —         no rate for its fuel type: cannot judge
final class IdleCostTests: XCTestCase {
    static let chicago = FleetZone(identifier: "America/Chicago")!
    static let vins = ["T-01": "1FTFW1E53PP100000", "T-02": "1FTBR1Y86NP100131", "T-03": "3AKJHHDR1MP100262", "T-04": "JALC4W160NP100393"]
    static let types = ["T-01": "petrol", "T-02": "diesel", "T-03": "petrol", "T-04": "electric"]

    private func warehouse() throws -> TestWarehouse {
        let t = try TestWarehouse()
        try t.warehouse.apply(setting: [.timezone]) { $0.zone = Self.chicago }
        let assets = "unit_number,vin,make,fuel_type,tank_capacity_gal\n" + Self.vins.keys.sorted().map { "\($0),\(Self.vins[$0]!),Ford,\(Self.types[$0]!),25\n" }.joined()
        let card = """
            transaction_id,transaction_date,transaction_time,card_number,unit_number,merchant,fuel_grade,gallons,price_per_gallon,total,currency
            C1,2026-10-03,10:00,7071000000000001,T-01,Shell,Unleaded Regular,10.000,3.000,30.00,USD
            C2,2026-10-10,10:00,7071000000000001,T-01,Shell,Unleaded Regular,10.000,3.200,32.00,USD
            C3,2026-10-17,10:00,7071000000000003,T-03,Shell,Unleaded Regular,10.000,3.400,34.00,USD

            """
        let entries = Self.vins.keys.sorted().map { unit in
            "{\"id\": \"9\(unit.suffix(2))\", \"name\": \"\(unit)\", \"externalIds\": {\"samsara.vin\": \"\(Self.vins[unit]!)\"}, "
                + "\"idlingDurationMilliseconds\": [{\"time\": \"2026-10-02T12:00:00Z\", \"value\": 0}, {\"time\": \"2026-10-12T12:00:00Z\", \"value\": 36000000}]}"
        }
        let samsara = "{\"data\": [" + entries.joined(separator: ", ") + "], \"pagination\": {\"endCursor\": \"\", \"hasNextPage\": false}}"
        try t.importFiles([try t.write(assets, to: "assets.csv").path, try t.write(card, to: "fuel-card.csv").path,
                           try t.write(samsara, to: "stats.json").path], options: ImportOptions(zone: Self.chicago))
        XCTAssertEqual(try t.count("reject"), 0)
        // T-03's telematics measured the fuel of one idling period.
        try t.warehouse.pool.write { db in
            try db.execute(sql: """
                INSERT INTO idle_period (asset_id, start_at, end_at, duration_s, fuel_ml, source, source_file_id)
                SELECT a.id, ?, ?, 3600, 5000, 'samsara-event', (SELECT MIN(id) FROM source_file) FROM asset a WHERE a.unit_number = 'T-03'
                """, arguments: [1_791_000_000_000, 1_791_003_600_000])
        }
        return t
    }

    func testMeasuredRatedUnpricedAndNotJudged() throws {
        let t = try warehouse()
        let request = ReportRequest(period: .month(2026, 10), zone: Self.chicago, units: .us, currency: "USD", generatedAt: 0)
        let out = try t.warehouse.pool.read { db in try FuelExceptionsReport().run(db, request) }
        let table = out.tables.first { $0.name == "idle_cost" }!
        func col(_ n: String) -> Int { table.columns.firstIndex { $0.name == n }! }
        XCTAssertEqual(table.rows.map { "\($0[col("unit")].textValue ?? "") \($0[col("method")].textValue ?? "")" },
                       ["T-01 rate", "T-02 rate", "T-03 measured", "T-04 cannot_judge"])
        XCTAssertEqual(table.rows.map { $0[col("idle_cost")] }, [.money(minor: 1248, currency: "USD"), .null, .money(minor: 423, currency: "USD"), .null])
        func number(_ v: ReportValue) -> Double { if case .number(let x) = v { return x }; return .nan }
        XCTAssertEqual(number(table.rows[0][col("idle_fuel")]), 3.9, accuracy: 1e-9)
        XCTAssertEqual(number(table.rows[1][col("idle_fuel")]), 6.4, accuracy: 1e-9)
        XCTAssertEqual(number(table.rows[2][col("idle_fuel")]), 5 / 3.785411784, accuracy: 1e-9)
        XCTAssertEqual(number(table.rows[0][col("price")]), 3.2, accuracy: 1e-9)
        XCTAssertEqual(table.rows[1][col("note")].textValue, "idle hours × the diesel class's no-load rate; no priced diesel line in the period to price it")
        XCTAssertEqual(table.rows[3][col("note")].textValue, "no idle burn rate for fuel type 'electric'")
        XCTAssertEqual(out.metadata.totals.first { $0.0 == "idle_cost" }?.1 ?? .nan, 16.71, accuracy: 1e-9)
    }
}
