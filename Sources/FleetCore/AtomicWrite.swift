import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way FleetKit puts a file in place so that a reader never sees half of it (reports, the
/// nightly run result, quarantine reason files): the bytes go to a hidden temporary file beside
/// the destination, which is then renamed over it. rename(2) is atomic within one file system,
/// which is why the temporary file lives next to the destination and not in /tmp.
///
/// The temporary file is created with `O_EXCL | O_NOFOLLOW`, mode 0600 whatever the umask, so a
/// planted link is never written through and nobody else can read it while it fills; it gets the
/// caller's mode just before the rename, and is removed whenever a step fails.
public enum AtomicWrite {
    /// How the temporary file is named.
    public enum Temporary: Sendable {
        /// `.<name>.tmp`: one left by a killed run is removed and reused by the next write instead
        /// of piling up. For a target with one writer at a time (the nightly job, under its lock).
        case fixed
        /// `.<name>.<pid>.<random>.tmp`: writers of one target at once (two `fleetkit report`
        /// commands into one folder) never share it.
        case unique
    }

    public static func temporaryURL(for destination: URL, _ kind: Temporary) -> URL {
        let folder = destination.deletingLastPathComponent()
        switch kind {
        case .fixed: return folder.appendingPathComponent(".\(destination.lastPathComponent).tmp")
        case .unique: return folder.appendingPathComponent(".\(destination.lastPathComponent).\(getpid()).\(UUID().uuidString.prefix(8)).tmp")
        }
    }

    /// Writes `data` to `url` atomically with `mode`. `durable` syncs the bytes to disk before
    /// the rename, so a power cut leaves the old file or the new one, never an empty one.
    /// - throws: `FleetError.io` naming the file and the step that failed.
    public static func write(_ data: Data, to url: URL, mode: mode_t = 0o600, temporary kind: Temporary = .fixed, durable: Bool = true) throws {
        try produce(url, mode: mode, temporary: kind) { tmp in
            let fd = try create(tmp, for: url)
            var failure: String?
            data.withUnsafeBytes { raw in
                var done = 0
                while failure == nil, done < raw.count {
                    let n = Foundation.write(fd, raw.baseAddress! + done, raw.count - done)
                    if n < 0 { if errno != EINTR { failure = String(cString: strerror(errno)) } } else { done += n }
                }
            }
            if failure == nil, durable, fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
            close(fd)
            if let failure { throw FleetError.io(path: url.path, reason: "cannot write: \(failure)") }
        }
    }

    /// Puts in place a file that `body` writes at the temporary path it is given (for writers
    /// that take a path, like libxlsxwriter); `body` throwing leaves no temporary file.
    public static func produce(_ url: URL, mode: mode_t = 0o600, temporary kind: Temporary = .unique, _ body: (URL) throws -> Void) throws {
        let tmp = temporaryURL(for: url, kind)
        if case .fixed = kind { unlink(tmp.path) }
        inFlight.withLock { _ = $0.insert(tmp.path) }
        defer { inFlight.withLock { _ = $0.remove(tmp.path) } }
        do { try body(tmp) } catch {
            unlink(tmp.path)
            throw error
        }
        guard chmod(tmp.path, mode) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(tmp.path)
            throw FleetError.io(path: url.path, reason: "cannot write: \(reason)")
        }
        guard rename(tmp.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(tmp.path)
            throw FleetError.io(path: url.path, reason: "cannot move \(tmp.path) to it: \(reason); check that the folder is writable")
        }
    }

    /// Temporary files being written by this process, removed by `removeTemporaries` when a
    /// signal ends it (SIGTERM, SIGINT): a report folder never keeps half-written files.
    private static let inFlight = Locked<Set<String>>([])

    /// Removes every temporary file this process is writing. For a signal handler that then
    /// exits (it runs on a Dispatch queue, not in signal context).
    public static func removeTemporaries() {
        for path in inFlight.withLock({ $0 }) { unlink(path) }
    }

    /// Removes `.<name>.<pid>.<random>.tmp` files in `folder` left by a writer killed outright
    /// (SIGKILL, a power cut), which no handler can clean: only regular files of that shape
    /// whose pid is no running process. Returns how many were removed.
    ///
    /// A folder that cannot be listed is an error with the system's reason, never "none
    /// removed": the writer that calls this is about to publish into that folder, and a folder
    /// it cannot list is one whose abandoned files would pile up unseen.
    @discardableResult
    public static func sweepAbandoned(in folder: URL) throws(FleetError) -> Int {
        guard let dir = opendir(folder.path) else {
            throw FleetError.io(path: folder.path, reason: "cannot list the folder to remove abandoned temporary files: \(String(cString: strerror(errno)))")
        }
        defer { closedir(dir) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(dir) else {
                guard errno == 0 else {
                    throw FleetError.io(path: folder.path, reason: "cannot list the folder to remove abandoned temporary files: \(String(cString: strerror(errno)))")
                }
                break
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            names.append(name)
        }
        var removed = 0
        for name in names where name.hasPrefix(".") && name.hasSuffix(".tmp") {
            let parts = name.dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count >= 4, let pid = Int32(parts[parts.count - 2]), pid > 0, parts[parts.count - 1].count == 8,
                  parts[parts.count - 1].allSatisfy(\.isHexDigit), pid != getpid() else { continue }
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            let path = folder.appendingPathComponent(name).path
            var st = stat()
            guard lstat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_uid == getuid() else { continue }
            if unlink(path) == 0 { removed += 1 }
        }
        return removed
    }

    /// Creates the temporary file: exclusive, never through a link, 0600 whatever the umask.
    public static func create(_ tmp: URL, for url: URL) throws -> Int32 {
        let fd = open(tmp.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FleetError.io(path: url.path, reason: "cannot create \(tmp.path): \(String(cString: strerror(errno)))") }
        guard fchmod(fd, 0o600) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw FleetError.io(path: url.path, reason: "cannot write: \(reason)")
        }
        return fd
    }
}

/// A value behind a lock, for the few process-wide tables FleetCore keeps.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()
    init(_ value: Value) { self.value = value }
    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
