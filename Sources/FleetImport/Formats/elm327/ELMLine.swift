import Foundation
import FleetCore

/// One piece of an ELM327 transcript, classified. A physical line of the file can hold several
/// pieces: adapters end lines with a bare CR, some loggers write CR as the two characters `\r`,
/// and the `>` prompt is followed by the next command on the same line.
struct ELMPiece: Equatable {
    enum Kind: Equatable {
        /// An `AT` command for the adapter (`ATZ`, `ATSP0`, `AT H1`).
        case at(String)
        /// An OBD request: mode and PID bytes (`010C`, `03`, `0902`), echoed or logged.
        case request([UInt8])
        /// A status word: `SEARCHING...`, `NO DATA`, `OK`, `STOPPED`, the banner, …
        case status(ELMStatus)
        /// A frame: header (nil when headers are off) and the bytes after it.
        case frame(header: ELMHeader?, bytes: [UInt8])
        /// The ELM's multi-frame byte count line (`014` = 0x14 bytes follow).
        case byteCount(Int)
        /// The ELM's numbered multi-frame line (`0: 49 02 01 31 46 54`).
        case indexed(Int, [UInt8])
        /// A frame the adapter marked as damaged (`<DATA ERROR`, `<RX ERROR`).
        case damaged
        /// Nothing FleetKit recognises.
        case unknown
    }

    var kind: Kind
    /// The line of the file the piece is on (1-based).
    var line: Int
    /// The time written on the line, or the latest one before it.
    var time: Int64?
    var text: String
    /// That time when it names no instant (`time` is then nil): its answers are rejected with
    /// the reason, never placed.
    var skipped: ELMSkippedTime? = nil
}

/// A time written on a transcript line that names no instant: a local time (no offset) in the
/// hour the clocks skipped when they went forward, 02:00–02:59 on 2026-03-08 in
/// America/Chicago (`LocalTime`). Folded onto the next hour, its answers were merged with the
/// real ones there; they are rejected with the reason instead.
struct ELMSkippedTime: Equatable {
    /// The time as written on the line (`2026-03-08 02:30:00`, `02:30:01.250`).
    var text: String
    /// Its wall-clock value, as local epoch milliseconds.
    var local: Int64
}

/// The time a line takes: the latest time written on it or before it, as an instant, or as
/// what it said when it names none. Lines after a skipped time inherit it, and are rejected
/// with it, until the next time that names an instant.
struct ELMLineTime: Equatable {
    var instant: Int64?
    var skipped: ELMSkippedTime?

    init(instant: Int64? = nil, skipped: ELMSkippedTime? = nil) {
        self.instant = instant
        self.skipped = skipped
    }
}

/// Status words the adapter answers with instead of data.
enum ELMStatus: String, CaseIterable {
    case searching = "SEARCHING"
    case noData = "NO DATA"
    case unableToConnect = "UNABLE TO CONNECT"
    case unknownCommand = "?"
    case stopped = "STOPPED"
    case ok = "OK"
    case busInit = "BUS INIT"
    case busy = "BUS BUSY"
    case busError = "BUS ERROR"
    case canError = "CAN ERROR"
    case bufferFull = "BUFFER FULL"
    case feedbackError = "FB ERROR"
    case error = "ERROR"
    case banner = "ELM327"
    case protocolName = "PROTOCOL"
    case voltage = "VOLTAGE"
    /// A line of a program's own log around the traffic (`[obd.obd] Connected…`), see `ELMWrapper`.
    case logText = "LOG TEXT"

    /// Statuses that mean a request got no usable answer (counted in a note, not rejected:
    /// the adapter said so explicitly, and there is no data to lose).
    var isFailure: Bool {
        switch self {
        case .noData, .unableToConnect, .unknownCommand, .stopped, .busy, .busError, .canError, .bufferFull, .feedbackError, .error: return true
        default: return false
        }
    }
}

/// A frame header as the ELM prints it with `ATH1`.
enum ELMHeader: Equatable {
    /// CAN 11-bit (`7E8`) or 29-bit (`18 DA F1 10`): ISO-TP PCI byte follows.
    case can(String)
    /// J1850/ISO 9141/KWP: 3 header bytes, the source address last; a checksum byte ends the frame.
    case kwp(String)

    var ecu: String {
        switch self { case let .can(s), let .kwp(s): return s }
    }
}

