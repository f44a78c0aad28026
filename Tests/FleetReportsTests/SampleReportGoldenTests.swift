import XCTest
import GRDB
import FleetKit
@testable import FleetReports
import FleetSample
import FleetTestSupport

/// Every report, end to end, on a small warehouse built the way a user builds one: the seeded
/// sample generator (4 vehicles, 2 machines, October 2026) imported by the real importers, then
/// each report rendered as CSV and HTML and compared with its golden text
/// (Golden/reports/…; FLEETKIT_UPDATE_GOLDEN=1 rewrites them, see Golden.swift).
///
/// The goldens pin every figure; the assertions after them check what a reviewer of a changed
/// golden must not have to take on trust: the reports agree with each other and with the rows.
final class SampleReportGoldenTests: XCTestCase {
    static let zone = FleetZone(identifier: "America/Chicago")!
    /// The sample folders this fixture imports. Named, so that a format the generator learns
    /// later changes the goldens only when it is added here.
    static let folders = ["master", "maintenance", "expenses", "fuel-card", "bulk-fuel", "dvir", "iso15143", "samsara"]

    /// Built once for the class: generating and importing takes a few seconds.
    nonisolated(unsafe) static var shared: (warehouse: TestWarehouse, root: String)?

    func sample() throws -> (warehouse: TestWarehouse, root: String) { try Self.sharedSample() }

    /// The sample warehouse, built on first use (also by `PartialReportTests`).
    static func sharedSample() throws -> (warehouse: TestWarehouse, root: String) {
        if let s = Self.shared { return s }
        let t = try TestWarehouse()
        try t.warehouse.apply(setting: [.timezone]) { $0.zone = Self.zone }
        let root = t.directory.appendingPathComponent("sample")
        var writer = SampleWriter(fleet: SampleFleet(vehicles: 4, machines: 2, days: 31, seed: 42), root: root)
        _ = try writer.writeAll()
        let summary = try t.importFiles(Self.folders.map { root.appendingPathComponent($0).path }, options: ImportOptions(zone: Self.zone))
        XCTAssertEqual(summary.totals.rejected, 0, "the sample imports cleanly")
        Self.shared = (t, root.path)
        return (t, root.path)
    }

    /// October 2026 as of 1 November: the month is over, so only the data can make it partial.
    static let request = ReportRequest(period: .month(2026, 10), zone: zone, units: .us, currency: "USD", generatedAt: 0,
                                       asOf: CivilDate(year: 2026, month: 11, day: 1)!)

    /// The report as `ReportWriter` hands it to the formats: with its data cut-off and partial reasons.
    func output(_ report: any Report.Type) throws -> ReportOutput {
        let s = try sample()
        return try s.warehouse.warehouse.pool.read { db in try ReportWriter.checked(report.init().run(db, Self.request), db, Self.request) }
    }

