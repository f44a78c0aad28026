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
        Expectation(file: "unknown-binary.bin", action: "quarantined", reasonAnyOf: ["a zip archive", "Unpack it"]),
    ]

    /// Good files that must be imported whatever the hostile files do.
    static let goodFiles = ["master/assets.csv", "master/drivers.csv", "fuel-card/fuel-card-2026-10.csv"]

    private var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("nightly-hostile-\(UUID())")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("inbox"), withIntermediateDirectories: true)
        try NightlySetup.writeConfig(in: root, timezone: "America/Chicago", reports: ["summary", "cost"], formats: ["json", "csv"])
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

    private func summary(_ r: CommandResult) throws -> [String: Any] { try summary(Data(r.stdout.utf8)) }

    private func summary(_ json: Data) throws -> [String: Any] {
        guard let s = try JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            XCTFail("no JSON summary: \(String(decoding: json, as: UTF8.self))"); return [:]
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

    // MARK: Import children that die or hang

    /// A child killed by SIGABRT (as a crash in a C library would) and one killed by SIGKILL (as
    /// the kernel's out-of-memory killer does) each cost their own file only: both quarantined
    /// naming the signal, nothing of them in the warehouse, every other file imported, exit 1.
    func testImportChildrenKilledBySignalsCostOnlyTheirFiles() throws {
        try copyGoodFiles()
        try LongTrack.write(root.appendingPathComponent("inbox/gpx/T-01/crashing.gpx"), points: 1_000_000, start: 0)
        try LongTrack.write(root.appendingPathComponent("inbox/gpx/T-02/oom-killed.gpx"), points: 1_000_000, start: 0)
        try FileManager.default.copyItem(at: Self.sampleData.appendingPathComponent("master/assignments.csv"),
                                         to: root.appendingPathComponent("inbox/master/assignments.csv"))
        let p = Process()
        p.executableURL = Fleetkit.executable
        p.arguments = ["nightly", "--config", root.appendingPathComponent("fleetkit.yml").path, "--as-of", "2026-11-02", "--json"]
        // Swift's crash backtracer catches SIGABRT, prints, restores the default action and
        // returns: for a real abort() or fault the signal comes again and kills, but one sent by
        // kill() would simply be over. Without the backtracer a sent signal acts as a crash does.
        p.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let abrt = ChildProcessFinder.child(of: p.processIdentifier, holdingOpen: "crashing.gpx", within: 120)
        XCTAssertNotNil(abrt, "the import child of crashing.gpx was never seen")
        if let abrt { kill(abrt, SIGABRT) }
        let oom = ChildProcessFinder.child(of: p.processIdentifier, holdingOpen: "oom-killed.gpx", within: 120)
        XCTAssertNotNil(oom, "the import child of oom-killed.gpx was never seen")
        if let oom { kill(oom, SIGKILL) }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()

        XCTAssertEqual(p.terminationReason, .exit)
        XCTAssertEqual(p.terminationStatus, 1)
        let s = try summary(stdout)
        let byName = files(s)
        XCTAssertEqual(byName["crashing.gpx"]?["action"] as? String, "quarantined")
        XCTAssertTrue(reason(ofQuarantined: "gpx/T-01/crashing.gpx").contains("the importer crashed (SIGABRT)"), reason(ofQuarantined: "gpx/T-01/crashing.gpx"))
        XCTAssertEqual(byName["oom-killed.gpx"]?["action"] as? String, "quarantined")
        XCTAssertTrue(reason(ofQuarantined: "gpx/T-02/oom-killed.gpx").contains("killed (SIGKILL)"), reason(ofQuarantined: "gpx/T-02/oom-killed.gpx"))
        for name in ["assets.csv", "drivers.csv", "assignments.csv", "fuel-card-2026-10.csv"] {
            XCTAssertEqual(byName[name]?["action"] as? String, "archived", name)
        }
        let t = try TestWarehouse(existing: root.appendingPathComponent("fleet.sqlite").path)
        let positions: Int = try t.rows("SELECT COUNT(*) FROM position")[0][0]
        XCTAssertEqual(positions, 0, "a killed child's transaction must leave nothing")
        let stored: Int = try t.rows("SELECT COUNT(*) FROM source_file WHERE format = 'gpx'")[0][0]
        XCTAssertEqual(stored, 0)
        XCTAssertEqual(try t.rows("PRAGMA integrity_check").map { $0[0] as String }, ["ok"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("reports/cost-2026-10.json").path))
    }

    /// With Swift's crash backtracer on (the default), a child that crashes while the backtracer
    /// runs (here: SIGABRT twice) ended without Foundation ever reporting it, and the job waited
    /// forever. The job reads the child's end itself: the file is quarantined naming the signal.
    func testAChildThatDiesInsideTheCrashBacktracerIsStillSeen() throws {
        try copyGoodFiles()
        try LongTrack.write(root.appendingPathComponent("inbox/gpx/T-01/crashing.gpx"), points: 1_000_000, start: 0)
        let p = Process()
        p.executableURL = Fleetkit.executable
        p.arguments = ["nightly", "--config", root.appendingPathComponent("fleetkit.yml").path, "--as-of", "2026-11-02", "--json"]
        p.environment = ProcessInfo.processInfo.environment.filter { $0.key != "SWIFT_BACKTRACE" }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let started = Date()
        // A job that never notices its child's end would hang this test: stop it after 120 s.
        // (Only while it runs: once reaped, its pid may belong to another process.)
        let job = p
        DispatchQueue.global().asyncAfter(deadline: .now() + 120) { if job.isRunning { kill(job.processIdentifier, SIGKILL) } }
        let worker = ChildProcessFinder.child(of: p.processIdentifier, holdingOpen: "crashing.gpx", within: 120)
        XCTAssertNotNil(worker, "the import child of crashing.gpx was never seen")
        if let worker {
            kill(worker, SIGABRT)
            usleep(300_000)
            kill(worker, SIGABRT)
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertLessThan(Date().timeIntervalSince(started), 120)
        XCTAssertEqual(p.terminationReason, .exit, "the job hung waiting for its dead child and was killed")
        XCTAssertEqual(p.terminationStatus, 1)
        XCTAssertEqual(files(try summary(stdout))["crashing.gpx"]?["action"] as? String, "quarantined")
        let note = reason(ofQuarantined: "gpx/T-01/crashing.gpx")
        XCTAssertTrue(note.contains("the importer crashed (SIGABRT)"), note)
        let positions: Int = try TestWarehouse(existing: root.appendingPathComponent("fleet.sqlite").path).rows("SELECT COUNT(*) FROM position")[0][0]
        XCTAssertEqual(positions, 0)
    }

    /// A file whose import runs past `--file-time-limit` is stopped and quarantined with the
    /// limit named; nothing of it is kept, and the next run imports the rest.
    func testAnImportPastTheTimeLimitIsStoppedAndQuarantined() throws {
        try copyGoodFiles()
        XCTAssertEqual(try nightly().status, 0)
        try LongTrack.write(root.appendingPathComponent("inbox/gpx/T-01/slow.gpx"), points: 1_000_000, start: 0)
        let started = Date()
        let r = try nightly(["--file-time-limit", "0.5"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 60)
        XCTAssertEqual(files(try summary(r))["slow.gpx"]?["action"] as? String, "quarantined")
        let note = reason(ofQuarantined: "gpx/T-01/slow.gpx")
        XCTAssertTrue(note.contains("longer than the time limit of 0.5 s"), note)
        let t = try TestWarehouse(existing: root.appendingPathComponent("fleet.sqlite").path)
        let positions: Int = try t.rows("SELECT COUNT(*) FROM position")[0][0]
        XCTAssertEqual(positions, 0)
    }
}
