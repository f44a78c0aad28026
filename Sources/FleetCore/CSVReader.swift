import Foundation

/// One record of a CSV file, with enough location to point a user at the exact spot of their
/// own file when an importer rejects a value.
public struct CSVRecord: Sendable, Equatable {
    /// 1-based record number, the header being record 1. Blank lines are not records.
    public var number: Int
    /// 1-based physical line where the record starts: what a text editor shows, which differs
    /// from `number` after blank lines and quoted line breaks.
    public var line: Int
    public var fields: [String]
    /// The record's text as decoded, without its line break, capped at 4096 characters so that
    /// error reports can quote it without copying megabytes.
    public var raw: String
    /// The record was longer than `maxRecordBytes` (UTF-8 bytes, line break excluded). It was
    /// skipped to its real end so that the next record parses normally; `fields` is empty and
    /// `raw` holds its first 4096 characters.
    public var oversized: Bool
    /// Some bytes were not valid UTF-8 (or were unpaired UTF-16 surrogates) and were replaced by
    /// U+FFFD, which usually means the file was saved in a legacy code page. For an oversized
    /// record only the kept beginning is checked.
    public var hadInvalidUTF8: Bool

    /// Memberwise, for code and tests that build records by hand; `raw` defaults to the fields
    /// joined by commas.
    public init(number: Int = 1, line: Int = 1, fields: [String], raw: String? = nil,
                oversized: Bool = false, hadInvalidUTF8: Bool = false) {
        self.number = number
        self.line = line
        self.fields = fields
        self.raw = raw ?? fields.joined(separator: ",")
        self.oversized = oversized
        self.hadInvalidUTF8 = hadInvalidUTF8
    }
}

public enum CSVError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case unterminatedQuote(record: Int, line: Int)
    /// UTF-32, or UTF-16 with an odd number of bytes (a truncated file).
    case unsupportedEncoding(String)
    case io(String)

    public var description: String {
        switch self {
        case let .unterminatedQuote(record, line):
            return "unterminated quoted field in record \(record) (starting at line \(line)); "
                + "the file is probably truncated, or a quote is not doubled"
        case let .unsupportedEncoding(what): return "unsupported text encoding: \(what)"
        case let .io(message): return "cannot read CSV: \(message)"
        }
    }

    /// So that `error.localizedDescription` (what CLIs usually print) is the same text.
    public var errorDescription: String? { description }
}

/// A streaming RFC 4180 reader. It reads 64 KiB at a time, so memory stays at one chunk plus one
/// record (at most `maxRecordBytes`) whatever the file size, and it scans bytes rather than
/// Characters, which is what makes it fast enough for multi-gigabyte fuel-card exports.
///
/// It is lenient where real exports break the RFC: a quote inside an unquoted field is literal
/// (`5" tire`), text after a closing quote is appended (`"abc"def` → `abcdef`), and CRLF, LF
/// and lone CR line endings may be mixed. UTF-16 files (Excel "Unicode Text") are transcoded
/// to UTF-8 on the fly.
///
/// A reader is a cursor over one stream: copies of it share the position.
public struct CSVReader {
    public static let defaultMaxRecordBytes = 1 << 20
    /// Large enough that syscalls are rare, small enough to stay in cache.
    static let defaultChunkSize = 1 << 16
    /// How much of the file start is used to detect the encoding and sniff the delimiter.
    static let headSize = 1 << 16
    static let rawCap = 4096

    /// The delimiter given, or the one sniffed from the first line.
    public private(set) var delimiter: UInt8
    private let engine: Engine

    public init(url: URL, delimiter: UInt8? = nil, maxRecordBytes: Int = defaultMaxRecordBytes) throws {
        try self.init(url: url, delimiter: delimiter, maxRecordBytes: maxRecordBytes,
                      chunkSize: Self.defaultChunkSize)
    }

    public init(data: Data, delimiter: UInt8? = nil, maxRecordBytes: Int = defaultMaxRecordBytes) throws {
        try self.init(data: data, delimiter: delimiter, maxRecordBytes: maxRecordBytes,
                      chunkSize: Self.defaultChunkSize)
    }

