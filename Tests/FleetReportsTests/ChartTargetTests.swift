import XCTest
import GRDB
@testable import FleetReports
import FleetTestSupport

/// Utilization by asset is drawn against its target: a dashed line at 100 % of target hours in
/// HTML, and the target written under the chart's data in XLSX.
final class ChartTargetTests: XCTestCase {
    private let chart: ReportChart = {
        var c = ReportChart(kind: .bar, title: "Utilization by asset", categories: ["T-1", "T-2"], series: [("utilization", [40, 55])], valueLabel: "%")
        (c.target, c.targetLabel) = (100, "target")
        return c
    }()

    /// Bars of 40 and 55 % alone would end the axis at 60; the target stretches it to 100 and
    /// the line is drawn at 100's position, named below the axis.
    func testTheTargetLineIsDrawnAndOnTheAxis() {
        let svg = SVGChart(chart: chart).svg()
        XCTAssertTrue(svg.contains("<line class=\"target\""), svg)
        XCTAssertTrue(svg.contains(">target 100 %</text>"), svg)
        XCTAssertTrue(svg.contains(">100</text>"), "the axis reaches the target: \(svg)")
        var none = chart
        none.target = nil
        XCTAssertFalse(SVGChart(chart: none).svg().contains("class=\"target\""))
        XCTAssertFalse(SVGChart(chart: none).svg().contains(">100</text>"))
    }

    func testTheUtilizationReportSetsItsTarget() throws {
        let sample = try SampleReportGoldenTests.sharedSample(), request = SampleReportGoldenTests.request
        let output = try sample.warehouse.warehouse.pool.read { db in try UtilizationReport().run(db, request) }
        let bars = try XCTUnwrap(output.charts.first { $0.kind == .bar })
        XCTAssertEqual(bars.target, 100)
    }

    func testTheWorkbookStatesTheTargetUnderTheChartData() throws {
        var output = ReportFixture.output()
        output.charts = [chart]
        let parts = try ToolRunner.xlsxParts(try XLSXFormat().write(output, to: ReportFixture.temporaryDirectory())[0].path)
        XCTAssertTrue(parts["xl/sharedStrings.xml"]?.contains("<t>target: 100 %</t>") ?? false)
    }
}
