import XCTest
@testable import FleetReports

/// What a printed or charted workbook looks like, read back by real readers: the chart XML with
/// Python's ElementTree (which axis is reversed, which carries the value name) and the page
/// setup with openpyxl (orientation, fit to width, repeated header rows, footer).
final class XLSXPrintSetupTests: XCTestCase {
    /// A bar chart grows rightwards from 0 (value axis `minMax`, at the bottom), lists the first
    /// category on top (category axis `maxMin`), and names the value axis, not the category axis.
    /// A column chart keeps both axes in their natural order with the name on the value axis.
    func testBarChartAxesAreTheRightWayRound() throws {
        let path = try writeWorkbook(ReportFixture.output())
        let r = try python(Self.chartAxes, path)
        XCTAssertEqual(r.status, 0, r.stderr)
        // chart1: the stacked column chart; chart2: the bar chart (utilization by asset).
        XCTAssertEqual(r.stdout, """
            xl/charts/chart1.xml col cat:minMax:b:- val:minMax:l:Charts!$A$2
            xl/charts/chart2.xml bar cat:maxMin:l:- val:minMax:b:Charts!$A$25

            """)
    }

    func testEverySheetPrintsLandscapeOnePageWideWithRepeatedHeaderAndFooter() throws {
        let path = try writeWorkbook(ReportFixture.output())
        let r = try openpyxl(Self.pageSetup, path)
        XCTAssertEqual(r.status, 0, r.stderr)
        // Summary repeats its table header (row 12, under the metadata block); the charts sheet has
        // no table. fitToWidth is absent, which OOXML reads as its default, 1 page wide.
        XCTAssertEqual(r.stdout, """
            Summary|landscape|None|0|True|$12:$12|Cost report, 2026-10|&A|Page &P of &N
            Cost by month and category|landscape|None|0|True|$1:$1|Cost report, 2026-10|&A|Page &P of &N
            Charts|landscape|None|0|True|None|Cost report, 2026-10|&A|Page &P of &N
            Data quality|landscape|None|0|True|$1:$1|Cost report, 2026-10|&A|Page &P of &N
            Parameters|landscape|None|0|True|$1:$1|Cost report, 2026-10|&A|Page &P of &N

            """)
        let workbook = try XCTUnwrap(try ToolRunner.xlsxParts(path)["xl/workbook.xml"])
        XCTAssertTrue(workbook.contains("<definedName name=\"_xlnm.Print_Titles\" localSheetId=\"0\">Summary!$12:$12</definedName>"), workbook)
    }

    /// An ampersand in a title is literal in the footer (Excel reads `&x` as a code) and a
    /// partial report says so on every printed page; constant-memory mode prints the same.
    func testFooterEscapesAmpersandAndSaysPartial() throws {
        var output = ReportFixture.output()
        output.metadata.title = "Fuel & repairs"
        output.metadata.partial = ["no FX rate for EUR"]
        let path = try writeWorkbook(output, format: XLSXFormat(constantMemoryRows: 2))
        let parts = try ToolRunner.xlsxParts(path)
        let sheet1 = try XCTUnwrap(parts["xl/worksheets/sheet1.xml"])
        XCTAssertTrue(sheet1.contains("<oddFooter>&amp;LFuel &amp;&amp; repairs, 2026-10 (partial)&amp;C&amp;A&amp;RPage &amp;P of &amp;N</oddFooter>"), sheet1)
        XCTAssertTrue(sheet1.contains("<pageSetup fitToHeight=\"0\" orientation=\"landscape\"/>"), sheet1)
        XCTAssertTrue(sheet1.contains("<pageSetUpPr fitToPage=\"1\"/>"), sheet1)
    }

    func testFooterLiteralStaysWithinExcelsLimit() {
        XCTAssertEqual(Workbook.Sheet.footerLiteral("A & B", limit: 100), "A && B")
        let long = Workbook.Sheet.footerLiteral(String(repeating: "&", count: 300), limit: 20)
        XCTAssertEqual(long, String(repeating: "&", count: 18) + "…")
        XCTAssertLessThanOrEqual(XLSXFormat.printSetup(longTitled(), repeatedRow: 0).footer!.count, Workbook.Sheet.maxFooterLength)
    }

