import XCTest
import GRDB
@testable import FleetReports
import FleetTestSupport

/// The pages of a report folder link each other: the summary's "Details in" entries open the
/// report named, and every page links back to `index.html` when there is one. Every link is
/// checked against the files actually written, so none points at a file that is not there.
final class HTMLLinkTests: XCTestCase {
    func testEveryLinkOfReportAllOpensAFileBesideIt() throws {
        let dir = try ReportFixture.temporaryDirectory()
        let sample = try SampleReportGoldenTests.sharedSample()
        let written = try ReportWriter(warehouse: sample.warehouse.warehouse)
            .write(ReportRegistry.all, request: SampleReportGoldenTests.request, to: dir, index: true)
        XCTAssertEqual(written.failures.count, 0, "\(written.failures)")
        let pages = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".html") }.sorted()
        XCTAssertEqual(pages.count, ReportRegistry.all.count + 1)
        for page in pages {
            let html = try String(contentsOf: dir.appendingPathComponent(page), encoding: .utf8)
            let links = Self.hrefs(html).filter { !$0.hasPrefix("#") }
            for link in links {
                XCTAssertTrue(FileManager.default.fileExists(atPath: dir.appendingPathComponent(link).path), "\(page) links \(link), which is not there")
            }
            if page != "index.html" { XCTAssertTrue(links.contains("index.html"), "\(page) does not link back to the index") }
        }
        let summary = try String(contentsOf: dir.appendingPathComponent("summary-2026-10.html"), encoding: .utf8)
        let details = Set(Self.hrefs(summary).filter { $0 != "index.html" && !$0.hasPrefix("#") })
        XCTAssertEqual(details, ["utilization-2026-10.html", "maintenance-due-2026-10.html", "dvir-compliance-2026-10.html", "cost-2026-10.html"])
    }

    /// `report cost` alone writes no index: its page links one only when an earlier run left it.
    func testASingleReportLinksTheIndexOnlyWhenItIsThere() throws {
        let dir = try ReportFixture.temporaryDirectory()
        let sample = try SampleReportGoldenTests.sharedSample()
        let writer = ReportWriter(warehouse: sample.warehouse.warehouse, formats: [HTMLFormat()])
        let page = dir.appendingPathComponent("cost-2026-10.html")
        _ = try writer.write([CostReport.self], request: SampleReportGoldenTests.request, to: dir, index: false)
        XCTAssertFalse(Self.hrefs(try String(contentsOf: page, encoding: .utf8)).contains("index.html"))
        try Data("<!DOCTYPE html>".utf8).write(to: dir.appendingPathComponent("index.html"))
        _ = try writer.write([CostReport.self], request: SampleReportGoldenTests.request, to: dir, index: false)
        XCTAssertTrue(Self.hrefs(try String(contentsOf: page, encoding: .utf8)).contains("index.html"))
    }

    /// A value in a link column becomes a link only when it is a plain file name in the same
    /// folder; anything else (a path, a scheme) stays text.
    func testOnlySiblingFileNamesBecomeLinks() {
        for name in ["cost-2026-10.html", "utilization-2026-10-01_2026-10-31.html", "trips-2026-Q4.html"] {
            XCTAssertTrue(HTMLFormat.isSiblingFile(name), name)
        }
        for name in ["", "../cost.html", "/etc/passwd", "a/b.html", "javascript:alert(1)", "https://x.example/", ".hidden.html", "x.html?q=1", "x y.html"] {
            XCTAssertFalse(HTMLFormat.isSiblingFile(name), name)
        }
        let column = ReportColumn("report", "Details in", .text, isFileLink: true)
        let table = ReportTable(name: "t", title: "T", columns: [column], rows: [[.text("javascript:alert(1)")], [.text("cost-2026-10.html")]])
        let html = (try? HTMLFormat.table(table, zone: TimeZone(identifier: "UTC")!, empty: "", csv: "t.csv")) ?? ""
        XCTAssertEqual(Self.hrefs(html), ["cost-2026-10.html"])
        XCTAssertTrue(html.contains("<td>javascript:alert(1)</td>"), html)
    }

    static func hrefs(_ html: String) -> [String] {
        html.components(separatedBy: "href=\"").dropFirst().compactMap { $0.split(separator: "\"", maxSplits: 1).first.map(String.init) }
    }
}
