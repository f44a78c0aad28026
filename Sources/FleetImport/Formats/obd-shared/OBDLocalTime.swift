import Foundation
import FleetCore

/// Local wall-clock times as phone apps write them, resolved to UTC.
///
/// Torque Pro's `Device Time` is local: `01-Oct-2026 08:00:00.250`, sometimes followed by a zone
/// abbreviation (`CDT`) or a `GMT+02:00` offset, and its `GPS Time` is Java's
/// `Thu Oct 01 13:00:00 GMT+02:00 2026`. An abbreviation or offset fixes the instant exactly,
/// including on the DST-change night, where `01:30 CDT` and `01:30 CST` are an hour apart.
/// Without one the time is in the fleet zone, and in the repeated hour of a fall-back night the
/// file order decides: a log is written in time order, so a local time that would put the row
/// before the previous one is the second occurrence (standard time); otherwise the first.
/// A time in a spring-forward gap (the skipped hour) names no instant: the row is rejected with
/// that reason, never folded onto the next hour.
struct OBDLocalClock {
    let zone: TimeZone
    /// The instant of the previous row, which the file-order rule compares with. A reader that
    /// keeps its own latest time (ELM327's, where a line inherits it) sets it before `resolve`.
    var last: Int64?
    /// The date and zone texts of the previous `quickParse`, and what they meant: a log repeats
    /// them on every row.
    private var dateText: [UInt8] = [], dateDays: Int64 = 0
    private var zoneText: [UInt8] = [], zoneOffset: Result<Int, Problem> = .failure(.notATime)

    init(zone: TimeZone) { self.zone = zone }

    /// Abbreviations FleetKit reads, with their UTC offsets in seconds. Ambiguous ones (IST,
    /// CST for China) are read as listed; docs/FORMATS.md prints this table.
    static let abbreviations: [String: Int] = [
        "UTC": 0, "GMT": 0, "Z": 0, "WET": 0, "WEST": 3600, "BST": 3600, "CET": 3600, "CEST": 7200,
        "EET": 7200, "EEST": 10800, "MSK": 10800,
        "NST": -12600, "NDT": -9000, "AST": -14400, "ADT": -10800, "EST": -18000, "EDT": -14400,
        "CST": -21600, "CDT": -18000, "MST": -25200, "MDT": -21600, "PST": -28800, "PDT": -25200,
        "AKST": -32400, "AKDT": -28800, "HST": -36000,
        "AWST": 28800, "ACST": 34200, "ACDT": 37800, "AEST": 36000, "AEDT": 39600, "NZST": 43200, "NZDT": 46800,
        "JST": 32400, "KST": 32400, "SGT": 28800, "HKT": 28800, "MYT": 28800,
    ]

    /// `skipped`: a local time that does not exist in the zone (the hour the clocks jumped
    /// forward), with the zone's offsets before and after the change.
    enum Problem: Error, Equatable { case notATime, unknownZone(String), skipped(local: Int64) }

    /// Resolves one time text; rows must be fed in file order.
    mutating func utc(_ text: String) throws -> Int64 {
        let (local, offset) = try read(text)
        return try resolve(local: local, offset: offset)
    }

