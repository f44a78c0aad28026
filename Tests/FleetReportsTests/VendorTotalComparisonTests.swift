import XCTest
import GRDB
import FleetCore
import FleetKit
import FleetWarehouse
import FleetImport
@testable import FleetReports
import FleetTestSupport

/// A vendor's daily totals beside FleetKit's daily rollup in the utilization report
/// (docs/METRICS.md "Vendor period totals"): shown, differenced, never added. Expected values by
/// hand: 123.4 mi vendor against 193,121.28 m = 120 mi of FleetKit, difference 3.4 mi, 2.833… %
/// of FleetKit's; 6.5 h against 6 h.
final class VendorTotalComparisonTests: XCTestCase {
    private let zone = FleetZone(identifier: "America/Chicago")!

    /// A warehouse in Chicago with the vendor totals of `csv` loaded through a `period_totals`
    /// profile of these columns (after `Vehicle: unit_number` and `Day: date`).
    private func totals(_ columns: String, source: String, csv: String, loaded: Int) throws -> TestWarehouse {
        let t = try TestWarehouse()
        try t.warehouse.apply(setting: [.timezone]) { $0.zone = FleetZone(identifier: "America/Chicago")! }
        let dir = t.directory.appendingPathComponent("profiles")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try """
            name: \(source)
            version: 1
            target: period_totals
            zone: America/Chicago
            constants:
              source: \(source)
            columns:
              Vehicle: unit_number
              Day: date
            \(columns)
            """.write(to: dir.appendingPathComponent("\(source).yml"), atomically: true, encoding: .utf8)
        var o = ImportOptions()
        o.profileFolders = [dir.path]
        let outcome = try t.importFile(try t.write(csv, to: "\(source).csv"), options: o)
        XCTAssertEqual(outcome.loaded, loaded, outcome.error ?? "")
        return t
    }

    private func warehouse() throws -> TestWarehouse {
        let t = try totals("  Distance (mi): {field: distance, unit: mi}\n  Engine Hours: {field: engine_hours, unit: h}", source: "acme-portal",
                           csv: "Vehicle,Day,Distance (mi),Engine Hours\nT-12,2026-10-05,123.4,6.5\nT-12,2026-10-06,80,4.25\n", loaded: 4)
        // FleetKit's own day: 120 mi and 6 h on the 5th, nothing on the 6th.
        try t.warehouse.pool.write { db in
            try db.execute(sql: """
                INSERT INTO asset_day (asset_id, day, distance_m, distance_method, engine_s, trips)
                SELECT id, '2026-10-05', 193121.28, 'odometer', 21600, 1 FROM asset WHERE unit_number = 'T-12'
                """)
        }
        return t
    }

