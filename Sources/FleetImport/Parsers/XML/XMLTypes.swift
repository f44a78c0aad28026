import Foundation

/// The namespaces GPX reading cares about, identified by URI (never by prefix: files bind
/// Garmin's extension to `gpxtpx:`, `ns3:` or anything else).
enum XMLNamespace: UInt8 {
    case none, gpx10, gpx11, tpx1, tpx2, other, unbound

    static func of(uri: String) -> XMLNamespace {
        switch uri {
        case "": return .none
        case "http://www.topografix.com/GPX/1/0": return .gpx10
        case "http://www.topografix.com/GPX/1/1": return .gpx11
        case "http://www.garmin.com/xmlschemas/TrackPointExtension/v1": return .tpx1
        case "http://www.garmin.com/xmlschemas/TrackPointExtension/v2": return .tpx2
        default: return .other
        }
    }

    /// GPX's own elements: either version, or no namespace at all (files that declare none).
    var isGPX: Bool { self == .none || self == .gpx10 || self == .gpx11 }
    var isTrackPointExtension: Bool { self == .tpx1 || self == .tpx2 }
}

/// An attribute's local name and raw (undecoded) value, as offsets into the window.
struct XMLAttribute {
    var nameStart, nameEnd, valueStart, valueEnd: Int
    var name: Range<Int> { nameStart..<nameEnd }
    var value: Range<Int> { valueStart..<valueEnd }
}

struct OpenElement {
    var nameStart: Int
    var line: Int
    var bindings: Int
    var defaultNS: XMLNamespace
}

enum XMLEvent {
    /// An element starts; its local name is `p[local.lowerBound ..< local.upperBound]` and its
    /// attributes are in `attributes`, valid until the next call. A self-closing element is
    /// followed by its `.end`.
    case start(XMLNamespace, local: Range<Int>)
    case end
    case eof
}

/// A well-formedness or safety problem that makes the whole file unreadable.
///
/// `message` is the tokenizer's own wording (what GPX shows); `kind` lets a reader with its
/// own wording (the ISO 15143-3 / AEMP 1.2 element driver) say the same thing its way, and
/// `column` is where the problem was found on its line, in characters, 1-based (0: unknown).
struct XMLFailure: Error, Equatable {
    enum Kind: Equatable, Sendable {
        case other, empty, extraContent, unclosed, truncated, invalidCharacter, bareAmpersand, undeclaredEntity
        case badAttribute, duplicateAttribute, nameRequired, tagNotClosed, endTagMismatch, undeclaredPrefix
        case processingInstructionWithoutData
    }
    var message: String
    var offset: Int64
    var line = 0
    var column = 0
    var kind = Kind.other
    init(_ message: String, offset: Int64, line: Int = 0, column: Int = 0, kind: Kind = .other) {
        self.message = message
        self.offset = offset
        self.line = line
        self.column = column
        self.kind = kind
    }
}

/// Byte constants, so the scanner reads like the XML it scans.
enum Byte {
    static let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), slash = UInt8(ascii: "/"), amp = UInt8(ascii: "&")
    static let quote = UInt8(ascii: "\""), apos = UInt8(ascii: "'"), eq = UInt8(ascii: "="), bang = UInt8(ascii: "!")
    static let question = UInt8(ascii: "?"), colon = UInt8(ascii: ":"), semicolon = UInt8(ascii: ";"), hash = UInt8(ascii: "#")
    static let newline = UInt8(ascii: "\n"), dash = UInt8(ascii: "-"), lbracket = UInt8(ascii: "["), rbracket = UInt8(ascii: "]")

    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x09 || b == 0x0D }
    /// The value of the `count` ASCII digits at `at`; nil when one is not a digit or they run
    /// past `end`. The byte-level time parsers (GPX, ISO 15143-3, Samsara) read every field so.
    @inline(__always) static func digits(_ p: UnsafePointer<UInt8>, _ at: Int, _ count: Int, end: Int) -> Int? {
        guard at >= 0, at + count <= end else { return nil }
        var v = 0
        for i in at..<(at + count) {
            let c = p[i]
            guard c >= 48, c <= 57 else { return nil }
            v = v * 10 + Int(c - 48)
        }
        return v
    }
    /// Bytes that end an XML name.
    @inline(__always) static func endsName(_ b: UInt8) -> Bool { isSpace(b) || b == gt || b == slash || b == eq }
    /// `memcmp(a, b, n) == 0` for the few bytes of a tag name, without a call into libc.
    @inline(__always) static func equal(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        var k = 0
        while k < n {
            if a[k] != b[k] { return false }
            k += 1
        }
        return true
    }
}

/// Flags of `XMLTokenizer.classes`, by byte.
enum XMLClass {
    static let blank: UInt8 = 1
    /// Blanks, `>`, `/` and `=`.
    static let endsName: UInt8 = 2
    /// `<`, `&` and newline: where a run of text stops or must be counted.
    static let textStop: UInt8 = 4
    static let colon: UInt8 = 8
}

/// A stack of plain values in manually managed memory. The scanner pushes and pops a few
/// elements per XML tag; `Array`'s uniqueness and capacity checks cost more than the scanning.
/// The owner calls `free()` in its `deinit`.
struct PODStack<T: BitwiseCopyable> {
    private(set) var p: UnsafeMutablePointer<T>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 64) {
        self.capacity = capacity
        p = .allocate(capacity: capacity)
    }

    @inline(__always) mutating func push(_ v: T) {
        if count == capacity { grow(count + 1) }
        p[count] = v
        count += 1
    }

    /// Appends `n` values from `src`.
    @inline(__always) mutating func append(_ src: UnsafePointer<T>, _ n: Int) {
        if count + n > capacity { grow(count + n) }
        (p + count).update(from: src, count: n)
        count += n
    }

    @inline(__always) @discardableResult mutating func pop() -> T {
        count -= 1
        return p[count]
    }

    @inline(__always) var last: T? { count > 0 ? p[count - 1] : nil }
    @inline(__always) var isEmpty: Bool { count == 0 }
    @inline(__always) subscript(i: Int) -> T { p[i] }
    @inline(__always) mutating func truncate(_ n: Int) { count = n }
    var buffer: UnsafeBufferPointer<T> { UnsafeBufferPointer(start: p, count: count) }

    private mutating func grow(_ needed: Int) {
        let bigger = UnsafeMutablePointer<T>.allocate(capacity: max(needed, capacity * 2))
        bigger.update(from: p, count: count)
        p.deallocate()
        p = bigger
        capacity = max(needed, capacity * 2)
    }

    func free() { p.deallocate() }
}
