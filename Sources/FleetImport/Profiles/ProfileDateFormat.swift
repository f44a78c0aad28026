import Foundation
import FleetCore

/// A profile's date or time pattern (`date_format`, `time_format`): tokens `YYYY`, `MM`, `M`,
/// `MMM` (Jan…Dec), `DD`, `D`, `HH`, `H`, `hh`, `h` with `a` (AM/PM), `mm`, `ss`, `.SSS`; every
/// other character is literal. Tokens are case-sensitive (`mm` is minutes, `MM` the month), as
/// in Unicode TR 35, which spreadsheet and database users know from their own tools.
///
/// A pattern that could read one text as two dates is refused when the profile is read, never
/// guessed at row by row: a date pattern without exactly one year, month and day; a two-digit
/// year (which century?); `mm` in a pattern with no hour (minutes where the month was meant);
/// a 12-hour clock without `a`.
public struct ProfileDateFormat: Sendable, Equatable {
    enum Token: Equatable, Sendable {
        case year, month, monthName, day, hour24, hour12, minute, second, millis, ampm
        case literal(Character)
    }

    public let pattern: String
    let tokens: [Token]
    /// Whether the pattern has a clock (a date-time, or a time of day).
    var hasTime: Bool { tokens.contains(.hour24) || tokens.contains(.hour12) }
    var hasDate: Bool { tokens.contains(.year) }

    /// The pattern, or why it is ambiguous and how to fix it.
    public static func compile(_ pattern: String, dateRequired: Bool) -> Result<ProfileDateFormat, ProfileProblem> {
        var tokens: [Token] = []
        let chars = Array(pattern)
        var i = 0
        func run(_ c: Character) -> Int {
            var n = 0
            while i + n < chars.count, chars[i + n] == c { n += 1 }
            return n
        }
        while i < chars.count {
            let c = chars[i], n = run(c)
            let token: Token?
            switch (c, n) {
            case ("Y", 4), ("y", 4): token = .year
            case ("Y", 2), ("y", 2):
                return .failure(ProfileProblem("'\(pattern)' has a two-digit year, which does not say its century", fix: "export four-digit years and write YYYY"))
            case ("M", 1), ("M", 2): token = .month
            case ("M", 3): token = .monthName
            case ("D", 1), ("D", 2), ("d", 1), ("d", 2): token = .day
            case ("H", 1), ("H", 2): token = .hour24
            case ("h", 1), ("h", 2): token = .hour12
            case ("m", 1), ("m", 2): token = .minute
            case ("s", 2): token = .second
            case ("S", 3): token = .millis
            case ("a", 1), ("A", 1): token = .ampm
            case (_, _) where c.isLetter:
                return .failure(ProfileProblem("'\(pattern)' has '\(String(repeating: c, count: n))', which is not a date or time token",
                                               fix: "use YYYY, MM, MMM, DD, HH (24-hour) or hh with a (12-hour), mm, ss; write literal letters in the data as they are only if they are not letters"))
            default: token = nil
            }
            if let token { tokens.append(token); i += n } else { tokens.append(.literal(c)); i += 1 }
        }
        func count(_ t: Token...) -> Int { tokens.filter { t.contains($0) }.count }
        let clock = count(.hour24, .hour12)
        if count(.minute) > 0, clock == 0 {
            return .failure(ProfileProblem("'\(pattern)' has mm (minutes) but no hour", fix: "write MM for the month; tokens are case-sensitive (MM month, mm minutes)"))
        }
        if dateRequired || count(.year, .month, .monthName, .day) > 0 {
            if count(.year) != 1 || count(.month, .monthName) != 1 || count(.day) != 1 {
                return .failure(ProfileProblem("'\(pattern)' does not name exactly one year (YYYY), one month (MM or MMM) and one day (DD), so a date read with it would be a guess",
                                               fix: "write the whole order as the file has it, e.g. MM/DD/YYYY or DD.MM.YYYY HH:mm"))
            }
        }
        if clock > 1 || count(.minute) > 1 || count(.second) > 1 {
            return .failure(ProfileProblem("'\(pattern)' names the hour, minute or second twice", fix: "write each of HH, mm, ss once"))
        }
        if count(.hour12) == 1, count(.ampm) == 0 {
            return .failure(ProfileProblem("'\(pattern)' has a 12-hour clock (hh) but no AM/PM (a), so 07:00 could be morning or evening",
                                           fix: "add a where the file has AM/PM, or write HH for a 24-hour clock"))
        }
        if count(.ampm) == 1, count(.hour12) == 0 {
            return .failure(ProfileProblem("'\(pattern)' has AM/PM (a) with a 24-hour clock (HH)", fix: "write hh for a 12-hour clock"))
        }
        if tokens.allSatisfy({ if case .literal = $0 { return true }; return false }) {
            return .failure(ProfileProblem("'\(pattern)' has no date or time tokens", fix: "write the order as the file has it, e.g. MM/DD/YYYY"))
        }
        return .success(ProfileDateFormat(pattern: pattern, tokens: tokens))
    }

    /// Local wall-clock fields read from a text.
    struct Parts: Equatable {
        var year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0, millis = 0
    }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The fields of `text` when it follows the pattern exactly (surrounding spaces aside); nil otherwise.
    func parse(_ text: String) -> Parts? {
        let s = Array(text.trimmingCharacters(in: .whitespaces))
        var i = 0, p = Parts(), pm: Bool? = nil
        func digits(_ min: Int, _ max: Int) -> Int? {
            var n = 0, v = 0
            while n < max, i + n < s.count, let d = s[i + n].wholeNumberValue, s[i + n].isASCII { v = v * 10 + d; n += 1 }
            guard n >= min else { return nil }
            i += n
            return v
        }
        for t in tokens {
            switch t {
            case .year: guard let v = digits(4, 4) else { return nil }; p.year = v
            case .month: guard let v = digits(1, 2), (1...12).contains(v) else { return nil }; p.month = v
            case .monthName:
                guard i + 3 <= s.count, let k = Self.months.firstIndex(of: String(s[i..<i + 3]).lowercased()) else { return nil }
                p.month = k + 1; i += 3
            case .day: guard let v = digits(1, 2), (1...31).contains(v) else { return nil }; p.day = v
            case .hour24: guard let v = digits(1, 2), v < 24 else { return nil }; p.hour = v
            case .hour12: guard let v = digits(1, 2), (1...12).contains(v) else { return nil }; p.hour = v
            case .minute: guard let v = digits(2, 2), v < 60 else { return nil }; p.minute = v
            case .second: guard let v = digits(2, 2), v < 60 else { return nil }; p.second = v
            case .millis: guard let v = digits(3, 3) else { return nil }; p.millis = v
            case .ampm:
                while i < s.count, s[i] == " " { i += 1 }
                let rest = String(s[i...]).lowercased()
                if rest.hasPrefix("am") { pm = false; i += 2 } else if rest.hasPrefix("pm") { pm = true; i += 2 } else { return nil }
            case let .literal(c):
                guard i < s.count, s[i] == c else { return nil }
                i += 1
            }
        }
        guard i == s.count else { return nil }
        if let pm { p.hour = p.hour % 12 + (pm ? 12 : 0) }
        if hasDate, CivilDate(year: p.year, month: p.month, day: p.day) == nil { return nil }
        return p
    }
}

/// A mistake in a profile: what is wrong and the fix; the reader adds the file and line.
public struct ProfileProblem: Error, Sendable, Equatable {
    public var message: String
    public var fix: String
    public init(_ message: String, fix: String) {
        self.message = message
        self.fix = fix
    }
}
