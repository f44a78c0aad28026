import XCTest
import GRDB
@testable import FleetReports
import FleetTestSupport

/// The cost report's charts show what a reader compares in the period: a one-month report has
/// no single-bar month chart, but each group's spend by category and the assets that cost most
/// per mile; each chart agrees with the table beside it.
final class CostChartsTests: XCTestCase {
    private func cost() throws -> ReportOutput {
        let sample = try SampleReportGoldenTests.sharedSample(), request = SampleReportGoldenTests.request
        return try sample.warehouse.warehouse.pool.read { db in try CostReport().run(db, request) }
    }

    func testAOneMonthReportComparesGroupsAndAssetsNotMonths() throws {
        let output = try cost()
        XCTAssertEqual(output.charts.map(\.title).first, "Cost by group and category (USD)")
        XCTAssertEqual(output.charts.count, 2, "\(output.charts.map(\.title))")
        XCTAssertFalse(output.charts.contains { $0.title.hasPrefix("Cost by month") })
    }

    /// Each group's stacked bar adds up to the group's total in "Subtotals by group".
    func testEachGroupBarAddsUpToItsSubtotal() throws {
        let output = try cost()
        let chart = try XCTUnwrap(output.charts.first { $0.title.hasPrefix("Cost by group") })
        let table = try XCTUnwrap(output.tables.first { $0.name == "by_group" })
        let total = try XCTUnwrap(table.columns.firstIndex { $0.name == "total" })
        XCTAssertEqual(chart.categories, table.rows.map { row -> String in if case let .text(s) = row[0] { return s } else { return "" } })
        for (i, row) in table.rows.enumerated() {
            let bar = chart.series.reduce(0) { $0 + $1.values[i] }
            XCTAssertEqual(bar, try XCTUnwrap(row[total].number), accuracy: 0.005, chart.categories[i])
        }
    }

    /// The ranking is the assets' own cost per mi from "Cost by asset and category", highest
    /// first; no asset left out costs more per mile than the last one shown.
    func testTheRankingIsTheHighestCostPerMile() throws {
        let output = try cost()
        let chart = try XCTUnwrap(output.charts.first { $0.title.contains("by cost per mi") })
        let table = try XCTUnwrap(output.tables.first { $0.name == "by_asset" })
        let c = try XCTUnwrap(table.columns.firstIndex { $0.name == "cost_per_distance" })
        var perMile: [String: Double] = [:]
        for row in table.rows { if case let .text(unit) = row[0], let v = row[c].number { perMile[unit] = v } }
        let values = chart.series[0].values
        XCTAssertEqual(chart.categories.count, min(CostCharts.topAssets, perMile.count))
        XCTAssertEqual(values, values.sorted(by: >))
        for (unit, v) in zip(chart.categories, values) { XCTAssertEqual(v, perMile[unit]) }
        for (unit, v) in perMile where !chart.categories.contains(unit) { XCTAssertLessThanOrEqual(v, values.last!, unit) }
        XCTAssertEqual(chart.valueLabel, "USD/mi")
    }

    /// A period of several months keeps the month-by-month chart first; one month drops it.
    func testTheMonthChartIsKeptForSeveralMonths() {
        let months = ReportChart(kind: .stackedBar, title: "Cost by month and category (USD)", categories: ["2026-08", "2026-09", "2026-10"],
                                 series: [("Fuel", [1, 2, 3])], valueLabel: "USD")
        XCTAssertEqual(CostCharts.make(monthly: months, tables: [], currency: "USD", distanceUnit: "mi").map(\.title), [months.title])
        var one = months
        one.categories = ["2026-10"]
        one.series = [("Fuel", [3])]
        XCTAssertEqual(CostCharts.make(monthly: one, tables: [], currency: "USD", distanceUnit: "mi").count, 0)
    }
}
