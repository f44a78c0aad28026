import XCTest
import Foundation
import FleetTestSupport

/// `fleetkit status` opens the warehouse read-only and shows it where nothing can be written
/// beside it: on a read-only file system and on a full disk (before, both failed: SQLite's WAL
/// reader could not create its -shm index there). The file is never changed, and a -wal whose
/// committed pages cannot be read without that index is an error that says so, not a silent
/// read of the file without them.
///
/// Mounts a small tmpfs, which needs root (or CAP_SYS_ADMIN); elsewhere skipped with the reason.
final class StatusReadOnlyTests: XCTestCase {
    private var root: URL!
    private var mount: URL?

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("status-ro-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    override func tearDown() {
        if let mount { _ = try? Tool.status("/bin/umount", [mount.path]) }
        try? FileManager.default.removeItem(at: root)
    }

    /// A warehouse of one imported expense, closed (no -wal beside it), copied onto a fresh tmpfs.
    private func mountedWarehouse(size: String) throws -> (db: String, mnt: URL) {
        let db = root.appendingPathComponent("fleet.sqlite").path
        let csv = root.appendingPathComponent("expenses.csv")
        try "expense_id,date,category,amount,currency,vendor\nE1,2026-10-01,tolls,1.00,USD,I-PASS\n".write(to: csv, atomically: true, encoding: .utf8)
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db]).status, 0)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, csv.path]).status, 0)
        let m = root.appendingPathComponent("mnt")
        try FileManager.default.createDirectory(at: m, withIntermediateDirectories: true)
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/bin/mount"),
              try Tool.status("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", m.path]) == 0 else {
            throw XCTSkip("mounting a tmpfs is not permitted here (needs root or CAP_SYS_ADMIN); the read-only status case is not run")
        }
        mount = m
        let copy = m.appendingPathComponent("fleet.sqlite").path
        try FileManager.default.copyItem(atPath: db, toPath: copy)
        return (copy, m)
    }

    private func files(in folder: URL) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() }

    private func assertStatusShowsTheExpense(_ db: String, _ mnt: URL, _ names: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let r = try Fleetkit.run(["status", "--db", db, "--json"])
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        XCTAssertTrue(r.stdout.contains("\"expense\" : 1") || r.stdout.contains("\"expense\":1"), r.stdout, file: file, line: line)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: db)), before, "the warehouse was changed", file: file, line: line)
        XCTAssertEqual(try files(in: mnt), names, "nothing is created beside it", file: file, line: line)
    }

    func testStatusReadsAWarehouseOnAReadOnlyFileSystem() throws {
        let (db, m) = try mountedWarehouse(size: "4m")
        XCTAssertEqual(try Tool.status("/bin/mount", ["-o", "remount,ro", m.path]), 0)
        try assertStatusShowsTheExpense(db, m, ["fleet.sqlite"])
    }

    func testStatusReadsAWarehouseOnAFullDisk() throws {
        let (db, m) = try mountedWarehouse(size: "4m")
        // Fill the rest of the disk.
        let filler = m.appendingPathComponent("filler").path
        let fd = open(filler, O_WRONLY | O_CREAT, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        let block = [UInt8](repeating: 0xAB, count: 4096)
        while write(fd, block, block.count) == block.count {}
        close(fd)
        var fs = statvfs()
        XCTAssertEqual(statvfs(m.path, &fs), 0)
        XCTAssertLessThan(UInt64(fs.f_bavail) * UInt64(fs.f_frsize), 4096, "the disk is not full")
        try assertStatusShowsTheExpense(db, m, ["filler", "fleet.sqlite"])
    }

    func testACommittedWALThatCannotBeReadIsAnErrorNotASilentlyOlderWarehouse() throws {
        let (db, m) = try mountedWarehouse(size: "4m")
        // A -wal with committed pages (any non-empty one: SQLite would need its -shm to read it).
        try Data(repeating: 1, count: 4096).write(to: URL(fileURLWithPath: db + "-wal"))
        XCTAssertEqual(try Tool.status("/bin/mount", ["-o", "remount,ro", m.path]), 0)
        let r = try Fleetkit.run(["status", "--db", db])
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("its -wal (4096 bytes of committed changes) is beside it without its -shm index"), r.stderr)
    }
}
