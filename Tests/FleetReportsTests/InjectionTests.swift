import XCTest
@testable import FleetReports

/// Every character that makes a spreadsheet read a cell as a formula (`= + - @`, tab, CR), in
/// an asset name, through every renderer: the CSV cell is prefixed with `'`, the XLSX cell is a
/// string cell (never a formula), and the HTML shows the text escaped. Attribute and SVG text
/// escaping is checked with a name built to break out of an attribute.
final class InjectionTests: XCTestCase {
    static let leads = ["=", "+", "-", "@", "\t", "\r"]
    static let payload = "cmd|' /C calc'!A0"
    static let breakout = "\" onmouseover=\"alert(1)\" x=\"<svg onload=alert(2)>"

    /// The fixture with `name` as the first asset of the table, a chart category, a series name
    /// and a chart title (the SVG's text, tooltips and labels).
    private func output(_ name: String) -> ReportOutput {
        var o = ReportFixture.output()
        o.tables[0].rows[0][0] = .text(name)
        o.charts[1].categories[0] = name
        o.charts[1].series[0].name = name
        o.charts[0].title = name
        return o
    }

    func testEveryFormulaLeadIsNeutralisedInCSV() throws {
        for lead in Self.leads {
            let dir = try ReportFixture.temporaryDirectory("csv-\(lead.unicodeScalars.first!.value)")
            let url = try CSVFormat().write(output(lead + Self.payload), to: dir)[0]
            let text = try String(contentsOf: url, encoding: .utf8)
            // The cell starts with the apostrophe, quoted when the character needs quoting (CR).
            XCTAssertTrue(text.contains("\r\n'" + lead + Self.payload + ",") || text.contains("\r\n\"'" + lead + Self.payload + "\","),
                          "lead \(lead.debugDescription): \(text.prefix(300).debugDescription)")
            XCTAssertFalse(text.contains("\n" + lead + "cmd") || text.contains(",\(lead)cmd") || text.contains("\"\(lead)cmd"), lead.debugDescription)
        }
    }

    func testEveryFormulaLeadIsAStringCellInXLSX() throws {
        for lead in Self.leads {
            let dir = try ReportFixture.temporaryDirectory("xlsx-\(lead.unicodeScalars.first!.value)")
            let url = try XLSXFormat().write(output(lead + Self.payload), to: dir)[0]
            let parts = try ToolRunner.xlsxParts(url.path)
            for (name, xml) in parts where name.hasPrefix("xl/worksheets/") {
                XCTAssertFalse(xml.contains("<f>") || xml.contains("<f "), "\(name) has a formula for lead \(lead.debugDescription)")
            }
            let summary = try XCTUnwrap(parts["xl/worksheets/sheet1.xml"])
            // The summary block is 7 lines (period … status, data through, generated at), so the first data cell is A13.
            XCTAssertTrue(summary.contains("<c r=\"A13\" t=\"s\">"), "lead \(lead.debugDescription): A13 is not a string cell")
            let strings = try XCTUnwrap(parts["xl/sharedStrings.xml"])
            XCTAssertTrue(strings.contains("cmd|&apos; /C calc&apos;!A0") || strings.contains("cmd|' /C calc'!A0"), lead.debugDescription)
        }
    }

    func testAttributeBreakoutsAreEscapedInHTMLAndSVG() throws {
        let html = try HTMLFormat.render(output(Self.breakout))
        XCTAssertFalse(html.contains(Self.breakout))
        XCTAssertFalse(html.contains("\" onmouseover=\""), "an attribute was broken out of")
        XCTAssertFalse(html.lowercased().contains("<svg onload"))
        XCTAssertTrue(html.contains("&quot; onmouseover=&quot;alert(1)&quot; x=&quot;&lt;svg onload=alert(2)&gt;"), "the name is not shown escaped")
        // In the charts' SVG text, titles and tooltips too.
        let escaped = "&quot; onmouseover=&quot;alert(1)&quot; x=&quot;&lt;svg onload=alert(2)&gt;"
        let svg = html.components(separatedBy: "<svg class=\"chart\"").dropFirst().joined()
        XCTAssertGreaterThanOrEqual(svg.components(separatedBy: escaped).count - 1, 2, "the chart does not show the name")
        for lead in Self.leads {
            let h = try HTMLFormat.render(output(lead + "<b>"))
            XCTAssertTrue(h.contains("&lt;b&gt;"), lead.debugDescription)
            XCTAssertFalse(h.contains(lead + "<b>"), lead.debugDescription)
        }
    }
}