    /// What a reject says about a skipped local time.
    func skippedReason(_ text: String, local: Int64) -> String {
        let wall = Timestamp.iso(local).replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: "")
        return "'\(text)' (\(wall)), a time that does not exist in \(zone.identifier): the clocks went forward that night and skipped it, so no instant can be chosen without a guess; check the device's clock and time zone (a zone abbreviation such as CDT in the time fixes it)"
    }

    /// The local time a text names, and the offset it names (seconds east of UTC), if any.
    mutating func read(_ text: String) throws -> (local: Int64, offset: Int?) {
        try quickParse(text) ?? Self.parse(text)
    }

    /// A local time in UTC: by `offset` when known (the text's own, or one the caller found, such
    /// as Torque's GPS Time zone), else in the fleet zone with the file-order rule. Rows must be
    /// fed in file order.
    ///
    /// - throws: `Problem.skipped` for a local time without an offset that does not exist in the
    ///   zone: folded onto the next hour it was merged silently with the real readings there.
    mutating func resolve(local: Int64, offset: Int?) throws -> Int64 {
        if let offset {
            let ms = local - Int64(offset) * 1000
            last = ms
            return ms
        }
        guard let ms = resolve(local: local) else { throw Problem.skipped(local: local) }
        return ms
    }

    /// A local time without an offset in the fleet zone, by the file-order rule; nil when the
    /// clocks skipped it (the one way it can fail, so callers that keep skipped times need no
    /// error to tell it apart).
    mutating func resolve(local: Int64) -> Int64? {
        guard Timestamp.exists(local: local, in: zone) else { return nil }
        let first = Timestamp.utc(fromLocal: local, in: zone)
        let later = first + 3_600_000
        let laterOffset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(later) / 1000))) * 1000
        let repeated = later + laterOffset == local
        let ms = repeated && last.map { first < $0 && later >= $0 } == true ? later : first
        last = ms
        return ms
    }

    /// `parse` for the shape Torque writes, `01-Oct-2026 08:00:00.250 CDT` (ASCII, spaces between
    /// the parts, zone optional), read on bytes; nil for any other text, which `parse` then reads.
    /// For this shape `parse`'s ISO attempt fails (no `YYYY-` start) and its token rules reduce to
    /// the fixed positions below, so the results are the same.
    mutating func quickParse(_ text: String) throws -> (Int64, Int?)? {
        var text = text
        return try text.withUTF8 { u -> (Int64, Int?)? in
            guard !u.contains(where: { $0 >= 0x80 }) else { return nil }
            var s = 0, e = u.count
            while s < e, u[s] == 0x20 || u[s] == 0x09 { s += 1 }
            while e > s, u[e - 1] == 0x20 || u[e - 1] == 0x09 { e -= 1 }
            func digits(_ from: Int, _ n: Int) -> Int? { Byte.digits(u.baseAddress!, from, n, end: e) }
            // Date: D-Mon-YYYY or DD-Mon-YYYY.
            let dash = s + 1 < e && u[s + 1] == 0x2D ? s + 1 : s + 2
            guard dash + 9 <= e, u[dash] == 0x2D, u[dash + 4] == 0x2D, let day = digits(s, dash - s),
                  let year = digits(dash + 5, 4), dash + 9 == e || u[dash + 9] == 0x20 else { return nil }
            let date = UnsafeBufferPointer(rebasing: u[s..<(dash + 9)])
            if !dateText.elementsEqual(date) {
                var name = ""
                for b in u[(dash + 1)..<(dash + 4)] {
                    guard (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) else { return nil }
                    name.append(Character(Unicode.Scalar(b | 0x20)))
                }
                guard let m = Self.months.firstIndex(of: name), let civil = CivilDate(year: year, month: m + 1, day: day) else { return nil }
                dateText = Array(date)
                dateDays = Int64(civil.daysSinceEpoch)
            }
            // Clock: HH:MM:SS with an optional fraction of digits.
            var c = dash + 9
            while c < e, u[c] == 0x20 { c += 1 }
            guard let h = digits(c, 2), c + 8 <= e, u[c + 2] == 0x3A, let m = digits(c + 3, 2), u[c + 5] == 0x3A,
                  let sec = digits(c + 6, 2), h < 24, m < 60, sec < 61 else { return nil }
            var end = c + 8, millis = 0
            if end < e, u[end] == 0x2E {
                end += 1
                let fraction = end
                while end < e, (0x30...0x39).contains(u[end]) { end += 1 }
                guard end > fraction else { return nil }
                for (k, i) in (fraction..<min(end, fraction + 3)).enumerated() { millis += Int(u[i] - 0x30) * [100, 10, 1][k] }
            }
            let local = dateDays * 86_400_000 + Int64(h * 3600 + m * 60 + min(sec, 59)) * 1000 + Int64(millis)
            guard end < e else { return (local, nil) }
            guard u[end] == 0x20 else { return nil }
            // Zone: one more token.
            var z = end
            while z < e, u[z] == 0x20 { z += 1 }
            let zone = UnsafeBufferPointer(rebasing: u[z..<e])
            guard !zone.contains(0x20) else { return nil }
            if !zoneText.elementsEqual(zone) {
                zoneText = Array(zone)
                do { zoneOffset = .success(try Self.offset(String(decoding: zone, as: UTF8.self))) } catch let p as Problem { zoneOffset = .failure(p) }
            }
            return (local, try zoneOffset.get())
        }
    }

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Local epoch milliseconds and the offset the text names, if any.
    static func parse(_ text: String) throws -> (Int64, Int?) {
        let t = text.trimmingCharacters(in: .whitespaces)
        if let ms = Timestamp.parse(t, zone: TimeZone(secondsFromGMT: 0)!) {
            // ISO 8601: an explicit offset is already applied; read "no offset" as local.
            let hasOffset = t.hasSuffix("Z") || t.dropFirst(19).contains(where: { $0 == "+" || $0 == "-" })
            return hasOffset ? (ms, 0) : (ms, nil)
        }
        let tokens = t.split(separator: " ").map(String.init)
        var day: Int?, month: Int?, year: Int?, clock: String?, zoneText: String?
        if tokens.count >= 2, tokens[0].split(separator: "-").count == 3 {
            // 01-Oct-2026 08:00:00.250 [CDT]
            let p = tokens[0].split(separator: "-").map(String.init)
            day = Int(p[0]); month = months.firstIndex(of: p[1].lowercased()).map { $0 + 1 }; year = Int(p[2])
            clock = tokens[1]
            if tokens.count >= 3 { zoneText = tokens[2...].joined() }
        } else if tokens.count == 6, months.contains(tokens[1].lowercased()) {
            // Thu Oct 01 13:00:00 GMT+02:00 2026
            month = months.firstIndex(of: tokens[1].lowercased())! + 1
            day = Int(tokens[2]); clock = tokens[3]; zoneText = tokens[4]; year = Int(tokens[5])
        }
        guard let day, let month, let year, let clock, let date = CivilDate(year: year, month: month, day: day),
              let seconds = clockMillis(clock) else { throw Problem.notATime }
        let local = Int64(date.daysSinceEpoch) * 86_400_000 + seconds
        guard let z = zoneText, !z.isEmpty else { return (local, nil) }
        return (local, try offset(z))
    }

    static func offset(_ z: String) throws -> Int {
        let u = z.uppercased()
        if let known = abbreviations[u] { return known }
        for prefix in ["GMT", "UTC"] where u.hasPrefix(prefix) && u.count > prefix.count {
            let rest = u.dropFirst(prefix.count)
            let sign = rest.first == "-" ? -1 : 1
            let digits = rest.dropFirst().split(separator: ":")
            if rest.first == "+" || rest.first == "-", let h = Int(digits.first ?? ""), h <= 14 {
                let m = digits.count > 1 ? Int(digits[1]) ?? 0 : 0
                return sign * (h * 3600 + m * 60)
            }
        }
        throw Problem.unknownZone(z)
    }

    /// `08:00:00`, `08:00:00.250` → milliseconds since midnight.
    static func clockMillis(_ s: String) -> Int64? {
        let parts = s.split(separator: ":")
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } }),
              let h = Int(parts[0]), let m = Int(parts[1]), h < 24, m < 60 else { return nil }
        let sec = parts[2].split(separator: ".", maxSplits: 1)
        guard let first = sec.first, let whole = Int(first), whole < 61 else { return nil }
        var millis = 0
        if sec.count == 2 {
            let digits = sec[1].prefix(3)
            guard !digits.isEmpty, let f = Int(digits) else { return nil }
            millis = f * [100, 10, 1][digits.count - 1]
        }
        return Int64(h * 3600 + m * 60 + min(whole, 59)) * 1000 + Int64(millis)
    }
}
