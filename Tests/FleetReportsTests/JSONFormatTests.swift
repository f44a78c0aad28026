import XCTest
import FleetCore
@testable import FleetReports

final class JSONFormatTests: XCTestCase {
    func testGolden() throws {
        let dir = try ReportFixture.temporaryDirectory()
        let urls = try JSONFormat.json().write(ReportFixture.output(), to: dir)
        XCTAssertEqual(urls.map(\.lastPathComponent), ["cost-2026-10.json"])
        Golden.assertMatches(try String(contentsOf: urls[0], encoding: .utf8), "cost-2026-10.json")
    }

    func testShapeIsDesignSection5() throws {
        let text = try JSONFormat.document(ReportFixture.output()).rendered()
        let doc = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        XCTAssertEqual(Set(doc.keys), ["report", "period", "parameters", "totals", "tables", "data_quality", "sources", "generated_at",
                                         "data_through", "partial", "partial_reasons"])
        XCTAssertEqual(doc["period"] as? [String: String], ["from": "2026-10-01", "to": "2026-10-31", "label": "2026-10"])
        let parameters = try XCTUnwrap(doc["parameters"] as? [String: String])
        XCTAssertEqual(parameters["time_zone"], "America/Chicago")
        XCTAssertEqual(parameters["units"], "metric")
        XCTAssertEqual(parameters["currency"], "USD")
        XCTAssertEqual(parameters["group_by"], "asset")
        let tables = try XCTUnwrap(doc["tables"] as? [[String: Any]])
        XCTAssertEqual(tables.map { $0["name"] as? String }, ["by_asset", "by_month"])
        XCTAssertNotNil(tables[0]["totals"])
        XCTAssertNil(tables[1]["totals"])   // present only when the table has a totals row
        let columns = try XCTUnwrap(tables[0]["columns"] as? [[String: Any]])
        XCTAssertEqual(columns[2]["type"] as? String, "money")
        XCTAssertEqual(columns[2]["unit"] as? String, "USD")
        XCTAssertTrue(columns[0]["unit"] is NSNull)
        let quality = try XCTUnwrap(doc["data_quality"] as? [String: Any])
        XCTAssertEqual(quality["name"] as? String, "data_quality")
        XCTAssertEqual((doc["sources"] as? [[String: Any]])?.first?["sha256"] as? String,
                       "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")
        XCTAssertEqual(doc["generated_at"] as? String, "2026-11-01T06:00:00-06:00")
    }

    func testNumbersAreStableLiterals() throws {
        let text = try JSONFormat.document(ReportFixture.output()).rendered()
        // Money exactly from minor units; doubles rounded to six decimals; dates and datetimes as strings.
        XCTAssertTrue(text.contains("[\"TRK-101\", 42, 1234.50, 73.4, \"2026-10-03\", \"2026-10-31T17:15:00-05:00\", 1234.5678, 12.5]"), text)
        XCTAssertTrue(text.contains(", 0.04, 0.333333]"), text)
        XCTAssertTrue(text.contains("\"total\": 9877752.76"), text)
        XCTAssertTrue(text.contains("\"distance\": 100000.0078"), text)
        XCTAssertTrue(text.contains("[\"=HYPERLINK(\\\"http://x\\\")\", 7, 0.05,"), text)
    }

    func testTwoRunsDifferOnlyInGeneratedAt() throws {
        let a = try JSONFormat.document(ReportFixture.output()).rendered().split(separator: "\n")
        let b = try JSONFormat.document(ReportFixture.output(generatedAt: ReportFixture.generatedAt + 86_400_000)).rendered().split(separator: "\n")
        XCTAssertEqual(a.count, b.count)
        let differing = zip(a, b).filter { $0 != $1 }
        XCTAssertEqual(differing.count, 1)
        XCTAssertTrue(differing.first?.0.contains("\"generated_at\"") ?? false)
    }

    func testNonFiniteNumbersAreNull() {
        XCTAssertEqual(JSONFormat.value(.number(.nan), zone: .current), .null)
        XCTAssertEqual(JSONFormat.value(.number(-0.0000001), zone: .current), .number("0"))
        XCTAssertEqual(JSONText.quoted("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\u0001\"")
        // JavaScript reads U+2028/U+2029 as line ends: escaped, as the other separators are.
        XCTAssertEqual(JSONText.quoted("x\u{2028}y\u{2029}\tz\u{1F}é"), "\"x\\u2028y\\u2029\\tz\\u001fé\"")
    }
}
