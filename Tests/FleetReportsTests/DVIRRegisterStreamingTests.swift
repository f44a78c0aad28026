import XCTest
import GRDB
import FleetKit
@testable import FleetReports
import FleetSample
import FleetTestSupport

/// The DVIR register grows with the data (a row per inspection and defect: a year of daily
/// DVIRs for 1,000 vehicles is 365,000 rows), so past `ReportRequest.heldRowLimit` it is a
/// `ReportRowStream` walked per format, like the cost detail. The sample month's few hundred
/// register rows take the streamed path with the limit lowered to 3, and every file of the DVIR
/// compliance and summary reports must be the same as with the rows held.
final class DVIRRegisterStreamingTests: XCTestCase {
    static let zone = FleetZone(identifier: "America/Chicago")!

    func sample() throws -> TestWarehouse {
        let t = try TestWarehouse()
        _ = try t.warehouse.apply(setting: [.timezone]) { $0.zone = Self.zone }
        let root = t.directory.appendingPathComponent("sample")
        var writer = SampleWriter(fleet: SampleFleet(vehicles: 4, machines: 2, days: 31, seed: 42), root: root)
        _ = try writer.writeAll()
        let summary = try t.importFiles(["master", "dvir", "samsara"].map { root.appendingPathComponent($0).path }, options: ImportOptions(zone: Self.zone))
        XCTAssertEqual(summary.totals.rejected, 0)
        return t
    }

    func request(heldRowLimit: Int) -> ReportRequest {
        var r = ReportRequest(period: .month(2026, 10), zone: Self.zone, units: .us, currency: "USD", generatedAt: 0,
                              asOf: CivilDate(year: 2026, month: 11, day: 1)!)
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

    func testAStreamedRegisterGivesTheSameFilesAsAHeldOne() throws {
        let t = try sample()
        let held = try ReportFixture.temporaryDirectory("held"), streamed = try ReportFixture.temporaryDirectory("streamed")
        let formats = ReportFormats.all
        var stream: ReportRowStream?
        try t.warehouse.pool.read { db in
            let a = try ReportWriter.runAndWrite([DVIRComplianceReport.self, SummaryReport.self], db, request(heldRowLimit: 50_000), formats: formats, to: held)
            let b = try ReportWriter.runAndWrite([DVIRComplianceReport.self, SummaryReport.self], db, request(heldRowLimit: 3), formats: formats, to: streamed)
            XCTAssertEqual(a.failures, [])
            XCTAssertEqual(b.failures, [])
            let heldRegister = try XCTUnwrap(a.outputs[0].tables.first { $0.name == "register" })
            let streamedRegister = try XCTUnwrap(b.outputs[0].tables.first { $0.name == "register" })
            XCTAssertNil(heldRegister.stream)
            XCTAssertGreaterThan(heldRegister.rows.count, 20)
            // What bounds memory: no register row held, the count known.
            XCTAssertEqual(streamedRegister.rows.count, 0)
            XCTAssertEqual(streamedRegister.stream?.count, heldRegister.rows.count)
            // Inside the transaction, a walk yields the held rows in order; a limit stops it there.
            let direct = try XCTUnwrap(DVIRComplianceReport().run(db, request(heldRowLimit: 3)).tables.first { $0.name == "register" }?.stream)
            var walked: [[ReportValue]] = []
            try direct.forEach { walked.append($0) }
            XCTAssertEqual(walked, heldRegister.rows)
            var first = 0
            try direct.forEach(limit: 5) { _ in first += 1 }
            XCTAssertEqual(first, 5)
            XCTAssertEqual(a.outputs[0].metadata, b.outputs[0].metadata)
            stream = streamedRegister.stream
        }
        let (x, y) = (try texts(held), try texts(streamed))
        XCTAssertEqual(x.keys.sorted(), y.keys.sorted())
        XCTAssertTrue(x.keys.contains("dvir-compliance-2026-10-register.csv"), "\(x.keys.sorted())")
        for (name, text) in x { XCTAssertTrue(text == y[name], "\(name) differs when streamed") }
        // XLSX cell by cell: the streamed workbook is written in constant-memory mode.
        let dump = #"""
        import sys, openpyxl
        out = []
        for path in sys.argv[1:]:
            wb = openpyxl.load_workbook(path)
            out.append({ws.title: [[str(c.value) for c in row] for row in ws.iter_rows()] for ws in wb.worksheets})
        a, b = out
        assert a == b, [k for k in a if a[k] != b.get(k)]
        assert sum(len(rows) for rows in a.values()) > 40
        print("OK")
        """#
        let python = ReportFixture.packageRoot.appendingPathComponent(".venv-tools/bin/python").path
        let name = "dvir-compliance-2026-10.xlsx"
        let r = try ToolRunner.run(python, ["-c", dump, held.appendingPathComponent(name).path, streamed.appendingPathComponent(name).path])
        XCTAssertEqual(r.stdout, "OK\n", name + ": " + r.stderr)
        // After the read transaction the rows cannot be walked.
        XCTAssertThrowsError(try stream?.forEach { _ in })
    }
}
