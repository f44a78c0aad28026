import Foundation

/// Timestamps as the warehouse stores them: UTC epoch milliseconds.
///
/// The parser is hand-written because vendor feeds send many ISO 8601 variants (fractional
/// seconds of any length, `Z`, `+02:00`, `+0200`, no zone, a space instead of `T`) and
/// `ISO8601DateFormatter` accepts only one configuration at a time and is slow on hot paths.
public enum Timestamp {
    /// Earliest and latest instants the warehouse accepts (years 1971–2200). Placeholder dates
    /// such as `0001-01-01T00:00:00Z` and year 9999 fall outside and are rejected by callers.
    public static let plausible: ClosedRange<Int64> = 31_536_000_000...7_258_118_400_000

    /// Parses an ISO 8601 date-time. A time without an offset is read in `zone` (nil: refuse it,
    /// because guessing a zone silently shifts every reading). A bare date is midnight in `zone`.
    public static func parse(_ text: some StringProtocol, zone: TimeZone? = nil) -> Int64? {
        let u = Array(text.utf8.drop(while: { $0 == 32 }).reversed().drop(while: { $0 == 32 }).reversed())
        guard u.count >= 10, let date = CivilDate(String(decoding: u[0..<10], as: UTF8.self)) else { return nil }
        var i = 10
        var hour = 0, minute = 0, second = 0, millis = 0
        if i < u.count {
            guard u[i] == UInt8(ascii: "T") || u[i] == UInt8(ascii: "t") || u[i] == 32, u.count >= i + 6,
                  let h = Digits.int(u[(i + 1)..<(i + 3)]), u[i + 3] == UInt8(ascii: ":"),
                  let m = Digits.int(u[(i + 4)..<(i + 6)]) else { return nil }
            hour = h; minute = m; i += 6
            if i < u.count, u[i] == UInt8(ascii: ":") {
                guard u.count >= i + 3, let s = Digits.int(u[(i + 1)..<(i + 3)]) else { return nil }
                second = s; i += 3
                if i < u.count, u[i] == UInt8(ascii: ".") || u[i] == UInt8(ascii: ",") {
                    i += 1
                    var digits = 0, frac = 0
                    while i < u.count, u[i] >= 48, u[i] <= 57 {
                        if digits < 3 { frac = frac * 10 + Int(u[i] - 48) }
                        digits += 1; i += 1
                    }
                    guard digits > 0 else { return nil }
                    if digits < 3 { for _ in digits..<3 { frac *= 10 } }
                    millis = frac
                }
            }
            guard hour <= 24, minute <= 59, second <= 60, !(hour == 24 && (minute > 0 || second > 0)) else { return nil }
        }
        let local = (Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59))) * 1000 + Int64(millis)
        // Zone designator.
        if i == u.count {
            guard let zone else { return nil }
            return utc(fromLocal: local, in: zone)
        }
        if u[i] == UInt8(ascii: "Z") || u[i] == UInt8(ascii: "z") {
            return i + 1 == u.count ? local : nil
        }
        guard u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-") else { return nil }
        let sign: Int64 = u[i] == UInt8(ascii: "+") ? 1 : -1
        let rest = Array(u[(i + 1)...])
        let digits = rest.filter { $0 != UInt8(ascii: ":") }
        guard (digits.count == 4 || digits.count == 2), rest.count <= 5,
              let oh = Digits.int(digits[0..<2][...]), oh <= 14 else { return nil }
        let om = digits.count == 4 ? (Digits.int(digits[2..<4][...]) ?? 99) : 0
        guard om < 60 else { return nil }
        return local - sign * Int64(oh * 3600 + om * 60) * 1000
    }

    /// Converts a wall-clock time in `zone` to UTC. In a repeated hour the first occurrence
    /// wins, so the result is deterministic; in a DST gap (a time that does not exist, see
    /// `exists`) the offset from before the change is used, as the clocks would have read.
    ///
    /// Every offset the zone has within a day of the time is tried, and an instant is kept only
    /// when the zone's offset there is the one tried: a guess from the offset at the wrong side
    /// of a change once put 02:10–06:10 on a fall-back morning (America/Chicago) an hour early.
    public static func utc(fromLocal localMillis: Int64, in zone: TimeZone) -> Int64 {
        let valid = instants(fromLocal: localMillis, in: zone)
        if let first = valid.min() { return first }
        return localMillis - offset(at: localMillis - 86_400_000, in: zone)
    }

    /// Whether the wall-clock time exists in `zone`: false in the hour skipped when the clocks
    /// go forward (02:00–02:59 on 2026-03-08 in America/Chicago).
    public static func exists(local localMillis: Int64, in zone: TimeZone) -> Bool {
        !instants(fromLocal: localMillis, in: zone).isEmpty
    }

    /// Every instant whose wall-clock time in `zone` is `localMillis`: one, two in a repeated
    /// hour, none in a skipped one.
    static func instants(fromLocal localMillis: Int64, in zone: TimeZone) -> [Int64] {
        var offsets: [Int64] = []
        for probe in [localMillis - 86_400_000, localMillis, localMillis + 86_400_000] {
            let o = offset(at: probe, in: zone)
            if !offsets.contains(o) { offsets.append(o) }
        }
        return offsets.compactMap { o in offset(at: localMillis - o, in: zone) == o ? localMillis - o : nil }
    }

    /// The zone's offset from UTC at an instant, in milliseconds.
    static func offset(at ms: Int64, in zone: TimeZone) -> Int64 {
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(ms) / 1000))) * 1000
    }

    /// Formats epoch milliseconds as `2026-10-01T12:00:00Z` (milliseconds shown only when non-zero).
    public static func iso(_ ms: Int64) -> String {
        let secs = Int64((Double(ms) / 1000).rounded(.down))
        let milli = Int(ms - secs * 1000)
        let days = Int((Double(secs) / 86_400).rounded(.down))
        let rem = Int(secs - Int64(days) * 86_400)
        let d = CivilDate(daysSinceEpoch: days)
        var s = d.description + "T" + Digits.pad(rem / 3600, 2) + ":" + Digits.pad(rem % 3600 / 60, 2) + ":" + Digits.pad(rem % 60, 2)
        if milli != 0 { s += "." + Digits.pad(milli, 3) }
        return s + "Z"
    }

    public static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
}

/// The fleet time zone: daily buckets are local days here, correct across DST changes.
public struct FleetZone: Sendable {
    public let timeZone: TimeZone
    /// The name the user gave (Foundation on Linux reports "UTC" as "GMT").
    public let identifier: String

    public init(_ timeZone: TimeZone) {
        self.timeZone = timeZone
        identifier = timeZone.identifier
    }

    public init?(identifier: String) {
        guard let tz = TimeZone(identifier: identifier) else { return nil }
        timeZone = tz
        self.identifier = identifier
    }

    public static let utc = FleetZone(identifier: "UTC")!

    /// The local calendar day that contains the instant.
    public func day(of ms: Int64) -> CivilDate {
        let offset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(ms) / 1000))) * 1000
        let local = ms + offset
        return CivilDate(daysSinceEpoch: Int((Double(local) / 86_400_000).rounded(.down)))
    }

    /// The instant local midnight starts `day` (23 or 25 hours apart across DST changes).
    public func start(of day: CivilDate) -> Int64 {
        Timestamp.utc(fromLocal: Int64(day.daysSinceEpoch) * 86_400_000, in: timeZone)
    }
}
