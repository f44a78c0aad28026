import Foundation
import FleetCore

/// `ELMLineParser.pieces(of:)` on the bytes of a line, for the importer's hot loop.
///
/// Why bytes: on Linux, Foundation's string searching (`replacingOccurrences`, `hasPrefix`,
/// `trimmingCharacters`) and `Character` iteration made the String parser cost ~14 µs per line,
/// 80 % of an import. Here an ASCII line is split, trimmed and classified byte by byte with the
/// same rules; for ASCII text characters and bytes coincide (the reader has already split at
/// CR/LF), so the result is the same. A line with any non-ASCII byte, and every piece that is
/// not plain hex (AT commands, status words, `0:` lines), still goes through the String code,
/// so the rules live in one place for everything but the hex that makes up nearly all of a log.
///
/// The time prefix is usually the same text on many lines in a row (one per second, several
/// requests per second); its parse is kept for the next line with the same text.
struct ELMByteParser {
    let zone: TimeZone
    /// The time inherited from earlier lines (`pieces(of:lastTime:)`'s `lastTime`).
    var lastTime = ELMLineTime()
    private var stamp: [UInt8] = []
    private var stampValue: ELMLineTime?
    /// For a `…Z` stamp that parsed: its first 17 bytes (`2026-10-01T08:00:`) and the instant of
    /// that minute's second 0, so that the next seconds of the minute need no full parse.
    private var minutePrefix: [UInt8] = []
    private var minuteBase: Int64 = 0

    /// For the importer's VIN pass: leave out single-line answers that are not mode 09 PID 02.
    /// The assembler turns such a piece into a message of its own without touching its state,
    /// and the VIN pass ignores every message but `49 02`, so leaving them out changes nothing
    /// there and saves most of the pass.
    var vinOnly = false
    /// How many answers `vinOnly` left out: the VIN pass still learns that the vehicle answered.
    private(set) var skippedAnswers = 0

    init(zone: TimeZone) { self.zone = zone }

    /// Appends the pieces of one line to `out`.
    mutating func pieces(_ line: UnsafeBufferPointer<UInt8>, line number: Int, into out: inout [ELMPiece]) {
        var ascii = true
        for b in line where b >= 0x80 { ascii = false; break }
        guard ascii else {
            out += ELMLineParser.pieces(of: String(decoding: line, as: UTF8.self), line: number, lastTime: &lastTime, zone: zone)
            return
        }
        var p = 0
        if let after = leadingTime(line) {
            p = after
        } else if let (clock, text, after) = Self.leadingClock(line) {
            lastTime = ELMLineParser.time(ofClock: clock, text: String(decoding: UnsafeBufferPointer(rebasing: line[text]), as: UTF8.self), after: lastTime, zone: zone)
            p = after
        }
        let time = lastTime
        if ELMWrapper.mayWrap(line, from: p) {
            let rest = Substring(String(decoding: UnsafeBufferPointer(rebasing: line[p...]), as: UTF8.self))
            if ELMWrapper.payload(rest) != nil || ELMWrapper.isLogText(rest) {
                out += ELMLineParser.pieces(afterTime: rest, line: number, time: time)
                return
            }
        }
        let n = line.count
        var start = p
        var i = p
        // Literal "\r" and "\n" written by logging libraries, real CRs, and prompts all separate pieces.
        while i <= n {
            var sepEnd = i + 1
            let isSep: Bool
            if i == n {
                isSep = true
            } else {
                let b = line[i]
                if (0x0A...0x0D).contains(b) || b == 0x3E {
                    isSep = true
                } else if b == 0x5C, i + 1 < n, line[i + 1] == 0x72 || line[i + 1] == 0x6E {
                    isSep = true
                    sepEnd = i + 2
                } else {
                    isSep = false
                }
            }
            if isSep {
                if i > start { segment(line, start, i, number, time, &out) }
                start = sepEnd
                i = sepEnd
            } else {
                i += 1
            }
        }
    }

