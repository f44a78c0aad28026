/// A calendar date without a time zone: the key of daily and monthly buckets.
///
/// Days are counted from 1970-01-01 with Howard Hinnant's `days_from_civil` algorithm, which is
/// exact for the proleptic Gregorian calendar and needs no Foundation calendar (slow, and
/// locale-sensitive).
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year),
              (1...9999).contains(year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` days after 1970-01-01.
    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public func adding(days: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + days) }

    /// Adds calendar months, clamping the day to the month's length (Jan 31 + 1 month = Feb 28/29).
    public func adding(months: Int) -> CivilDate {
        let total = year * 12 + (month - 1) + months
        let y = total / 12, m = total % 12 + 1
        return CivilDate(year: y, month: m, day: min(day, CivilDate.daysIn(month: m, year: y)))!
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Parses `YYYY-MM-DD` (also `YYYY/MM/DD`). Other orders are ambiguous between US and European
    /// habits, so they are not guessed.
    public init?(_ text: some StringProtocol) {
        let u = Array(text.utf8)
        guard u.count == 10, u[4] == u[7], u[4] == UInt8(ascii: "-") || u[4] == UInt8(ascii: "/"),
              let y = Digits.int(u[0..<4]), let m = Digits.int(u[5..<7]), let d = Digits.int(u[8..<10])
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    public var description: String {
        Digits.pad(year, 4) + "-" + Digits.pad(month, 2) + "-" + Digits.pad(day, 2)
    }

    public static func < (a: CivilDate, b: CivilDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }
}

enum Digits {
    static func int(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty else { return nil }
        var v = 0
        for b in bytes {
            guard b >= 48, b <= 57 else { return nil }
            v = v * 10 + Int(b - 48)
        }
        return v
    }

    static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
