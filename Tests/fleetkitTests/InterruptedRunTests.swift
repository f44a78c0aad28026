import XCTest
import Foundation
import FleetTestSupport

/// A killed `fleetkit import` or `fleetkit nightly` does not stay `running` forever: `status`
/// shows it `interrupted` at once, and the next run records it so (RunLock).
final class InterruptedRunTests: XCTestCase {
    static var sampleData: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SampleData")
    }
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("interrupted-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: dir) }

    private func wait(until condition: () -> Bool, within seconds: Double) -> Bool { waitFor(seconds, every: 5_000, condition) }

    private func statusOfLastRun(_ db: String) throws -> String? {
        let r = try Fleetkit.run(["status", "--db", db, "--json"])
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        return ((json?["last_runs"] as? [[String: Any]])?.first)?["status"] as? String
    }

    private func ledger(_ db: String) throws -> [String] {
        try TestWarehouse(existing: db).rows("SELECT id, status FROM import_run ORDER BY id").map { "\($0[0] as Int64) \($0[1] as String)" }
    }

    private func lockFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".run-") }.sorted()
    }

    func testAKilledImportShowsAsInterruptedAndTheNextImportRecordsIt() throws {
        let db = dir.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db]).status, 0)
        let track = dir.appendingPathComponent("track.gpx")
        try LongTrack.write(track, points: 1_000_000)
        let p = Fleetkit.process(["import", "--db", db, "--asset", "T-01", track.path])
        try p.run()
        XCTAssertTrue(wait(until: { FileManager.default.fileExists(atPath: db + ".run-1.lock") }, within: 60), "run 1 never took its lock")
        XCTAssertTrue(p.isRunning, "the import finished before it could be killed; use a longer track")
        XCTAssertEqual(try statusOfLastRun(db), "running", "a live run is shown running")
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationReason, .uncaughtSignal)

        // status (read-only) shows it at once; the ledger still says running until a run records it.
        XCTAssertEqual(try statusOfLastRun(db), "interrupted")
        XCTAssertEqual(try ledger(db), ["1 running"])
        let next = try Fleetkit.run(["import", "--db", db, Self.sampleData.appendingPathComponent("master/assets.csv").path])
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertEqual(try ledger(db), ["1 interrupted", "2 ok"])
        let note: String = try TestWarehouse(existing: db).rows("SELECT summary_json FROM import_run WHERE id = 1")[0][0]
        XCTAssertTrue(note.contains("pid \(p.processIdentifier)"), note)
        XCTAssertEqual(try lockFiles(), [], "no run lock is left behind")
        let positions: Int = try TestWarehouse(existing: db).rows("SELECT COUNT(*) FROM position")[0][0]
        XCTAssertEqual(positions, 0)
    }

    /// The nightly job killed while its import child works: the child stops too (it watches its
    /// parent), the next nightly run records the killed one `interrupted` and imports the file once.
    func testAKilledNightlyRunIsRecordedInterruptedAndItsChildStops() throws {
        let root = dir!
        try LongTrack.write(root.appendingPathComponent("inbox/gpx/T-01/track.gpx"), points: 1_000_000)
        try NightlySetup.addToInbox(Self.sampleData.appendingPathComponent("master/assets.csv"), as: "master/assets.csv", in: root)
        try NightlySetup.writeConfig(in: root)
        let args = ["nightly", "--config", root.appendingPathComponent("fleetkit.yml").path, "--as-of", "2026-11-02"]
        let db = root.appendingPathComponent("fleet.sqlite").path
        let p = Fleetkit.process(args)
        try p.run()
        var child: Int32 = 0
        XCTAssertTrue(wait(until: {
            child = ChildProcessFinder.child(of: p.processIdentifier, holdingOpen: "track.gpx") ?? 0
            return child != 0
        }, within: 60), "the import child of track.gpx was never seen")
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        XCTAssertTrue(wait(until: { kill(child, 0) != 0 && errno == ESRCH }, within: 10), "the orphaned import child kept running")
        XCTAssertEqual(try statusOfLastRun(db), "interrupted")

        let rerun = try Fleetkit.run(args)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)
        XCTAssertEqual(try ledger(db), ["1 interrupted", "2 ok"])
        XCTAssertEqual(try lockFiles().filter { !$0.hasSuffix(".sqlite.lock") }, [])
        let positions: Int = try TestWarehouse(existing: db).rows("SELECT COUNT(*) FROM position")[0][0]
        XCTAssertEqual(positions, 1_000_000)
        let files: Int = try TestWarehouse(existing: db).rows("SELECT COUNT(*) FROM source_file WHERE format = 'gpx'")[0][0]
        XCTAssertEqual(files, 1)
    }
}
