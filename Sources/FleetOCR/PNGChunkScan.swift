import Foundation
import FleetCore
#if canImport(Glibc)
import Glibc
#endif

/// A PNG's chunk headers walked to `IEND` before libpng sees the file: whether they run whole
/// (a cut-off upload is the usual damaged receipt; caught here it is a plain error, where libpng
/// would print its own complaint on stderr into the nightly log before failing), and what its
/// text chunks may cost to decode (`OCRImage.Header.textBytes`).
///
/// A read that fails is `OCRImage.Error.cannotRead` with the system's reason, never "not a
/// PNG": an unreadable file (an I/O error, a folder, a file that vanished) is a different fault
/// with a different fix from a damaged image.
enum PNGChunkScan {
    /// libpng's limit on the memory of one ancillary chunk (`PNG_USER_CHUNK_MALLOC_MAX` in
    /// Debian's pnglibconf.h): what one compressed text chunk may inflate to.
    static let textChunkLimit = 8_000_000

    /// Walks the chunk headers (no chunk data read but an `iTXt`'s first bytes): nil when they
    /// do not run whole to `IEND`; else what its text chunks may cost.
    static func scan(_ path: String) throws(OCRImage.Error) -> (textBytes: Int, textChunks: Int)? {
        let file = try File(path)
        let size = try file.size()
        var offset: UInt64 = 8
        var textBytes = 0, textChunks = 0
        while offset + 12 <= size {
            let head = try file.read(at: offset, count: 8)
            guard head.count == 8 else { return nil }
            let length = head.prefix(4).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let type = String(decoding: head.suffix(4), as: UTF8.self)
            if type == "IEND" { return (textBytes, textChunks) }
            switch type {
            case "tEXt": textChunks += 1; textBytes += Int(min(length, UInt64(textChunkLimit)))
            case "zTXt": textChunks += 1; textBytes += textChunkLimit
            case "iTXt":
                // keyword (1–79 bytes), NUL, then the compression flag: an uncompressed iTXt
                // (XMP metadata usually is) costs its length.
                textChunks += 1
                let start = try file.read(at: offset + 8, count: Int(min(length, 81)))
                let flag = start.firstIndex(of: 0).flatMap { start.index(after: $0) < start.endIndex ? start[start.index(after: $0)] : nil }
                textBytes += flag == 0 ? Int(min(length, UInt64(textChunkLimit))) : textChunkLimit
            default: break
            }
            offset += 12 + length
        }
        return nil
    }

    /// An open image file read at offsets, each failure with the system's reason.
    final class File {
        let path: String
        private let fd: Int32

        init(_ path: String) throws(OCRImage.Error) {
            self.path = path
            fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { throw OCRImage.Error.cannotRead(path, reason: String(cString: strerror(errno))) }
        }

        deinit { close(fd) }

        func size() throws(OCRImage.Error) -> UInt64 {
            var st = stat()
            guard fstat(fd, &st) == 0 else { throw OCRImage.Error.cannotRead(path, reason: String(cString: strerror(errno))) }
            guard (st.st_mode & S_IFMT) == S_IFREG else {
                throw OCRImage.Error.cannotRead(path, reason: SafeOpen.problem(st, links: false) ?? "it is not a regular file")
            }
            return UInt64(max(0, st.st_size))
        }

        /// Up to `count` bytes at `offset` (fewer only at the end of the file).
        func read(at offset: UInt64, count: Int) throws(OCRImage.Error) -> Data {
            var out = Data(count: count)
            var got = 0
            while got < count {
                let n = out.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, count - got, off_t(offset) + off_t(got)) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw OCRImage.Error.cannotRead(path, reason: String(cString: strerror(errno)))
                }
                if n == 0 { break }
                got += n
            }
            return out.prefix(got)
        }
    }
}
