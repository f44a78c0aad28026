import Foundation

/// The scalar tokens of `JSONPullParser`: literals, numbers and strings, each validated byte by
/// byte as RFC 8259 and RFC 3629 (UTF-8) require, and capped at `maxTokenBytes`.
extension JSONPullParser {
    mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        try ensure(n)
        let p = word.utf8Start
        for i in 0..<n where pos + i >= end || buffer[pos + i] != p[i] {
            if pos + i >= end { throw failTruncated("the document ends inside '\(word)' (truncated)") }
            throw fail("expected '\(word)' but found \(Self.describe(buffer[pos + i]))", at: offset + Int64(i))
        }
        pos += n
        if try !atDelimiter() { throw fail("unexpected \(Self.describe(buffer[pos])) after '\(word)'") }
    }

    /// True at the end of input or at a byte that may follow a scalar.
    mutating func atDelimiter() throws -> Bool {
        try ensure(1)
        guard pos < end else { return true }
        switch buffer[pos] {
        case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"): return true
        default: return false
        }
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as text.
    mutating func number() throws -> String {
        scratch.removeAll(keepingCapacity: true)
        let start = offset
        func peekByte() throws -> UInt8? {
            if pos >= end { try ensure(1) }
            return pos < end ? buffer[pos] : nil
        }
        func take() throws {
            scratch.append(buffer[pos]); pos += 1
            if scratch.count > maxTokenBytes { throw fail("a number is longer than \(maxTokenBytes) bytes", at: start) }
        }
        func digits() throws -> Int {
            var n = 0
            while let c = try peekByte(), c >= 48, c <= 57 { try take(); n += 1 }
            return n
        }
        if try peekByte() == UInt8(ascii: "-") { try take() }
        guard let first = try peekByte() else { throw failTruncated("the document ends inside a number (truncated)") }
        guard first >= 48, first <= 57 else { throw fail("a number needs a digit after '-' but found \(Self.describe(first))") }
        if first == UInt8(ascii: "0") {
            try take()
            if let c = try peekByte(), c >= 48, c <= 57 { throw fail("a number must not have a leading zero", at: start) }
        } else {
            _ = try digits()
        }
        if try peekByte() == UInt8(ascii: ".") {
            try take()
            guard try digits() > 0 else { throw fail("a number needs digits after the decimal point", at: start) }
        }
        if let c = try peekByte(), c == UInt8(ascii: "e") || c == UInt8(ascii: "E") {
            try take()
            if let s = try peekByte(), s == UInt8(ascii: "+") || s == UInt8(ascii: "-") { try take() }
            guard try digits() > 0 else { throw fail("a number needs digits in its exponent", at: start) }
        }
        if try !atDelimiter() { throw fail("unexpected \(Self.describe(buffer[pos])) after a number") }
        return String(decoding: scratch, as: UTF8.self)
    }

    /// A string token (the opening quote at `pos`), unescaped and UTF-8-validated.
    mutating func string() throws -> String {
        let start = offset
        pos += 1
        scratch.removeAll(keepingCapacity: true)
        while true {
            // Copy the run of plain ASCII bytes in one go.
            var i = pos
            while i < end {
                let c = buffer[i]
                if c == 0x22 || c == 0x5C || c < 0x20 || c >= 0x80 { break }
                i += 1
            }
            if i > pos { scratch.append(contentsOf: buffer[pos..<i]); pos = i }
            if scratch.count > maxTokenBytes { throw fail("a string is longer than \(maxTokenBytes) bytes", at: start) }
            if pos >= end {
                try ensure(1)
                if pos >= end { throw failTruncated("the document ends inside a string (truncated)", at: start) }
                continue
            }
            let c = buffer[pos]
            switch c {
            case 0x22:
                pos += 1
                return String(decoding: scratch, as: UTF8.self)
            case 0x5C:
                try escape()
            case ..<0x20:
                throw fail("a string contains the control character \(Self.describe(c)); it must be escaped")
            default:
                try multibyte()
            }
        }
    }

    private mutating func escape() throws {
        try ensure(2)
        guard end - pos >= 2 else { throw failTruncated("the document ends inside an escape (truncated)") }
        let e = buffer[pos + 1]
        let simple: UInt8?
        switch e {
        case UInt8(ascii: "\""): simple = 0x22
        case UInt8(ascii: "\\"): simple = 0x5C
        case UInt8(ascii: "/"): simple = 0x2F
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default: throw fail("'\\\(Character(Unicode.Scalar(e)))' is not a JSON escape")
        }
        if let simple { scratch.append(simple); pos += 2; return }
        var scalar = try hex4(from: 2)
        pos += 6
        if scalar >= 0xD800, scalar <= 0xDBFF {
            try ensure(6)
            guard end - pos >= 6, buffer[pos] == 0x5C, buffer[pos + 1] == UInt8(ascii: "u") else {
                throw fail("a \\u escape for a high surrogate is not followed by its low surrogate")
            }
            let low = try hex4(from: 2)
            guard low >= 0xDC00, low <= 0xDFFF else { throw fail("a \\u escape for a high surrogate is not followed by its low surrogate") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            pos += 6
        } else if scalar >= 0xDC00, scalar <= 0xDFFF {
            throw fail("a \\u escape is a lone low surrogate")
        }
        scratch.append(contentsOf: Array(String(Unicode.Scalar(scalar)!).utf8))
    }

    /// Four hex digits starting `k` bytes after `pos`.
    private mutating func hex4(from k: Int) throws -> UInt32 {
        try ensure(k + 4)
        guard end - pos >= k + 4 else { throw failTruncated("the document ends inside a \\u escape (truncated)") }
        var v: UInt32 = 0
        for j in 0..<4 {
            let c = buffer[pos + k + j]
            let d: UInt8
            switch c {
            case 48...57: d = c - 48
            case 65...70: d = c - 55
            case 97...102: d = c - 87
            default: throw fail("a \\u escape needs four hex digits but has \(Self.describe(c))")
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    /// One UTF-8 sequence of 2–4 bytes (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF).
    private mutating func multibyte() throws {
        let c = buffer[pos]
        let n: Int, lo: UInt8, hi: UInt8
        switch c {
        case 0xC2...0xDF: (n, lo, hi) = (2, 0x80, 0xBF)
        case 0xE0: (n, lo, hi) = (3, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (n, lo, hi) = (3, 0x80, 0xBF)
        case 0xED: (n, lo, hi) = (3, 0x80, 0x9F)
        case 0xF0: (n, lo, hi) = (4, 0x90, 0xBF)
        case 0xF1...0xF3: (n, lo, hi) = (4, 0x80, 0xBF)
        case 0xF4: (n, lo, hi) = (4, 0x80, 0x8F)
        default: throw fail("a string has a byte (0x\(String(c, radix: 16, uppercase: true))) that is not valid UTF-8")
        }
        try ensure(n)
        guard end - pos >= n else { throw failTruncated("the document ends inside a UTF-8 sequence (truncated)") }
        for k in 1..<n {
            let b = buffer[pos + k]
            let (l, h) = k == 1 ? (lo, hi) : (UInt8(0x80), UInt8(0xBF))
            guard b >= l, b <= h else { throw fail("a string has a byte sequence that is not valid UTF-8", at: offset + Int64(k)) }
        }
        scratch.append(contentsOf: buffer[pos..<(pos + n)])
        pos += n
    }
}
