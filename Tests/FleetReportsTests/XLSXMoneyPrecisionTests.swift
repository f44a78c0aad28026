import XCTest
import GRDB
import FleetKit
@testable import FleetReports
import FleetTestSupport

/// In the cost report's workbook an amount is money with its currency's two decimals and an
/// exchange rate keeps its precision (issue 29: the detail showed 279.8 for 279.81 and a rate of
/// 1.0872 as 1.1, which no one can check against a treasury's rate). Read with openpyxl.
final class XLSXMoneyPrecisionTests: XCTestCase {
    func testAmountsHaveTheirCurrencyDecimalsAndRatesTheirPrecision() throws {
        let t = try TestWarehouse()
        try t.warehouse.apply(setting: [.timezone]) { $0.zone = FleetZone(identifier: "America/Chicago")! }
        try t.importFiles([
            try t.write("expense_id,date,category,amount,currency,vendor\nE1,2026-10-09,parts,279.81,EUR,Deere Parts\nE2,2026-10-28,tolls,12.30,USD,I-PASS\n", to: "expenses.csv").path,
            try t.write("date,currency,units_per_USD\n2026-10-01,EUR,0.919813\n", to: "fx-rates.csv").path,
        ], options: ImportOptions(zone: FleetZone(identifier: "America/Chicago")!))
        let request = ReportRequest(period: .month(2026, 10), zone: FleetZone(identifier: "America/Chicago")!, currency: "USD", generatedAt: 0)
        let output = try t.warehouse.pool.read { db in try CostReport().run(db, request) }
        let dir = try ReportFixture.temporaryDirectory()
        let path = try XLSXFormat().write(output, to: dir)[0].path

        let python = ReportFixture.packageRoot.appendingPathComponent(".venv-tools/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else { return XCTFail("openpyxl is not installed: \(python) is missing; run `make test-tools`") }
        // Each cell right of a "EUR" cell: its value and number format.
        let script = #"""
        import sys, openpyxl
        wb = openpyxl.load_workbook(sys.argv[1])
        for ws in wb.worksheets:
            for row in ws.iter_rows():
                cells = [c for c in row if c.value is not None]
                if any(c.value == "EUR" for c in cells) and any(c.value == "Deere Parts" for c in cells):
                    print(" | ".join(f"{c.value}@{c.number_format}" for c in cells if isinstance(c.value, (int, float))))
        """#
        let r = try ToolRunner.run(python, ["-c", script, path])
        XCTAssertEqual(r.status, 0, r.stderr)
        // 279.81 EUR / 0.919813 = 304.204… → $304.20 (python3 -c "print(round(279.81/0.919813, 2))").
        // The rate shown is USD per EUR, 1/0.919813 = 1.087177… (six decimals at most).
        let line = r.stdout.split(separator: "\n").first.map(String.init) ?? ""
        XCTAssertTrue(line.contains("279.81@#,##0.00 \"EUR\""), line)
        XCTAssertTrue(line.contains("@#,##0.0000##"), line)
        XCTAssertTrue(line.contains("1.08717"), line)
        XCTAssertTrue(line.contains("304.2@#,##0.00 \"USD\""), line)
    }
}
