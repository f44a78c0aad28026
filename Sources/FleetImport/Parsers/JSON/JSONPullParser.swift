import Foundation
import FleetCore

/// One lexical unit of a JSON document, in document order.
///
/// Numbers keep their literal text: a reading's raw value is stored as the vendor wrote it, and
/// callers convert (and refuse what does not fit, such as `1e309`) themselves.
enum JSONToken: Equatable, Sendable {
    case objectStart, objectEnd, arrayStart, arrayEnd
    case key(String)
    case string(String)
    case number(String)
    case bool(Bool)
    case null
}

/// Why a JSON document cannot be read: where (byte offset from the start of the file and the
/// element path) and what. A document with such an error is unusable as a whole.
struct JSONReadError: Error, Equatable, CustomStringConvertible {
    var offset: Int64
    var path: String
    var message: String
    /// The input ended inside a value: the file is cut short, not malformed.
    var isTruncated = false

    var location: String { path.isEmpty ? "byte \(offset)" : "byte \(offset) (\(path))" }
    var description: String { "\(location): \(message)" }
}

/// A strict RFC 8259 pull parser over bytes read in chunks.
///
/// `JSONSerialization` and `JSONDecoder` need the whole document in memory; a saved stats
/// history can be gigabytes. This parser holds one chunk plus the token being read, so memory
/// is bounded by `maxTokenBytes` (a string or number longer than that is an error, not an
/// allocation) and by `maxDepth`. It tracks the path of the current token
/// (`data[12].gps[3].latitude`) so that callers can say where a reject came from.
///
/// Strictness: whitespace is space, tab, LF and CR only; numbers follow the RFC grammar (no
/// `NaN`, no leading `+` or zeros); strings must be valid UTF-8 with no raw control characters
/// and only the RFC escapes, with `\u` surrogates paired; exactly one top-level value. A UTF-8
/// byte-order mark is skipped (RFC 8259 §8.1 allows it); UTF-16 is refused.
///
/// A struct, not a class: Swift checks exclusive access to a class's stored properties at run
/// time on every access, which made parsing about five times slower on the per-byte paths. Keep
/// one copy: copies would share the file handle.
struct JSONPullParser {
    static let chunkSize = 64 * 1024
    static let defaultMaxTokenBytes = 1 << 20
    static let defaultMaxDepth = 256

    let maxTokenBytes: Int
    let maxDepth: Int

    private enum State: UInt8 { case firstOrEnd, value, commaOrEnd, key }
    private struct Frame {
        var isObject: Bool
        var state: State = .firstOrEnd
        var key: String? = nil
        var index = -1
        /// The object's member names so far: a list while short (cheaper than hashing the few
        /// keys of a vendor record), a set beyond `Frame.listed`.
        var names: [String] = []
        var nameSet: Set<String>? = nil
        static let listed = 16

        /// Records `name`; false when the object already has a member of that name.
        mutating func insert(_ name: String) -> Bool {
            if var set = nameSet {
                nameSet = nil
                let inserted = set.insert(name).inserted
                nameSet = set
                return inserted
            }
            if names.contains(name) { return false }
            names.append(name)
            if names.count > Self.listed { nameSet = Set(names); names = [] }
            return true
        }
    }

    private let handle: FileHandle?
    var buffer: [UInt8]
    var pos = 0
    var end: Int
    private var atEOF: Bool
    /// File offset of `buffer[0]`.
    private var base: Int64 = 0
    private var frames: [Frame] = []
    private var rootDone = false
    private var peeked: JSONToken?? = nil
    var scratch: [UInt8] = []
    /// Offset of the first byte of the last token returned.
    private(set) var tokenOffset: Int64 = 0
    /// Whether `line(at:)` is wanted. Off by default: counting newlines is a second pass over
    /// every byte, which formats that report errors by byte offset (Samsara, Deere) do not pay.
    let countsLines: Bool
    /// Lines counted up to `lineMark` (a buffer index): `lineAtMark` is the line there.
    private var lineMark = 0
    private var lineAtMark = 1

