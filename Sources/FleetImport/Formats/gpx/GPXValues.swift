import Foundation
import FleetCore

/// Numbers and times of GPX text, read straight from bytes.
///
/// `Double(String)` and `Timestamp.parse` allocate per call; at millions of points per second
/// the allocation is most of the cost, so GPX values have their own parsers.
enum GPXValues {
    /// Exact powers of ten up to 1e22 (a switch: a global array costs a lazy-init check per use).
    @inline(__always) private static func power(_ n: Int) -> Double {
        switch n {
        case 0: return 1
        case 1: return 10
        case 2: return 100
        case 3: return 1e3
        case 4: return 1e4
        case 5: return 1e5
        case 6: return 1e6
        case 7: return 1e7
        case 8: return 1e8
        case 9: return 1e9
        case 10: return 1e10
        default: return pow(10, Double(n))
        }
    }

    /// An `xsd:decimal` (`-12.345`, `+7`, `.5`), surrounding blanks allowed. Up to 19 significant
    /// digits the result is exact: an integer mantissa below 2^53 divided by an exact power of
    /// ten is correctly rounded (Clinger's fast path); longer numbers go through `Double()`.
    /// Exponents, `NaN`, `INF` and decimal commas are refused: GPX never writes them.
    static func decimal(_ p: UnsafePointer<UInt8>, _ count: Int) -> Double? {
        var i = 0, n = count
        while i < n, Byte.isSpace(p[i]) { i += 1 }
        while n > i, Byte.isSpace(p[n - 1]) { n -= 1 }
        guard i < n else { return nil }
        var negative = false
        if p[i] == Byte.dash { negative = true; i += 1 } else if p[i] == UInt8(ascii: "+") { i += 1 }
        var mantissa: UInt64 = 0
        let intStart = i
        while i < n, p[i] &- 48 < 10 { mantissa = mantissa &* 10 &+ UInt64(p[i] &- 48); i += 1 }
        let intDigits = i - intStart
        var fraction = 0
        if i < n, p[i] == UInt8(ascii: ".") {
            i += 1
            let fracStart = i
            while i < n, p[i] &- 48 < 10 { mantissa = mantissa &* 10 &+ UInt64(p[i] &- 48); i += 1 }
            fraction = i - fracStart
        }
        guard i == n, intDigits + fraction > 0 else { return nil }
        // 19 digits cannot overflow a UInt64; beyond that, or past 2^53, the slow path rounds.
        guard intDigits + fraction <= 19, mantissa < 1 << 53, fraction <= 22 else { return slow(p, count) }
        let value = Double(mantissa) / power(fraction)
        return negative ? -value : value
    }

    private static func slow(_ p: UnsafePointer<UInt8>, _ count: Int) -> Double? {
        let s = String(decoding: UnsafeBufferPointer(start: p, count: count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard s.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") }), let v = Double(s), v.isFinite else { return nil }
        return v
    }

    enum TimeProblem: Error, Equatable { case unreadable, noTimeOfDay }

    /// An `xsd:dateTime`: `2026-10-01T08:00:00Z`, any fraction of a second (milliseconds kept,
    /// the rest truncated), `+01:00`/`+0100`/`+01` offsets, or no zone at all, which GPX defines
    /// as UTC. A time without seconds (`08:00Z`) is read; a date alone is not a fix time.
    static func time(_ p: UnsafePointer<UInt8>, _ count: Int) -> Result<Int64, TimeProblem> {
        var i = 0, n = count
        while i < n, Byte.isSpace(p[i]) { i += 1 }
        while n > i, Byte.isSpace(p[n - 1]) { n -= 1 }
        @inline(__always) func digits(_ at: Int, _ len: Int) -> Int? { Byte.digits(p, at, len, end: n) }
        guard let year = digits(i, 4), i + 4 < n, p[i + 4] == Byte.dash, let month = digits(i + 5, 2), i + 7 < n, p[i + 7] == Byte.dash,
              let day = digits(i + 8, 2), (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year) else {
            return .failure(.unreadable)
        }
        i += 10
        guard i < n else { return .failure(.noTimeOfDay) }
        guard p[i] == UInt8(ascii: "T") || p[i] == UInt8(ascii: " "), let hour = digits(i + 1, 2), i + 3 < n, p[i + 3] == Byte.colon,
              let minute = digits(i + 4, 2) else { return .failure(.unreadable) }
        i += 6
        var second = 0, millis = 0
        if i < n, p[i] == Byte.colon {
            guard let s = digits(i + 1, 2) else { return .failure(.unreadable) }
            second = s
            i += 3
            if i < n, p[i] == UInt8(ascii: ".") || p[i] == UInt8(ascii: ",") {
                i += 1
                var d = 0
                while i < n, p[i] >= 48, p[i] <= 57 {
                    if d < 3 { millis = millis * 10 + Int(p[i] - 48) }
                    d += 1
                    i += 1
                }
                guard d > 0 else { return .failure(.unreadable) }
                for _ in min(d, 3)..<3 { millis *= 10 }
            }
        }
        guard hour < 24 || (hour == 24 && minute == 0 && second == 0 && millis == 0), minute < 60, second <= 60 else { return .failure(.unreadable) }
        var offset = 0
        if i < n {
            let c = p[i]
            if c == UInt8(ascii: "Z") || c == UInt8(ascii: "z") {
                guard i + 1 == n else { return .failure(.unreadable) }
            } else if c == UInt8(ascii: "+") || c == Byte.dash {
                guard let oh = digits(i + 1, 2), oh <= 14 else { return .failure(.unreadable) }
                var om = 0
                if i + 3 == n {
                } else if i + 6 == n, p[i + 3] == Byte.colon, let m = digits(i + 4, 2) { om = m }
                else if i + 5 == n, let m = digits(i + 3, 2) { om = m }
                else { return .failure(.unreadable) }
                guard om < 60 else { return .failure(.unreadable) }
                offset = (c == Byte.dash ? -1 : 1) * (oh * 3600 + om * 60)
            } else {
                return .failure(.unreadable)
            }
        }
        let days = CivilDate.days(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59) - offset)
        return .success(seconds * 1000 + Int64(millis))
    }
}

extension CivilDate {
    /// Days since 1970-01-01 without building a value (Hinnant's `days_from_civil`).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        return era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
    }
}
