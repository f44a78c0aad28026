import XCTest
import GRDB
import FleetKit
@testable import FleetReports
import FleetTestSupport

/// What every report promises, checked for every report in `ReportRegistry` (a report added to
/// the registry is covered without editing this file) on the sample warehouse of
/// `SampleReportGoldenTests`: each registered format renders it (the workbook read back by
/// openpyxl), totals are the sums of their rows, units follow `--units`, an empty period says so
/// and is partial, unknown values are written as unknown, and names from imported files are
/// escaped in HTML and guarded in CSV and XLSX.
final class ReportConformanceTests: XCTestCase {
    static let zone = SampleReportGoldenTests.zone
    static let asOf = CivilDate(year: 2026, month: 11, day: 1)!

    static func request(_ units: Units.System = .us, period: ReportPeriod = .month(2026, 10), asOf: CivilDate = asOf) -> ReportRequest {
        ReportRequest(period: period, zone: zone, units: units, currency: "USD", generatedAt: 0, asOf: asOf)
    }

    func output(_ report: any Report.Type, _ request: ReportRequest, in warehouse: Warehouse? = nil) throws -> ReportOutput {
        let w = try warehouse ?? SampleReportGoldenTests.sharedSample().warehouse.warehouse
        return try w.pool.read { db in try ReportWriter.checked(report.init().run(db, request), db, request) }
    }

    func testTheRegistriesAreWhatTheNightlyJobAndTheCLIOffer() {
        XCTAssertFalse(ReportRegistry.all.isEmpty)
        XCTAssertEqual(Set(ReportRegistry.all.map { $0.name }).count, ReportRegistry.all.count, "report names are unique")
        XCTAssertEqual(Set(ReportFormats.names), ["csv", "xlsx", "html", "json"])
        for report in ReportRegistry.all { XCTAssertTrue(ReportRegistry.named(report.name) == report, report.name) }
    }

