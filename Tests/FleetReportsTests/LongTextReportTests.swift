import XCTest
import GRDB
import FleetKit
@testable import FleetReports
import FleetTestSupport

/// One 60 KB text value (Fixtures/hostile/expense-description-60k.csv: an expense description
/// of 60,000 code points (45,606 characters), 74,394 UTF-16 units, with decomposed accents, CJK, emoji, ZWJ families
/// and flags) used to fail the cost workbook and, through it, `report all` and the nightly
/// refresh with exit 2: the old check cut it to 32,766 characters, still 43,111 code points, which
/// libxlsxwriter refused. Now the cell is cut to what Excel holds, the workbook says so, and the
/// other formats keep every character.
final class LongTextReportTests: XCTestCase {
    static let fixturePath = fixture("hostile/expense-description-60k.csv").path

    static func longDescription() throws -> String {
        let text = try String(contentsOfFile: fixturePath, encoding: .utf8)
        let record = try XCTUnwrap(text.components(separatedBy: "\r\n").first { $0.hasPrefix("EXP-LONG-1,") })
        return record.components(separatedBy: ",")[6]
    }

    func warehouse() throws -> TestWarehouse {
        let t = try TestWarehouse()
        let outcome = try t.importFile(URL(fileURLWithPath: Self.fixturePath), options: ImportOptions(format: "expenses"))
        XCTAssertEqual(outcome.loaded, 2, "\(outcome)")
        XCTAssertEqual(outcome.rejected, 0, "\(outcome)")
        return t
    }

    func testA60KBDescriptionIsCutInXLSXAndWholeInCSVAndJSON() throws {
        let t = try warehouse()
        let long = try Self.longDescription()
        XCTAssertEqual(long.unicodeScalars.count, 60_000)
        XCTAssertEqual(long.utf16.count, 74_394)
        let dir = try ReportFixture.temporaryDirectory()
        let request = ReportRequest(period: .month(2026, 10), generatedAt: 0)
        let written = try ReportWriter(warehouse: t.warehouse).write([CostReport.self], request: request, to: dir, index: false)
        XCTAssertEqual(written.failures, [])
        XCTAssertTrue(written.files.contains { $0.lastPathComponent == "cost-2026-10.xlsx" })

        // CSV and JSON: the full text.
        let csv = try String(contentsOf: dir.appendingPathComponent("cost-2026-10-detail.csv"), encoding: .utf8)
        XCTAssertTrue(csv.contains("," + long + ","))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("cost-2026-10.json"))) as? [String: Any]
        let detail = try XCTUnwrap((json?["tables"] as? [[String: Any]])?.first { $0["name"] as? String == "detail" })
        XCTAssertTrue((detail["rows"] as? [[Any]] ?? []).contains { $0[5] as? String == long })

        // XLSX, read by openpyxl: the cut cell is what Excel holds, a prefix of the text plus "…",
        // and the data-quality sheet counts it.
        try assertOpenpyxl(dir.appendingPathComponent("cost-2026-10.xlsx").path, script: Self.check)
    }

    static let check = #"""
    import sys, openpyxl
    wb = openpyxl.load_workbook(sys.argv[1])
    text = open(sys.argv[2], encoding="utf-8", newline="").read()
    long = [r for r in text.split("\r\n") if r.startswith("EXP-LONG-1,")][0].split(",")[6]
    ws = wb["Every cost row"]
    assert ws["F1"].value == "Description", ws["F1"].value
    cells = [c.value for c in ws["F"] if isinstance(c.value, str) and c.value.startswith("Brake job")]
    assert len(cells) == 1, len(cells)
    v = cells[0]
    units = len(v.encode("utf-16-le")) // 2
    assert 32000 < units <= 32767, units
    assert v.endswith("\u2026") and long.startswith(v[:-1]), "not a prefix"
    assert not ("\ud800" <= v[-2] <= "\udfff"), "split surrogate"
    assert any(c.value == "Bridge toll" for c in ws["F"]), "the short row is there"
    dq = wb["Data quality"]
    rows = {r[0].value: r[1].value for r in dq.iter_rows(min_row=2) if r[0].value}
    assert rows.get("Cells cut to 32,767 characters in this workbook") == 1, rows
    print("OK")
    """#

    func assertOpenpyxl(_ path: String, script: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let python = ReportFixture.packageRoot.appendingPathComponent(".venv-tools/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            return XCTFail("openpyxl is not installed: \(python) is missing; run `make test-tools`", file: file, line: line)
        }
        let r = try ToolRunner.run(python, ["-c", script, path, Self.fixturePath])
        XCTAssertEqual(r.status, 0, r.stderr + r.stdout, file: file, line: line)
        XCTAssertEqual(r.stdout, "OK\n", r.stderr, file: file, line: line)
    }
}
