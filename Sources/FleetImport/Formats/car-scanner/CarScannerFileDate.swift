import Foundation
import FleetCore

/// The recording date (and start time) a Car Scanner log's file name carries.
///
/// Why the name: Car Scanner's `SECONDS` column is not a timestamp. In every log examined (several
/// users, app versions of 2025) it counts seconds since local midnight: the first value of
/// `2025-11-20 16-05-09.csv` is 57975.06 = 16:06:15, a minute after the time in the name. The
/// date is nowhere in the file, so it must come from the name the app gave it
/// (`2025-11-20 16-05-09.csv`) or one the user gave (`Car_scanner_nov_4.csv`: a month and a day,
/// no year). The file's mtime is not used for a missing year: copies, downloads and archives
/// reset it (the corpus copy of `Car_scanner_nov_4.csv`, recorded in 2025, has a 2026 mtime), and a
/// wrong year puts a whole log a year off without a trace; the file fails instead, with the rename
/// that fixes it.
struct CarScannerFileDate: Equatable {
    var date: CivilDate?
    /// Seconds since midnight of the start time in the name, when it has one.
    var startSecond: Int?
    /// A month and day without a year (`nov_4`): what the name says, for the error.
    var monthDayOnly: (month: Int, day: Int)?

    static func == (a: Self, b: Self) -> Bool {
        a.date == b.date && a.startSecond == b.startSecond && a.monthDayOnly?.month == b.monthDayOnly?.month && a.monthDayOnly?.day == b.monthDayOnly?.day
    }

    static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// Reads `2025-11-20 16-05-09`, `2025-11-20_16-05-09`, `log_2025-11-20_160509`, `20251120`,
    /// `2025-11-20` (date only), `nov_4_2025`, `4 Nov 2025`, `Car_scanner_nov_4` (no year).
    init(name: String) {
        let stem = name.hasSuffix(".csv") || name.hasSuffix(".CSV") ? String(name.dropLast(4)) : name
        // Tokens of digits or of letters; everything else separates.
        var tokens: [String] = []
        var current = "", currentIsDigit = false
        for ch in stem.unicodeScalars {
            let isDigit = ("0"..."9").contains(ch), isLetter = ("a"..."z").contains(ch) || ("A"..."Z").contains(ch)
            if (isDigit || isLetter), !current.isEmpty, isDigit == currentIsDigit {
                current.unicodeScalars.append(ch)
            } else {
                if !current.isEmpty { tokens.append(current) }
                current = isDigit || isLetter ? String(ch) : ""
                currentIsDigit = isDigit
            }
        }
        if !current.isEmpty { tokens.append(current) }
        let numbers = tokens.map { Int($0) }

        // Numeric: YYYY MM DD [hh mm ss] as separate tokens, or YYYYMMDD[hhmmss] runs.
        for (i, t) in tokens.enumerated() {
            var digits: [Int] = []
            var rest: [String] = []
            if t.count == 4, i + 2 < tokens.count, tokens[i + 1].count == 2, tokens[i + 2].count == 2, let y = numbers[i], let m = numbers[i + 1], let d = numbers[i + 2] {
                digits = [y, m, d]
                rest = Array(tokens[(i + 3)...])
            } else if t.count == 8 || t.count == 14, t.allSatisfy(\.isNumber) {
                let a = Array(t)
                func n(_ r: Range<Int>) -> Int { Int(String(a[r]))! }
                digits = [n(0..<4), n(4..<6), n(6..<8)]
                if t.count == 14 { rest = [String(a[8..<10]), String(a[10..<12]), String(a[12..<14])] } else { rest = Array(tokens[(i + 1)...]) }
            } else {
                continue
            }
            guard (1971...2200).contains(digits[0]), let date = CivilDate(year: digits[0], month: digits[1], day: digits[2]) else { continue }
            self.date = date
            self.startSecond = Self.clock(rest)
            return
        }
        // A month name with a day and perhaps a year, in any order: `nov_4_2025`, `4 Nov 2025`.
        for (i, t) in tokens.enumerated() {
            guard t.count >= 3, let m = Self.monthNames.firstIndex(of: String(t.lowercased().prefix(3))),
                  t.count == 3 || Self.fullMonth(t) else { continue }
            var day: Int?, year: Int?
            for j in [i + 1, i - 1, i + 2, i - 2] where j >= 0 && j < tokens.count {
                guard let v = numbers[j] else { continue }
                if tokens[j].count <= 2, (1...31).contains(v), day == nil { day = v } else if tokens[j].count == 4, (1971...2200).contains(v), year == nil { year = v }
            }
            guard let day else { continue }
            if let year, let date = CivilDate(year: year, month: m + 1, day: day) {
                self.date = date
            } else if year == nil {
                monthDayOnly = (m + 1, day)
            }
            return
        }
    }

    private static func fullMonth(_ t: String) -> Bool {
        ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december", "sept"]
            .contains(t.lowercased())
    }

    /// `16 05 09` or `160509` after the date: seconds since midnight.
    private static func clock(_ rest: [String]) -> Int? {
        var parts: [Int] = []
        if let first = rest.first, first.count == 6, let _ = Int(first) {
            let a = Array(first)
            parts = [Int(String(a[0..<2]))!, Int(String(a[2..<4]))!, Int(String(a[4..<6]))!]
        } else if rest.count >= 3, rest[0...2].allSatisfy({ $0.count == 2 }), let h = Int(rest[0]), let m = Int(rest[1]), let s = Int(rest[2]) {
            parts = [h, m, s]
        } else {
            return nil
        }
        guard parts[0] < 24, parts[1] < 60, parts[2] < 60 else { return nil }
        return parts[0] * 3600 + parts[1] * 60 + parts[2]
    }
}
