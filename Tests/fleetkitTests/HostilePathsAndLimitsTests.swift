import XCTest
import Foundation
import FleetTestSupport

/// Issue 35 items 3 and 13: a file-size limit reads as a full disk, not a silent SIGXFSZ death;
/// `--db` naming a folder or a FIFO, and a FIFO planted as a run lock, are refused at once
/// with what they are (before: "disk I/O error", or a hang for ever).
final class HostilePathsAndLimitsTests: XCTestCase {
    var root: URL!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-paths-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: root) }

    /// Runs fleetkit, killing it after `seconds`: a hang is a failure, never a stuck test.
    private func run(_ arguments: [String], seconds: Double = 60) throws -> (status: Int32, reason: Process.TerminationReason, stderr: String) {
        let (p, _, err) = try Fleetkit.start(arguments, outputIn: root)
        let deadline = Date().addingTimeInterval(seconds)
        while p.isRunning, Date() < deadline { usleep(20_000) }
        if p.isRunning { p.terminate(); p.waitUntilExit(); XCTFail("fleetkit \(arguments) hung"); }
        p.waitUntilExit()
        return (p.terminationStatus, p.terminationReason, try Fleetkit.text(of: err))
    }

    func testDbNamingAFolderOrAFIFOIsRefusedAtOnce() throws {
        let folder = root.appendingPathComponent("folder.sqlite")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fifo = root.appendingPathComponent("fifo.sqlite").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        for (path, says) in [(folder.path, "it is a folder, not a file"), (fifo, "it is a named pipe (FIFO)")] {
            for command in [["status"], ["report", "cost", "--month", "2026-10", "--out", root.path]] {
                let r = try run(command + ["--db", path], seconds: 20)
                XCTAssertEqual(r.reason, .exit, r.stderr)
                XCTAssertEqual(r.status, 2, r.stderr)
                XCTAssertTrue(r.stderr.contains(says), r.stderr)
                XCTAssertFalse(r.stderr.contains("disk I/O error"), r.stderr)
            }
        }
    }

    func testAFIFOPlantedAsTheNextRunLockIsRefusedNotWaitedOn() throws {
        let db = root.appendingPathComponent("fleet.sqlite").path
        let csv = root.appendingPathComponent("expenses.csv")
        try "expense_id,date,category,amount,currency,vendor\nE1,2026-10-01,tolls,1.00,USD,I-PASS\n".write(to: csv, atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(["init", "--db", db]).status, 0)
        // The first import's run is id 1.
        XCTAssertEqual(mkfifo(db + ".run-1.lock", 0o600), 0)
        let r = try run(["import", "--db", db, csv.path], seconds: 30)
        XCTAssertEqual(r.reason, .exit, r.stderr)
        XCTAssertNotEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("named pipe"), r.stderr)
    }

    /// Issue 35 item 11: `--from 9999-12-01 --to 9999-12-31` crashed two reports (the next
    /// month's start overflowed). A period outside the years the warehouse can hold (1971–2200,
    /// as `--month` and `--quarter`) is a usage error, exit 64, naming the bound; never a signal.
    func testReportPeriodsBeyondTheYearsTheWarehouseHoldsAreUsageErrors() throws {
        let db = root.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try run(["init", "--db", db]).status, 0)
        for period in [["--from", "9999-12-01", "--to", "9999-12-31"], ["--from", "1970-12-01", "--to", "1970-12-31"],
                       ["--month", "9999-12"], ["--quarter", "9999-Q4"]] {
            for report in ["cost", "summary"] {
                let r = try run(["report", report, "--db", db, "--out", root.path] + period, seconds: 30)
                XCTAssertEqual(r.reason, .exit, "\(report) \(period): \(r.stderr)")
                XCTAssertEqual(r.status, 64, "\(report) \(period): \(r.stderr)")
                XCTAssertTrue(r.stderr.contains("1971") && r.stderr.contains("2200"), r.stderr)
            }
        }
    }

    /// Issue 35 item 5: the per-run lock followed a planted symbolic link and truncated its target.
    func testASymlinkPlantedAsTheNextRunLockIsNeverWrittenThrough() throws {
        let db = root.appendingPathComponent("fleet.sqlite").path
        let csv = root.appendingPathComponent("expenses.csv")
        try "expense_id,date,category,amount,currency,vendor\nE1,2026-10-01,tolls,1.00,USD,I-PASS\n".write(to: csv, atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(["init", "--db", db]).status, 0)
        let victim = root.appendingPathComponent("precious.txt")
        try "keep me\n".write(to: victim, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: db + ".run-1.lock", withDestinationPath: victim.path)
        let r = try run(["import", "--db", db, csv.path], seconds: 30)
        XCTAssertNotEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("symbolic link"), r.stderr)
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "keep me\n")
    }

    /// `ulimit -f`: before, SIGXFSZ ended `import` with status 153 and no message.
    func testAFileSizeLimitIsReportedLikeAFullDisk() throws {
        let db = root.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try run(["init", "--db", db]).status, 0)
        let csv = root.appendingPathComponent("expenses.csv")
        let rows = (1...20_000).map { "E\($0),2026-10-01,tolls,\($0).00,USD,Vendor number \($0) with a long name to grow the file" }
        try (["expense_id,date,category,amount,currency,vendor"] + rows).joined(separator: "\n").write(to: csv, atomically: true, encoding: .utf8)
        let size = (try FileManager.default.attributesOfItem(atPath: db)[.size] as? Int) ?? 0
        // Blocks of 512 bytes (dash): room for the warehouse as it is, not for 20,000 more rows.
        let blocks = size / 512 + 400
        let r = try run(["/bin/sh", "-c", "ulimit -f \(blocks) && exec \"$0\" import --db \"$1\" \"$2\"", Fleetkit.executable.path, db, csv.path], shell: true)
        XCTAssertEqual(r.reason, .exit, "ended by a signal: \(r.status) \(r.stderr)")
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("file-size limit"), r.stderr)
    }

    private func run(_ argv: [String], shell: Bool) throws -> (status: Int32, reason: Process.TerminationReason, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: argv[0])
        p.arguments = Array(argv.dropFirst())
        let err = root.appendingPathComponent("stderr-\(UUID())")
        FileManager.default.createFile(atPath: err.path, contents: nil)
        p.standardOutput = FileHandle.nullDevice
        p.standardError = try FileHandle(forWritingTo: err)
        try p.run()
        p.waitUntilExit()
        return (p.terminationStatus, p.terminationReason, try Fleetkit.text(of: err))
    }
}