/// Splits and classifies transcript lines. Pure: text in, pieces out.
enum ELMLineParser {
    /// The pieces of one physical line. `lastTime` is the time inherited from earlier lines.
    static func pieces(of raw: String, line: Int, lastTime: inout ELMLineTime, zone: TimeZone) -> [ELMPiece] {
        var rest = Substring(raw)
        if let (time, after) = leadingTime(rest, zone: zone, after: lastTime) {
            lastTime = time
            rest = after
        } else if let (clock, text, after) = leadingClock(rest) {
            // A time of day alone (`08:00:01.250`): on the local day of the latest full time,
            // the next day when the clock went back by more than 12 h (midnight passed).
            lastTime = time(ofClock: clock, text: String(text), after: lastTime, zone: zone)
            rest = after
        }
        return pieces(afterTime: rest, line: line, time: lastTime)
    }

    /// The pieces of what follows a line's time: the traffic inside a debug-log wrapper
    /// (`ELMWrapper`), or the line itself.
    static func pieces(afterTime text: Substring, line: Int, time: ELMLineTime) -> [ELMPiece] {
        var rest = text
        if let inner = ELMWrapper.payload(rest) {
            rest = inner
        } else if ELMWrapper.isLogText(rest) {
            return [ELMPiece(kind: .status(.logText), line: line, time: time.instant, text: String(rest), skipped: time.skipped)]
        }
        var out: [ELMPiece] = []
        // Literal "\r" and "\n" written by logging libraries, real CRs, and prompts all separate pieces.
        let normalised = rest.replacingOccurrences(of: "\\r", with: "\r").replacingOccurrences(of: "\\n", with: "\r")
        for segment in normalised.split(whereSeparator: { $0.isNewline || $0 == ">" }) {
            var text = segment.trimmingCharacters(in: .whitespaces)
            text = stripDirection(text)
            if text.isEmpty || text.hasPrefix("#") || text.hasPrefix("//") { continue }
            out.append(ELMPiece(kind: classify(text), line: line, time: time.instant, text: text, skipped: time.skipped))
        }
        return out
    }

