import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one way FleetKit opens a file it writes or locks beside the warehouse (run locks, the
/// nightly lock): never through a symbolic link, never blocking on a pipe, and only a regular
/// file of its own.
///
/// Why: a path FleetKit writes can be planted by anyone who can write the folder. A symbolic
/// link there made FleetKit truncate its target; a FIFO made `open` wait for ever (every
/// `import`, `status` and `report` hung); a hard link shares its bytes with another file. So the
/// open is `O_NOFOLLOW | O_NONBLOCK` (a FIFO opens at once instead of waiting for a writer),
/// then `fstat` must show a regular file with one link, and only then is blocking restored.
public enum SafeOpen {
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// Opens `path` with `flags` (`O_CREAT` allowed, mode `mode`), refusing anything but a
    /// regular file with one link. The descriptor is close-on-exec and blocking.
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o600) throws(Refusal) -> Int32 {
        let fd = Glibc.open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode)
        guard fd >= 0 else {
            let e = errno
            throw Refusal(path: path, reason: e == ELOOP ? "it is a symbolic link, which FleetKit never follows here; remove the link"
                : e == EISDIR ? "it is a folder, not a file" : String(cString: strerror(e)))
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else { close(fd); throw Refusal(path: path, reason: String(cString: strerror(errno))) }
        guard let problem = problem(st) else {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
            return fd
        }
        close(fd)
        throw Refusal(path: path, reason: problem)
    }

    /// Why `st` is not a regular file of its own, in words; nil when it is.
    public static func problem(_ st: stat, links: Bool = true) -> String? {
        switch st.st_mode & S_IFMT {
        case S_IFREG: return links && st.st_nlink > 1 ? "it is a hard link to another file (\(st.st_nlink) names); remove it" : nil
        case S_IFDIR: return "it is a folder, not a file"
        case S_IFIFO: return "it is a named pipe (FIFO), not a file; remove it"
        case S_IFSOCK: return "it is a socket, not a file; remove it"
        case S_IFCHR, S_IFBLK: return "it is a device, not a file; remove it"
        case S_IFLNK: return "it is a symbolic link; remove it"
        default: return "it is not a regular file; remove it"
        }
    }

    /// Why the existing `path` (symbolic links followed) is not a regular file; nil when it is or
    /// when nothing is there. Checks without opening, so a FIFO cannot block.
    public static func notARegularFile(_ path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return problem(st, links: false)
    }
}
