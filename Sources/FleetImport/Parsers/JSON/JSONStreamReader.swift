import Foundation
import FleetCore

/// A JSON value read whole. Numbers keep their source text, so a reading's raw value is
/// stored exactly as the vendor wrote it.
indirect enum JSONValue {
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null
}

/// A pull parser over a JSON file read 64 KiB at a time.
///
/// `JSONSerialization` and `JSONDecoder` need the whole document in memory. Feeds are walked
/// structurally here (`beginObject`, `nextKey`, `beginArray`, `nextElement`) and only the
/// small values an importer wants are materialised with `readValue`, so memory is bounded by
/// the largest such value, itself capped (`oversized` is set and its content dropped).
struct JSONStreamReader {
    static let maxValueBytes = 4 << 20
    static let maxDepth = 64

    let path: String
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var pos = 0
    private var atEOF = false
    private(set) var line = 1
    /// Per open container: whether the next member is its first (no comma before it).
    private var first: [Bool] = []
    /// Set when the last `readValue` was larger than `maxValueBytes`.
    private(set) var oversized = false
    private var budget = 0

    init(url: URL) throws {
        path = url.path
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            throw FleetError.io(path: url.path, reason: "cannot open the file for reading (\(error.localizedDescription))")
        }
        try fill()
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { pos = 3 }
        if buffer.starts(with: [0xFF, 0xFE]) || buffer.starts(with: [0xFE, 0xFF]) {
            throw fail("the JSON is UTF-16; FleetKit reads JSON in UTF-8", hint: "Save the file as UTF-8 and import it again.")
        }
    }

    func close() { try? handle.close() }

    // MARK: Structure

    enum Kind { case object, array, string, number, bool, null }

    mutating func peekKind() throws -> Kind {
        switch try peek() {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case let c?: if c == UInt8(ascii: "-") || (c >= 48 && c <= 57) { return .number }
            throw unexpected(c)
        case nil: throw truncated()
        }
    }

    /// True when only whitespace is left.
    mutating func atEnd() throws -> Bool { try peek() == nil }

    mutating func beginObject() throws { try expect(UInt8(ascii: "{")); first.append(true) }
    mutating func beginArray() throws { try expect(UInt8(ascii: "[")); first.append(true) }

    /// The next key of the open object, or nil when it closes.
    mutating func nextKey() throws -> String? {
        guard try separator(closing: UInt8(ascii: "}")) else { return nil }
        guard try peek() == UInt8(ascii: "\"") else { throw try unexpected(peek()) }
        let key = try readString(store: true)
        try expect(UInt8(ascii: ":"))
        return key
    }

    /// Whether the open array has another element (false when it closes).
    mutating func nextElement() throws -> Bool { try separator(closing: UInt8(ascii: "]")) }

    private mutating func separator(closing: UInt8) throws -> Bool {
        guard let c = try peek() else { throw truncated() }
        if c == closing { pos += 1; first.removeLast(); return false }
        if first[first.count - 1] { first[first.count - 1] = false; return true }
        guard c == UInt8(ascii: ",") else { throw unexpected(c) }
        pos += 1
        return true
    }

    // MARK: Values

    /// Reads the next value whole, up to `maxValueBytes` (beyond that `oversized` is set and the
    /// rest of the value is parsed but not kept).
    mutating func readValue() throws -> JSONValue {
        budget = Self.maxValueBytes
        let v = try value(depth: 0, store: true)
        oversized = budget < 0
        return v
    }

    mutating func skipValue() throws { _ = try value(depth: 0, store: false) }

    /// A scalar as text (nil for null, objects and arrays, which are skipped).
    mutating func readScalarText() throws -> String? {
        switch try value(depth: 0, store: true) {
        case let .string(s), let .number(s): return s
        case let .bool(b): return b ? "true" : "false"
        default: return nil
        }
    }

    private mutating func value(depth: Int, store: Bool) throws -> JSONValue {
        guard depth < Self.maxDepth else { throw fail("the JSON nests deeper than \(Self.maxDepth) levels", hint: "This is not a telematics export.") }
        let keep = store && budget > 0
        switch try peekKind() {
        case .object:
            try beginObject()
            var members: [(key: String, value: JSONValue)] = []
            while let k = try nextKey() {
                let v = try value(depth: depth + 1, store: keep)
                if keep && budget > 0 { members.append((k, v)) }
            }
            return .object(members)
        case .array:
            try beginArray()
            var items: [JSONValue] = []
            while try nextElement() {
                let v = try value(depth: depth + 1, store: keep)
                if keep && budget > 0 { items.append(v) }
            }
            return .array(items)
        case .string: return .string(try readString(store: keep))
        case .number: return .number(try readNumber())
        case .bool:
            let truth = try peek() == UInt8(ascii: "t")
            guard try literal(truth ? "true" : "false") else { throw fail("the JSON is not valid: expected \(truth)", hint: "The file is damaged; re-export it.") }
            return .bool(truth)
        case .null:
            guard try literal("null") else { throw fail("the JSON is not valid: expected null", hint: "The file is damaged; re-export it.") }
            return .null
        }
    }

    private mutating func readString(store: Bool) throws -> String {
        try expect(UInt8(ascii: "\""))
        var bytes: [UInt8] = []
        while true {
            guard let c = try next() else { throw truncated() }
            if c == UInt8(ascii: "\"") { break }
            if c == 10 { throw fail("a string is not closed before the end of the line", hint: "The file is damaged; re-export it.") }
            var out: [UInt8] = [c]
            if c == UInt8(ascii: "\\") {
                guard let e = try next() else { throw truncated() }
                switch e {
                case UInt8(ascii: "n"): out = [10]
                case UInt8(ascii: "t"): out = [9]
                case UInt8(ascii: "r"): out = [13]
                case UInt8(ascii: "b"): out = [8]
                case UInt8(ascii: "f"): out = [12]
                case UInt8(ascii: "u"): out = Array(String(try unicodeEscape()).utf8)
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out = [e]
                default: throw unexpected(e)
                }
            }
            budget -= out.count
            if store { bytes.append(contentsOf: out) }
        }
        guard let s = String(validating: bytes, as: UTF8.self) else {
            throw fail("a string has bytes that are not valid UTF-8", hint: "Save the file as UTF-8 and import it again.")
        }
        return s
    }

    private mutating func unicodeEscape() throws -> Character {
        func hex4() throws -> UInt32 {
            var v: UInt32 = 0
            for _ in 0..<4 {
                guard let h = try next(), let d = Character(UnicodeScalar(h)).hexDigitValue else { throw fail("a \\u escape is malformed", hint: "The file is damaged; re-export it.") }
                v = v * 16 + UInt32(d)
            }
            return v
        }
        var v = try hex4()
        if (0xD800..<0xDC00).contains(v), try next() == UInt8(ascii: "\\"), try next() == UInt8(ascii: "u") {
            let low = try hex4()
            v = 0x10000 + ((v - 0xD800) << 10) + (low &- 0xDC00)
        }
        return Character(UnicodeScalar(v) ?? "\u{FFFD}")
    }

    private mutating func readNumber() throws -> String {
        var bytes: [UInt8] = []
        while let c = try peekRaw(), c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".")
                || c == UInt8(ascii: "e") || c == UInt8(ascii: "E") || (c >= 48 && c <= 57) {
            bytes.append(c)
            pos += 1
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard Double(text) != nil else { throw fail("'\(text)' is not a JSON number", hint: "The file is damaged; re-export it.") }
        budget -= bytes.count
        return text
    }

    private mutating func literal(_ word: String) throws -> Bool {
        for b in word.utf8 {
            guard let c = try next() else { throw truncated() }
            if c != b { return false }
        }
        return true
    }

    // MARK: Bytes

    private mutating func fill() throws {
        if pos > 0 { buffer.removeFirst(pos); pos = 0 }
        guard !atEOF else { return }
        if let chunk = try handle.read(upToCount: 64 * 1024), !chunk.isEmpty { buffer.append(contentsOf: chunk) } else { atEOF = true }
    }

    private mutating func peekRaw() throws -> UInt8? {
        if pos >= buffer.count { try fill() }
        return pos < buffer.count ? buffer[pos] : nil
    }

    private mutating func next() throws -> UInt8? {
        guard let c = try peekRaw() else { return nil }
        pos += 1
        if c == 10 { line += 1 }
        return c
    }

    /// The next byte that is not whitespace, not consumed.
    private mutating func peek() throws -> UInt8? {
        while let c = try peekRaw() {
            guard c == 32 || c == 9 || c == 10 || c == 13 else { return c }
            if c == 10 { line += 1 }
            pos += 1
        }
        return nil
    }

    private mutating func expect(_ b: UInt8) throws {
        guard let c = try peek() else { throw truncated() }
        guard c == b else { throw unexpected(c) }
        pos += 1
    }

    private func unexpected(_ c: UInt8?) -> FleetError {
        guard let c else { return truncated() }
        let shown = c >= 32 && c < 127 ? "'\(Character(UnicodeScalar(c)))'" : String(format: "byte 0x%02X", c)
        return fail("the JSON is not valid: unexpected \(shown)", hint: "Nothing of this file was imported. Re-export it completely and import it again.")
    }

    private func truncated() -> FleetError {
        fail("the JSON ends before its values are closed; the file is truncated",
             hint: "Nothing of this file was imported. Re-export or re-download it completely and import it again.")
    }

    private func fail(_ reason: String, hint: String) -> FleetError {
        FleetError.unreadable(file: path, location: "line \(line)", reason: reason, hint: hint)
    }
}

extension FeedNode {
    /// A JSON value as feed elements named `name`: object members become children, and an
    /// array becomes one element per item, the way XML repeats an element.
    static func nodes(name: String, json: JSONValue, line: Int? = nil) -> [FeedNode] {
        var node = FeedNode(name: name, syntax: .json, line: line)
        switch json {
        case let .array(items): return items.flatMap { nodes(name: name, json: $0, line: line) }
        case let .object(members): node.children = members.flatMap { nodes(name: $0.key, json: $0.value, line: line) }
        case let .string(s), let .number(s): node.text = s
        case let .bool(b): node.text = b ? "true" : "false"
        case .null: break
        }
        return [node]
    }
}