    /// Every format writes every report, through `ReportWriter` as the CLI does; the workbook
    /// opens in openpyxl with every sheet readable and no formula cell.
    func testEveryFormatRendersEveryReport() throws {
        let s = try SampleReportGoldenTests.sharedSample()
        let dir = try ReportFixture.temporaryDirectory()
        let written = try ReportWriter(warehouse: s.warehouse.warehouse, formats: ReportFormats.all)
            .write(ReportRegistry.all, request: Self.request(), to: dir, index: true)
        XCTAssertEqual(written.failures.map { "\($0)" }, [])
        for report in ReportRegistry.all {
            for format in ReportFormats.all {
                let step = written.steps.first { $0.report == report.name && $0.format == format.name }
                XCTAssertFalse(step?.files.isEmpty ?? true, "\(report.name) \(format.name): no file written")
                for file in step?.files ?? [] {
                    // A file the step names but that cannot be read is an error with its path, not a size of 0.
                    let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
                    XCTAssertGreaterThan(try XCTUnwrap(size, file.path), 0, file.lastPathComponent)
                }
                if format.name == "xlsx", let file = step?.files.first { try assertOpenpyxlReads(file.path, report: report.name) }
                if format.name == "json", let file = step?.files.first {
                    XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(contentsOf: file)), file.lastPathComponent)
                }
            }
        }
    }

    /// A totals row's money, count and quantity cells are the sums of the rows above them (money
    /// to the cent); shares, rates and labels are not sums and are not checked here.
    func testTotalsEqualTheSumOfTheirRows() throws {
        let summable: Set<ReportColumnType> = [.money, .integer, .distance, .duration, .volume]
        var checked = 0
        for report in ReportRegistry.all {
            let out = try output(report, Self.request())
            for table in out.tables {
                guard let totals = table.totals else { continue }
                var rows: [[ReportValue]] = []
                try table.forEachRow { rows.append($0) }
                for (i, column) in table.columns.enumerated() where summable.contains(column.type) {
                    guard let total = totals[i].number else { continue }
                    let cells = rows.compactMap { $0[i].number }
                    let what = "\(report.name).\(table.name).\(column.name)"
                    if column.type == .money {
                        let minor = rows.reduce(Int64(0)) { if case let .money(m, _) = $1[i] { return $0 + m } else { return $0 } }
                        guard case let .money(t, _) = totals[i] else { XCTFail("\(what): a money total that is not money"); continue }
                        XCTAssertEqual(t, minor, what)
                    } else {
                        XCTAssertEqual(total, cells.reduce(0, +), accuracy: 1e-6 * max(1, abs(total)), what)
                    }
                    checked += 1
                }
            }
        }
        XCTAssertGreaterThan(checked, 20, "the sample has totals to check")
    }

    /// The same report in metric and US units: distance and volume columns carry the unit asked
    /// for, their values convert by the exact factors, and no column keeps the other system's unit.
    func testUnitsFollowTheRequestedSystem() throws {
        let metricUnits: Set<String> = ["km", "L", "L/100 km", "km/h", "L/h"]
        let usUnits: Set<String> = ["mi", "gal", "MPG", "mph", "gal/h"]
        for report in ReportRegistry.all {
            let metric = try output(report, Self.request(.metric)), us = try output(report, Self.request(.us))
            XCTAssertEqual(metric.tables.map(\.name), us.tables.map(\.name), report.name)
            for (m, u) in zip(metric.tables, us.tables) {
                for (i, (mc, uc)) in zip(m.columns, u.columns).enumerated() {
                    let what = "\(report.name).\(m.name).\(mc.name)"
                    XCTAssertFalse(usUnits.contains(mc.unit ?? ""), "\(what): \(mc.unit ?? "") in a metric report")
                    XCTAssertFalse(metricUnits.contains(uc.unit ?? ""), "\(what): \(uc.unit ?? "") in a US report")
                    let factor: Double
                    switch mc.type {
                    case .distance:
                        XCTAssertEqual(mc.unit, "km", what)
                        XCTAssertEqual(uc.unit, "mi", what)
                        factor = Units.metresPerMile / 1000
                    case .volume:
                        XCTAssertEqual(mc.unit, "L", what)
                        XCTAssertEqual(uc.unit, "gal", what)
                        factor = Units.millilitresPerUSGallon / 1000
                    default: continue
                    }
                    XCTAssertEqual(m.rows.count, u.rows.count, what)
                    for (mr, ur) in zip(m.rows, u.rows) {
                        guard let a = mr[i].number, let b = ur[i].number else {
                            XCTAssertEqual(mr[i] == .null, ur[i] == .null, "\(what): unknown in one system only")
                            continue
                        }
                        // A report may round a quantity to 0.1 of its unit (DVIR's distance driven).
                        XCTAssertEqual(a, b * factor, accuracy: max(1e-6 * abs(a), 0.1), what)
                    }
                }
            }
            for (mh, uh) in zip(metric.metadata.headlines, us.metadata.headlines) where mh.unit == .distance {
                XCTAssertEqual(mh.value, uh.value * Units.metresPerMile / 1000, accuracy: 0.11, "\(report.name) headline \(mh.name)")
            }
        }
    }

    /// A period after the data: every report is written, says it is partial because the
    /// warehouse has no data in it, and each empty table says "No rows for this period." in HTML.
    func testAnEmptyPeriodSaysSoAndIsPartial() throws {
        let request = Self.request(period: .month(2026, 12), asOf: CivilDate(year: 2027, month: 1, day: 5)!)
        for report in ReportRegistry.all {
            let out = try output(report, request)
            XCTAssertTrue(out.metadata.partial.contains { $0.contains("has no data in 2026-12") }, "\(report.name): \(out.metadata.partial)")
            let html = try HTMLFormat.render(out)
            XCTAssertTrue(html.contains("partial"), report.name)
            let empty = out.tables.filter { $0.rowCount == 0 && $0.totals == nil }
            if !empty.isEmpty { XCTAssertTrue(html.contains("No rows for this period."), report.name) }
            for h in out.metadata.headlines { XCTAssertTrue(h.value.isFinite, "\(report.name) headline \(h.name)") }
        }
    }

    /// An unknown cell (`.null`) is an empty CSV field, JSON null and an empty HTML cell in every
    /// report, never 0; the sample has unknowns (machines without an odometer).
    func testUnknownValuesRenderAsUnknown() throws {
        var unknowns = 0
        let zone = TimeZone(identifier: Self.zone.identifier)!
        for report in ReportRegistry.all {
            let out = try output(report, Self.request())
            for table in out.tables + [out.dataQuality] {
                let csv = CSVFormat.render(table, zone: zone).components(separatedBy: "\r\n")
                try table.forEachRow { _ in }
                for (r, row) in table.rows.enumerated() {
                    for (i, value) in row.enumerated() where value == .null {
                        unknowns += 1
                        XCTAssertEqual(CSVFormat.cell(value, zone: zone), "")
                        XCTAssertEqual(HTMLFormat.cell(value, type: table.columns[i].type, zone: zone).1, "")
                        XCTAssertEqual(JSONFormat.value(value, zone: zone), .null)
                        XCTAssertFalse(csv[r + 1].isEmpty, "\(report.name).\(table.name) row \(r)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(unknowns, 0, "the sample has unknown values")
    }

    /// Asset names from imported files reach every report: on a copy of the sample whose units
    /// and names are a script tag and a spreadsheet formula, HTML escapes them, CSV guards the
    /// formula, and the workbook stores it as text.
    func testNamesFromImportedFilesAreEscapedInEveryReport() throws {
        let s = try SampleReportGoldenTests.sharedSample()
        let dir = try ReportFixture.temporaryDirectory()
        let path = dir.appendingPathComponent("hostile.sqlite").path
        try s.warehouse.warehouse.pool.backup(to: DatabaseQueue(path: path))
        let copy = try TestWarehouse(existing: path)
        try copy.warehouse.pool.write { db in
            try db.execute(sql: "UPDATE asset SET unit_number = '<script>' || unit_number || '</script>', name = '=HYPERLINK(\"http://x\")' WHERE unit_number = 'T-01'")
            try db.execute(sql: "UPDATE asset SET unit_number = '=1+' || unit_number WHERE unit_number = 'M-01'")
        }
        let out = dir.appendingPathComponent("out")
        let written = try ReportWriter(warehouse: copy.warehouse, formats: ReportFormats.all)
            .write(ReportRegistry.all, request: Self.request(), to: out, index: true)
        XCTAssertEqual(written.failures.map { "\($0)" }, [])
        for report in ReportRegistry.all {
            let files = written.steps.filter { $0.report == report.name }.flatMap(\.files)
            for file in files where file.pathExtension == "html" {
                let html = try String(contentsOf: file, encoding: .utf8)
                XCTAssertFalse(html.contains("<script>T-01"), "\(report.name): raw script tag")
            }
            for file in files where file.pathExtension == "csv" {
                let csv = try String(contentsOf: file, encoding: .utf8)
                for line in csv.components(separatedBy: "\r\n") {
                    for field in line.split(separator: ",", omittingEmptySubsequences: false) {
                        let f = field.hasPrefix("\"") ? field.dropFirst() : field
                        XCTAssertFalse(f.hasPrefix("=") || f.hasPrefix("+") || f.hasPrefix("@"), "\(file.lastPathComponent): unguarded \(field)")
                    }
                }
            }
            for file in files where file.pathExtension == "xlsx" { try assertOpenpyxlReads(file.path, report: report.name) }
        }
        let all = try written.files.filter { $0.pathExtension == "html" }.map { try String(contentsOf: $0, encoding: .utf8) }.joined()
        XCTAssertTrue(all.contains("&lt;script&gt;T-01"), "the hostile unit reached the HTML, escaped")
    }

    /// Every sheet of the workbook opens; no cell is a formula (text from a file stays text).
    private func assertOpenpyxlReads(_ path: String, report: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let python = ReportFixture.packageRoot.appendingPathComponent(".venv-tools/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            XCTFail("openpyxl is not installed: \(python) is missing; run `make test-tools`", file: file, line: line)
            return
        }
        let r = try ToolRunner.run(python, ["-c", Self.openpyxlCheck, path])
        XCTAssertEqual(r.stdout, "OK\n", "\(report): " + r.stderr, file: file, line: line)
    }

    static let openpyxlCheck = #"""
    import sys, openpyxl
    wb = openpyxl.load_workbook(sys.argv[1])
    assert "Summary" in wb.sheetnames and "Data quality" in wb.sheetnames, wb.sheetnames
    cells = 0
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                assert c.data_type != "f", (ws.title, c.coordinate, c.value)
                cells += c.value is not None
    assert cells > 20, cells
    print("OK")
    """#
}
