import XCTest
@testable import FleetReports

/// `make screenshots` runs this with FLEETKIT_SCREENSHOT_DIR set, then photographs the HTML in
/// headless Chromium (docs/screenshots/report-fixture.png). Without the variable it writes to a
/// temporary folder, so it still checks that all four formats and the index write side by side.
final class ScreenshotFixtureTests: XCTestCase {
    func testWriteFixtureReportsInEveryFormat() throws {
        let dir = try ProcessInfo.processInfo.environment["FLEETKIT_SCREENSHOT_DIR"].map { URL(fileURLWithPath: $0) }
            ?? ReportFixture.temporaryDirectory()
        let output = ReportFixture.output()
        let formats: [any ReportFormat] = [CSVFormat.csv(), JSONFormat.json(), HTMLFormat.html(), XLSXFormat.xlsx()]
        var written: [URL] = []
        for format in formats { written += try format.write(output, to: dir) }
        written.append(try HTMLIndex.writeIndex(
            entries: [(title: output.metadata.title, href: "cost-2026-10.html", headline: [("Total", "$9,877,752.76"), ("Assets", "4")])],
            title: "FleetKit reports · 2026-10", generatedAt: output.metadata.generatedAt, timeZone: output.metadata.timeZone, to: dir))
        XCTAssertEqual(written.count, 8)
        for url in written { XCTAssertTrue(FileManager.default.fileExists(atPath: url.path), url.path) }
    }
}
