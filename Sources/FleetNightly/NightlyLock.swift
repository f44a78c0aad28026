import Foundation
import FleetCore

/// The exclusive lock of one nightly run: `flock` on `<warehouse>.lock`, holding the owner's
/// pid. The kernel releases a flock when its process dies, so a crashed run never leaves a
/// stale lock behind, unlike a pid file alone.
final class NightlyLock {
    private let fd: Int32
    let path: String

    /// - throws: `NightlyError.locked` with the holder's pid when another run holds it.
    init(path: String) throws {
        self.path = path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw NightlyError.lockUnavailable(path: path, reason: String(cString: strerror(errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let n = pread(fd, &buffer, 31, 0)
            close(fd)
            let holder = n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : "unknown"
            throw NightlyError.locked(path: path, pid: holder)
        }
        self.fd = fd
        let pid = "\(getpid())\n"
        _ = ftruncate(fd, 0)
        _ = pid.withCString { pwrite(fd, $0, strlen($0), 0) }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}

public enum NightlyError: Error, CustomStringConvertible, Equatable {
    case locked(path: String, pid: String)
    case lockUnavailable(path: String, reason: String)

    public var description: String {
        switch self {
        case let .locked(path, pid):
            return "another nightly run (pid \(pid)) holds \(path); this run did nothing. If no such process exists, the lock is free on the next try."
        case let .lockUnavailable(path, reason):
            return "cannot create the lock file \(path): \(reason); check the warehouse folder's permissions"
        }
    }
}