    /// One piece between separators: trimmed, direction marker stripped, classified.
    private mutating func segment(_ line: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int, _ number: Int, _ time: ELMLineTime, _ out: inout [ELMPiece]) {
        var (s, e) = Self.trim(line, from, to)
        // Every marker starts with `<`, `-`, `T`, `R` or `S`; a piece that starts with a hex digit (nearly all) has none.
        if s < e, !ELMLineParser.isHexDigit(line[s]) {
            for marker in Self.markers {
                if e - s >= marker.count, zip(line[s..<(s + marker.count)], marker).allSatisfy({ $0 == $1 }) {
                    s += marker.count
                    break
                }
            }
        }
        (s, e) = Self.trim(line, s, e)
        if s == e || line[s] == 0x23 || (e - s >= 2 && line[s] == 0x2F && line[s + 1] == 0x2F) { return }
        let piece = UnsafeBufferPointer(rebasing: line[s..<e])
        let shape = HexShape(piece)
        if vinOnly, let shape, shape.isAnswerWithoutVIN(piece) { skippedAnswers += 1; return }
        let text = String(decoding: piece, as: UTF8.self)
        out.append(ELMPiece(kind: shape.map { Self.hexKind(piece, $0) } ?? ELMLineParser.classify(text), line: number, time: time.instant, text: text, skipped: time.skipped))
    }

    /// `stripDirection`'s markers, in its order.
    private static let markers: [[UInt8]] = ["<<", "<-", "->", "TX:", "RX:", "SEND:", "RECV:", "Tx:", "Rx:"].map { Array($0.utf8) }

