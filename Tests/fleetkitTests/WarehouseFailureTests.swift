import XCTest
import Foundation
import FleetTestSupport

/// A warehouse that cannot be written: a full disk, a read-only file system, a file that is not
/// a warehouse (text, another application's SQLite database, a truncated or damaged copy).
/// Each stops the command with exit 2 and a message that says what is wrong, and changes
/// nothing that was there; after a full disk is fixed, a rerun completes the import.
///
/// The disk-full and read-only cases mount a small tmpfs, which needs root (or CAP_SYS_ADMIN);
/// elsewhere they are skipped with the reason.
final class WarehouseFailureTests: XCTestCase {
    static var sampleData: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("SampleData")
    }
    private var mounts: [URL] = []
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("whfail-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDown() {
        for m in mounts.reversed() { _ = try? Tool.status("/bin/umount", [m.path]) }
        mounts = []
    }

    /// A tmpfs of `size` at a fresh folder, or a skip saying why there is none.
    private func mountTmpfs(size: String) throws -> URL {
        let m = dir.appendingPathComponent("mnt-\(mounts.count)")
        try FileManager.default.createDirectory(at: m, withIntermediateDirectories: true)
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/bin/mount"),
              try Tool.status("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", m.path]) == 0 else {
            throw XCTSkip("mounting a tmpfs is not permitted here (needs root or CAP_SYS_ADMIN); the disk-full and read-only file system cases are not run")
        }
        mounts.append(m)
        return m
    }

    private func sha(_ path: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var h: UInt64 = 0xcbf29ce484222325
        for b in data { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return "\(data.count):\(h)"
    }

    private var costData: [String] {
        ["master", "fuel-card", "expenses", "dvir", "maintenance"].map { Self.sampleData.appendingPathComponent($0).path }
    }

    private let tables = ["asset", "driver", "assignment", "maintenance_record", "service_schedule", "expense", "fuel_purchase", "dvir", "dvir_defect", "fx_rate"]

    // MARK: Disk full

    func testAFullDiskStopsWithExit2AndARerunAfterFreeingSpaceCompletes() throws {
        // The warehouse is made on a roomy disk, which then shrinks to what it uses plus 256 KiB:
        // a fixed small size stops fitting the empty schema as migrations are added.
        let m = try mountTmpfs(size: "50m")
        let db = m.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "America/Chicago"]).status, 0)
        var fs = statvfs()
        XCTAssertEqual(statvfs(m.path, &fs), 0)
        let usedKiB = (UInt64(fs.f_blocks) - UInt64(fs.f_bfree)) * UInt64(fs.f_frsize) / 1024
        XCTAssertEqual(try Tool.status("/bin/mount", ["-o", "remount,size=\(usedKiB + 256)k", m.path]), 0)
        let full = try Fleetkit.run(["import", "--db", db] + costData)
        XCTAssertEqual(full.status, 2, full.stdout + full.stderr)
        XCTAssertTrue(full.stderr.contains("the disk is full"), full.stderr)
        XCTAssertTrue(full.stderr.contains("rolled back and can be retried"), full.stderr)
        // What was committed before the disk filled is intact; the warehouse is not damaged.
        XCTAssertEqual(try TestWarehouse(existing: db).rows("PRAGMA integrity_check").map { $0[0] as String }, ["ok"])

        XCTAssertEqual(try Tool.status("/bin/mount", ["-o", "remount,size=50m", m.path]), 0)
        let rerun = try Fleetkit.run(["import", "--db", db] + costData)
        XCTAssertEqual(rerun.status, 0, rerun.stderr)

        let clean = dir.appendingPathComponent("clean.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", clean, "--tz", "America/Chicago"]).status, 0)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", clean] + costData).status, 0)
        XCTAssertEqual(try TestWarehouse(existing: db).factDump(tables: tables), try TestWarehouse(existing: clean).factDump(tables: tables))
    }

    // MARK: Read-only

    func testAReadOnlyFileSystemIsAClearErrorAndNothingChanges() throws {
        let m = try mountTmpfs(size: "20m")
        let db = m.appendingPathComponent("fleet.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db, "--tz", "America/Chicago"]).status, 0)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, Self.sampleData.appendingPathComponent("master").path]).status, 0)
        XCTAssertEqual(try Tool.status("/bin/mount", ["-o", "remount,ro", m.path]), 0)
        let before = try sha(db)
        let r = try Fleetkit.run(["import", "--db", db, Self.sampleData.appendingPathComponent("fuel-card").path])
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("it is read-only"), r.stderr)
        XCTAssertEqual(try sha(db), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: m.path), ["fleet.sqlite"])
    }

    // MARK: Not a warehouse

    /// Text, another application's SQLite database, and a warehouse cut in half: every command
    /// that opens the warehouse exits 2 with the reason and leaves the file byte for byte.
    func testFilesThatAreNotAWarehouseAreRefusedAndNeverChanged() throws {
        let text = dir.appendingPathComponent("notes.sqlite")
        try String(repeating: "not sqlite\n", count: 500).write(to: text, atomically: true, encoding: .utf8)
        let foreign = try foreignSQLite()
        let good = dir.appendingPathComponent("good.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", good]).status, 0)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", good] + costData).status, 0)
        let truncated = dir.appendingPathComponent("truncated.sqlite")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        try bytes.prefix(bytes.count / 2).write(to: truncated)

        let cases: [(URL, String)] = [(text, "not a FleetKit warehouse or is corrupt"), (foreign, "an SQLite database of another application"),
                                      (truncated, "database disk image is malformed")]
        for (file, reason) in cases {
            let before = try sha(file.path)
            for args in [["import", "--db", file.path, Self.sampleData.appendingPathComponent("master/assets.csv").path],
                         ["status", "--db", file.path],
                         ["report", "cost", "--db", file.path, "--month", "2026-10", "--format", "json", "--out", dir.appendingPathComponent("out").path],
                         ["init", "--db", file.path]] {
                let r = try Fleetkit.run(args)
                XCTAssertEqual(r.status, 2, "\(args[0]) on \(file.lastPathComponent): \(r.stdout) \(r.stderr)")
                XCTAssertTrue(r.stderr.contains(reason), "\(args[0]) on \(file.lastPathComponent): \(r.stderr)")
                XCTAssertEqual(try sha(file.path), before, "\(args[0]) changed \(file.lastPathComponent)")
            }
            // SQLite may leave an empty -wal (and its -shm index) beside a WAL-mode file it could not
            // read; nothing may have been written into it.
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path) where name.hasPrefix(file.lastPathComponent + "-") {
                let size = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(name).path)[.size] as! Int
                XCTAssertTrue(name.hasSuffix("-shm") || size == 0, "\(name) holds \(size) bytes")
            }
        }
    }

    /// A damaged page inside a real warehouse is found when SQLite reads it: the import stops
    /// with exit 2 and says so, and the file being imported is not recorded as done.
    func testADamagedPageStopsTheImportWithExit2() throws {
        let db = dir.appendingPathComponent("damaged.sqlite").path
        XCTAssertEqual(try Fleetkit.run(["init", "--db", db]).status, 0)
        XCTAssertEqual(try Fleetkit.run(["import", "--db", db, Self.sampleData.appendingPathComponent("master").path,
                                         Self.sampleData.appendingPathComponent("fuel-card").path]).status, 0)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: db))
        try handle.seek(toOffset: 4096 * 5)
        try handle.write(contentsOf: Data(repeating: 0xDE, count: 4096 * 8))
        try handle.close()
        let r = try Fleetkit.run(["import", "--db", db, Self.sampleData.appendingPathComponent("expenses").path])
        XCTAssertEqual(r.status, 2, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("is corrupt (database disk image is malformed)"), r.stderr)
        XCTAssertTrue(r.stderr.contains("restore it from a backup"), r.stderr)
    }

    /// Another application's database (rollback journal, one table, one row).
    private func foreignSQLite() throws -> URL {
        let url = dir.appendingPathComponent("other-app.sqlite")
        try writeForeignSQLite(at: url)
        return url
    }
}
