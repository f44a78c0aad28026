import Foundation
import FleetCore

/// The one place an input file is opened for import: `O_NONBLOCK`, then `fstat` on the
/// descriptor, and only a regular file goes on.
///
/// Why on the descriptor: a check by path (`stat`, then `open`) can be raced, and a symbolic link
/// in the inbox to a FIFO hung the nightly job forever in `open`, holding its lock. A FIFO opened
/// with `O_NONBLOCK` returns at once and `fstat` names it; devices and sockets are refused the
/// same way. The descriptor stays open for the import: the sniffing head is read from it, the
/// digest hashes it (`/proc/self/fd/N`, the very inode that was checked), and `change()` compares
/// it before and after, so a file that grows, shrinks, is touched or replaced while it is read is
/// rolled back instead of imported in part.
public final class OpenedFile {
    public let path: String
    public let fd: Int32
    /// The descriptor's state when opened.
    public let size: Int64
    let modified: timespec
    let identity: DirectoryListing.Identity

    public init(path: String) throws {
        self.path = path
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            throw FleetError.io(path: path, reason: "cannot open the file for reading (\(String(cString: strerror(errno)))); check that it exists and its permissions allow reading")
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw FleetError.io(path: path, reason: "cannot read the file's attributes (\(reason))")
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw FleetError.io(path: path, reason: "\(DirectoryListing.kind(st.st_mode)), not a regular file; only regular files are imported")
        }
        // Reads of a regular file never block; clear the flag so no reader sees EAGAIN.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        self.fd = fd
        size = Int64(st.st_size)
        modified = st.st_mtim
        identity = DirectoryListing.Identity(st)
    }

    deinit { close(fd) }

    /// A path that reopens exactly this file (Linux), for readers that take a path.
    public var descriptorURL: URL {
        #if os(Linux)
        URL(fileURLWithPath: "/proc/self/fd/\(fd)")
        #else
        URL(fileURLWithPath: path)
        #endif
    }

    /// The first `count` bytes, read from the descriptor.
    public func head(_ count: Int = InputFile.headLength) throws -> Data {
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(done)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FleetError.io(path: path, reason: "read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            done += n
        }
        return Data(buffer[0..<done])
    }

    /// Whether `size`/`mtime`/`device`/`inode` seen earlier (the inbox listing) still describe
    /// the opened file; nil when they do, else what differs.
    public func differs(size: Int64, mtimeNanoseconds: Int64, device: UInt64, inode: UInt64) -> String? {
        if identity != DirectoryListing.Identity(device: device, inode: inode) { return "it was replaced by another file" }
        if self.size != size { return "its size went from \(size) to \(self.size) bytes" }
        if Self.nanoseconds(modified) != mtimeNanoseconds { return "its modification time changed" }
        return nil
    }

    /// What changed since the file was opened (size, modification time, or the path now naming
    /// another file), or nil.
    public func change() -> String? {
        var st = stat()
        guard fstat(fd, &st) == 0 else { return "its attributes cannot be read any more" }
        if Int64(st.st_size) != size { return "its size went from \(size) to \(st.st_size) bytes while it was read" }
        if Self.nanoseconds(st.st_mtim) != Self.nanoseconds(modified) { return "it was modified while it was read" }
        var now = stat()
        guard stat(path, &now) == 0, DirectoryListing.Identity(now) == identity else {
            return "its path names another file (or none) since it was opened"
        }
        return nil
    }

    static func nanoseconds(_ t: timespec) -> Int64 { Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec) }
}