    /// `CharacterSet.whitespaces` on ASCII: space and tab.
    private static func trim(_ line: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> (Int, Int) {
        var s = from, e = to
        while s < e, line[s] == 0x20 || line[s] == 0x09 { s += 1 }
        while e > s, line[e - 1] == 0x20 || line[e - 1] == 0x09 { e -= 1 }
        return (s, e)
    }

    /// How the hex digits of a piece of hex digits and spaces only (a request or a frame) are
    /// grouped; nil for any other piece. None of `classify`'s word rules (AT, status words, a
    /// voltage, `n:`) can match such a piece, so its hex rules are all that apply.
    struct HexShape {
        var digits = 0, tokens = 0, firstToken = 0
        /// Some token has an odd digit count; some token after the first has.
        var oddToken = false, restOdd = false

        init?(_ t: UnsafeBufferPointer<UInt8>) {
            var run = 0
            for b in t {
                if b == 0x20 {
                    if run > 0 { close(run); run = 0 }
                } else if ELMLineParser.isHexDigit(b) {
                    digits += 1
                    run += 1
                } else {
                    return nil
                }
            }
            if run > 0 { close(run) }
            guard digits > 0 else { return nil }
        }

        private mutating func close(_ run: Int) {
            if tokens == 0 { firstToken = run } else if run % 2 != 0 { restOdd = true }
            if run % 2 != 0 { oddToken = true }
            tokens += 1
        }

        /// `classify`'s 11-bit CAN header rules: a 3-digit first token followed by whole bytes,
        /// or an odd digit count without spaces.
        var hasCANHeader: Bool {
            (tokens > 1 && firstToken == 3 && (digits - 3) % 2 == 0 && (tokens == 2 || !restOdd))
                || (tokens == 1 && digits % 2 == 1 && digits > 3)
        }

        /// Whole bytes without a header: an even digit count, no token splitting a byte.
        var isBytes: Bool { digits % 2 == 0 && !oddToken }

        /// The piece is a single-line answer (no header, or a KWP header) that is not mode 09
        /// PID 02: what `ELMByteParser.vinOnly` leaves out. Decided from its first bytes
        /// without building the piece, by `hexKind`'s rules.
        func isAnswerWithoutVIN(_ t: UnsafeBufferPointer<UInt8>) -> Bool {
            guard digits != 3, !hasCANHeader, isBytes else { return false }
            let n = digits / 2
            // The byte at index i (i < n), from the digits with spaces skipped.
            func b(_ i: Int) -> UInt8 {
                var k = 0, high: UInt8 = 0
                for c in t where c != 0x20 {
                    if k == 2 * i { high = ELMByteParser.nibble(c) } else if k == 2 * i + 1 { return high << 4 | ELMByteParser.nibble(c) }
                    k += 1
                }
                return 0
            }
            let b0 = b(0), b1 = n > 1 ? b(1) : 0
            if n > 4, b0 == 0x18, b1 == 0xDA || b1 == 0xDB { return false }
            if (0x01...0x0A).contains(b0), n <= 7 { return false }
            if n >= 5, b1 == 0x6B || b1 == 0xF1, ELMLineParser.isAnswer(b(3)) {
                return !(n - 4 >= 3 && b(3) == 0x49 && b(4) == 0x02)
            }
            return !(n >= 3 && b0 == 0x49 && b1 == 0x02)
        }
    }

    /// `classify` for a piece of hex digits and spaces only, by its shape.
    static func hexKind(_ t: UnsafeBufferPointer<UInt8>, _ shape: HexShape) -> ELMPiece.Kind {
        if shape.digits == 3 { return .byteCount(Int(nibble(compactDigit(t, 0))) << 8 | Int(nibble(compactDigit(t, 1))) << 4 | Int(nibble(compactDigit(t, 2)))) }
        if shape.hasCANHeader { return .frame(header: .can(header(t)), bytes: bytes(t, skipping: 3)) }
        guard shape.isBytes else { return .unknown }
        return ELMLineParser.frameKind(bytes(t, skipping: 0))
    }

    /// The i-th hex digit, spaces skipped.
    private static func compactDigit(_ t: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt8 {
        var k = 0
        for b in t where b != 0x20 {
            if k == i { return b }
            k += 1
        }
        return 0x30
    }

    /// The first three digits, upper-cased (the piece starts with them: it is trimmed).
    private static func header(_ t: UnsafeBufferPointer<UInt8>) -> String {
        String(decoding: t[0..<3].map { $0 >= 0x61 ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    /// The bytes the hex digits after the first `skip` digits spell, pairs read within tokens.
    private static func bytes(_ t: UnsafeBufferPointer<UInt8>, skipping skip: Int) -> [UInt8] {
        // Written in place into one allocation: appending cost a capacity check per byte.
        Array(unsafeUninitializedCapacity: t.count / 2) { out, count in
            var k = 0, n = 0, high: UInt8 = 0, half = false
            for b in t where b != 0x20 {
                k += 1
                if k <= skip { continue }
                if half { out[n] = high << 4 | nibble(b); n += 1; half = false } else { high = nibble(b); half = true }
            }
            count = n
        }
    }

    fileprivate static func nibble(_ c: UInt8) -> UInt8 {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        default: return c - 0x61 + 10
        }
    }

    private static func isDigit(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) }

    /// Where a line's leading time would start: after spaces and an optional `[`.
    private static func timeStart(_ line: UnsafeBufferPointer<UInt8>) -> (start: Int, bracketed: Bool) {
        var t = 0
        while t < line.count, line[t] == 0x20 { t += 1 }
        guard t < line.count, line[t] == 0x5B else { return (t, false) }
        return (t + 1, true)
    }

    /// `ELMLineParser.leadingTime` on bytes: sets `lastTime` and returns where the rest starts.
    /// A local time's value can depend on the latest instant (`ELMLineParser.resolve`, the
    /// repeated hour), but a repeat of the same text, following its own value, resolves the same.
    private mutating func leadingTime(_ line: UnsafeBufferPointer<UInt8>) -> Int? {
        let (t, bracketed) = Self.timeStart(line)
        let count = min(40, line.count - t)
        func u(_ i: Int) -> UInt8 { line[t + i] }
        guard count >= 19, u(4) == 0x2D, u(7) == 0x2D, u(10) == 0x54 || u(10) == 0x20, u(13) == 0x3A, u(16) == 0x3A else { return nil }
        var end = 19
        if end < count, u(end) == 0x2E || u(end) == 0x2C {
            end += 1
            while end < count, Self.isDigit(u(end)) { end += 1 }
        }
        if end < count, u(end) == 0x5A || u(end) == 0x7A {
            end += 1
        } else if end + 2 < count, u(end) == 0x2B || u(end) == 0x2D, Self.isDigit(u(end + 1)) {
            var z = end + 1
            while z < count, z - end <= 5, Self.isDigit(u(z)) || u(z) == 0x3A { z += 1 }
            end = z
        }
        let text = UnsafeBufferPointer(rebasing: line[t..<(t + end)])
        // Timestamp.parse is a function of the text (the zone is the file's), and a local time's
        // value a function of the text and the latest instant: a repeat that follows its own
        // value is not parsed again; after any other line set the time (a time of day, a line
        // read on the String path) it is. Another second of the same UTC minute is that minute
        // plus its seconds.
        if !Self.same(stamp, text) || stampValue != lastTime {
            stamp.removeAll(keepingCapacity: true)
            stamp.append(contentsOf: text)
            if !minutePrefix.isEmpty, text.count > 17, Self.same(minutePrefix, UnsafeBufferPointer(rebasing: text[0..<17])), let within = Self.secondsZ(text) {
                let ms = minuteBase + within
                stampValue = Timestamp.plausible.contains(ms) ? ELMLineTime(instant: ms) : nil
            } else {
                stampValue = ELMLineParser.stampTime(String(decoding: text, as: UTF8.self), zone: zone, after: lastTime)
                minutePrefix.removeAll(keepingCapacity: true)
                // Not hour 24: Timestamp.parse takes 24:00:00 only, never another second of it.
                if let ms = stampValue?.instant, let within = Self.secondsZ(text), !(text[11] == 0x32 && text[12] == 0x34) {
                    minutePrefix.append(contentsOf: text[0..<17])
                    minuteBase = ms - within
                }
            }
        }
        guard let time = stampValue else { return nil }
        lastTime = time
        var after = t + end
        if bracketed, after < line.count, line[after] == 0x5D { after += 1 }
        return Self.skipTimeSeparators(line, after)
    }

    /// Byte equality by memcmp: the generic `elementsEqual` was a few percent of an import.
    private static func same(_ a: [UInt8], _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let base = b.baseAddress else { return true }
        return a.withUnsafeBufferPointer { memcmp($0.baseAddress!, base, b.count) == 0 }
    }

    /// The milliseconds after the minute of a stamp that ends `:SS[.fff…]Z` with SS below 60, as
    /// `Timestamp.parse` reads them (first three fraction digits); nil for other stamps. With a
    /// `Z` there is no zone arithmetic, so the instant is linear in these milliseconds.
    private static func secondsZ(_ s: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard s.count >= 20, s[16] == 0x3A, isDigit(s[17]), isDigit(s[18]) else { return nil }
        let sec = Int64(s[17] - 0x30) * 10 + Int64(s[18] - 0x30)
        guard sec < 60 else { return nil }
        var i = 19, millis: Int64 = 0
        if s[i] == 0x2E || s[i] == 0x2C {
            i += 1
            var digits = 0
            while i < s.count, isDigit(s[i]) {
                if digits < 3 { millis = millis * 10 + Int64(s[i] - 0x30) }
                digits += 1; i += 1
            }
            guard digits > 0 else { return nil }
            if digits < 3 { for _ in digits..<3 { millis *= 10 } }
        }
        guard i + 1 == s.count, s[i] == 0x5A || s[i] == 0x7A else { return nil }
        return sec * 1000 + millis
    }

    /// `ELMLineParser.leadingClock` on bytes: milliseconds since midnight, where the time is
    /// written and where the rest starts.
    static func leadingClock(_ line: UnsafeBufferPointer<UInt8>) -> (Int64, Range<Int>, Int)? {
        let (t, bracketed) = Self.timeStart(line)
        let count = min(16, line.count - t)
        func u(_ i: Int) -> UInt8 { line[t + i] }
        func digit(_ i: Int) -> Bool { i < count && isDigit(u(i)) }
        guard count >= 8, digit(0), digit(1), u(2) == 0x3A, digit(3), digit(4), u(5) == 0x3A, digit(6), digit(7) else { return nil }
        var end = 8
        if end < count, u(end) == 0x2E || u(end) == 0x2C {
            end += 1
            while digit(end) { end += 1 }
        }
        guard end == count || u(end) == 0x20 || u(end) == 0x5D || u(end) == 0x09 || u(end) == 0x3E || u(end) == 0x7C else { return nil }
        let h = Int(u(0) - 0x30) * 10 + Int(u(1) - 0x30), m = Int(u(3) - 0x30) * 10 + Int(u(4) - 0x30), sec = Int(u(6) - 0x30) * 10 + Int(u(7) - 0x30)
        guard h < 24, m < 60, sec < 61 else { return nil }
        var millis = 0, scale = 100
        if end > 9 {
            for i in 9..<end where scale > 0 { millis += Int(u(i) - 0x30) * scale; scale /= 10 }
        }
        var after = t + end
        if bracketed, after < line.count, line[after] == 0x5D { after += 1 }
        return (Int64((h * 3600 + m * 60 + min(sec, 59)) * 1000 + millis), t..<(t + end), skipTimeSeparators(line, after))
    }

    /// Spaces, tabs, `|`, `-` and `:` after a time.
    private static func skipTimeSeparators(_ line: UnsafeBufferPointer<UInt8>, _ from: Int) -> Int {
        var i = from
        while i < line.count, line[i] == 0x20 || line[i] == 0x09 || line[i] == 0x7C || line[i] == 0x2D || line[i] == 0x3A { i += 1 }
        return i
    }
}