    /// libxlsxwriter refuses a footer over 255 characters; a long title is cut, not a failed workbook.
    func testLongTitleStillWritesAWorkbook() throws {
        var output = ReportFixture.output()
        output.metadata = longTitled()
        let parts = try ToolRunner.xlsxParts(try writeWorkbook(output))
        XCTAssertTrue(parts["xl/worksheets/sheet1.xml"]?.contains("Cost &amp;&amp; Cost") ?? false)
    }

    /// A bar chart of 33 assets is tall enough for a label per bar (20 px each): at the default
    /// 403 px Excel and LibreOffice labelled every third asset.
    func testABarChartGrowsWithItsCategories() throws {
        var output = ReportFixture.output()
        let assets = (1...33).map { "T-\($0)" }
        output.charts = [ReportChart(kind: .bar, title: "Utilization by asset", categories: assets,
                                     series: [("Utilization", assets.indices.map { Double($0) })],
                                     valueLabel: "%")]
        let r = try python(Self.anchors, try writeWorkbook(output))
        XCTAssertEqual(r.status, 0, r.stderr)
        // (33 × 20 + 90) px = 750 px: from row 0 into row 37 of 20 px rows (at the old fixed 403 px: row 20).
        XCTAssertEqual(r.stdout, "0 37\n")
    }

    // MARK: helpers

    private func longTitled() -> ReportMetadata {
        var m = ReportFixture.output().metadata
        m.title = String(repeating: "Cost & ", count: 60)
        return m
    }

    private func writeWorkbook(_ output: ReportOutput, format: XLSXFormat = XLSXFormat()) throws -> String {
        try format.write(output, to: ReportFixture.temporaryDirectory())[0].path
    }

    private func python(_ script: String, _ path: String) throws -> ToolRunner.Result {
        try ToolRunner.run("/usr/bin/env", ["python3", "-c", script, path])
    }

    private func openpyxl(_ script: String, _ path: String) throws -> ToolRunner.Result {
        let python = ReportFixture.packageRoot.appendingPathComponent(".venv-tools/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            XCTFail("openpyxl is not installed: \(python) is missing; run `make test-tools`")
            return ToolRunner.Result(status: -1, stdout: "", stderr: "")
        }
        return try ToolRunner.run(python, ["-c", script, path])
    }

    /// Per chart: its bar direction, then per axis its orientation, position and title reference.
    static let chartAxes = #"""
    import sys, zipfile, xml.etree.ElementTree as ET
    C = "{http://schemas.openxmlformats.org/drawingml/2006/chart}"
    z = zipfile.ZipFile(sys.argv[1])
    for name in sorted(n for n in z.namelist() if n.startswith("xl/charts/chart")):
        root = ET.fromstring(z.read(name))
        plot = root.find(f"{C}chart/{C}plotArea")
        out = [name, plot.find(f".//{C}barDir").get("val")]
        for tag, short in (("catAx", "cat"), ("valAx", "val")):
            ax = plot.find(f"{C}{tag}")
            ref = ax.find(f"{C}title//{C}f")
            out.append(":".join([short, ax.find(f"{C}scaling/{C}orientation").get("val"), ax.find(f"{C}axPos").get("val"),
                                 ref.text if ref is not None else "-"]))
        print(" ".join(out))
    """#

    /// The first and last row of each chart's anchor on the Charts sheet.
    static let anchors = #"""
    import sys, zipfile, xml.etree.ElementTree as ET
    X = "{http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing}"
    z = zipfile.ZipFile(sys.argv[1])
    for name in sorted(n for n in z.namelist() if n.startswith("xl/drawings/drawing") and n.endswith(".xml")):
        for anchor in ET.fromstring(z.read(name)).findall(f"{X}twoCellAnchor"):
            print(anchor.find(f"{X}from/{X}row").text, anchor.find(f"{X}to/{X}row").text)
    """#

    static let pageSetup = #"""
    import sys, openpyxl
    wb = openpyxl.load_workbook(sys.argv[1])
    for ws in wb.worksheets:
        ps = ws.page_setup
        f = ws.oddFooter
        print("|".join(str(x) for x in [ws.title, ps.orientation, ps.fitToWidth, ps.fitToHeight, ws.sheet_properties.pageSetUpPr.fitToPage,
                                         ws.print_title_rows, f.left.text, f.center.text, f.right.text]))
    """#
}
