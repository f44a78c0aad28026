import XCTest
@testable import FleetReports

final class CSVFormatTests: XCTestCase {
    func testWritesOneGoldenFilePerTable() throws {
        let dir = try ReportFixture.temporaryDirectory()
        let urls = try CSVFormat.csv().write(ReportFixture.output(), to: dir)
        XCTAssertEqual(urls.map(\.lastPathComponent), [
            "cost-2026-10-by_asset.csv", "cost-2026-10-by_month.csv", "cost-2026-10-data_quality.csv", "cost-2026-10-parameters.csv",
        ])
        for url in urls {
            Golden.assertMatches(try String(contentsOf: url, encoding: .utf8), "csv/" + url.lastPathComponent)
        }
        // Nothing else (no temporary files) is left behind.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), urls.map(\.lastPathComponent).sorted())
    }

    func testRFC4180CRLFAndNoByteOrderMark() throws {
        let dir = try ReportFixture.temporaryDirectory()
        let url = try CSVFormat().write(ReportFixture.output(), to: dir)[0]
        let data = try Data(contentsOf: url)
        XCTAssertNotEqual(Array(data.prefix(3)), [0xEF, 0xBB, 0xBF])
        let text = String(decoding: data, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("asset,trips,cost,utilization,last_service,last_seen,distance,engine_hours\r\n"))
        XCTAssertEqual(text.components(separatedBy: "\r\n").count, 7)   // header, 4 rows, totals, final empty
        XCTAssertFalse(text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    }

    func testValuesAreTypedNotFormatted() throws {
        let line = try XCTUnwrap(render().split(separator: "\r\n").dropFirst().first)
        // Money exact with minor digits, percent 0–100, date, datetime with the Chicago offset, plain decimals.
        XCTAssertEqual(line, "TRK-101,42,1234.50,73.4,2026-10-03,2026-10-31T17:15:00-05:00,1234.5678,12.5")
        let rows = render().split(separator: "\r\n")
        XCTAssertTrue(rows[2].hasSuffix(",0.04,0.333333"), String(rows[2]))                 // 6 decimals at most
        XCTAssertTrue(rows[2].contains(",2026-10-15T03:00:30.250-05:00,"), String(rows[2])) // milliseconds kept
        XCTAssertTrue(rows[3].contains(",-25.00,0,,,0,0"), String(rows[3]))                 // nulls are empty
        XCTAssertTrue(rows[4].contains(",2026-11-01T01:30:00-06:00,"), String(rows[4]))     // after the DST change
        XCTAssertEqual(rows[5], "Total,1234616,9877752.76,46.4125,,,100000.0078,1512.833333")
    }

    func testHostileNamesAreInert() throws {
        let text = render()
        // The formula is neutralised with a leading apostrophe (then quoted, as it holds quotes).
        XCTAssertTrue(text.contains("\r\n\"'=HYPERLINK(\"\"http://x\"\")\",7,"), text)
        XCTAssertFalse(text.contains("\r\n=HYPERLINK"))
        XCTAssertTrue(text.contains("\r\n<script>alert(1)</script>,0,"))   // CSV is not HTML: kept as is
        XCTAssertTrue(text.contains("\r\n\"O'Brien & \"\"Sons\"\"\",1234567,"))
    }

    func testParametersTableSaysWhatTheReportIs() throws {
        let text = CSVFormat.render(ReportFixture.output().metadata.parametersTable(), zone: ReportFixture.output().metadata.zone)
        for line in ["period,from,2026-10-01", "period,to,2026-10-31", "report,time_zone,America/Chicago", "report,units,metric",
                     "report,currency,USD", "parameter,group_by,asset", "report,generated_at,2026-11-01T06:00:00-06:00",
                     "source,SampleData/maintenance/shop & yard.csv,60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752"] {
            XCTAssertTrue(text.contains("\r\n" + line + "\r\n"), line)
        }
    }

    func testWritingTwiceGivesIdenticalFiles() throws {
        let a = try ReportFixture.temporaryDirectory(), b = try ReportFixture.temporaryDirectory()
        let first = try CSVFormat().write(ReportFixture.output(), to: a)
        let second = try CSVFormat().write(ReportFixture.output(), to: b)
        for (x, y) in zip(first, second) { XCTAssertEqual(try Data(contentsOf: x), try Data(contentsOf: y)) }
        // Rewriting in place replaces the files atomically.
        XCTAssertEqual(try CSVFormat().write(ReportFixture.output(), to: a), first)
    }

    private func render() -> String {
        CSVFormat.render(ReportFixture.byAsset, zone: ReportFixture.output().metadata.zone)
    }
}
