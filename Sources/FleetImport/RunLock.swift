import Foundation
import GRDB
import FleetCore
import FleetWarehouse

/// Tells a run in progress from one whose process died, for the `import_run` ledger.
///
/// WHY: a run killed by SIGKILL, the OOM killer or a power cut never closes its row, which then
/// said `running` in `fleetkit status` forever. A pid alone cannot tell (pids are reused), so each
/// run holds an `flock` on `<warehouse>.run-<id>.lock` (holding its pid) from the moment its row
/// is inserted until it closes it. The kernel releases an flock when its process dies, so a
/// `running` row whose lock can be taken belongs to a dead process: the next `import` or
/// `nightly` marks it `interrupted`, and `fleetkit status` shows it so at once.
///
/// The lock file is created inside the transaction that inserts the row, so no other process
/// can see the row before its lock is held.
public enum RunLock {
    /// What a `running` row's lock says about its process.
    public enum Liveness: Equatable {
        case alive
        /// The process is gone; `pid` is the one it recorded, when its lock file still exists.
        case gone(pid: String?)
        /// The lock file is there but cannot be checked (something other than a lock file was
        /// planted at its name, or it cannot be opened or locked): the run may be alive, so it is
        /// never marked `interrupted` on this; `reason` says what is wrong and is shown by
        /// `fleetkit status`.
        case unknown(reason: String)
    }

    private static let mutex = NSLock()
    nonisolated(unsafe) private static var held: [String: Int32] = [:]

    public static func path(warehouse: String, runID: Int64) -> String { "\(warehouse).run-\(runID).lock" }

    /// Takes the lock of a new run, for as long as this process lives or until `release`.
    static func acquire(warehouse: String, runID: Int64) throws {
        let path = path(warehouse: warehouse, runID: runID)
        // Never through a planted link, FIFO or hard link (SafeOpen): the file is truncated.
        let fd: Int32
        do { fd = try SafeOpen.open(path, O_RDWR | O_CREAT) } catch {
            throw FleetError.warehouse(path: warehouse, reason: "cannot create the run lock \(path): \(error.reason)",
                                       hint: "The warehouse's folder must be writable by the user running fleetkit, and nothing else may be at that name.")
        }
        // Blocking: a `status` that is checking this file holds a shared lock for microseconds.
        while flock(fd, LOCK_EX) != 0 && errno == EINTR {}
        let pid = "\(getpid())\n"
        _ = ftruncate(fd, 0)
        _ = pid.withCString { pwrite(fd, $0, strlen($0), 0) }
        mutex.withLock { held[path] = fd }
    }

    /// Drops the lock of a run this process closed, and its file.
    public static func release(warehouse: String, runID: Int64) {
        let path = path(warehouse: warehouse, runID: runID)
        guard let fd = mutex.withLock({ held.removeValue(forKey: path) }) else { return }
        unlink(path)
        close(fd)
    }

    /// Whether the process of a `running` row still lives. Read-only: takes a shared lock for an
    /// instant when the file exists.
    ///
    /// Only a lock file that does not exist (ENOENT) or one whose lock can be taken says the
    /// process is gone. Anything else at the name (a FIFO, link or folder, opened without
    /// blocking and refused by `SafeOpen`), or a file that cannot be opened or locked, is
    /// `unknown` with the reason: a dead run stays `running` until it is removed, rather than a
    /// live run being marked `interrupted` on a guess.
    public static func liveness(warehouse: String, runID: Int64) -> Liveness {
        let path = path(warehouse: warehouse, runID: runID)
        if mutex.withLock({ held[path] != nil }) { return .alive }
        var exists = stat()
        if lstat(path, &exists) != 0 {
            let e = errno
            if e == ENOENT { return .gone(pid: nil) }
            return .unknown(reason: "the run lock \(path) cannot be checked: \(String(cString: strerror(e)))")
        }
        let fd: Int32
        do { fd = try SafeOpen.open(path, O_RDONLY) } catch {
            // Gone between the lstat and the open: the run closed it.
            if error.reason == String(cString: strerror(ENOENT)) { return .gone(pid: nil) }
            return .unknown(reason: "the run lock \(path) cannot be checked: \(error.reason)")
        }
        defer { close(fd) }
        guard flock(fd, LOCK_SH | LOCK_NB) == 0 else {
            let e = errno
            if e == EWOULDBLOCK { return .alive }
            return .unknown(reason: "the run lock \(path) cannot be locked: \(String(cString: strerror(e)))")
        }
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = pread(fd, &buffer, 31, 0)
        flock(fd, LOCK_UN)
        let pid = n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : nil
        return .gone(pid: pid)
    }

    /// Whether a `running` row may belong to a process that is gone (read-only): what
    /// `markInterrupted` would mark, and a run whose lock cannot be checked, so the integrity
    /// check before writing runs whenever an interruption cannot be ruled out.
    static func hasInterruptedRuns(_ db: Database, warehouse: String) throws -> Bool {
        try Int64.fetchAll(db, sql: "SELECT id FROM import_run WHERE status = 'running'").contains { id in
            liveness(warehouse: warehouse, runID: id) != .alive
        }
    }

    /// Marks every `running` row whose process is gone `interrupted`, and removes its lock file.
    /// Call inside the write transaction that opens a new run.
    /// - returns: the ids marked.
    @discardableResult
    static func markInterrupted(_ db: Database, warehouse: String, foundBy command: String) throws -> [Int64] {
        var marked: [Int64] = []
        for id in try Int64.fetchAll(db, sql: "SELECT id FROM import_run WHERE status = 'running' ORDER BY id") {
            guard case let .gone(pid) = liveness(warehouse: warehouse, runID: id) else { continue }
            let note = ["interrupted": "the process\(pid.map { " (pid \($0))" } ?? "") ended without closing this run (killed, crashed, or the machine stopped); files it committed are kept, the file it was importing was rolled back",
                        "found_by": command, "found_at": Timestamp.iso(Timestamp.now())]
            let json = String(decoding: try JSONSerialization.data(withJSONObject: note, options: [.sortedKeys]), as: UTF8.self)
            try db.execute(sql: "UPDATE import_run SET status = 'interrupted', summary_json = ? WHERE id = ?", arguments: [json, id])
            unlink(path(warehouse: warehouse, runID: id))
            marked.append(id)
        }
        return marked
    }
}
