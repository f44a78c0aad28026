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
        guard let (encoding, bom) = try? detectEncoding(head) else { return nil }
        // A head cut at an odd offset is normal for a prefix, not a truncated file.
        let even = encoding != .utf8 && (head.count - bom) % 2 != 0 ? head.dropLast() : head
        guard var reader = try? CSVReader(data: even), let record = try? reader.next() else { return nil }
        return record.fields
    }
}

extension CSVReader {
    enum Byte {
        static let lf: UInt8 = 0x0A, cr: UInt8 = 0x0D, quote: UInt8 = 0x22, comma: UInt8 = 0x2C
        /// Sniffing candidates, in tie-breaking order.
        static let delimiters: [UInt8] = [0x2C, 0x3B, 0x09, 0x7C]
    }

    enum Encoding: Equatable { case utf8, utf16LE, utf16BE }

    /// Encoding from the BOM, else from the NUL pattern that BOM-less UTF-16 leaves in mostly
    /// ASCII text (UTF-8 text never contains NUL). Returns the BOM length to skip.
    static func detectEncoding(_ head: Data) throws -> (Encoding, bom: Int) {
        let b = [UInt8](head.prefix(64))
        if b.starts(with: [0xFF, 0xFE, 0, 0]) || b.starts(with: [0, 0, 0xFE, 0xFF]) {
            throw CSVError.unsupportedEncoding("UTF-32 (byte order mark found); save the file as UTF-8 or UTF-16")
        }
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if b.starts(with: [0xFF, 0xFE]) { return (.utf16LE, 2) }
        if b.starts(with: [0xFE, 0xFF]) { return (.utf16BE, 2) }
        let pairs = b.count / 2
        guard pairs >= 2 else { return (.utf8, 0) }
        var evenNUL = 0, oddNUL = 0
        for k in 0..<(pairs * 2) where b[k] == 0 {
            if k % 2 == 0 { evenNUL += 1 } else { oddNUL += 1 }
        }
        // Tolerate a few NULs on the other side: CJK characters such as U+4E00 have a zero byte.
        if oddNUL * 2 >= pairs && evenNUL * 8 <= pairs { return (.utf16LE, 0) }
        if evenNUL * 2 >= pairs && oddNUL * 8 <= pairs { return (.utf16BE, 0) }
        return (.utf8, 0)
    }

