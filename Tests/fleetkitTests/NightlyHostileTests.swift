import XCTest
import Foundation
import FleetTestSupport

/// Every hostile fixture goes through the real `fleetkit nightly`, beside good files: each
/// hostile file ends in the quarantine with a reason, every good file is imported and archived,
/// the reports are written, and the run exits with the documented code. Also: an import child
/// that dies by a signal (a crash, the OOM killer) or hangs past the time limit costs only
/// its own file.
final class NightlyHostileTests: XCTestCase {
    static var testsFolder: URL { URL(fileURLWithPath: #filePath).deletingLastPathComponent() }
    static var fixtures: URL { testsFolder.appendingPathComponent("Fixtures/hostile") }
    static var sampleData: URL { testsFolder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SampleData") }

    /// What the nightly job must do with one fixture of `Fixtures/hostile/`.
    struct Expectation {
        var file: String
        /// `quarantined`, or `archived` (imported, perhaps with rejected rows).
        var action: String
        /// The quarantine reason must contain one of these (any, when empty).
        var reasonAnyOf: [String] = []
    }

    /// One line per fixture. A fixture without a line fails the test, so a new one cannot be
    /// forgotten here.
    static let table: [Expectation] = [
        // libxml2 2.9.14 dereferences NULL switching to EBCDIC; the prolog guard missed a
        // declaration split over two lines. Either the child crashes (quarantined naming
        // SIGSEGV) or the guard refuses it: quarantined either way, and the run goes on.
        Expectation(file: "iso-encoding-ebcdic-after-newline.xml", action: "quarantined", reasonAnyOf: ["crashed (SIGSEGV)", "EBCDIC-US"]),
        Expectation(file: "iso-external-entity.xml", action: "quarantined", reasonAnyOf: ["DOCTYPE", "entit"]),
        Expectation(file: "gpx-entity-bomb.gpx", action: "quarantined", reasonAnyOf: ["entit", "DOCTYPE"]),
        Expectation(file: "assets-unterminated-quote.csv", action: "quarantined", reasonAnyOf: ["unterminated quoted field"]),
        Expectation(file: "empty.csv", action: "quarantined", reasonAnyOf: ["the file is empty"]),
        Expectation(file: "unknown-binary.bin", action: "quarantined", reasonAnyOf: ["format was not recognised"]),
    ]

    /// Good files that must be imported whatever the hostile files do.
    static let goodFiles = ["master/assets.csv", "master/drivers.csv", "fuel-card/fuel-card-2026-10.csv"]

    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-hostile-\(UUID())")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        try """
        warehouse: fleet.sqlite
        inbox: inbox
        archive: archive
        quarantine: quarantine
        reports: reports
        settle_seconds: 0
        timezone: America/Chicago
        reports_to_refresh: [summary, cost]
        periods: [previous_month]
        formats: [json, csv]
        """.write(to: root.appendingPathComponent("fleetkit.yml"), atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: root)
    }

    private func copyGoodFiles() throws {
        for f in Self.goodFiles {
            let target = root.appendingPathComponent("inbox/" + f)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Self.sampleData.appendingPathComponent(f), to: target)
        }
    }

    private func nightly(_ extra: [String] = []) throws -> CommandResult {
        try Fleetkit.run(["nightly", "--config", root.appendingPathComponent("fleetkit.yml").path, "--as-of", "2026-11-02", "--json"] + extra)
    }

    private func summary(_ r: CommandResult) throws -> [String: Any] {
        guard let s = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] else {
            XCTFail("no JSON summary: \(r.stdout) \(r.stderr)"); return [:]
        }
        return s
    }

    private func files(_ s: [String: Any]) -> [String: [String: Any]] {
        var out: [String: [String: Any]] = [:]
        for f in s["files"] as? [[String: Any]] ?? [] { out[URL(fileURLWithPath: f["path"] as! String).lastPathComponent] = f }
        return out
    }

    private func regularFiles(under folder: URL) -> [String] {
        let e = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        return (e?.allObjects as? [URL] ?? []).filter { (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }.map(\.path).sorted()
    }

    private func reason(ofQuarantined relative: String) -> String {
        (try? String(contentsOf: root.appendingPathComponent("quarantine/\(relative).reason.txt"), encoding: .utf8)) ?? ""
    }

    func testEveryHostileFixtureIsQuarantinedWithAReasonAndTheGoodFilesImport() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.path).filter { $0 != "README.md" }.sorted()
        XCTAssertEqual(names, Self.table.map(\.file).sorted(), "every fixture in Fixtures/hostile needs one line in NightlyHostileTests.table")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("inbox/hostile"), withIntermediateDirectories: true)
        for n in names { try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent(n), to: root.appendingPathComponent("inbox/hostile/\(n)")) }
        try copyGoodFiles()

        let r = try nightly()
        // Exit 1: files were quarantined (docs/OPERATIONS.md); never a signal, never 2.
        XCTAssertEqual(r.status, 1, r.stderr)
        let s = try summary(r)
        let byName = files(s)
        for e in Self.table {
            guard let f = byName[e.file] else { XCTFail("\(e.file): not in the run summary"); continue }
            XCTAssertEqual(f["action"] as? String, e.action, "\(e.file): \(f)")
            if e.action == "quarantined" {
                let note = reason(ofQuarantined: "hostile/\(e.file)")
                XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("quarantine/hostile/\(e.file)").path), e.file)
                XCTAssertTrue(e.reasonAnyOf.isEmpty || e.reasonAnyOf.contains { note.contains($0) }, "\(e.file): reason was: \(note)")
            }
        }
        for g in Self.goodFiles {
            let name = URL(fileURLWithPath: g).lastPathComponent
            XCTAssertEqual(byName[name]?["action"] as? String, "archived", g)
            XCTAssertEqual((byName[name]?["outcome"] as? [String: Any])?["status"] as? String, "imported", g)
            XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("archive/2026/11/02/\(g)").path), g)
        }
        XCTAssertEqual(s["quarantined"] as? Int, Self.table.filter { $0.action == "quarantined" }.count)
        XCTAssertEqual(s["exit_code"] as? Int, 1)
        // Nothing left behind in the inbox; the reports of the run were written.
        XCTAssertEqual(regularFiles(under: root.appendingPathComponent("inbox")), [])
        for report in ["cost-2026-10.json", "summary-2026-10.json", "index.html", "nightly-last-run.json"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("reports/\(report)").path), report)
        }
        let t = try TestWarehouse(existing: root.appendingPathComponent("fleet.sqlite").path)
        let stored: Int = try t.rows("SELECT COUNT(*) FROM source_file")[0][0]
        XCTAssertEqual(stored, Self.goodFiles.count + Self.table.filter { $0.action == "archived" }.count)
        XCTAssertEqual(try t.rows("SELECT status FROM import_run").map { $0[0] as String }, ["partial"])
    }
}
