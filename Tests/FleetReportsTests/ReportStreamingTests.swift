import XCTest
import GRDB
import FleetKit
@testable import FleetReports
import FleetSample
import FleetTestSupport

/// Reports stay bounded in memory whatever the number of rows: a detail table over
/// `ReportRequest.heldRowLimit` rows is a `ReportRowStream` walked per format, not held; the
/// files are the same as when the rows are held; HTML shows the first 1,000 rows.
///
/// The sample month has a few hundred cost rows, so the tests lower the limit to 3 to take the
/// streamed path and compare it with the held one over the same snapshot.
final class ReportStreamingTests: XCTestCase {
    static let zone = FleetZone(identifier: "America/Chicago")!

    func sample() throws -> TestWarehouse {
        let t = try TestWarehouse()
        try t.warehouse.apply(setting: [.timezone]) { $0.zone = Self.zone }
        let root = t.directory.appendingPathComponent("sample")
        var writer = SampleWriter(fleet: SampleFleet(vehicles: 4, machines: 2, days: 31, seed: 42), root: root)
        _ = try writer.writeAll()
        let summary = try t.importFiles(["master", "maintenance", "expenses", "fuel-card", "samsara"].map { root.appendingPathComponent($0).path },
                                        options: ImportOptions(zone: Self.zone))
        XCTAssertEqual(summary.totals.rejected, 0)
        return t
    }

    func request(heldRowLimit: Int) -> ReportRequest {
        var r = ReportRequest(period: .month(2026, 10), zone: Self.zone, units: .us, currency: "USD", generatedAt: 0)
        r.heldRowLimit = heldRowLimit
        return r
    }

    func texts(_ dir: URL) throws -> [String: String] {
        var out: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where !name.hasSuffix(".xlsx") {
            out[name] = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
        }
        return out
    }

    func testStreamedDetailRowsGiveTheSameFilesAsHeldRows() throws {
        let t = try sample()
        let held = try ReportFixture.temporaryDirectory("held"), streamed = try ReportFixture.temporaryDirectory("streamed")
        let formats = ReportFormats.all
        var stream: ReportRowStream?
        try t.warehouse.pool.read { db in
            let a = try ReportWriter.runAndWrite([CostReport.self, TripsReport.self], db, request(heldRowLimit: 50_000), formats: formats, to: held)
            let b = try ReportWriter.runAndWrite([CostReport.self, TripsReport.self], db, request(heldRowLimit: 3), formats: formats, to: streamed)
            XCTAssertEqual(a.failures, [])
            XCTAssertEqual(b.failures, [])
            let heldDetail = try XCTUnwrap(a.outputs[0].tables.first { $0.name == "detail" })
            let streamedDetail = try XCTUnwrap(b.outputs[0].tables.first { $0.name == "detail" })
            XCTAssertNil(heldDetail.stream)
            XCTAssertGreaterThan(heldDetail.rows.count, 20)
            // The structure that bounds memory: no detail row is held, the count is known.
            XCTAssertEqual(streamedDetail.rows.count, 0)
            XCTAssertEqual(streamedDetail.stream?.count, heldDetail.rows.count)
            XCTAssertEqual(a.outputs[0].metadata, b.outputs[0].metadata)
            stream = streamedDetail.stream
            // The trips table the same way.
            XCTAssertNil(a.outputs[1].tables[0].stream)
            XCTAssertGreaterThan(a.outputs[1].tables[0].rows.count, 20)
            XCTAssertEqual(b.outputs[1].tables[0].rows.count, 0)
            XCTAssertEqual(b.outputs[1].tables[0].stream?.count, a.outputs[1].tables[0].rows.count)
            XCTAssertEqual(a.outputs[1].metadata, b.outputs[1].metadata)
        }
        // CSV, JSON and HTML byte for byte.
        let (x, y) = (try texts(held), try texts(streamed))
        XCTAssertEqual(x.keys.sorted(), y.keys.sorted())
        for (name, text) in x { XCTAssertTrue(text == y[name], "\(name) differs when streamed") }
        // XLSX cell by cell (the streamed workbook is written in constant-memory mode).
        let dump = #"""
        import sys, json, openpyxl
        out = {}
        for path in sys.argv[1:]:
            wb = openpyxl.load_workbook(path)
            out[path] = {ws.title: [[str(c.value) for c in row] for row in ws.iter_rows()] for ws in wb.worksheets}
        a, b = out.values()
        assert a == b, [k for k in a if a[k] != b.get(k)]
        assert sum(len(rows) for rows in a.values()) > 40
        print("OK")
        """#
        let python = ReportFixture.packageRoot.appendingPathComponent(".venv-tools/bin/python").path
        for name in ["cost-2026-10.xlsx", "trips-2026-10.xlsx"] {
            let r = try ToolRunner.run(python, ["-c", dump, held.appendingPathComponent(name).path, streamed.appendingPathComponent(name).path])
            XCTAssertEqual(r.stdout, "OK\n", name + ": " + r.stderr)
        }
        // Once the read transaction is over, the rows cannot be walked through its connection.
        XCTAssertThrowsError(try stream?.forEach { _ in }) { error in
            XCTAssertTrue("\(error)".contains("after the report's read transaction ended"), "\(error)")
        }
    }

    /// Through `ReportWriter`, as the CLI and the nightly job write: the streamed report's totals
    /// row equals the sum of its streamed detail rows.
    func testTheTotalOfStreamedRowsIsTheReportTotal() throws {
        let t = try sample()
        let dir = try ReportFixture.temporaryDirectory()
        let written = try ReportWriter(warehouse: t.warehouse, formats: [CSVFormat.csv()])
            .write([CostReport.self], request: request(heldRowLimit: 3), to: dir, index: false)
        XCTAssertEqual(written.failures, [])
        let lines = try String(contentsOf: dir.appendingPathComponent("cost-2026-10-detail.csv"), encoding: .utf8)
            .split(separator: "\r\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        // amount_report is third from the end (then needs_review, source_file), whatever commas quoted text holds.
        XCTAssertEqual(lines[0][lines[0].count - 3], "amount_report")
        let rows = lines.dropFirst().dropLast()
        XCTAssertGreaterThan(rows.count, 20)
        let sum = rows.reduce(Decimal(0)) { $0 + (Decimal(string: String($1[$1.count - 3])) ?? 0) }
        let last = lines.last!
        XCTAssertEqual(Decimal(string: String(last[last.count - 3])), sum)
        let total = try XCTUnwrap(written.outputs[0].metadata.totals.first { $0.0 == "total" }?.1)
        XCTAssertEqual(total, NSDecimalNumber(decimal: sum).doubleValue, accuracy: 0.005)
    }

    /// 1,500 rows: the page shows 1,000, says how many there are and links the CSV with all of them.
    func testHTMLShowsTheFirstThousandRowsAndLinksTheFullCSV() throws {
        var output = ReportFixture.output()
        let row = output.tables[0].rows[0]
        output.tables[0].rows = Array(repeating: row, count: 1_500)
        let html = try HTMLFormat.render(output)
        XCTAssertTrue(html.contains("Showing the first 1,000 of 1,500 rows; the totals row sums all of them."), html)
        let csv = ReportFileName.file(output.metadata, table: output.tables[0].name, ext: "csv")
        XCTAssertTrue(html.contains("<a href=\"\(csv)\">\(csv)</a>"))
        let section = try XCTUnwrap(html.components(separatedBy: "<tbody>").dropFirst().first?.components(separatedBy: "</tbody>").first)
        XCTAssertEqual(section.components(separatedBy: "<tr>").count - 1, 1_000)
    }
}
