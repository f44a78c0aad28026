import XCTest
@testable import FleetReports

final class HTMLFormatTests: XCTestCase {
    func testGolden() throws {
        let dir = try ReportFixture.temporaryDirectory()
        let urls = try HTMLFormat.html().write(ReportFixture.output(), to: dir)
        XCTAssertEqual(urls.map(\.lastPathComponent), ["cost-2026-10.html"])
        Golden.assertMatches(try String(contentsOf: urls[0], encoding: .utf8), "cost-2026-10.html")
    }

    func testHostileNamesAreEscapedEverywhere() throws {
        let html = try HTMLFormat.render(ReportFixture.output())
        XCTAssertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        XCTAssertFalse(html.lowercased().contains("<script"))
        XCTAssertTrue(html.contains("O&#39;Brien &amp; &quot;Sons&quot;"))
        XCTAssertFalse(html.contains("O'Brien"))
        XCTAssertTrue(html.contains("=HYPERLINK(&quot;http://x&quot;)"))
        // In SVG labels and tooltips too.
        XCTAssertTrue(html.contains("<title>&lt;script&gt;alert(1)&lt;/script&gt; · Utilization: 0</title>"), html)
    }

    func testSelfContained() throws {
        // The SVG namespace is a name, not a fetch; everything else must be local.
        let html = try HTMLFormat.render(ReportFixture.output()).lowercased()
            .replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "")
        for forbidden in ["<link", "src=", "@import", "url(", "<script", "http://www", "https://"] {
            XCTAssertFalse(html.contains(forbidden), forbidden)
        }
        XCTAssertTrue(html.contains("@media print"))
        XCTAssertEqual(html.components(separatedBy: "<svg class=\"chart\"").count - 1, 2)
    }

    func testNumbersAreFormattedAndRightAligned() throws {
        let html = try HTMLFormat.render(ReportFixture.output())
        XCTAssertTrue(html.contains("<td class=\"num\">$9,876,543.21</td>"))
        XCTAssertTrue(html.contains("<td class=\"num\">-$25.00</td>"))
        XCTAssertTrue(html.contains("<td class=\"num\">73.4%</td>"))
        XCTAssertTrue(html.contains("<td class=\"num\">1,234,567</td>"))
        XCTAssertTrue(html.contains("<td class=\"num\">0.04</td>"))          // small values keep a significant digit
        XCTAssertTrue(html.contains("<td class=\"date\">2026-10-31 17:15</td>"))
        XCTAssertTrue(html.contains("<th scope=\"col\" class=\"num\">Distance <span class=\"unit\">(km)</span></th>"))
        XCTAssertTrue(html.contains("<tfoot>\n<tr><td>Total</td>"))
    }

    func testTimelineChartAndEmptyTables() throws {
        var output = ReportFixture.output()
        output.charts = [ReportFixture.dueChart]
        output.dataQuality.rows = []
        output.dataQuality.note = nil
        let html = try HTMLFormat.render(output)
        XCTAssertTrue(html.contains(">today</text>"))
        XCTAssertTrue(html.contains("<title>overdue</title>"))
        XCTAssertTrue(html.contains("Nothing to report"))
    }

    func testIndexLinksReports() throws {
        let dir = try ReportFixture.temporaryDirectory()
        let url = try HTMLIndex.writeIndex(entries: [
            (title: "Cost report", href: "cost-2026-10.html", headline: [("Total", "$9,877,752.76")]),
            (title: ReportFixture.script, href: "javascript:alert(1)", headline: []),
        ], title: "FleetKit reports · 2026-10", generatedAt: ReportFixture.generatedAt, timeZone: "America/Chicago", to: dir)
        XCTAssertEqual(url.lastPathComponent, "index.html")
        let html = try String(contentsOf: url, encoding: .utf8)
        XCTAssertTrue(html.contains("<a href=\"cost-2026-10.html\">Cost report</a>"))
        XCTAssertTrue(html.contains("<dt>Total</dt><dd>$9,877,752.76</dd>"))
        XCTAssertTrue(html.contains("<a href=\"#\">&lt;script&gt;"))
        XCTAssertFalse(html.contains("javascript:"))
        XCTAssertTrue(html.contains("2026-11-01 06:00 America/Chicago"))
        Golden.assertMatches(html, "index.html")
    }

    func testWritingTwiceGivesIdenticalFiles() throws {
        let a = try HTMLFormat().write(ReportFixture.output(), to: ReportFixture.temporaryDirectory())[0]
        let b = try HTMLFormat().write(ReportFixture.output(), to: ReportFixture.temporaryDirectory())[0]
        XCTAssertEqual(try Data(contentsOf: a), try Data(contentsOf: b))
    }
}
