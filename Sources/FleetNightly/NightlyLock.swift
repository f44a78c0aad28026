import Foundation
import FleetCore

/// The exclusive lock of one nightly run: `flock` on `<warehouse>.lock`, holding the owner's
/// pid. The kernel releases a flock when its process dies, so a crashed run never leaves a
/// stale lock behind, unlike a pid file alone.
///
/// The lock file is opened with `O_NOFOLLOW` and never truncated: a `.lock` planted as a
/// symbolic link (to the warehouse, a report, /etc/…) used to be followed and emptied. Only a
/// regular file with one link is written to; anything else is refused with exit 2.
final class NightlyLock {
    private let fd: Int32
    let path: String
    /// The pid is written padded to this width, so a shorter pid overwrites a longer one
    /// without truncating the file.
    static let pidWidth = 20

    /// - throws: `NightlyError.locked` with the holder's pid when another run holds it.
    init(path: String) throws {
        self.path = path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard fd >= 0 else {
            let reason = errno == ELOOP ? "it is a symbolic link, which FleetKit never follows for its lock; remove the link"
                : String(cString: strerror(errno))
            throw NightlyError.lockUnavailable(path: path, reason: reason)
        }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_nlink == 1 else {
            close(fd)
            throw NightlyError.lockUnavailable(path: path, reason: "it is not a regular file of its own (a folder, device, pipe or a hard link to another file); remove it")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let n = pread(fd, &buffer, 31, 0)
            close(fd)
            let text = n > 0 ? String(decoding: buffer[0..<n], as: UTF8.self) : ""
            let holder = text.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            throw NightlyError.locked(path: path, pid: holder.isEmpty ? "unknown" : holder)
        }
        self.fd = fd
        let pid = "\(getpid())".padding(toLength: Self.pidWidth, withPad: " ", startingAt: 0) + "\n"
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
            return "cannot use the lock file \(path): \(reason); check the warehouse folder's permissions"
        }
    }
}
