import XCTest
import GRDB
import FleetKit
@testable import FleetReports
import FleetTestSupport

/// Incomplete figures say so in every format's header, not only in data quality (issue 19), and
/// utilization's available days stop where the data does. On the golden sample warehouse
/// (`SampleReportGoldenTests.sharedSample()`: October 2026, rates for EUR, none for GBP).
final class PartialReportTests: XCTestCase {
    static let asOf = CivilDate(year: 2026, month: 11, day: 24)!

    func sample() throws -> TestWarehouse { try SampleReportGoldenTests.sharedSample().warehouse }

    func request(_ period: ReportPeriod, currency: String = "USD", assets: [String]? = nil) -> ReportRequest {
        ReportRequest(period: period, zone: SampleReportGoldenTests.zone, units: .us, currency: currency, assets: assets, generatedAt: 0, asOf: Self.asOf)
    }

    func run(_ report: any Report.Type, _ request: ReportRequest) throws -> ReportOutput {
        try sample().warehouse.pool.read { db in try ReportWriter.checked(report.init().run(db, request), db, request) }
    }

    func figure(_ o: ReportOutput, _ key: String) -> Double? { o.metadata.totals.first { $0.0 == key }?.1 }

    /// Q4 counted November and December as available days: 25.8 % against October's 76.6 % on
    /// the fleet. Now the quarter's utilization is October's, and the report is partial.
    func testAQuarterPastTheDataCountsOnlyTheDaysWithData() throws {
        let october = try run(UtilizationReport.self, request(.month(2026, 10)))
        let quarter = try run(UtilizationReport.self, request(.quarter(2026, 4)))
        XCTAssertEqual(october.metadata.partial, [])
        XCTAssertEqual(october.metadata.dataThrough, CivilDate(year: 2026, month: 10, day: 31))
        let u = try XCTUnwrap(figure(october, "utilization"))
        XCTAssertGreaterThan(u, 30)
        XCTAssertEqual(figure(quarter, "utilization"), u)
        XCTAssertEqual(quarter.tables[0].totals?[3], october.tables[0].totals?[3], "days available")
        XCTAssertEqual(quarter.metadata.partial, [
            "the period 2026-Q4 ends on 2026-12-31, after today (2026-11-24): its later days have no data yet",
            "the warehouse's data ends on 2026-10-31, before the period's last day 2026-12-31: import the later files, or report a period that ends by 2026-10-31",
        ])
    }

    /// A fleet that rests on the period's last days is not "partial": data within
    /// `ReportCompleteness.quietDays` of the end covers the period; further back, it does not.
    func testQuietDaysAtTheEndAreNotMissingData() throws {
        let october = request(.month(2026, 10))
        let end = CivilDate(year: 2026, month: 10, day: 31)!
        XCTAssertEqual(ReportCompleteness.coveredThrough(october, dataThrough: end.adding(days: -7)), end)
        XCTAssertEqual(ReportCompleteness.coveredThrough(october, dataThrough: end.adding(days: -8)), end.adding(days: -8))
        XCTAssertNil(ReportCompleteness.coveredThrough(october, dataThrough: nil))
        // The current month, as of the 24th with data through the 23rd: covered to today, not to the 30th.
        var current = request(.month(2026, 11))
        current.asOf = CivilDate(year: 2026, month: 11, day: 24)!
        XCTAssertEqual(ReportCompleteness.coveredThrough(current, dataThrough: CivilDate(year: 2026, month: 11, day: 23)), current.asOf)
    }

    /// `--currency GBP` with no GBP rates: every cost row left out, total 0, said in every header.
    func testCostWithoutRatesIsPartialInEveryFormat() throws {
        let request = request(.month(2026, 10), currency: "GBP")
        let dir = try ReportFixture.temporaryDirectory()
        let written = try ReportWriter(warehouse: try sample().warehouse).write([CostReport.self], request: request, to: dir, index: true)
        XCTAssertEqual(written.failures, [])
        let m = try XCTUnwrap(written.outputs.first).metadata
        XCTAssertEqual(m.partial.count, 1, "\(m.partial)")
        let reason = try XCTUnwrap(m.partial.first)
        XCTAssertTrue(reason.contains("cost rows have no exchange rate to GBP and are left out of the totals"), reason)
        XCTAssertEqual(figure(written.outputs[0], "total"), 0)

        let csv = try String(contentsOf: dir.appendingPathComponent("cost-2026-10-parameters.csv"), encoding: .utf8)
        XCTAssertTrue(csv.contains("report,status,partial\r\n"), csv)
        XCTAssertTrue(csv.contains("partial,reason,"), csv)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("cost-2026-10.json"))) as! [String: Any]
        XCTAssertEqual(json["partial"] as? Bool, true)
        XCTAssertEqual(json["partial_reasons"] as? [String], [reason])
        XCTAssertEqual(json["data_through"] as? String, "2026-10-31")
        let html = try String(contentsOf: dir.appendingPathComponent("cost-2026-10.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("<h1>Cost report <span class=\"partial\">(partial)</span></h1>"), html)
        XCTAssertTrue(html.contains("<strong>Partial report: these figures are incomplete.</strong>"), html)
        XCTAssertTrue(html.contains("<div><dt>Data through</dt><dd>2026-10-31</dd></div>"), html)
        let index = try String(contentsOf: dir.appendingPathComponent("index.html"), encoding: .utf8)
        XCTAssertTrue(index.contains("Cost report, 2026-10 (partial)"), index)
        let strings = try XCTUnwrap(try ToolRunner.xlsxParts(dir.appendingPathComponent("cost-2026-10.xlsx").path)["xl/sharedStrings.xml"])
        XCTAssertTrue(strings.contains("Cost report (partial)"), strings)
        XCTAssertTrue(strings.contains("PARTIAL: "), strings)
    }

    /// The summary repeats the cost total, so it is partial with the cost report's reason.
    func testTheSummaryInheritsTheCostReportsReason() throws {
        let cost = try run(CostReport.self, request(.month(2026, 10), currency: "GBP"))
        let summary = try run(SummaryReport.self, request(.month(2026, 10), currency: "GBP"))
        XCTAssertFalse(cost.metadata.partial.isEmpty)
        XCTAssertEqual(summary.metadata.partial, cost.metadata.partial)
    }

    /// A unit number no asset has (the CLI refuses it first, exit 64; the library says it too).
    func testAnUnknownUnitMakesTheReportPartial() throws {
        let o = try run(CostReport.self, request(.month(2026, 10), assets: ["T-01", "T-99"]))
        XCTAssertEqual(o.metadata.partial, ["no asset has the unit number 'T-99': the figures cover only the units that exist"])
    }

    func testACompleteReportSaysComplete() throws {
        let dir = try ReportFixture.temporaryDirectory()
        _ = try JSONFormat().write(try run(CostReport.self, request(.month(2026, 10))), to: dir)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("cost-2026-10.json"))) as! [String: Any]
        XCTAssertEqual(json["partial"] as? Bool, false)
        XCTAssertEqual(json["partial_reasons"] as? [String], [])
    }
}
