import Foundation

/// The directory of a zip archive (an .xlsx workbook), read from its end as the format says:
/// the end-of-central-directory record, then the central directory, which is authoritative
/// for every entry's sizes (local headers may defer them to a data descriptor).
///
/// Only what a workbook needs is read, and everything else is refused with a reason rather
/// than guessed: encrypted entries, methods other than stored and deflate, multi-disk and
/// zip64 archives (a workbook over 4 GiB). Every offset and size is checked against the
/// file's size before use, so a damaged directory cannot send a read outside the file.
final class ZipArchive {
    struct Entry: Equatable {
        var name: String
        var method: UInt16
        var flags: UInt16
        var crc: UInt32
        var compressedSize: Int
        var uncompressedSize: Int
        var localHeaderOffset: Int
    }

    static let maxEntries = 10_000
    static let maxDirectoryBytes = 16 << 20

    let path: String
    let fd: Int32
    let size: Int
    private(set) var entries: [String: Entry] = [:]

    init(url: URL) throws {
        path = url.path
        let fd = open(url.path, O_RDONLY)
        guard fd >= 0 else { throw XLSXError(.notZip, "cannot open the file: \(String(cString: strerror(errno)))") }
        self.fd = fd
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            close(fd)
            throw XLSXError(.notZip, "cannot read the file's size")
        }
        size = Int(st.st_size)
        do { try readDirectory() } catch {
            close(fd)
            throw error
        }
    }

    deinit { close(fd) }

    /// `count` bytes at `offset`, or nil when they are not all inside the file.
    func read(at offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= size, count <= size - offset else { return nil }
        var out = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, count - done, off_t(offset + done)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            done += n
        }
        return out
    }

    private func readDirectory() throws {
        // The end record is 22 bytes plus a comment of at most 65,535.
        let tail = min(size, 22 + 65_535)
        guard size >= 22, let end = read(at: size - tail, count: tail) else {
            throw XLSXError(.truncated, "the file is too short to be a zip archive (\(size) bytes); it is probably truncated")
        }
        var at: Int? = nil
        var i = end.count - 22
        while i >= 0 {
            if Self.u32(end, i) == 0x0605_4B50, 22 + Int(Self.u16(end, i + 20)) == end.count - i { at = i; break }
            i -= 1
        }
        guard let e = at else {
            throw XLSXError(.truncated, "the zip archive has no end-of-archive record; the file is probably truncated (a download or copy that stopped early)")
        }
        let disk = Self.u16(end, e + 4), cdDisk = Self.u16(end, e + 6)
        let count = Int(Self.u16(end, e + 10))
        let cdSize = Int(Self.u32(end, e + 12)), cdOffset = Int(Self.u32(end, e + 16))
        if count == 0xFFFF || cdSize == 0xFFFF_FFFF || cdOffset == 0xFFFF_FFFF {
            throw XLSXError(.unsupported, "the workbook is a zip64 archive (over 4 GiB or 65,535 entries), which FleetKit does not read")
        }
        guard disk == 0, cdDisk == 0 else { throw XLSXError(.unsupported, "the zip archive spans several disks") }
        guard count <= Self.maxEntries, cdSize <= Self.maxDirectoryBytes else {
            throw XLSXError(.tooLarge, "the zip archive lists \(count) entries in \(cdSize) bytes, more than a workbook has (at most \(Self.maxEntries))")
        }
        guard let dir = read(at: cdOffset, count: cdSize) else {
            throw XLSXError(.truncated, "the zip archive's directory lies outside the file; the file is probably truncated")
        }
        var p = 0
        for _ in 0..<count {
            guard p + 46 <= dir.count, Self.u32(dir, p) == 0x0201_4B50 else {
                throw XLSXError(.damaged, "the zip archive's directory is damaged (entry at byte \(cdOffset + p))")
            }
            let nameLength = Int(Self.u16(dir, p + 28)), extra = Int(Self.u16(dir, p + 30)), comment = Int(Self.u16(dir, p + 32))
            guard p + 46 + nameLength + extra + comment <= dir.count else {
                throw XLSXError(.damaged, "the zip archive's directory is damaged (entry at byte \(cdOffset + p))")
            }
            let name = String(decoding: dir[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self)
            let entry = Entry(name: name, method: Self.u16(dir, p + 10), flags: Self.u16(dir, p + 8), crc: Self.u32(dir, p + 16),
                              compressedSize: Int(Self.u32(dir, p + 20)), uncompressedSize: Int(Self.u32(dir, p + 24)),
                              localHeaderOffset: Int(Self.u32(dir, p + 42)))
            if entries[name] != nil { throw XLSXError(.damaged, "the zip archive lists the entry \(name) twice") }
            entries[name] = entry
            p += 46 + nameLength + extra + comment
        }
    }

    /// The bytes of `entry` where its data starts (after its local header).
    func dataOffset(_ entry: Entry) throws -> Int {
        guard let local = read(at: entry.localHeaderOffset, count: 30), Self.u32(local, 0) == 0x0403_4B50 else {
            throw XLSXError(.damaged, "the entry's local header is missing or damaged; the file is probably truncated", part: entry.name)
        }
        let start = entry.localHeaderOffset + 30 + Int(Self.u16(local, 26)) + Int(Self.u16(local, 28))
        guard start <= size, entry.compressedSize <= size - start else {
            throw XLSXError(.truncated, "the entry runs past the end of the file; the file is probably truncated", part: entry.name)
        }
        return start
    }

    /// The entry named `name` as a stream of its uncompressed bytes, at most `limit` of them.
    func stream(_ name: String, limit: Int) throws -> ZipEntryStream {
        guard let entry = entries[name] else { throw XLSXError(.missingPart, "the workbook has no part \(name)") }
        return try ZipEntryStream(archive: self, entry: entry, limit: limit)
    }

    static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
}