    init(url: URL, maxTokenBytes: Int = JSONPullParser.defaultMaxTokenBytes, maxDepth: Int = JSONPullParser.defaultMaxDepth,
         countsLines: Bool = false) throws {
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            throw JSONReadError(offset: 0, path: "", message: "the file cannot be opened for reading (\(error.localizedDescription))")
        }
        buffer = []
        end = 0
        atEOF = false
        self.maxTokenBytes = maxTokenBytes
        self.maxDepth = maxDepth
        self.countsLines = countsLines
        try start()
    }

    /// Parses bytes already in memory (tests, small documents).
    init(bytes: [UInt8], maxTokenBytes: Int = JSONPullParser.defaultMaxTokenBytes, maxDepth: Int = JSONPullParser.defaultMaxDepth,
         countsLines: Bool = false) throws {
        handle = nil
        buffer = bytes
        end = bytes.count
        atEOF = true
        self.maxTokenBytes = maxTokenBytes
        self.maxDepth = maxDepth
        self.countsLines = countsLines
        try start()
    }

    private mutating func start() throws {
        try ensure(3)
        if end - pos >= 2, (buffer[pos] == 0xFF && buffer[pos + 1] == 0xFE) || (buffer[pos] == 0xFE && buffer[pos + 1] == 0xFF) {
            throw fail("the document is UTF-16; JSON exchanged between systems must be UTF-8 (RFC 8259 §8.1)")
        }
        if end - pos >= 3, buffer[pos] == 0xEF, buffer[pos + 1] == 0xBB, buffer[pos + 2] == 0xBF { pos += 3 }
    }

    // MARK: Position

    /// Nesting depth: 0 outside any container.
    var depth: Int { frames.count }

    /// The path of the last token: keys joined by `.`, array indexes in brackets.
    var path: String { path(depth: frames.count) }

    /// The path through the outermost `depth` containers only.
    func path(depth: Int) -> String {
        var out = ""
        for f in frames.prefix(depth) {
            if f.isObject {
                guard let k = f.key else { continue }
                if Self.isPlainKey(k) { out += out.isEmpty ? k : "." + k } else { out += "[\(JSONText.quoted(k))]" }
            } else if f.index >= 0 {
                out += "[\(f.index)]"
            }
        }
        return out
    }

    /// The byte offset the parser has read up to.
    var offset: Int64 { base + Int64(pos) }

    static func isPlainKey(_ k: String) -> Bool {
        guard let first = k.utf8.first, !(first >= 48 && first <= 57) else { return false }
        return k.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 122) || $0 == 95 || $0 == 45 }
    }

    func fail(_ message: String, at offset: Int64? = nil) -> JSONReadError {
        JSONReadError(offset: offset ?? self.offset, path: path, message: message)
    }

    /// The input ended inside a value.
    func failTruncated(_ message: String, at offset: Int64? = nil) -> JSONReadError {
        JSONReadError(offset: offset ?? self.offset, path: path, message: message, isTruncated: true)
    }

    /// The 1-based line of a byte offset, for parsers made with `countsLines` (else 1). An
    /// offset before the bytes still held gives the line of the first of them. Each byte is
    /// counted once, however often this is asked.
    mutating func line(at offset: Int64) -> Int {
        guard countsLines else { return 1 }
        let target = max(0, min(end, Int(offset - base)))
        if target >= lineMark {
            lineAtMark += Self.newlines(buffer, lineMark, target)
            lineMark = target
            return lineAtMark
        }
        return lineAtMark - Self.newlines(buffer, target, lineMark)
    }

    private static func newlines(_ b: [UInt8], _ from: Int, _ to: Int) -> Int {
        var n = 0
        for i in from..<to where b[i] == 0x0A { n += 1 }
        return n
    }

    // MARK: Tokens

    /// The next token without consuming it.
    mutating func peek() throws -> JSONToken? {
        if let p = peeked { return p }
        let t = try readToken()
        peeked = .some(t)
        return t
    }

    /// The next token, or nil once the single top-level value has been read and only
    /// whitespace follows.
    mutating func next() throws -> JSONToken? {
        if let p = peeked { peeked = nil; return p }
        return try readToken()
    }

    private mutating func readToken() throws -> JSONToken? {
        while true {
            try skipWhitespace()
            guard !frames.isEmpty else {
                if rootDone {
                    if pos < end { throw fail("unexpected data after the end of the JSON document") }
                    return nil
                }
                guard pos < end else { throw fail(offset == 0 ? "the document is empty" : "the document has no JSON value") }
                return try value()
            }
            let top = frames.count - 1
            guard pos < end else { throw failTruncated("the document ends inside \(frames[top].isObject ? "an object" : "an array") (truncated)") }
            let c = buffer[pos]
            switch frames[top].state {
            case .firstOrEnd:
                if c == (frames[top].isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) { return close() }
                if frames[top].isObject { return try key() }
                frames[top].index = 0
                return try value()
            case .key:
                return try key()
            case .value:
                return try value()
            case .commaOrEnd:
                if c == UInt8(ascii: ",") {
                    pos += 1
                    if frames[top].isObject { frames[top].state = .key } else { frames[top].index += 1; frames[top].state = .value }
                    continue
                }
                if c == (frames[top].isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) { return close() }
                throw fail("expected ',' or '\(frames[top].isObject ? "}" : "]")' but found \(Self.describe(c))")
            }
        }
    }

    private mutating func close() -> JSONToken {
        tokenOffset = offset
        pos += 1
        let f = frames.removeLast()
        finishedValue()
        return f.isObject ? .objectEnd : .arrayEnd
    }

    private mutating func finishedValue() {
        if frames.isEmpty { rootDone = true } else { frames[frames.count - 1].state = .commaOrEnd }
    }

    private mutating func key() throws -> JSONToken {
        let top = frames.count - 1
        guard buffer[pos] == UInt8(ascii: "\"") else { throw fail("expected a key string but found \(Self.describe(buffer[pos]))") }
        tokenOffset = offset
        let k = try string()
        // RFC 8259 leaves duplicate names to the reader: jq and Python take the last, others
        // the first. Either way one value is dropped in silence, so the document is refused.
        guard frames[top].insert(k) else {
            throw fail("the object has the member \(JSONText.quoted(QuotedText.cut(k))) twice; readers disagree on which one counts (jq and Python take the last), so FleetKit refuses to choose: re-export the file or remove one")
        }
        frames[top].key = k
        try skipWhitespace()
        guard pos < end else { throw failTruncated("the document ends after a key (truncated)") }
        guard buffer[pos] == UInt8(ascii: ":") else { throw fail("expected ':' after the key but found \(Self.describe(buffer[pos]))") }
        pos += 1
        frames[top].state = .value
        return .key(k)
    }

    private mutating func value() throws -> JSONToken {
        tokenOffset = offset
        let c = buffer[pos]
        switch c {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard frames.count < maxDepth else { throw fail("the document nests deeper than \(maxDepth) levels") }
            pos += 1
            if !frames.isEmpty { frames[frames.count - 1].state = .commaOrEnd }
            frames.append(Frame(isObject: c == UInt8(ascii: "{")))
            return c == UInt8(ascii: "{") ? .objectStart : .arrayStart
        case UInt8(ascii: "\""):
            let s = try string()
            finishedValue()
            return .string(s)
        case UInt8(ascii: "t"): try literal("true"); finishedValue(); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); finishedValue(); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); finishedValue(); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let n = try number()
            finishedValue()
            return .number(n)
        default:
            throw fail("expected a value but found \(Self.describe(c))")
        }
    }

    // MARK: Skipping

    /// Consumes the next value whole (a scalar, or a container and everything in it).
    mutating func skipValue() throws {
        guard let t = try next() else { throw fail("expected a value but the document ended") }
        switch t {
        case .objectStart, .arrayStart:
            let d = depth
            while depth >= d { guard try next() != nil else { break } }
        case .key: throw fail("expected a value but found a key")
        default: break
        }
    }

    // MARK: Bytes

    private mutating func skipWhitespace() throws {
        while true {
            while pos < end {
                switch buffer[pos] {
                case 0x20, 0x09, 0x0A, 0x0D: pos += 1
                default: return
                }
            }
            if atEOF { return }
            try refill()
        }
    }

    /// Makes at least `n` bytes available from `pos` unless the input ends first.
    mutating func ensure(_ n: Int) throws {
        while end - pos < n, !atEOF { try refill() }
    }

    private mutating func refill() throws {
        guard let handle, !atEOF else { atEOF = true; return }
        if pos > 0 {
            if countsLines {
                if lineMark <= pos { lineAtMark += Self.newlines(buffer, lineMark, pos); lineMark = 0 } else { lineMark -= pos }
            }
            buffer.removeSubrange(0..<pos)
            base += Int64(pos)
            end -= pos
            pos = 0
        }
        let data: Data?
        do { data = try handle.read(upToCount: Self.chunkSize) } catch {
            throw fail("the file cannot be read: \(error.localizedDescription)")
        }
        guard let data, !data.isEmpty else { atEOF = true; return }
        buffer.append(contentsOf: data)
        end = buffer.count
    }

    static func describe(_ c: UInt8) -> String {
        switch c {
        case 0x20...0x7E: return "'\(Character(Unicode.Scalar(c)))'"
        default: return "byte 0x\(String(c, radix: 16, uppercase: true))"
        }
    }
}