    /// A time of day (`text` as written) on the local day of the latest time, the next day when
    /// the clock went back by more than 12 h (midnight passed); `last` unchanged when there is
    /// no earlier time to take the day from.
    static func time(ofClock clock: Int64, text: @autoclosure () -> String, after last: ELMLineTime, zone: TimeZone) -> ELMLineTime {
        let lastLocal: Int64
        if let instant = last.instant {
            lastLocal = instant + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant) / 1000))) * 1000
        } else if let skipped = last.skipped {
            lastLocal = skipped.local
        } else {
            return last
        }
        var local = (lastLocal - ((lastLocal % 86_400_000) + 86_400_000) % 86_400_000) + clock
        if local < lastLocal - 43_200_000 { local += 86_400_000 }
        return resolve(local: local, text: text(), after: last, zone: zone)
    }

    /// A wall-clock time without an offset, in `zone`, by the rule every OBD log follows
    /// (`OBDLocalClock.resolve`, docs/FORMATS.md "Local times and daylight saving"): in the hour
    /// the clocks skipped it names no instant and is kept as skipped, never folded onto the next
    /// hour; in the hour that repeats when they go back, file order decides against the latest
    /// instant (a transcript is written in time order), else the first occurrence.
    static func resolve(local: Int64, text: @autoclosure () -> String, after last: ELMLineTime, zone: TimeZone) -> ELMLineTime {
        var clock = OBDLocalClock(zone: zone)
        clock.last = last.instant
        guard let instant = clock.resolve(local: local) else {
            return ELMLineTime(skipped: ELMSkippedTime(text: text(), local: local))
        }
        return ELMLineTime(instant: instant)
    }

    /// What a line's leading time text says: its instant when it names an offset (`Z`,
    /// `+02:00`), else its wall-clock time in `zone` (`resolve`); nil when it is no time of the
    /// years 1971–2200.
    static func stampTime(_ stamp: String, zone: TimeZone, after last: ELMLineTime) -> ELMLineTime? {
        if let ms = Timestamp.parse(stamp, zone: nil) {
            return Timestamp.plausible.contains(ms) ? ELMLineTime(instant: ms) : nil
        }
        guard let local = Timestamp.parse(stamp, zone: utc) else { return nil }
        let time = resolve(local: local, text: stamp, after: last, zone: zone)
        return Timestamp.plausible.contains(time.instant ?? local) ? time : nil
    }

    private static let utc = TimeZone(identifier: "UTC")!

    /// Loggers mark direction with `>>`/`<<` (the `>` are already separators), `TX:`/`RX:` or
    /// `SEND:`/`RECV:`; none of them is part of the data.
    static func stripDirection(_ text: String) -> String {
        var t = Substring(text)
        for marker in ["<<", "<-", "->", "TX:", "RX:", "SEND:", "RECV:", "Tx:", "Rx:"] where t.hasPrefix(marker) {
            t = t.dropFirst(marker.count)
            break
        }
        return t.trimmingCharacters(in: .whitespaces)
    }

    static func classify(_ text: String) -> ELMPiece.Kind {
        let upper = text.uppercased()
        if upper.contains("DATA ERROR") || upper.contains("RX ERROR") { return .damaged }
        if upper.hasPrefix("AT"), upper.count >= 3, !isHex(upper) { return .at(upper.replacingOccurrences(of: " ", with: "")) }
        if upper.hasPrefix("SEARCHING") { return .status(.searching) }
        if upper.hasPrefix("BUS INIT") { return .status(upper.hasSuffix("ERROR") ? .busError : .busInit) }
        if upper.hasPrefix("ELM327") { return .status(.banner) }
        if upper.hasPrefix("AUTO,") || upper.hasPrefix("ISO ") || upper.hasPrefix("SAE ") { return .status(.protocolName) }
        for status in ELMStatus.allCases where upper == status.rawValue { return .status(status) }
        if upper.hasSuffix("V"), Double(upper.dropLast()) != nil { return .status(.voltage) }
        // Numbered multi-frame line: `0: 49 02 01 31 46 54` (index is one hex digit).
        if let colon = upper.firstIndex(of: ":"), upper.distance(from: upper.startIndex, to: colon) <= 2 {
            let index = upper[..<colon].trimmingCharacters(in: .whitespaces)
            guard let n = Int(index, radix: 16), let bytes = hexBytes(String(upper[upper.index(after: colon)...])) else { return .unknown }
            return .indexed(n, bytes)
        }
        let compact = upper.replacingOccurrences(of: " ", with: "")
        guard !compact.isEmpty, isHex(compact) else { return .unknown }
        if compact.count == 3 { return .byteCount(Int(compact, radix: 16)!) }
        let tokens = upper.split(separator: " ")
        // 11-bit CAN header: a 3-digit first token, or an odd digit count without spaces.
        if tokens.count > 1, tokens[0].count == 3, let bytes = hexBytes(tokens.dropFirst().joined(separator: " ")) {
            return .frame(header: .can(String(tokens[0])), bytes: bytes)
        }
        if tokens.count == 1, compact.count % 2 == 1, compact.count > 3, let bytes = hexBytes(String(compact.dropFirst(3))) {
            return .frame(header: .can(String(compact.prefix(3))), bytes: bytes)
        }
        guard let bytes = hexBytes(upper) else { return .unknown }
        return frameKind(bytes)
    }

    /// What a line of hex bytes (no 11-bit header, at least one byte) is.
    static func frameKind(_ bytes: [UInt8]) -> ELMPiece.Kind {
        // 29-bit CAN header: 18 DA F1 xx (physical) or 18 DB 33 F1 (functional).
        if bytes.count > 4, bytes[0] == 0x18, bytes[1] == 0xDA || bytes[1] == 0xDB {
            return .frame(header: .can(bytes[0..<4].map { OBDDecoder.hex(Int($0)) }.joined()), bytes: Array(bytes[4...]))
        }
        // A request: a mode byte 01–0A (answers start at 0x41).
        if (0x01...0x0A).contains(bytes[0]), bytes.count <= 7 { return .request(bytes) }
        // J1850/ISO/KWP header: priority/format, target (6B for J1850 and ISO 9141, F1 the KWP
        // tester), source; then the answer's service byte, data and a checksum. Its first byte
        // may look like a service byte itself (`48 6B 10 41 0D 32 ..`), so the target decides.
        if bytes.count >= 5, bytes[1] == 0x6B || bytes[1] == 0xF1, isAnswer(bytes[3]) {
            return .frame(header: .kwp(OBDDecoder.hex(Int(bytes[2]))), bytes: Array(bytes[3..<(bytes.count - 1)]))
        }
        return .frame(header: nil, bytes: bytes)
    }

    /// The first byte of an answer: mode + 0x40, or 0x7F (negative response).
    static func isAnswer(_ b: UInt8) -> Bool { (0x41...0x4A).contains(b) || b == 0x7F }

    static func isHex(_ s: String) -> Bool { s.utf8.allSatisfy { isHexDigit($0) } }

    static func isHexDigit(_ c: UInt8) -> Bool { (0x30...0x39).contains(c) || (0x41...0x46).contains(c) || (0x61...0x66).contains(c) }

    /// Bytes from `41 0C 1A F8` or `410C1AF8` (spaces optional, even digit count).
    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8.filter { $0 != 0x20 })
        guard !digits.isEmpty, digits.count % 2 == 0, digits.allSatisfy(isHexDigit) else { return nil }
        if text.contains(" "), text.split(separator: " ").contains(where: { $0.count % 2 != 0 }) { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var i = 0
        while i < digits.count {
            out.append(UInt8(nibble(digits[i]) << 4 | nibble(digits[i + 1])))
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8 {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        default: return c - 0x61 + 10
        }
    }

    /// A time of day at the start of a line, `HH:MM:SS` with optional fraction, optionally in
    /// `[ ]`: milliseconds since midnight, the time as written and the rest of the line.
    static func leadingClock(_ text: Substring) -> (Int64, Substring, Substring)? {
        var t = text.drop { $0 == " " || $0 == "\u{FEFF}" }
        var bracketed = false
        if t.hasPrefix("[") { t = t.dropFirst(); bracketed = true }
        let u = Array(t.utf8.prefix(16))
        func digit(_ i: Int) -> Bool { i < u.count && (0x30...0x39).contains(u[i]) }
        guard u.count >= 8, digit(0), digit(1), u[2] == 0x3A, digit(3), digit(4), u[5] == 0x3A, digit(6), digit(7) else { return nil }
        var end = 8
        if end < u.count, u[end] == 0x2E || u[end] == 0x2C {
            end += 1
            while digit(end) { end += 1 }
        }
        // `0: 49 02 …` and `12:34` are not clocks; a clock is followed by a separator or nothing.
        guard end == u.count || u[end] == 0x20 || u[end] == 0x5D || u[end] == 0x09 || u[end] == 0x3E || u[end] == 0x7C else { return nil }
        let h = Int(u[0] - 0x30) * 10 + Int(u[1] - 0x30), m = Int(u[3] - 0x30) * 10 + Int(u[4] - 0x30), sec = Int(u[6] - 0x30) * 10 + Int(u[7] - 0x30)
        guard h < 24, m < 60, sec < 61 else { return nil }
        var millis = 0, scale = 100
        if end > 9 {
            for i in 9..<end where scale > 0 { millis += Int(u[i] - 0x30) * scale; scale /= 10 }
        }
        var after = t.dropFirst(end)
        if bracketed, after.hasPrefix("]") { after = after.dropFirst() }
        after = after.drop { $0 == " " || $0 == "\t" || $0 == "|" || $0 == "-" || $0 == ":" }
        return (Int64((h * 3600 + m * 60 + min(sec, 59)) * 1000 + millis), Substring(String(decoding: u[0..<end], as: UTF8.self)), after)
    }

    /// A time at the start of a line: `2026-10-01T08:00:00.250Z`, `2026-10-01 08:00:00`, with an
    /// optional offset, optionally in `[ ]`, followed by spaces, `-`, `|` or `:`. A time without an
    /// offset is in the fleet time zone (`stampTime`).
    static func leadingTime(_ text: Substring, zone: TimeZone, after last: ELMLineTime) -> (ELMLineTime, Substring)? {
        var t = text.drop { $0 == " " || $0 == "\u{FEFF}" }
        var bracketed = false
        if t.hasPrefix("[") { t = t.dropFirst(); bracketed = true }
        let u = Array(t.utf8.prefix(40))
        guard u.count >= 19, u[4] == 0x2D, u[7] == 0x2D, u[10] == 0x54 || u[10] == 0x20, u[13] == 0x3A, u[16] == 0x3A else { return nil }
        var end = 19
        if end < u.count, u[end] == 0x2E || u[end] == 0x2C {
            end += 1
            while end < u.count, (0x30...0x39).contains(u[end]) { end += 1 }
        }
        if end < u.count, u[end] == 0x5A || u[end] == 0x7A {
            end += 1
        } else if end + 2 < u.count, u[end] == 0x2B || u[end] == 0x2D, (0x30...0x39).contains(u[end + 1]) {
            var z = end + 1
            while z < u.count, z - end <= 5, (0x30...0x39).contains(u[z]) || u[z] == 0x3A { z += 1 }
            end = z
        }
        let stamp = String(decoding: u[0..<end], as: UTF8.self)
        guard let time = stampTime(stamp, zone: zone, after: last) else { return nil }
        var after = t.dropFirst(stamp.count)
        if bracketed, after.hasPrefix("]") { after = after.dropFirst() }
        after = after.drop { $0 == " " || $0 == "\t" || $0 == "|" || $0 == "-" || $0 == ":" }
        return (time, after)
    }
}
