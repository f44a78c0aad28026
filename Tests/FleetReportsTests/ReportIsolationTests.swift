import XCTest
import GRDB
import FleetKit
@testable import FleetReports
import FleetTestSupport

/// Each report, and each format of it, is written or fails alone (`ReportWriter`): a failure is
/// returned in `failures` and every other file is still written.
final class ReportIsolationTests: XCTestCase {
    /// The cost workbook cannot be renamed into place (a folder holds its name): that one file
    /// fails with the reason, the cost CSV/HTML/JSON, the other reports and the index are written,
    /// and no temporary file is left behind.
    func testOneFormatThatCannotBeWrittenLeavesEverythingElseWritten() throws {
        let t = try TestWarehouse()
        try t.importFile(URL(fileURLWithPath: LongTextReportTests.fixturePath), options: ImportOptions(format: "expenses"))
        let dir = try ReportFixture.temporaryDirectory()
        let blocker = dir.appendingPathComponent("cost-2026-10.xlsx")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: blocker.appendingPathComponent("keep.txt"))

        let request = ReportRequest(period: .month(2026, 10), generatedAt: 0)
        let written = try ReportWriter(warehouse: t.warehouse).write(ReportRegistry.all, request: request, to: dir, index: true)

        XCTAssertEqual(written.failures.map { "\($0.report)/\($0.format ?? "-")" }, ["cost/xlsx"])
        XCTAssertTrue(written.failures[0].reason.contains("cost-2026-10.xlsx"), written.failures[0].reason)
        XCTAssertTrue("\(written.failures[0])".hasPrefix("the cost report (xlsx) was not written: "))
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: dir.path))
        for report in ReportRegistry.all.map { $0.name } {
            for ext in ["html", "json"] { XCTAssertTrue(names.contains("\(report)-2026-10.\(ext)"), "\(report).\(ext)") }
            XCTAssertTrue(names.contains("\(report)-2026-10-data_quality.csv"), report)
            if report != "cost" { XCTAssertTrue(names.contains("\(report)-2026-10.xlsx"), report) }
        }
        XCTAssertTrue(names.contains("cost-2026-10-detail.csv"))
        XCTAssertTrue(names.contains("index.html"))
        XCTAssertEqual(names.filter { $0.hasPrefix(".") }, [], "temporary files left")
        XCTAssertEqual(written.outputs.map(\.metadata.report), ReportRegistry.all.map { $0.name })
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: blocker.path), ["keep.txt"])
    }
}