    /// The first `headSize` bytes of `body` as UTF-8, for sniffing only.
    static func transcodeHead(_ body: Data, _ encoding: Encoding) -> [UInt8] {
        let input = body.prefix(headSize)
        var transcoder = Transcoder(encoding)
        var out = [UInt8](repeating: 0, count: Transcoder.maxOutput(input.count))
        let n = out.withUnsafeMutableBufferPointer { o in
            input.withUnsafeBytes { transcoder.transcode($0, into: o.baseAddress!) }
        }
        return Array(out[..<n])
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

extension CSVReader {
    /// Chunks of the input: first the already-read head (re-chunked, so tests with tiny chunks
    /// exercise every boundary), then the file itself.
    struct Source {
        private var head: Data
        private var index: Data.Index
        private var handle: FileHandle?
        let chunkSize: Int

        init(head: Data, handle: FileHandle?, chunkSize: Int) {
            self.head = head
            index = head.startIndex
            self.handle = handle
            self.chunkSize = chunkSize
        }

        mutating func next() throws -> Data? {
            if index < head.endIndex {
                let stop = index + min(chunkSize, head.endIndex - index)
                defer { index = stop }
                return head[index..<stop]
            }
            head = Data()
            index = head.startIndex
            guard let h = handle else { return nil }
            do {
                if let chunk = try h.read(upToCount: chunkSize), !chunk.isEmpty { return chunk }
            } catch {
                close()
                throw CSVError.io(error.localizedDescription)
            }
            close()
            return nil
        }

        mutating func close() {
            try? handle?.close()
            handle = nil
        }
    }

    /// Turns input bytes into UTF-8 a chunk at a time, carrying an odd byte or a high surrogate
    /// across chunk boundaries. An unpaired surrogate becomes the byte 0xFF, never valid in
    /// UTF-8, so the record decoder replaces it with U+FFFD and flags the record exactly as it
    /// does for bad UTF-8 input.
    struct Transcoder {
        let encoding: Encoding
        private var oddByte: UInt8?
        private var high: UInt32 = 0  // pending high surrogate, 0 when none

        init(_ encoding: Encoding) { self.encoding = encoding }

        static func maxOutput(_ inputCount: Int) -> Int { 2 * inputCount + 8 }

        mutating func transcode(_ input: UnsafeRawBufferPointer, into out: UnsafeMutablePointer<UInt8>) -> Int {
            guard encoding != .utf8 else {
                if let base = input.baseAddress { UnsafeMutableRawPointer(out).copyMemory(from: base, byteCount: input.count) }
                return input.count
            }
            let big = encoding == .utf16BE
            var o = 0, k = 0
            if let first = oddByte, !input.isEmpty {
                let (a, b) = (UInt32(first), UInt32(input[0]))
                o = emit(big ? a << 8 | b : b << 8 | a, out, o)
                oddByte = nil
                k = 1
            }
            while k + 1 < input.count {
                let (a, b) = (UInt32(input[k]), UInt32(input[k + 1]))
                o = emit(big ? a << 8 | b : b << 8 | a, out, o)
                k += 2
            }
            if k < input.count { oddByte = input[k] }
            return o
        }

        /// At end of input: flushes a dangling high surrogate, and reports a left-over odd byte.
        mutating func finish(into out: UnsafeMutablePointer<UInt8>) -> (count: Int, oddTail: Bool) {
            let count = high != 0 ? 1 : 0
            if count == 1 { out[0] = 0xFF }
            let odd = oddByte != nil
            high = 0
            oddByte = nil
            return (count, odd)
        }

        private mutating func emit(_ u: UInt32, _ out: UnsafeMutablePointer<UInt8>, _ start: Int) -> Int {
            var o = start
            let pending = high
            high = 0
            if pending != 0 {
                if u & 0xFC00 == 0xDC00 {
                    let c = 0x10000 + ((pending - 0xD800) << 10) + (u - 0xDC00)
                    out[o] = UInt8(truncatingIfNeeded: 0xF0 | c >> 18)
                    out[o + 1] = UInt8(truncatingIfNeeded: 0x80 | (c >> 12) & 0x3F)
                    out[o + 2] = UInt8(truncatingIfNeeded: 0x80 | (c >> 6) & 0x3F)
                    out[o + 3] = UInt8(truncatingIfNeeded: 0x80 | c & 0x3F)
                    return o + 4
                }
                out[o] = 0xFF
                o += 1
            }
            switch u {
            case 0..<0x80:
                out[o] = UInt8(truncatingIfNeeded: u)
                return o + 1
            case 0x80..<0x800:
                out[o] = UInt8(truncatingIfNeeded: 0xC0 | u >> 6)
                out[o + 1] = UInt8(truncatingIfNeeded: 0x80 | u & 0x3F)
                return o + 2
            case 0xD800..<0xDC00:
                high = u
                return o
            case 0xDC00..<0xE000:
                out[o] = 0xFF
                return o + 1
            default:
                out[o] = UInt8(truncatingIfNeeded: 0xE0 | u >> 12)
                out[o + 1] = UInt8(truncatingIfNeeded: 0x80 | (u >> 6) & 0x3F)
                out[o + 2] = UInt8(truncatingIfNeeded: 0x80 | u & 0x3F)
                return o + 3
            }
        }
    }
}

extension CSVReader {
    /// The scanner. A class so that it can own a manually managed buffer; the hot loop keeps
    /// its state in locals because class property accesses pay for exclusivity checks.
    final class Engine {
        enum State { case recordStart, fieldStart, unquoted, quoted, quotedAfterCR, quoteInQuoted }

        private var source: Source
        private var transcoder: Transcoder
        private let delimiter: UInt8
        private let maxRecordBytes: Int
        /// UTF-8 bytes; `[recordStart, end)` is the current record so far, `pos` the scan point.
        private var buf: UnsafeMutablePointer<UInt8>
        private var capacity: Int
        private var pos = 0, end = 0, recordStart = 0, contentEnd = 0
        private var state = State.recordStart
        /// The last line break was a CR, so an LF right after it belongs to the same break.
        private var pendingLF = false
        private var line = 1, recordLine = 1, number = 0
        /// Where each field of the current record ends, relative to `recordStart`; fields are
        /// separated by exactly one delimiter byte, so the ends are enough.
        private var ends: [Int] = []
        /// The beginning of an oversized record, kept for `raw` while the rest is dropped.
        private var oversizedPrefix: [UInt8]?
        private var finished = false

        init(source: Source, transcoder: Transcoder, delimiter: UInt8, maxRecordBytes: Int) {
            self.source = source
            self.transcoder = transcoder
            self.delimiter = delimiter
            self.maxRecordBytes = maxRecordBytes
            capacity = Transcoder.maxOutput(source.chunkSize) + 64
            buf = .allocate(capacity: capacity)
        }

        deinit {
            source.close()
            buf.deallocate()
        }

        func next() throws -> CSVRecord? {
            guard !finished else { return nil }
            do {
                while !scan() {
                    if try refill() { continue }
                    finished = true
                    source.close()
                    switch state {
                    case .recordStart:
                        return nil
                    case .quoted, .quotedAfterCR:
                        throw CSVError.unterminatedQuote(record: number + 1, line: recordLine)
                    case .fieldStart, .unquoted, .quoteInQuoted:
                        ends.append(end - recordStart)
                        return makeRecord(contentEnd: end)
                    }
                }
                return makeRecord(contentEnd: contentEnd)
            } catch {
                finished = true
                source.close()
                throw error
            }
        }

        /// Scans from `pos` to `end`. Returns true when a record ended at a line break
        /// (`contentEnd` is the break's index), false when the buffered bytes ran out.
        private func scan() -> Bool {
            let p = buf, e = end, delimiter = delimiter
            let (lf, cr, quote) = (Byte.lf, Byte.cr, Byte.quote)
            var i = pos, st = state, ln = line, rs = recordStart
            var fe = ends
            ends = []
            var found = false
            outer: while i < e {
                switch st {
                case .recordStart:
                    let b = p[i]
                    if b == lf || b == cr {  // a blank line: counted, not returned
                        if b == cr || !pendingLF { ln += 1 }
                        pendingLF = b == cr
                        i += 1
                        continue
                    }
                    pendingLF = false
                    rs = i
                    recordLine = ln
                    fe.removeAll(keepingCapacity: true)
                    st = .fieldStart
                case .fieldStart:
                    if p[i] == quote { st = .quoted; i += 1 } else { st = .unquoted }
                case .unquoted:
                    while i < e {
                        let b = p[i]
                        if b == delimiter {
                            fe.append(i - rs)
                            i += 1
                            // Stay in this loop for an unquoted next field: going back through
                            // the switch per field costs a mispredicted jump.
                            if i < e && p[i] != quote { continue }
                            st = .fieldStart
                            continue outer
                        }
                        if b == lf || b == cr { found = true; break outer }
                        i += 1
                    }
                case .quoted:
                    while i < e {
                        let b = p[i]
                        i += 1
                        if b == quote { st = .quoteInQuoted; continue outer }
                        if b == lf {
                            ln += 1
                        } else if b == cr {
                            ln += 1
                            if i == e { st = .quotedAfterCR; continue outer }
                            if p[i] == lf { i += 1 }
                        }
                    }
                case .quotedAfterCR:
                    if p[i] == lf { i += 1 }
                    st = .quoted
                case .quoteInQuoted:
                    let b = p[i]
                    if b == quote {
                        st = .quoted
                        i += 1
                    } else if b == delimiter {
                        fe.append(i - rs)
                        i += 1
                        st = .fieldStart
                    } else if b == lf || b == cr {
                        found = true
                        break outer
                    } else {
                        st = .unquoted  // lenient: text after the closing quote is kept
                    }
                }
            }
            if found {
                fe.append(i - rs)
                contentEnd = i
                pendingLF = p[i] == cr
                ln += 1
                i += 1
                st = .recordStart
            }
            pos = i
            state = st
            line = ln
            recordStart = rs
            ends = fe
            return found
        }

        /// Makes room and appends the next chunk; false at end of input. A record that has
        /// outgrown `maxRecordBytes` keeps only its beginning and is scanned on without being
        /// buffered, which is what bounds memory.
        private func refill() throws -> Bool {
            if state == .recordStart {
                recordStart = pos
            } else if oversizedPrefix != nil || end - recordStart > maxRecordBytes {
                keepOversizedPrefix(upTo: end)
                recordStart = pos
                ends.removeAll(keepingCapacity: true)
            }
            if recordStart > 0 {
                let keep = end - recordStart
                UnsafeMutableRawPointer(buf).copyMemory(from: buf + recordStart, byteCount: keep)
                pos -= recordStart
                end = keep
                recordStart = 0
            }
            while let chunk = try source.next() {
                reserve(Transcoder.maxOutput(chunk.count))
                let n = chunk.withUnsafeBytes { transcoder.transcode($0, into: buf + end) }
                end += n
                if n > 0 { return true }
            }
            reserve(8)
            let (n, oddTail) = transcoder.finish(into: buf + end)
            if oddTail {
                throw CSVError.unsupportedEncoding("UTF-16 with an odd number of bytes; the file is probably truncated")
            }
            end += n
            return n > 0
        }

        private func reserve(_ extra: Int) {
            guard end + extra > capacity else { return }
            let newCapacity = max(capacity * 2, end + extra)
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            grown.update(from: buf, count: end)
            buf.deallocate()
            buf = grown
            capacity = newCapacity
        }

        /// Adds the buffered bytes `[recordStart, stop)` of an oversized record to the kept
        /// beginning, up to 4 bytes more than `decodeRaw` decodes so it can end on a character.
        private func keepOversizedPrefix(upTo stop: Int) {
            var prefix = oversizedPrefix ?? []
            let count = min(stop - recordStart, 4 * CSVReader.rawCap + 4 - prefix.count)
            if count > 0 { prefix.append(contentsOf: UnsafeBufferPointer(start: buf + recordStart, count: count)) }
            oversizedPrefix = prefix
        }

        private func makeRecord(contentEnd: Int) -> CSVRecord {
            number += 1
            let span = UnsafeBufferPointer(start: buf + recordStart, count: contentEnd - recordStart)
            if oversizedPrefix != nil || span.count > maxRecordBytes {
                keepOversizedPrefix(upTo: contentEnd)
                defer { oversizedPrefix = nil }
                let (raw, valid) = oversizedPrefix!.withUnsafeBufferPointer { CSVReader.decodeRaw($0, whole: false) }
                return CSVRecord(number: number, line: recordLine, fields: [], raw: raw,
                                 oversized: true, hadInvalidUTF8: !valid)
            }
            let (raw, valid) = CSVReader.decodeRaw(span, whole: true)
            var fields: [String] = []
            fields.reserveCapacity(ends.count)
            var start = 0
            for fieldEnd in ends {
                fields.append(CSVReader.decodeField(span, start, fieldEnd))
                start = fieldEnd + 1
            }
            return CSVRecord(number: number, line: recordLine, fields: fields, raw: raw,
                             oversized: false, hadInvalidUTF8: !valid)
        }
    }
}
