import XCTest
import GRDB
import FleetTestSupport

/// Ctrl-C (SIGINT) and SIGTERM during `import` and `nightly`: the command says in one line what
/// was committed and what was not, exits 130 or 143 as shells expect, and the warehouse keeps
/// exactly the files committed before the signal (one transaction per file); running the same
/// command again finishes the work.
final class InterruptTests: XCTestCase {
    private var root: URL!
    /// T-01 in master data, so that a track in inbox/gpx/T-01/ is attributed and imports.
    static let assets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FleetImportTests/Fixtures/assets/good.csv")

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("interrupt-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    private func start(_ arguments: [String]) throws -> (Process, out: URL, err: URL) { try Fleetkit.start(arguments, outputIn: root) }

    private func text(_ url: URL) throws -> String { try Fleetkit.text(of: url) }

    func testSIGINTDuringImportKeepsCommittedFilesAndSaysHowToResume() throws {
        let folder = root.appendingPathComponent("gpx")
        try LongTrack.write(folder.appendingPathComponent("a-small.gpx"), points: 100, start: 0)
        try LongTrack.write(folder.appendingPathComponent("b-big.gpx"), points: 2_000_000, start: 1000)
        let db = root.appendingPathComponent("fleet.sqlite").path
        let (p, out, err) = try start(["import", "--db", db, "--create", "--asset", "T-01", folder.path])
        // The small file's line is printed (and flushed) as soon as it is committed.
        let appeared = try waitFor(120) { try text(out).contains("a-small.gpx") }
        let (printed, said) = (try text(out), try text(err))
        XCTAssertTrue(appeared, "the first file's line never appeared: \(printed) \(said)")
        usleep(300_000)
        XCTAssertTrue(p.isRunning, "the big file was imported too quickly to be interrupted")
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()

        XCTAssertEqual(p.terminationReason, .exit)
        XCTAssertEqual(p.terminationStatus, 130)
        let message = try text(err)
        XCTAssertTrue(message.contains("interrupted by SIGINT: 1 file committed ("), message)
        XCTAssertTrue(message.contains("\(folder.path)/b-big.gpx was in progress and was rolled back, nothing of it kept"), message)
        XCTAssertTrue(message.contains("Run the same command again to resume"), message)
        XCTAssertEqual(message.components(separatedBy: "\n").filter { $0.contains("interrupted") }.count, 1, message)

        // Exactly the committed file is in the warehouse, and the run shows as interrupted.
        let status = try Fleetkit.run(["status", "--db", db, "--json"])
        XCTAssertEqual(status.status, 0, status.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as! [String: Any]
        XCTAssertEqual((json["tables"] as! [String: Int])["source_file"], 1)
        XCTAssertEqual((json["tables"] as! [String: Int])["position"], 100)
        XCTAssertEqual(((json["last_runs"] as! [[String: Any]]).first)?["status"] as? String, "interrupted")

        // Resuming: the committed file is unchanged, the rolled-back one is imported.
        let again = try Fleetkit.run(["import", "--db", db, "--asset", "T-01", folder.path])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("unchanged \(folder.path)/a-small.gpx"), again.stdout)
        XCTAssertTrue(again.stdout.contains("imported  \(folder.path)/b-big.gpx"), again.stdout)
    }

    func testSIGTERMDuringNightlyStopsTheImportChildAndLeavesTheFileInTheInbox() throws {
        let big = root.appendingPathComponent("inbox/gpx/T-01/big.gpx")
        try LongTrack.write(big, points: 2_000_000, start: 0)
        // T-01 in master data, so that the track is attributed (inbox/gpx/T-01/) and imports.
        try NightlySetup.addToInbox(Self.assets, as: "master/assets.csv", in: root)
        try NightlySetup.writeConfig(in: root)
        let (p, _, err) = try start(["nightly", "--config", root.appendingPathComponent("fleetkit.yml").path, "--as-of", "2026-11-02"])
        var worker: Int32?
        let started = waitFor(120) { worker = ChildProcessFinder.child(of: p.processIdentifier, holdingOpen: "big.gpx"); return worker != nil }
        let said = try text(err)
        XCTAssertTrue(started, said)
        usleep(200_000)
        kill(p.processIdentifier, SIGTERM)
        p.waitUntilExit()

        XCTAssertEqual(p.terminationReason, .exit)
        XCTAssertEqual(p.terminationStatus, 143)
        let message = try text(err)
        XCTAssertTrue(message.contains("interrupted by SIGTERM: 1 file imported and committed in this run (2 rows); "), message)
        XCTAssertTrue(message.contains("\(big.path) (it stays in the inbox) was in progress and was rolled back"), message)
        XCTAssertTrue(message.contains("Run the same nightly command again to finish"), message)
        if let worker {
            XCTAssertTrue(waitFor(10) { kill(worker, 0) != 0 }, "the import child outlived the interrupted job")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: big.path), "the file in progress must stay in the inbox")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("quarantine/gpx/T-01/big.gpx").path),
                       "an interrupted file is not a bad file")
        let t = try TestWarehouse(existing: root.appendingPathComponent("fleet.sqlite").path)
        XCTAssertEqual(try t.rows("SELECT COUNT(*) FROM position")[0][0] as Int, 0)
        XCTAssertEqual(try t.rows("SELECT path FROM source_file").map { $0[0] as String }, [root.appendingPathComponent("archive/2026/11/02/master/assets.csv").path], "the committed file, archived")

        // The next run finishes the work.
        let again = try Fleetkit.run(["nightly", "--config", root.appendingPathComponent("fleetkit.yml").path, "--as-of", "2026-11-02"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: big.path))
        XCTAssertEqual(try t.rows("SELECT COUNT(*) FROM position")[0][0] as Int, 2_000_000)
    }

    /// nightly prints each file's line when it commits: the master-data line is on stdout while
    /// the big track is still being imported (stdout is a file here, not a terminal).
    func testNightlyPrintsEachFileAsItCommits() throws {
        let big = root.appendingPathComponent("inbox/gpx/T-01/big.gpx")
        try LongTrack.write(big, points: 1_500_000, start: 0)
        try NightlySetup.addToInbox(Self.assets, as: "master/assets.csv", in: root)
        try NightlySetup.writeConfig(in: root)
        let (p, out, err) = try start(["nightly", "--config", root.appendingPathComponent("fleetkit.yml").path, "--as-of", "2026-11-02"])
        let assets = "imported    \(root.path)/inbox/master/assets.csv [assets]: 2 loaded"
        var seenWhileRunning = false
        let appeared = try waitFor(120) {
            if try text(out).contains(assets) { seenWhileRunning = try p.isRunning && !text(out).contains("big.gpx"); return true }
            return false
        }
        p.waitUntilExit()
        let (printed, said) = (try text(out), try text(err))
        XCTAssertTrue(appeared, said)
        XCTAssertTrue(seenWhileRunning, "the first file's line must appear before the run ends: \(printed)")
        XCTAssertEqual(p.terminationStatus, 0, said)
        let lines = printed.split(separator: "\n")
        XCTAssertTrue(lines[0].hasPrefix(assets), printed)
        XCTAssertTrue(lines[1].hasPrefix("imported    \(big.path) [gpx]: 1500000 loaded"), printed)
        XCTAssertTrue(lines[2].hasPrefix("run #1 as of 2026-11-02: 2 files (2 imported"), printed)
    }
}
