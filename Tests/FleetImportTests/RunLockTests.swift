import XCTest
import GRDB
import FleetCore
import FleetWarehouse
import FleetTestSupport
@testable import FleetImport

/// A `running` row of the run ledger whose process died is marked `interrupted` by the next run;
/// a run whose process lives (its `RunLock` held) is never touched.
final class RunLockTests: XCTestCase {
    private func runningRow(_ t: TestWarehouse) throws -> Int64 {
        try t.warehouse.pool.write { db in
            var run = ImportRun(startedAt: Timestamp.now(), command: "fleetkit import elsewhere", status: "running")
            try run.insert(db)
            return run.id!
        }
    }

    private func status(_ t: TestWarehouse, _ id: Int64) throws -> String {
        try t.warehouse.pool.read { db in try String.fetchOne(db, sql: "SELECT status FROM import_run WHERE id = ?", arguments: [id])! }
    }

    func testARunWhoseLockIsHeldStaysRunningAndOneWhoseProcessDiedIsMarkedInterrupted() throws {
        let t = try TestWarehouse()
        let path = t.warehouse.path
        // Run A's process lives: its lock file is flock'ed (by another open file description,
        // as another process would hold it).
        let a = try runningRow(t)
        let fd = open(RunLock.path(warehouse: path, runID: a), O_RDWR | O_CREAT, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        XCTAssertEqual(flock(fd, LOCK_EX | LOCK_NB), 0)
        _ = "4242\n".withCString { pwrite(fd, $0, 5, 0) }
        // Run B's process left nothing behind (no lock file): gone.
        let b = try runningRow(t)
        XCTAssertEqual(RunLock.liveness(warehouse: path, runID: a), .alive)
        XCTAssertEqual(RunLock.liveness(warehouse: path, runID: b), .gone(pid: nil))

        let session = ImportSession(warehouse: t.warehouse)
        let c = try session.begin(command: "run C")
        XCTAssertEqual(try status(t, a), "running")
        XCTAssertEqual(try status(t, b), "interrupted")
        XCTAssertEqual(try status(t, c), "running")
        XCTAssertEqual(RunLock.liveness(warehouse: path, runID: c), .alive)
        let note: String = try t.rows("SELECT summary_json FROM import_run WHERE id = ?", [b])[0][0]
        XCTAssertTrue(note.contains("ended without closing this run") && note.contains("run C"), note)

        // A's process dies: the kernel drops its lock (closing the descriptor does the same).
        close(fd)
        XCTAssertEqual(RunLock.liveness(warehouse: path, runID: a), .gone(pid: "4242"))
        _ = try session.finish(c, outcomes: [])
        XCTAssertEqual(try status(t, c), "ok")
        XCTAssertFalse(FileManager.default.fileExists(atPath: RunLock.path(warehouse: path, runID: c)), "a closed run leaves no lock file")
        let d = try session.begin(command: "run D")
        XCTAssertEqual(try status(t, a), "interrupted")
        let noteA: String = try t.rows("SELECT summary_json FROM import_run WHERE id = ?", [a])[0][0]
        XCTAssertTrue(noteA.contains("pid 4242"), noteA)
        XCTAssertFalse(FileManager.default.fileExists(atPath: RunLock.path(warehouse: path, runID: a)))
        _ = try session.finish(d, outcomes: [])
        XCTAssertEqual(try t.rows("SELECT status FROM import_run ORDER BY id").map { $0[0] as String }, ["interrupted", "interrupted", "ok", "ok"])
    }

    /// Only a missing lock file or a lock that can be taken says a run's process is gone. Before,
    /// any open error counted as gone, so a FIFO or folder planted at a live run's lock name got
    /// that run marked `interrupted` by the next run.
    func testALockThatCannotBeCheckedIsUnknownAndNeverMarkedInterrupted() throws {
        let t = try TestWarehouse()
        let path = t.warehouse.path
        let fifo = try runningRow(t), folder = try runningRow(t)
        XCTAssertEqual(mkfifo(RunLock.path(warehouse: path, runID: fifo), 0o600), 0)
        try FileManager.default.createDirectory(atPath: RunLock.path(warehouse: path, runID: folder), withIntermediateDirectories: false)
        for (id, says) in [(fifo, "named pipe"), (folder, "folder")] {
            guard case let .unknown(reason) = RunLock.liveness(warehouse: path, runID: id) else {
                return XCTFail("run \(id): \(RunLock.liveness(warehouse: path, runID: id))")
            }
            XCTAssertTrue(reason.contains(RunLock.path(warehouse: path, runID: id)) && reason.contains(says), reason)
        }
        let session = ImportSession(warehouse: t.warehouse)
        let next = try session.begin(command: "run next")
        XCTAssertEqual(try status(t, fifo), "running")
        XCTAssertEqual(try status(t, folder), "running")
        _ = try session.finish(next, outcomes: [])
        // Cleared, the name says the process is gone: the next run records it.
        unlink(RunLock.path(warehouse: path, runID: fifo))
        XCTAssertEqual(RunLock.liveness(warehouse: path, runID: fifo), .gone(pid: nil))
        _ = try session.finish(try session.begin(command: "run after"), outcomes: [])
        XCTAssertEqual(try status(t, fifo), "interrupted")
        XCTAssertEqual(try status(t, folder), "running")
    }

    /// A warehouse made before `interrupted` existed (migrated up to v4) keeps its ledger and
    /// takes the new status after v5; any other status is still refused.
    func testAnOlderLedgerKeepsItsRunsAndAcceptsInterrupted() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("runlock-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent("v4.sqlite").path
        let old = try DatabaseQueue(path: path)
        try WarehouseMigrator.migrator.migrate(old, upTo: "v4-position-unchecked-keys")
        try old.write { db in
            try db.execute(sql: "INSERT INTO import_run (id, started_at, command, status) VALUES (1, 1000, 'fleetkit import a', 'running'), (2, 2000, 'fleetkit import b', 'ok')")
            XCTAssertThrowsError(try db.execute(sql: "UPDATE import_run SET status = 'interrupted' WHERE id = 1"))
        }
        try old.close()
        let t = try TestWarehouse(existing: path)
        // Run 1 left no lock (it predates RunLock, or its process is gone): the next run marks it.
        let session = ImportSession(warehouse: t.warehouse)
        _ = try session.finish(try session.begin(command: "fleetkit import c"), outcomes: [])
        XCTAssertEqual(try t.rows("SELECT id, status, command FROM import_run ORDER BY id").map { "\($0[0] as Int64) \($0[1] as String) \($0[2] as String)" },
                       ["1 interrupted fleetkit import a", "2 ok fleetkit import b", "3 ok fleetkit import c"])
        XCTAssertThrowsError(try t.warehouse.pool.write { db in try db.execute(sql: "UPDATE import_run SET status = 'gone' WHERE id = 1") })
        try t.warehouse.pool.read { db in
            XCTAssertEqual(try String.fetchAll(db, sql: "PRAGMA integrity_check"), ["ok"])
            XCTAssertEqual(try Int.fetchOne(db, sql: "PRAGMA writable_schema"), 0)
            XCTAssertTrue(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'import_run'")!.contains("STRICT"))
        }
    }
}
