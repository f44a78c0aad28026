import Foundation
import CZlib

/// One zip entry's uncompressed bytes, inflated a chunk at a time as the XML tokenizer asks
/// (`XMLByteSource`): memory is one 64 KiB input chunk and zlib's 32 KiB window, whatever the
/// entry's size.
///
/// Bounds, each refused with its reason before it costs more than the bound:
/// - at most `limit` bytes out, and never more than the directory declares (a lying size);
/// - past the first MiB out, at most `maxRatio` bytes out per byte in (deflate can reach
///   1,032:1; spreadsheet XML reaches about 20:1, the repetitive sheets of tests under 200);
/// - the CRC-32 and size the directory states must match at the end (a damaged entry).
final class ZipEntryStream: XMLByteSource {
    static let maxRatio = 250
    static let ratioFloor = 1 << 20
    static let inputChunk = 1 << 16

    let entry: ZipArchive.Entry
    private let archive: ZipArchive
    private let limit: Int
    private var inputOffset: Int
    private var inputLeft: Int
    private var input: [UInt8]
    private let stream: UnsafeMutablePointer<z_stream>
    private var started = false
    private var finished = false
    private(set) var produced = 0
    private var consumed = 0
    private var crc: uLong = 0

    init(archive: ZipArchive, entry: ZipArchive.Entry, limit: Int) throws {
        guard entry.flags & 1 == 0 else { throw XLSXError(.encrypted, "the workbook is encrypted (password-protected)", part: entry.name) }
        guard entry.method == 0 || entry.method == 8 else {
            throw XLSXError(.unsupported, "the entry is compressed with method \(entry.method); workbooks use stored (0) or deflate (8)", part: entry.name)
        }
        guard entry.uncompressedSize <= limit else {
            throw XLSXError(.tooLarge, "the entry is \(entry.uncompressedSize) bytes uncompressed, more than the \(limit) bytes FleetKit reads of this part", part: entry.name)
        }
        if entry.method == 8, entry.uncompressedSize > Self.ratioFloor, entry.uncompressedSize / max(entry.compressedSize, 1) > Self.maxRatio {
            throw XLSXError(.bomb, "the entry claims \(entry.uncompressedSize) bytes from \(entry.compressedSize) compressed, a ratio over \(Self.maxRatio):1: a zip bomb, not a spreadsheet", part: entry.name)
        }
        if entry.method == 0, entry.compressedSize != entry.uncompressedSize {
            throw XLSXError(.damaged, "a stored entry whose two sizes differ", part: entry.name)
        }
        self.archive = archive
        self.entry = entry
        self.limit = limit
        inputOffset = try archive.dataOffset(entry)
        inputLeft = entry.compressedSize
        input = []
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
    }

    deinit {
        if started { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Copies up to `max` uncompressed bytes to `dst`; 0 at the end of the entry.
    func read(into dst: UnsafeMutablePointer<UInt8>, max: Int) throws -> Int {
        guard !finished, max > 0 else { return 0 }
        if entry.method == 0 { return try readStored(into: dst, max: max) }
        if !started {
            guard inflateInit2_(stream, -MAX_WBITS, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
                throw XLSXError(.damaged, "zlib could not start inflating", part: entry.name)
            }
            started = true
        }
        while true {
            if inputPos == input.count, inputLeft > 0 {
                let n = Swift.min(Self.inputChunk, inputLeft)
                guard let chunk = archive.read(at: inputOffset, count: n) else {
                    throw XLSXError(.truncated, "the entry's data ends early; the file is probably truncated", part: entry.name)
                }
                input = chunk
                inputPos = 0
                inputOffset += n
                inputLeft -= n
                consumed += n
            }
            let out = Swift.min(max, Int(UInt32.max))
            let pos = inputPos
            let status: Int32 = input.withUnsafeMutableBufferPointer { buf in
                stream.pointee.next_in = buf.baseAddress.map { $0 + pos }
                stream.pointee.avail_in = UInt32(buf.count - pos)
                stream.pointee.next_out = dst
                stream.pointee.avail_out = UInt32(out)
                let s = inflate(stream, Z_NO_FLUSH)
                stream.pointee.next_in = nil
                return s
            }
            inputPos = input.count - Int(stream.pointee.avail_in)
            let n = out - Int(stream.pointee.avail_out)
            if n > 0 { try account(dst, n) }
            switch status {
            case Z_STREAM_END:
                try finish()
                return n
            case Z_OK, Z_BUF_ERROR:
                if n > 0 { return n }
                if inputLeft == 0, inputPos == input.count {
                    throw XLSXError(.truncated, "the entry's compressed data ends before its end marker; the file is probably truncated", part: entry.name)
                }
            default:
                throw XLSXError(.damaged, "the entry's compressed data is damaged (zlib: \(stream.pointee.msg.map { String(cString: $0) } ?? "error \(status)"))", part: entry.name)
            }
        }
    }

    private var inputPos = 0

    private func readStored(into dst: UnsafeMutablePointer<UInt8>, max: Int) throws -> Int {
        let n = Swift.min(max, inputLeft)
        if n == 0 { try finish(); return 0 }
        guard let chunk = archive.read(at: inputOffset, count: n) else {
            throw XLSXError(.truncated, "the entry's data ends early; the file is probably truncated", part: entry.name)
        }
        chunk.withUnsafeBufferPointer { dst.update(from: $0.baseAddress!, count: n) }
        inputOffset += n
        inputLeft -= n
        consumed += n
        try account(dst, n)
        return n
    }

    private func account(_ dst: UnsafeMutablePointer<UInt8>, _ n: Int) throws {
        produced += n
        guard produced <= entry.uncompressedSize, produced <= limit else {
            throw XLSXError(.bomb, "the entry inflates past the \(Swift.min(entry.uncompressedSize, limit)) bytes it may hold: a zip bomb or a damaged archive, not a spreadsheet", part: entry.name)
        }
        if produced > Self.ratioFloor, produced / Swift.max(consumed, 1) > Self.maxRatio {
            throw XLSXError(.bomb, "the entry inflates more than \(Self.maxRatio):1 (\(produced) bytes from \(consumed)): a zip bomb, not a spreadsheet", part: entry.name)
        }
        crc = crc32(crc, dst, uInt(n))
    }

    private func finish() throws {
        finished = true
        guard produced == entry.uncompressedSize else {
            throw XLSXError(.damaged, "the entry holds \(produced) bytes but the archive's directory says \(entry.uncompressedSize); it is damaged", part: entry.name)
        }
        guard UInt32(truncatingIfNeeded: crc) == entry.crc else {
            throw XLSXError(.damaged, "the entry's checksum does not match (CRC-32); the file is damaged", part: entry.name)
        }
    }
}
