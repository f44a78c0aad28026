import XCTest
import GRDB
import FleetKit
@testable import FleetReports
import FleetTestSupport

/// Unknown is not zero (docs/METRICS.md, "Unknown is not zero"): a machine that sent one ISO
/// 15143-3 snapshot (Fixtures/unknown/single-snapshot-running.xml: one hour-meter reading of
/// 1288.4 h, one fix, Running = true) has a rollup day but no measured interval. Read
/// independently, one reading says nothing about how long it ran that month: its days
/// operated, hours and utilization are unknown, and so is the summary's count of active assets.
/// It used to show 0 days, 0 h, 0 % and "active assets 0".
final class UnknownUseReportTests: XCTestCase {
    static let snapshot = fixture("unknown/single-snapshot-running.xml")
    static let request = ReportRequest(period: .month(2026, 10), generatedAt: 0, asOf: CivilDate(year: 2026, month: 11, day: 1)!)

    func run(_ t: TestWarehouse, _ report: any Report.Type) throws -> ReportOutput {
        try t.warehouse.pool.read { db in try report.init().run(db, Self.request) }
    }

    func column(_ table: ReportTable, _ name: String, row: Int = 0) -> ReportValue {
        table.rows[row][table.columns.firstIndex { $0.name == name }!]
    }

    func qualityCount(_ out: ReportOutput, _ prefix: String) -> ReportValue? {
        out.dataQuality.rows.first { ($0[0].textValue ?? "").hasPrefix(prefix) }?[1]
    }

    func testOneSnapshotIsUnknownUseNotZero() throws {
        let t = try TestWarehouse()
        let outcome = try t.importFile(Self.snapshot)
        XCTAssertEqual(outcome.loaded > 0, true, "\(outcome)")
        XCTAssertEqual(try t.warehouse.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM asset_day") }, 1, "the snapshot leaves one rollup day")

        let utilization = try run(t, UtilizationReport.self)
        let table = utilization.tables[0]
        XCTAssertEqual(table.rows.count, 1)
        for name in ["days_operated", "engine_hours", "idle_hours", "working_hours", "idle_ratio", "distance", "utilization"] {
            XCTAssertEqual(column(table, name), .null, name)
        }
        XCTAssertEqual(table.totals?[4], .null, "fleet days operated")
        XCTAssertEqual(table.totals?[5], .null, "fleet engine hours")
        XCTAssertEqual(qualityCount(utilization, "Assets whose use is unknown"), .integer(1))
        XCTAssertEqual(qualityCount(utilization, "Assets with no telematics"), .integer(0))
        XCTAssertNil(utilization.metadata.totals.first { $0.0 == "engine_hours" }, "an unknown total is left out, not 0")
        XCTAssertTrue(utilization.charts.isEmpty)

        let summary = try run(t, SummaryReport.self)
        let dashboard = summary.tables[0]
        func metric(_ name: String) -> [ReportValue]? { dashboard.rows.first { $0[0] == .text(name) } }
        XCTAssertEqual(metric("Assets")?[1], .integer(1))
        XCTAssertEqual(metric("Active assets")?[1], .null)
        XCTAssertEqual(metric("Active share")?[1], .null)
        XCTAssertEqual(metric("Engine hours")?[1], .null)
        XCTAssertEqual(metric("Distance")?[1], .null)
        XCTAssertTrue(metric("Active assets")?[3].textValue?.contains("use unknown for 1 of 1 assets") ?? false, "\(String(describing: metric("Active assets")))")
        XCTAssertNil(summary.metadata.totals.first { $0.0 == "active_assets" })
        XCTAssertTrue(summary.dataQuality.rows.contains { ($0[0].textValue ?? "").contains("Assets whose use is unknown") && $0[1] == .integer(1) })
    }

    /// The same class in the other reports that show use: the cost report's distance and engine
    /// hours, and DVIR compliance's days operated (for a vehicle: the test makes the snapshot's
    /// asset one, since DVIRs are for vehicles) are unknown, not 0.
    func testCostAndDVIRShowOneSnapshotAsUnknown() throws {
        let t = try TestWarehouse()
        _ = try t.importFile(Self.snapshot)
        let cost = try run(t, CostReport.self).tables[0]
        XCTAssertEqual(cost.rows.count, 1)
        XCTAssertEqual(column(cost, "distance"), .null)
        XCTAssertEqual(column(cost, "engine_hours"), .null)

        try t.warehouse.pool.write { try $0.execute(sql: "UPDATE asset SET kind = 'vehicle'") }
        let dvir = try run(t, DVIRComplianceReport.self)
        let byVehicle = dvir.tables[0]
        XCTAssertEqual(byVehicle.rows.count, 1)
        XCTAssertEqual(column(byVehicle, "days_operated"), .null)
        XCTAssertEqual(column(byVehicle, "days_requiring_report"), .null)
        XCTAssertEqual(column(byVehicle, "days_missing_report"), .null)
        XCTAssertEqual(qualityCount(dvir, "Vehicles with no telematics, or a single reading"), .integer(1))
    }

    /// The same machine seen again later the same month, 6.5 h further on its meter: now there
    /// is an interval, and the figures are measured ones (6.5 h, one day operated).
    func testASecondSnapshotMeasuresTheInterval() throws {
        let t = try TestWarehouse()
        _ = try t.importFile(Self.snapshot)
        let text = try String(contentsOf: Self.snapshot, encoding: .utf8)
            .replacingOccurrences(of: "2026-10-09T21:14:07Z", with: "2026-10-10T04:14:07Z")
            .replacingOccurrences(of: "2026-10-10T06:00:00Z", with: "2026-10-10T12:00:00Z")
            .replacingOccurrences(of: "<Hour>1288.4</Hour>", with: "<Hour>1294.9</Hour>")
        let second = try ReportFixture.temporaryDirectory().appendingPathComponent("single-snapshot-later.xml")
        try text.write(to: second, atomically: true, encoding: .utf8)
        _ = try t.importFile(second)

        let table = try run(t, UtilizationReport.self).tables[0]
        guard case let .number(engine) = column(table, "engine_hours") else { return XCTFail("engine hours: \(column(table, "engine_hours"))") }
        XCTAssertEqual(engine, 6.5, accuracy: 0.01)
        XCTAssertNotEqual(column(table, "days_operated"), .null)
        let summary = try run(t, SummaryReport.self).tables[0]
        XCTAssertEqual(summary.rows.first { $0[0] == .text("Active assets") }?[1], .integer(1))
    }
}