    /// `chunkSize` exists so tests can put chunk boundaries everywhere.
    init(url: URL, delimiter: UInt8? = nil, maxRecordBytes: Int = defaultMaxRecordBytes,
         chunkSize: Int) throws {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            throw CSVError.io("cannot open \(url.path): \(error.localizedDescription)")
        }
        var head = Data()
        var size: Int?
        do {
            while head.count < Self.headSize,
                  let more = try handle.read(upToCount: Self.headSize - head.count), !more.isEmpty {
                head.append(more)
            }
            // Knowing the size lets a truncated UTF-16 file fail before any record is returned;
            // pipes have no size and fall back to the check at end of file.
            if let total = try? handle.seekToEnd() {
                size = Int(total)
                try handle.seek(toOffset: UInt64(head.count))
            }
            try self.init(head: head, handle: handle, size: size, delimiter: delimiter,
                          maxRecordBytes: maxRecordBytes, chunkSize: chunkSize)
        } catch {
            try? handle.close()
            if error is CSVError { throw error }
            throw CSVError.io("cannot read \(url.path): \(error.localizedDescription)")
        }
    }

    init(data: Data, delimiter: UInt8? = nil, maxRecordBytes: Int = defaultMaxRecordBytes,
         chunkSize: Int) throws {
        try self.init(head: data, handle: nil, size: data.count, delimiter: delimiter,
                      maxRecordBytes: maxRecordBytes, chunkSize: chunkSize)
    }

    private init(head: Data, handle: FileHandle?, size: Int?, delimiter: UInt8?,
                 maxRecordBytes: Int, chunkSize: Int) throws {
        let (encoding, bom) = try Self.detectEncoding(head)
        if encoding != .utf8, let size, (size - bom) % 2 != 0 {
            throw CSVError.unsupportedEncoding("UTF-16 with an odd number of bytes (\(size)); the file is probably truncated")
        }
        let body = head.dropFirst(bom)
        let delimiter = delimiter ?? Self.sniffUTF8(Self.transcodeHead(body, encoding))
        self.delimiter = delimiter
        engine = Engine(source: Source(head: body, handle: handle, chunkSize: max(1, chunkSize)),
                        transcoder: Transcoder(encoding), delimiter: delimiter,
                        maxRecordBytes: max(1, maxRecordBytes))
    }

    /// The next record, or nil at end of input. After a thrown error it returns nil.
    public mutating func next() throws -> CSVRecord? { try engine.next() }

    /// Sniff a delimiter from the first line of `head` (bytes of the file start): among , ; \t |
    /// pick the one that occurs most outside quotes; default ','. BOM and UTF-16 are handled,
    /// leading blank lines skipped, and ties go to the earlier one in that list.
    public static func sniffDelimiter(_ head: Data) -> UInt8 {
        guard let (encoding, bom) = try? detectEncoding(head) else { return Byte.comma }
        return sniffUTF8(transcodeHead(head.dropFirst(bom), encoding))
    }

    /// The first record of `head` decoded (BOM / UTF-16 handled), for content sniffing by
    /// importers; nil if none, or if `head` ends inside a quoted field of that record.
    public static func firstRecord(_ head: Data) -> [String]? {
        record(head, skipping: 0)
    }

    /// The fields of the record after the first `skipping` (a report's preamble lines above its
    /// header), or nil when the head does not reach it.
    public static func record(_ head: Data, skipping: Int) -> [String]? {
        guard let (encoding, bom) = try? detectEncoding(head) else { return nil }
        // A head cut at an odd offset is normal for a prefix, not a truncated file.
        let even = encoding != .utf8 && (head.count - bom) % 2 != 0 ? head.dropLast() : head
        guard var reader = try? CSVReader(data: even) else { return nil }
        for _ in 0..<skipping { guard (try? reader.next()) != nil else { return nil } }
        return (try? reader.next())?.fields
    }
}