    /// Renders `report` as CSV and HTML and compares each file, with the temporary folder's path
    /// replaced by `SAMPLE`, against Golden/reports/.
    func assertGolden(_ report: any Report.Type, file: StaticString = #filePath, line: UInt = #line) throws {
        let out = try output(report)
        let root = try sample().root
        let dir = try ReportFixture.temporaryDirectory()
        let urls = try CSVFormat().write(out, to: dir) + HTMLFormat().write(out, to: dir)
        XCTAssertFalse(urls.isEmpty)
        for url in urls {
            let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: root, with: "SAMPLE")
            Golden.assertMatches(text, "reports/" + url.lastPathComponent, file: file, line: line)
        }
    }

    func testSummaryGolden() throws { try assertGolden(SummaryReport.self) }
    func testCostGolden() throws { try assertGolden(CostReport.self) }
    func testUtilizationGolden() throws { try assertGolden(UtilizationReport.self) }
    func testMaintenanceDueGolden() throws { try assertGolden(MaintenanceDueReport.self) }
    func testDVIRComplianceGolden() throws { try assertGolden(DVIRComplianceReport.self) }
    func testTripsGolden() throws { try assertGolden(TripsReport.self) }
    func testFuelExceptionsGolden() throws { try assertGolden(FuelExceptionsReport.self) }

    // MARK: - What the goldens must agree with

    /// A headline figure of a report (its JSON `totals`).
    func figure(_ out: ReportOutput, _ key: String) -> Double? { out.metadata.totals.first { $0.0 == key }?.1 }

    /// `report all` computes the summary from the other reports' outputs; it must be exactly the
    /// summary computed on its own.
    func testTheSummaryOfReportAllIsTheStandaloneSummary() throws {
        let s = try sample()
        let request = Self.request
        let reused = try s.warehouse.warehouse.pool.read { db in try ReportWriter.run(ReportRegistry.all, db, request) }
        let alone = try output(SummaryReport.self)
        let i = try XCTUnwrap(ReportRegistry.all.firstIndex { $0.name == SummaryReport.name })
        let da = try ReportFixture.temporaryDirectory("a"), db = try ReportFixture.temporaryDirectory("b")
        let a = try CSVFormat().write(reused[i], to: da), b = try CSVFormat().write(alone, to: db)
        XCTAssertEqual(try a.map { try String(contentsOf: $0, encoding: .utf8) }, try b.map { try String(contentsOf: $0, encoding: .utf8) })
        XCTAssertEqual(reused[i].metadata, alone.metadata)
    }

    /// Every headline figure of every report prints with the unit it was declared with, and a
    /// figure's unit follows the column it totals (a money column totals to money).
    func testEveryHeadlineHasAKnownUnit() throws {
        let expected: [String: HeadlineUnit] = ["total": .money, "fuel": .money, "distance": .distance, "engine_hours": .hours, "idle_hours": .hours,
                                                "hours": .hours, "utilization": .percent, "pm_compliance": .percent, "trips": .count, "assets": .count]
        for report in ReportRegistry.all {
            let out = try output(report)
            XCTAssertFalse(out.metadata.headlines.isEmpty, report.name)
            for h in out.metadata.headlines {
                if let unit = expected[h.name] { XCTAssertEqual(h.unit, unit, "\(report.name): headline \(h.name)") }
                if CostLine.categories.contains(h.name) { XCTAssertEqual(h.unit, .money, "\(report.name): headline \(h.name)") }
            }
        }
        let m = try output(CostReport.self).metadata
        XCTAssertEqual(ReportHeadline("total", 12345.678, .money).text(m), "$12,345.68")
        XCTAssertEqual(ReportHeadline("distance", 1204.46, .distance).text(m), "1,204.5 mi")
        XCTAssertEqual(ReportHeadline("utilization", 83.24, .percent).text(m), "83.2 %")
        XCTAssertEqual(ReportHeadline.count("trips", 1204).text(m), "1,204")
        XCTAssertEqual(HeadlineUnit.money.excelFormat(1, m), "#,##0.00 \"USD\"")
        XCTAssertEqual(ReportHeadline(ReportColumn("engine_hours", "Engine hours", .duration, unit: "h"), 3).unit, .hours)
    }

    /// Cost: the total is the sum of the month's source rows (fuel not linked to another
    /// purchase, expenses, maintenance), each foreign amount converted here, independently of
    /// CurrencyConverter, by the latest `fx_rate` on or before its local day and rounded half
    /// to even to the cent.
    func testCostReconcilesToTheRows() throws {
        let out = try output(CostReport.self)
        let t = try sample().warehouse
        let from = Self.zone.start(of: CivilDate("2026-10-01")!), to = Self.zone.start(of: CivilDate("2026-11-01")!)
        let rows = try t.rows("""
            SELECT total_minor, currency, at FROM fuel_purchase WHERE linked_to IS NULL AND total_minor IS NOT NULL AND at >= ?1 AND at < ?2
            UNION ALL SELECT amount_minor, currency, at FROM expense WHERE at >= ?1 AND at < ?2
            UNION ALL SELECT cost_minor, currency, performed_at FROM maintenance_record WHERE cost_minor IS NOT NULL AND performed_at >= ?1 AND performed_at < ?2
            UNION ALL SELECT cost_minor, cost_currency, at FROM fuel_dispense WHERE cost_minor IS NOT NULL AND at >= ?1 AND at < ?2
            """, [from, to])
        // The machines' bulk fuel is priced (its weighted average is checked by TankCostingTests
        // and, on SampleData, by scripts/verify/bulk-fuel.py); here its rows are summed like the rest.
        XCTAssertEqual(try t.count("fuel_dispense", where: "cost_minor IS NULL"), 0)
        var cents: Int64 = 0, foreign = 0
        for r in rows {
            let minor: Int64 = r[0], currency: String = r[1], at: Int64 = r[2]
            if currency == "USD" { cents += minor; continue }
            foreign += 1
            let day = Self.zone.day(of: at).description
            let perBase: Double = try XCTUnwrap(t.rows("SELECT per_base FROM fx_rate WHERE currency = ? AND day <= ? ORDER BY day DESC LIMIT 1", [currency, day]).first?[0],
                                                "no \(currency) rate on \(day)")
            cents += Int64((Double(minor) / pow(10, Double(Money.minorDigits(currency))) / perBase * 100).rounded(.toNearestOrEven))
        }
        XCTAssertGreaterThan(rows.count, 30)
        XCTAssertEqual(foreign, 1, "the sample's EUR invoice falls in October")
        XCTAssertEqual(figure(out, "total").map { Int64(($0 * 100).rounded()) }, cents)
    }

    /// Utilization and trips agree with asset_day and trip rows of the month's local days.
    func testUtilizationAndTripsAgreeWithTheWarehouse() throws {
        let t = try sample().warehouse
        let days: Double = try t.rows("SELECT SUM(distance_m) FROM asset_day WHERE day BETWEEN '2026-10-01' AND '2026-10-31'")[0][0]
        XCTAssertGreaterThan(days, 0)
        let utilization = try output(UtilizationReport.self)
        XCTAssertEqual(try XCTUnwrap(figure(utilization, "distance")), days / 1609.344, accuracy: 0.05)
        let trips = try output(TripsReport.self)
        let start = Self.zone.start(of: CivilDate("2026-10-01")!), end = Self.zone.start(of: CivilDate("2026-11-01")!)
        let count: Int = try t.rows("SELECT COUNT(*) FROM trip WHERE start_at >= ? AND start_at < ?", [start, end])[0][0]
        XCTAssertGreaterThan(count, 0)
        XCTAssertEqual(trips.tables[0].rows.count, count)
    }

    /// The summary repeats the other reports' headline figures, not its own variants.
    func testSummaryRepeatsTheOtherReports() throws {
        let summary = try output(SummaryReport.self)
        let cost = try output(CostReport.self)
        let utilization = try output(UtilizationReport.self)
        XCTAssertEqual(figure(summary, "total"), figure(cost, "total"))
        XCTAssertEqual(figure(summary, "fuel"), figure(cost, "fuel"))
        XCTAssertEqual(figure(summary, "utilization"), figure(utilization, "utilization"))
        XCTAssertNotNil(figure(summary, "utilization"))
    }
}
