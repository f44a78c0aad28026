import XCTest
import GRDB
@testable import FleetReports
import FleetTestSupport
import FleetCore

/// The cost report's charts show what a reader compares in the period: a one-month report has
/// no single-bar month chart, but each group's spend by category and the assets that cost most
/// per mile; each chart agrees with the table beside it.
final class CostChartsTests: XCTestCase {
    private func cost() throws -> ReportOutput {
        let sample = try SampleReportGoldenTests.sharedSample(), request = SampleReportGoldenTests.request
        return try sample.warehouse.warehouse.pool.read { db in try CostReport().run(db, request) }
    }

    func testAOneMonthReportComparesWeeksGroupsAndAssetsNotMonths() throws {
        let output = try cost()
        XCTAssertEqual(output.charts.map(\.title).prefix(2), ["Cost by week and category (USD)", "Cost by group and category (USD)"])
        XCTAssertEqual(output.charts.count, 3, "\(output.charts.map(\.title))")
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

    /// The weekly bars of October 2026 add up to the report's total, and each week's bar is the
    /// sum of the detail rows dated in that week, weeks found here with Foundation's ISO 8601
    /// calendar (not with `CostWeeks`). October 1, 2026 is a Thursday and October 31 a Saturday.
    func testWeeklyBarsAddUpToTheReportTotalAndTheDetailRows() throws {
        let output = try cost()
        let chart = try XCTUnwrap(output.charts.first { $0.title.hasPrefix("Cost by week") })
        XCTAssertEqual(chart.categories, ["Oct 1\u{2013}4", "Oct 5\u{2013}11", "Oct 12\u{2013}18", "Oct 19\u{2013}25", "Oct 26\u{2013}31"])
        let total = try XCTUnwrap(output.metadata.totals.first { $0.0 == "total" }?.1)
        let bars = chart.categories.indices.map { i in chart.series.reduce(0) { $0 + $1.values[i] } }
        XCTAssertGreaterThan(total, 0)
        XCTAssertEqual(bars.reduce(0, +), total, accuracy: 0.005)

        let detail = try XCTUnwrap(output.tables.first { $0.name == "detail" })
        XCTAssertNil(detail.stream, "the sample's detail rows are held")
        let date = try XCTUnwrap(detail.columns.firstIndex { $0.name == "date" })
        let amount = try XCTUnwrap(detail.columns.firstIndex { $0.name == "amount_report" })
        var iso = Calendar(identifier: .iso8601)
        iso.timeZone = TimeZone(identifier: "UTC")!
        var byWeek = [Int64](repeating: 0, count: 6)
        for row in detail.rows {
            guard case let .date(d) = row[date], case let .money(minor, _) = row[amount] else { continue }
            let when = iso.date(from: DateComponents(year: d.year, month: d.month, day: d.day))!
            byWeek[iso.component(.weekOfYear, from: when) - 40] += minor   // ISO week 40 holds Oct 1, 2026
        }
        XCTAssertEqual(byWeek[5], 0, "no October day is in ISO week 45")
        for i in 0..<5 { XCTAssertEqual(bars[i], Double(byWeek[i]) / 100, accuracy: 0.005, chart.categories[i]) }
    }

    /// Weeks start on Monday; a week crossing a month is labelled with both months, a one-day
    /// week with its day, a week with no spend is still drawn; a period longer than a month has
    /// no weekly chart (its months are compared instead).
    func testWeekLabelsAndLimits() throws {
        XCTAssertEqual(CostWeeks.monday(of: CivilDate("2026-10-04")!), CivilDate("2026-09-28")!)   // a Sunday
        XCTAssertEqual(CostWeeks.monday(of: CivilDate("2026-10-05")!), CivilDate("2026-10-05")!)   // a Monday
        XCTAssertEqual(CostWeeks.monday(of: CivilDate("1969-12-31")!), CivilDate("1969-12-29")!)   // before the epoch
        var weeks = CostWeeks()
        try weeks.add(day: CivilDate("2026-09-28")!, category: "fuel", minor: 1_000)
        try weeks.add(day: CivilDate("2026-10-04")!, category: "tolls", minor: 250)
        try weeks.add(day: CivilDate("2026-10-19")!, category: "fuel", minor: 199)
        let period = ReportPeriod.range(CivilDate("2026-09-28")!, CivilDate("2026-10-19")!)
        let chart = try XCTUnwrap(weeks.chart(period: period, currency: "USD"))
        XCTAssertEqual(chart.categories, ["Sep 28\u{2013}Oct 4", "Oct 5\u{2013}11", "Oct 12\u{2013}18", "Oct 19"])
        XCTAssertEqual(chart.series.map(\.name), ["Fuel", "Tolls"])
        XCTAssertEqual(chart.series[0].values, [10, 0, 0, 1.99])
        XCTAssertEqual(chart.series[1].values, [2.5, 0, 0, 0])
        XCTAssertNil(weeks.chart(period: .range(CivilDate("2026-09-28")!, CivilDate("2026-10-29")!), currency: "USD"), "32 days")
        XCTAssertNil(CostWeeks().chart(period: period, currency: "USD"), "no spend")
        XCTAssertEqual(weeks.chart(period: .range(CivilDate("2026-09-28")!, CivilDate("2026-10-28")!), currency: "JPY")?.series[0].values.first, 1_000)
    }

    /// The workbook draws the weekly chart natively from a data block on its Charts sheet, read
    /// back here with openpyxl: the five week labels, and cells that add up to the report total.
    func testTheWorkbookCarriesTheWeeklyChartAndItsData() throws {
        let output = try cost()
        let python = ReportFixture.packageRoot.appendingPathComponent(".venv-tools/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            return XCTFail("openpyxl is not installed: \(python) is missing; run `make test-tools`")
        }
        let path = try XLSXFormat().write(output, to: try ReportFixture.temporaryDirectory())[0].path
        let charts = try ToolRunner.xlsxParts(path).keys.filter { $0.hasPrefix("xl/charts/chart") }
        XCTAssertEqual(charts.count, output.charts.count, "one native chart per report chart: \(charts.sorted())")
        let script = """
            import sys, openpyxl
            ws = openpyxl.load_workbook(sys.argv[1])["Charts"]
            rows = [list(r) for r in ws.iter_rows(values_only=True)]
            top = next(i for i, r in enumerate(rows) if r[0] == "Cost by week and category (USD)")
            assert rows[top + 2][0] == "Category", rows[top + 2]
            labels, total, i = [], 0.0, top + 3
            while i < len(rows) and rows[i][0]:
                labels.append(rows[i][0]); total += sum(v for v in rows[i][1:] if isinstance(v, (int, float))); i += 1
            print("|".join(labels)); print("%.2f" % total)
            """
        let r = try ToolRunner.run(python, ["-c", script, path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "Oct 1\u{2013}4|Oct 5\u{2013}11|Oct 12\u{2013}18|Oct 19\u{2013}25|Oct 26\u{2013}31")
        let total = try XCTUnwrap(output.metadata.totals.first { $0.0 == "total" }?.1)
        XCTAssertEqual(try XCTUnwrap(lines.last.flatMap(Double.init)), total, accuracy: 0.005)
    }
}

