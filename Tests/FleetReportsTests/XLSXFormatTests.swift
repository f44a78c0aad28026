import XCTest
@testable import FleetReports

/// The workbook is checked three ways: its XML parts against goldens (zip bytes carry
/// timestamps, so the XML is compared, not the file), the hostile names in the XML, and a real
/// reader, openpyxl, from the `.venv-tools` venv that `make test-tools` creates.
final class XLSXFormatTests: XCTestCase {
    func testGoldenSheetsSharedStringsAndCharts() throws {
        let parts = try write(XLSXFormat.xlsx())
        let compared = parts.keys.filter { $0.hasPrefix("xl/worksheets/sheet") || $0.hasPrefix("xl/charts/chart") || $0 == "xl/sharedStrings.xml" || $0 == "xl/workbook.xml" }
        XCTAssertEqual(compared.count, 9, "\(parts.keys.sorted())")   // 5 sheets, 2 charts, shared strings, workbook
        for name in compared.sorted() {
            Golden.assertMatches(ToolRunner.readableXML(parts[name]!), "xlsx/" + name.split(separator: "/").last!)
        }
    }

    func testHostileNamesAreStringCellsNotFormulas() throws {
        let parts = try write(XLSXFormat())
        let summary = try XCTUnwrap(parts["xl/worksheets/sheet1.xml"])
        for (name, xml) in parts where name.hasPrefix("xl/worksheets/") {
            XCTAssertFalse(xml.contains("<f>"), "\(name) has a formula")
        }
        XCTAssertTrue(summary.contains("<c r=\"A14\" t=\"s\">"), summary)   // the =HYPERLINK asset name, under the 7-line block
        let strings = try XCTUnwrap(parts["xl/sharedStrings.xml"])
        XCTAssertTrue(strings.contains("<t>=HYPERLINK(\"http://x\")</t>") || strings.contains("<t>=HYPERLINK(&quot;http://x&quot;)</t>"), strings)
        XCTAssertTrue(strings.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    }

    func testOpensInOpenpyxlWithTypedCells() throws {
        try assertOpenpyxlReads(try writeFile(XLSXFormat()))
    }

    /// Constant-memory mode streams rows and drops any written out of order, so the same
    /// openpyxl check proves every sheet is written top to bottom.
    func testConstantMemoryModeWritesTheSameCells() throws {
        let path = try writeFile(XLSXFormat(constantMemoryRows: 2))
        try assertOpenpyxlReads(path)
        let parts = try ToolRunner.xlsxParts(path)
        XCTAssertTrue(parts["xl/worksheets/sheet1.xml"]?.contains("t=\"inlineStr\"") ?? false)   // streamed, not shared strings
    }

    func testWritingTwiceGivesIdenticalXML() throws {
        let a = try write(XLSXFormat()), b = try write(XLSXFormat())
        XCTAssertEqual(a.keys.sorted(), b.keys.sorted())
        for (name, xml) in a { XCTAssertEqual(xml, b[name], name) }
    }

    func testTimelineChartAndTooManyRows() throws {
        var output = ReportFixture.output()
        output.charts = [ReportFixture.dueChart]
        let dir = try ReportFixture.temporaryDirectory()
        let parts = try ToolRunner.xlsxParts(try XLSXFormat().write(output, to: dir)[0].path)
        XCTAssertTrue(parts["xl/charts/chart1.xml"]?.contains("<c:barDir val=\"bar\"/>") ?? false)
        output.tables[1].rows = Array(repeating: [], count: XLSXFormat.maxRows)   // empty rows share storage: cheap
        XCTAssertThrowsError(try XLSXFormat().write(output, to: dir)) { error in
            XCTAssertTrue("\(error)".contains("use --format csv"), "\(error)")
        }
        // The failed write leaves neither a temporary file nor a half workbook behind.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["cost-2026-10.xlsx"])
    }

    // MARK: helpers

    private func writeFile(_ format: XLSXFormat) throws -> String {
        let urls = try format.write(ReportFixture.output(), to: ReportFixture.temporaryDirectory())
        XCTAssertEqual(urls.map(\.lastPathComponent), ["cost-2026-10.xlsx"])
        return urls[0].path
    }

    private func write(_ format: XLSXFormat) throws -> [String: String] {
        try ToolRunner.xlsxParts(try writeFile(format))
    }

    private func assertOpenpyxlReads(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let python = ReportFixture.packageRoot.appendingPathComponent(".venv-tools/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            XCTFail("openpyxl is not installed: \(python) is missing; run `make test-tools` (creates .venv-tools with openpyxl)", file: file, line: line)
            return
        }
        let r = try ToolRunner.run(python, ["-c", Self.openpyxlCheck, path])
        XCTAssertEqual(r.status, 0, r.stderr + r.stdout, file: file, line: line)
        XCTAssertEqual(r.stdout, "OK\n", r.stderr, file: file, line: line)
    }

    /// Summary layout: title, seven metadata rows (status and data cut-off among them), a blank
    /// row, the table title and note, then the header at row 12, four rows and the totals at row 17.
    static let openpyxlCheck = #"""
    import sys, datetime, openpyxl
    wb = openpyxl.load_workbook(sys.argv[1])
    assert wb.sheetnames == ["Summary", "Cost by month and category", "Charts", "Data quality", "Parameters"], wb.sheetnames
    ws = wb["Summary"]
    assert ws["A1"].value == "Cost report"
    assert [ws["A6"].value, ws["B6"].value, ws["A7"].value, ws["B7"].value] == ["Status", "complete", "Data through", "2026-10-31"]
    assert [c.value for c in ws[12]] == ["Asset", "Trips", "Cost (USD)", "Utilization (%)", "Last service",
                                         "Last seen (America/Chicago)", "Distance (km)", "Engine hours (h)"], [c.value for c in ws[12]]
    r = [c for c in ws[13]]
    assert r[0].value == "TRK-101"
    assert type(r[1].value) is int and r[1].value == 42, r[1].value
    assert type(r[2].value) in (int, float) and abs(r[2].value - 1234.5) < 1e-9 and "USD" in r[2].number_format, (r[2].value, r[2].number_format)
    assert abs(r[3].value - 0.734) < 1e-12 and r[3].number_format == "0.0%", (r[3].value, r[3].number_format)
    assert r[4].value == datetime.datetime(2026, 10, 3), r[4].value
    assert r[5].value == datetime.datetime(2026, 10, 31, 17, 15), r[5].value
    assert type(r[6].value) is float and abs(r[6].value - 1234.5678) < 1e-9
    assert r[7].value == 12.5 and r[7].number_format == "#,##0.0", r[7].number_format
    h = ws["A14"]
    assert h.value == '=HYPERLINK("http://x")' and h.data_type == "s", (h.value, h.data_type)
    assert ws["A15"].value == "<script>alert(1)</script>" and ws["A16"].value == "O'Brien & \"Sons\""
    assert ws["C15"].value == -25
    assert ws["E15"].value is None
    assert ws.freeze_panes == "A13", ws.freeze_panes
    assert ws.auto_filter.ref == "A12:H16", ws.auto_filter.ref
    assert ws["A17"].value == "Total" and ws["A17"].font.b and ws["C17"].font.b
    assert abs(ws["C17"].value - 9877752.76) < 1e-6
    assert ws["A19"].value == "Headline totals" and ws["B20"].value == 9877752.76 and ws["B22"].value == 4
    assert ws.column_dimensions["A"].width >= 26, ws.column_dimensions["A"].width
    m = wb["Cost by month and category"]
    assert m.freeze_panes == "A2" and m.auto_filter.ref == "A1:E4", (m.freeze_panes, m.auto_filter.ref)
    assert m["D2"].value == 812.3 and m["D3"].value is None
    charts = wb["Charts"]._charts
    assert len(charts) == 2, len(charts)
    assert charts[0].tagname == "barChart" and charts[0].type == "col" and charts[0].grouping == "stacked", (charts[0].type, charts[0].grouping)
    assert len(charts[0].series) == 3
    assert charts[1].type == "bar" and len(charts[1].series) == 1
    assert wb["Charts"]["A4"].value == "2026-08" and wb["Charts"]["B4"].value == 1200.5
    dq = wb["Data quality"]
    assert dq["A1"].value == "Check" and dq["B2"].value == 1 and dq.freeze_panes == "A2"
    p = wb["Parameters"]
    values = {(row[0].value, row[1].value): row[2].value for row in p.iter_rows(min_row=2) if row[0].value}
    assert values[("period", "from")] == "2026-10-01" and values[("report", "time_zone")] == "America/Chicago"
    assert values[("report", "generated_at")] == "2026-11-01T06:00:00-06:00"
    assert any(row[0].value == "SHA-256" or row[3].value == "SHA-256" for row in p.iter_rows())
    print("OK")
    """#
}