    func testTheVendorsFigureStandsBesideFleetKitsWithTheDifference() throws {
        let t = try warehouse()
        let request = ReportRequest(period: .month(2026, 10), zone: zone, units: .us, currency: "USD", generatedAt: 0, asOf: CivilDate(year: 2026, month: 11, day: 5)!)
        let out = try t.warehouse.pool.read { db in try ReportWriter.checked(UtilizationReport().run(db, request), db, request) }
        guard let table = out.tables.first(where: { $0.name == "vendor_totals" }) else { return XCTFail("no vendor_totals table: \(out.tables.map(\.name))") }
        let names = table.columns.map(\.name)
        func cell(_ row: [ReportValue], _ name: String) -> ReportValue { row[names.firstIndex(of: name)!] }
        func number(_ row: [ReportValue], _ name: String) -> Double? { if case let .number(d) = cell(row, name) { return d }; if case let .percent(d) = cell(row, name) { return d }; return nil }
        func text(_ row: [ReportValue], _ name: String) -> String? { if case let .text(s) = cell(row, name) { return s }; return nil }
        XCTAssertEqual(table.rows.count, 4, "two days × two measures")
        let distance = table.rows.first { text($0, "measure") == "distance" && cell($0, "from") == .date(CivilDate(year: 2026, month: 10, day: 5)!) }!
        XCTAssertEqual(text(distance, "measure_unit"), "mi")
        XCTAssertEqual(number(distance, "vendor") ?? 0, 123.4, accuracy: 1e-9)
        XCTAssertEqual(number(distance, "fleetkit") ?? 0, 120, accuracy: 1e-9)
        XCTAssertEqual(number(distance, "difference") ?? 0, 3.4, accuracy: 1e-9)
        XCTAssertEqual(number(distance, "difference_pct") ?? 0, 3.4 / 120 * 100, accuracy: 1e-9)
        let engine = table.rows.first { text($0, "measure") == "engine_hours" && cell($0, "from") == .date(CivilDate(year: 2026, month: 10, day: 5)!) }!
        XCTAssertEqual(number(engine, "difference") ?? 0, 0.5, accuracy: 1e-9)
        let missing = table.rows.filter { cell($0, "from") == .date(CivilDate(year: 2026, month: 10, day: 6)!) }
        XCTAssertEqual(missing.count, 2)
        XCTAssertTrue(missing.allSatisfy { cell($0, "fleetkit") == .null && cell($0, "difference") == .null && text($0, "note") == "FleetKit has no figure for this period" })
        let quality = out.dataQuality.rows.first { row in row.contains { if case let .text(s) = $0 { return s.hasPrefix("Vendor totals FleetKit has no figure") }; return false } }
        XCTAssertNotNil(quality)
        XCTAssertTrue(quality?.contains(.integer(2)) == true, "\(String(describing: quality))")

        // Never added: the utilization table's distance is FleetKit's 120 mi alone.
        let byAsset = out.tables.first { $0.name == "by_asset" }!
        let d = byAsset.columns.firstIndex { $0.name == "distance" }!
        XCTAssertEqual(byAsset.rows.first.map { $0[d].number ?? 0 } ?? 0, 120, accuracy: 1e-9)
    }

    /// Purchased fuel counts each fill once: a card transaction of 60 L and the receipt linked to
    /// it are one 60 L fill, so a vendor's 60 L for the day differs by nothing (counting the
    /// receipt too would give 120 L and a difference of −60 L).
    func testPurchasedFuelCountsALinkedReceiptOnce() throws {
        let t = try totals("  Fuel (L): {field: fuel_purchased, unit: L}", source: "card-statement", csv: "Vehicle,Day,Fuel (L)\nT-12,2026-10-05,60\n", loaded: 1)
        // 2026-10-05 14:00 Chicago: the card fill and, 5 minutes later, its receipt linked to it.
        try t.warehouse.pool.write { db in
            try db.execute(sql: """
                INSERT INTO fuel_purchase (source_key, origin, asset_id, at, volume_ml, total_minor, currency, source_file_id)
                SELECT 'card:1', 'card', id, 1791226800000, 60000, 6000, 'USD', (SELECT MIN(id) FROM source_file) FROM asset WHERE unit_number = 'T-12'
                """)
            try db.execute(sql: """
                INSERT INTO fuel_purchase (source_key, origin, asset_id, at, volume_ml, total_minor, currency, linked_to, source_file_id)
                SELECT 'receipt:a', 'receipt', asset_id, at + 300000, 60000, 6000, 'USD', id, source_file_id FROM fuel_purchase WHERE source_key = 'card:1'
                """)
        }
        let request = ReportRequest(period: .month(2026, 10), zone: zone, units: .metric, currency: "USD", generatedAt: 0, asOf: CivilDate(year: 2026, month: 11, day: 5)!)
        let out = try t.warehouse.pool.read { db in try UtilizationReport().run(db, request) }
        let table = try XCTUnwrap(out.tables.first { $0.name == "vendor_totals" }, "\(out.tables.map(\.name))")
        let names = table.columns.map(\.name)
        let row = try XCTUnwrap(table.rows.first)
        func number(_ name: String) -> Double? { if case let .number(d) = row[names.firstIndex(of: name)!] { return d }; return nil }
        XCTAssertEqual(number("vendor") ?? -1, 60, accuracy: 1e-9)
        XCTAssertEqual(number("fleetkit") ?? -1, 60, accuracy: 1e-9)
        XCTAssertEqual(number("difference") ?? -1, 0, accuracy: 1e-9)
    }
}
