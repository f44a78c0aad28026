import Foundation
import FleetCore
@testable import FleetReports

/// A tiny report that exercises every renderer path: every column type, a totals row, a table
/// without totals, a data-quality table, a stacked and a plain bar chart, a datetime on each
/// side of the 2026-11-01 DST change in America/Chicago, and three hostile asset names from an
/// imported file (a spreadsheet formula, a script tag, quotes and an ampersand).
enum ReportFixture {
    /// 2026-11-01T12:00:00Z = 06:00 CST: fixed so golden files do not change between runs.
    static let generatedAt: Int64 = 1_793_534_400_000

    static let formula = "=HYPERLINK(\"http://x\")"
    static let script = "<script>alert(1)</script>"
    static let quotes = "O'Brien & \"Sons\""

    static func output(generatedAt: Int64 = generatedAt) -> ReportOutput {
        ReportOutput(metadata: metadata(generatedAt: generatedAt), tables: [byAsset, byMonth],
                     charts: [costChart, utilizationChart], dataQuality: dataQuality)
    }

    static func metadata(generatedAt: Int64) -> ReportMetadata {
        var m = ReportMetadata(
            report: "cost", title: "Cost report", period: .month(2026, 10), timeZone: "America/Chicago",
            units: .metric, currency: "USD",
            parameters: [("group_by", "asset"), ("fx_source", "ECB daily reference rates")],
            methods: [
                "Cost is the sum of fuel, maintenance and expense rows in the period, converted at the date-effective rate (docs/METRICS.md).",
                "Utilization % = engine hours ÷ (40 target hours per week × weeks in the period).",
            ],
            headlines: [ReportHeadline("total", 9_877_752.76, .money), ReportHeadline("distance", 100_000.0078, .distance), .count("assets", 4)],
            generatedAt: generatedAt,
            sources: [
                ReportSource(id: 1, path: "SampleData/fuel/wex-2026-10.csv", format: "fuel-card",
                             sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"),
                ReportSource(id: 2, path: "SampleData/maintenance/shop & yard.csv", format: "maintenance",
                             sha256: "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752"),
            ])
        m.dataThrough = day(2026, 10, 31)
        return m
    }

    static let byAssetColumns = [
        ReportColumn("asset", "Asset", .text),
        ReportColumn("trips", "Trips", .integer),
        ReportColumn("cost", "Cost", .money, unit: "USD"),
        ReportColumn("utilization", "Utilization", .percent, unit: "%"),
        ReportColumn("last_service", "Last service", .date),
        ReportColumn("last_seen", "Last seen", .datetime),
        ReportColumn("distance", "Distance", .distance, unit: "km"),
        ReportColumn("engine_hours", "Engine hours", .duration, unit: "h"),
    ]

    static let byAssetRows: [[ReportValue]] = [
        [.text("TRK-101"), .integer(42), usd(123_450), .percent(73.4), .date(day(2026, 10, 3)), .datetime(1_793_484_900_000),
         .number(1234.5678), .number(12.5)],
        [.text(formula), .integer(7), usd(5), .percent(12.25), .date(day(2026, 9, 30)), .datetime(1_792_051_230_250),
         .number(0.04), .number(1.0 / 3.0)],
        [.text(script), .integer(0), usd(-2500), .percent(0), .null, .null, .number(0), .number(0)],
        [.text(quotes), .integer(1_234_567), usd(987_654_321), .percent(100), .date(day(2026, 10, 31)), .datetime(1_793_518_200_000),
         .number(98_765.4), .number(1500)],
    ]

    static var byAsset: ReportTable {
        ReportTable(name: "by_asset", title: "Cost by asset", columns: byAssetColumns, rows: byAssetRows,
                    totals: [.text("Total"), .integer(1_234_616), usd(987_775_276), .percent(46.4125), .null, .null,
                             .number(100_000.0078), .number(1512.5 + 1.0 / 3.0)],
                    note: "One row per asset; cost includes refunds as negative amounts.")
    }

    static var byMonth: ReportTable {
        ReportTable(name: "by_month", title: "Cost by month and category", columns: [
            ReportColumn("month", "Month", .text),
            ReportColumn("category", "Category", .text),
            ReportColumn("cost", "Cost", .money, unit: "USD"),
            ReportColumn("fuel_volume", "Fuel", .volume, unit: "L"),
            ReportColumn("fuel_economy", "Fuel economy", .decimal, unit: "L/100 km"),
        ], rows: [
            [.text("2026-10"), .text("Fuel"), usd(141_025), .number(812.3), .number(31.25)],
            [.text("2026-10"), .text("Maintenance"), usd(84_550), .null, .null],
            [.text("2026-10"), .text("Tolls"), usd(3800), .null, .null],
        ])
    }

    static var dataQuality: ReportTable {
        ReportTable(name: "data_quality", title: "Data quality", columns: [
            ReportColumn("check", "Check", .text),
            ReportColumn("rows", "Rows", .integer),
            ReportColumn("detail", "Detail", .text),
        ], rows: [
            [.text("meter_rollback"), .integer(1), .text("TRK-101 odometer went back 12 km on 2026-10-12")],
            [.text("unassigned_cost"), .integer(2), .text("2 receipts name no known asset: " + script)],
        ], note: "Rows excluded from the figures above, and why.")
    }

    static let costChart = ReportChart(
        kind: .stackedBar, title: "Cost by month and category", categories: ["2026-08", "2026-09", "2026-10"],
        series: [("Fuel", [1200.5, 1320, 1410.25]), ("Maintenance", [300, 0, 845.5]), ("Tolls", [45, 52.5, 38])],
        valueLabel: "Cost (USD)")

    static let utilizationChart = ReportChart(
        kind: .bar, title: "Utilization by asset", categories: ["TRK-101", formula, script, quotes],
        series: [("Utilization", [73.4, 12.25, 0, 100])], valueLabel: "Utilization (%)")

    static let dueChart = ReportChart(
        kind: .timeline, title: "Maintenance due", categories: ["TRK-101 oil", quotes, script],
        series: [("Days until due", [12, -3, 40])], valueLabel: "Days until due")

    static func usd(_ minor: Int64) -> ReportValue { .money(minor: minor, currency: "USD") }
    static func day(_ y: Int, _ m: Int, _ d: Int) -> CivilDate { CivilDate(year: y, month: m, day: d)! }

    /// A fresh temporary folder for one test's output.
    static func temporaryDirectory(_ tag: String = #function) throws -> URL {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("fleetkit-reports-\(tag.filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The package root, found from this file's path (Tests/FleetReportsTests/ReportFixture.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
