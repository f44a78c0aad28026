import Foundation

/// Folder contents as the kernel has them: names as raw bytes (readdir), file types from
/// `stat`/`lstat` on raw paths.
///
/// Why not FileManager: `contentsOfDirectory` drops or mangles names that are not UTF-8, so such
/// a file sat in the inbox forever and nobody was told. Here every name comes back, and one that
/// cannot become a `String` is shown escaped (`\xNN`) by `escaped(_:)`.
public enum DirectoryListing {
    /// A file's identity on this machine: walking a folder twice under two names (a symbolic link
    /// loop) is recognised by it, whatever the path says.
    public struct Identity: Hashable, Sendable {
        public var device: UInt64
        public var inode: UInt64
        public init(_ st: stat) { device = UInt64(st.st_dev); inode = UInt64(st.st_ino) }
        public init(device: UInt64, inode: UInt64) { self.device = device; self.inode = inode }
    }

    /// The names in `path` except `.` and `..`, in byte order; nil with errno's text when the
    /// folder cannot be read.
    public static func names(_ path: [UInt8]) -> Result<[[UInt8]], DirectoryError> {
        guard let dir = withCString(path, { opendir($0) }) else { return .failure(DirectoryError(reason: String(cString: strerror(errno)))) }
        defer { closedir(dir) }
        var out: [[UInt8]] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> [UInt8] in
                let bytes = raw.bindMemory(to: UInt8.self)
                return Array(bytes.prefix { $0 != 0 })
            }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            out.append(name)
        }
        return .success(out.sorted { $0.lexicographicallyPrecedes($1) })
    }

    public struct DirectoryError: Error, Sendable { public var reason: String }

    /// `stat` (following links) or `lstat` on a raw path.
    public static func status(_ path: [UInt8], follow: Bool) -> stat? {
        var st = stat()
        let rc = withCString(path) { follow ? stat($0, &st) : lstat($0, &st) }
        return rc == 0 ? st : nil
    }

    public static func withCString<T>(_ path: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }

    /// The path as a `String`, or nil when it is not valid UTF-8.
    public static func text(_ path: [UInt8]) -> String? { String(validating: path, as: UTF8.self) }

    /// The bytes as text a person can read and copy: valid UTF-8 as is, every other byte and
    /// every control character as `\xNN`.
    public static func escaped(_ bytes: [UInt8]) -> String {
        var out = ""
        var i = 0
        while i < bytes.count {
            var matched = false
            for n in 1...4 where i + n <= bytes.count {
                if let s = String(validating: bytes[i..<(i + n)], as: UTF8.self) {
                    if n == 1, bytes[i] < 0x20 || bytes[i] == 0x7F { break }
                    out += s
                    i += n
                    matched = true
                    break
                }
            }
            if !matched {
                out += String(format: "\\x%02X", bytes[i])
                i += 1
            }
        }
        return out
    }

    /// What a file that is not a regular file is, in words.
    public static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a folder"
        case S_IFIFO: return "a named pipe (FIFO)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFLNK: return "a symbolic link"
        default: return "a special file"
        }
    }
}