// MARK: - Parsing helpers

extension CSVReader {
    enum Byte {
        static let lf: UInt8 = 0x0A, cr: UInt8 = 0x0D, quote: UInt8 = 0x22, comma: UInt8 = 0x2C
        /// Sniffing candidates, in tie-breaking order.
        static let delimiters: [UInt8] = [0x2C, 0x3B, 0x09, 0x7C]
    }

    /// Counts candidates on the first non-blank line of UTF-8 `b`. The delimiter is unknown, so a
    /// quote opens a quoted section only at line start or right after a candidate; that keeps
    /// `5" tire` from hiding the rest of the line.
    static func sniffUTF8(_ b: [UInt8]) -> UInt8 {
        var counts = [0, 0, 0, 0]
        var inQuotes = false
        var previous: UInt8?  // nil at line start
        var i = 0
        while i < b.count {
            let c = b[i]
            i += 1
            if inQuotes {
                if c == Byte.quote {
                    if i < b.count && b[i] == Byte.quote { i += 1; continue }
                    inQuotes = false
                }
            } else if c == Byte.lf || c == Byte.cr {
                if previous == nil { continue }
                break
            } else if c == Byte.quote && (previous.map(Byte.delimiters.contains) ?? true) {
                inQuotes = true
            } else if let k = Byte.delimiters.firstIndex(of: c) {
                counts[k] += 1
            }
            previous = c
        }
        guard let best = counts.indices.max(by: { counts[$0] < counts[$1] || (counts[$0] == counts[$1] && $0 > $1) }),
              counts[best] > 0 else { return Byte.comma }
        return Byte.delimiters[best]
    }

    /// `raw`: the first 4096 characters of `span`, and whether the decoded bytes were valid
    /// (over the whole span when `whole`, else over the part decoded).
    static func decodeRaw(_ span: UnsafeBufferPointer<UInt8>, whole: Bool) -> (String, valid: Bool) {
        var n = min(span.count, 4 * rawCap)
        var backed = 0  // do not cut a multi-byte character in two
        while n < span.count, n > 0, backed < 3, span[n] & 0xC0 == 0x80 { n -= 1; backed += 1 }
        let head = UnsafeBufferPointer(rebasing: span[..<n])
        var text = String(decoding: head, as: UTF8.self)
        let valid = isValidUTF8(whole ? span : head)
        if n > rawCap, text.count > rawCap { text = String(text.prefix(rawCap)) }
        return (text, valid)
    }

    /// An ASCII test a word at a time first: nearly all CSV is ASCII, and the generic
    /// `String(validating:)` costs about a tenth of the whole parse when called per record.
    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard var p = bytes.baseAddress else { return true }
        let end = p + bytes.count
        while end - p >= 8 {
            if UnsafeRawPointer(p).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 {
                return String(validating: bytes, as: UTF8.self) != nil
            }
            p += 8
        }
        while p < end {
            if p.pointee >= 0x80 { return String(validating: bytes, as: UTF8.self) != nil }
            p += 1
        }
        return true
    }

    /// Field `r[s..<e]`: surrounding quotes removed, `""` undoubled, text after the closing
    /// quote appended literally (matching how the scanner went through it).
    static func decodeField(_ r: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> String {
        guard e > s, r[s] == Byte.quote else {
            return String(decoding: UnsafeBufferPointer(rebasing: r[s..<e]), as: UTF8.self)
        }
        var i = s + 1
        while i < e && r[i] != Byte.quote { i += 1 }
        if i >= e - 1 {  // the common `"text"`
            return String(decoding: UnsafeBufferPointer(rebasing: r[(s + 1)..<i]), as: UTF8.self)
        }
        var out = [UInt8](UnsafeBufferPointer(rebasing: r[(s + 1)..<i]))
        while i < e {
            let b = r[i]
            if b == Byte.quote {
                if i + 1 < e && r[i + 1] == Byte.quote { out.append(b); i += 2; continue }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: r[(i + 1)..<e]))
                break
            }
            out.append(b)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}

